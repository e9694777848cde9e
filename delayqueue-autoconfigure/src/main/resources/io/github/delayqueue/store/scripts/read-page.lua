-- read-page: one page of a topic's jobs in one state, oldest first. Not a transition.
-- DELAYED, RUNNING and DEAD pages come from their sorted sets by rank (due time, deadline,
-- time of death); READY pages from the consuming end of the ready list, whose entries of
-- cancelled or rescheduled jobs (ghosts, see claim.lua) are left out by their state.
-- KEYS[1] the state's sorted set, or the ready list, KEYS[2] jobs, KEYS[3] attempts,
-- KEYS[4] errors, KEYS[5] delayed, KEYS[6] running, KEYS[7] dead
-- ARGV[1] 'zset' or 'list', ARGV[2] offset, ARGV[3] count, at most 1,000
-- Returns {id, record, attempts, last error or '', score or '', ...}
-- One command per key for the whole page, so a page costs O(log N + count) for a sorted
-- set, and O(offset + count) for the ready list, read from the end where the oldest are.
local first = tonumber(ARGV[2])
local count = math.min(tonumber(ARGV[3]), 1000)
local out = {}
if count <= 0 then
  return out
end
local ids, scores = {}, {}
if ARGV[1] == 'zset' then
  local page = redis.call('ZRANGE', KEYS[1], first, first + count - 1, 'WITHSCORES')
  for i = 1, #page, 2 do
    ids[#ids + 1] = page[i]
    scores[#ids] = page[i + 1]
  end
else
  local page = redis.call('LRANGE', KEYS[1], -(first + count), -(first + 1))
  local seen = {}
  for i = #page, 1, -1 do
    local id = page[i]
    if not seen[id] then
      seen[id] = true
      ids[#ids + 1] = id
      scores[#ids] = ''
    end
  end
end
if #ids == 0 then
  return out
end
local records = redis.call('HMGET', KEYS[2], unpack(ids))
local attempts = redis.call('HMGET', KEYS[3], unpack(ids))
local errors = redis.call('HMGET', KEYS[4], unpack(ids))
for i, id in ipairs(ids) do
  local keep = records[i]
  if keep and ARGV[1] ~= 'zset' then
    keep = not (redis.call('ZSCORE', KEYS[5], id) or redis.call('ZSCORE', KEYS[6], id)
      or redis.call('ZSCORE', KEYS[7], id))
  end
  if keep then
    out[#out + 1] = id
    out[#out + 1] = records[i]
    out[#out + 1] = tonumber(attempts[i]) or 0
    out[#out + 1] = errors[i] or ''
    out[#out + 1] = scores[i]
  end
end
return out
