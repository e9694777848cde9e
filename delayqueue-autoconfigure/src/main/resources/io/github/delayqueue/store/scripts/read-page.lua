-- read-page: one page of a queue's jobs in one state, oldest first. Not a transition.
-- DELAYED, RUNNING and DEAD pages come from their sorted sets by rank (due time, deadline,
-- time of death). READY pages come from the consuming end: the claiming list, the ready
-- list from its right end, then the jobs waiting for their group's turn (see claim.lua).
-- There the offset counts jobs, as count-states does, never ghost entries (see
-- claim.lua): every READY job is on exactly one page, once, at its first entry. Without
-- ghosts every entry is a READY job of its own, and the page is read straight from its
-- offset; with ghosts the entries before the page are walked, a thousand per command, and
-- only ids that have ghosts are looked up.
-- KEYS[1] the state's sorted set, or the ready list, KEYS[2] jobs, KEYS[3] attempts,
-- KEYS[4] errors, KEYS[5] delayed, KEYS[6] running, KEYS[7] dead, and for READY pages
-- KEYS[8] claiming, KEYS[9] ghosts (hash id -> ghost entries, '' -> their total)
-- ARGV[1] 'zset' or 'list', ARGV[2] offset, ARGV[3] count, at most 1,000
-- Returns {id, record, attempts, last error or '', score or '', ...}
-- A page costs O(log N + count) for a sorted set, and O(offset + count) for READY.
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
  local claiming = redis.call('LLEN', KEYS[8])
  local listed = claiming + redis.call('LLEN', KEYS[1])
  local parked = parked_entries(KEYS[1])
  local total = listed + parked
  -- The group lists (see claim.lua) in turn order, each {key, length}, read once if needed.
  local lists
  local function group_lists()
    if not lists then
      lists = {}
      if parked > 0 then
        local prefix = queue_key(KEYS[1], 'ready', 'group:')
        for _, group in ipairs(redis.call('LRANGE', queue_key(KEYS[1], 'ready', 'group-turns'), 0, -1)) do
          lists[#lists + 1] = {prefix .. group, redis.call('LLEN', prefix .. group)}
        end
      end
    end
    return lists
  end
  -- Entries from..from+size-1, counted from the consuming end: the claiming list, the
  -- ready list, then the group lists from their heads, where claims take them.
  local function entries(from, size)
    local got = {}
    local to = math.min(from + size, total) - 1
    if from < claiming then
      local part = redis.call('LRANGE', KEYS[8], -(math.min(to, claiming - 1) + 1), -(from + 1))
      for i = #part, 1, -1 do
        got[#got + 1] = part[i]
      end
    end
    local readyFrom = math.max(from, claiming) - claiming
    local readyTo = math.min(to, listed - 1) - claiming
    if readyTo >= readyFrom then
      local part = redis.call('LRANGE', KEYS[1], -(readyTo + 1), -(readyFrom + 1))
      for i = #part, 1, -1 do
        got[#got + 1] = part[i]
      end
    end
    if to >= listed then
      local offset = listed
      for _, list in ipairs(group_lists()) do
        local low = math.max(from, offset) - offset
        local high = math.min(to, offset + list[2] - 1) - offset
        if high >= low then
          for _, id in ipairs(redis.call('LRANGE', list[1], low, high)) do
            got[#got + 1] = id
          end
        end
        offset = offset + list[2]
        if offset > to then
          break
        end
      end
    end
    return got
  end
  if redis.call('EXISTS', KEYS[9]) == 0 then
    ids = entries(first, count)
    for i = 1, #ids do
      scores[i] = ''
    end
  else
    local skipped, seen, from = 0, {}, 0
    while from < total and #ids < count do
      local chunk = entries(from, 1000)
      from = from + 1000
      local ghosts = redis.call('HMGET', KEYS[9], unpack(chunk))
      for i, id in ipairs(chunk) do
        local job = not ghosts[i]
        if not job and not seen[id] then
          seen[id] = true
          job = redis.call('HEXISTS', KEYS[2], id) == 1 and not (redis.call('ZSCORE', KEYS[5], id)
            or redis.call('ZSCORE', KEYS[6], id) or redis.call('ZSCORE', KEYS[7], id))
        end
        if job then
          if skipped < first then
            skipped = skipped + 1
          elseif #ids < count then
            ids[#ids + 1] = id
            scores[#ids] = ''
          end
        end
      end
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
  if records[i] then
    out[#out + 1] = id
    out[#out + 1] = records[i]
    out[#out + 1] = tonumber(attempts[i]) or 0
    out[#out + 1] = errors[i] or ''
    out[#out + 1] = scores[i]
  end
end
return out
