-- read-dead: one page of dead jobs, oldest death first. Not a transition.
-- KEYS[1] dead, KEYS[2] jobs, KEYS[3] attempts, KEYS[4] errors
-- ARGV[1] offset, ARGV[2] count, at most 1,000 (more is read as 1,000: the caller pages)
-- Returns {id, record or '', attempts, last error or '', ...}
-- One command per key for the whole page (ZRANGE by rank, then HMGET), so a page costs
-- O(log N + count) whatever the number of dead jobs.
local first = tonumber(ARGV[1])
local count = math.min(tonumber(ARGV[2]), 1000)
local out = {}
if count <= 0 then
  return out
end
local ids = redis.call('ZRANGE', KEYS[1], first, first + count - 1)
if #ids == 0 then
  return out
end
local records = redis.call('HMGET', KEYS[2], unpack(ids))
local attempts = redis.call('HMGET', KEYS[3], unpack(ids))
local errors = redis.call('HMGET', KEYS[4], unpack(ids))
for i, id in ipairs(ids) do
  out[#out + 1] = id
  out[#out + 1] = records[i] or ''
  out[#out + 1] = tonumber(attempts[i]) or 0
  out[#out + 1] = errors[i] or ''
end
return out
