-- needs: groups
-- count-states: counts a queue's jobs in each state in one consistent read. Not a transition.
-- Ids in the claiming list count as ready: they are on their way to a consumer, and so do
-- those waiting for their group's turn (see lib/group-turns.lua). Ghost
-- entries of the two lists (see claim.lua) are not jobs: their total, ghosts[''], is taken
-- off.
-- KEYS[1] delayed, KEYS[2] ready, KEYS[3] claiming, KEYS[4] running, KEYS[5] dead,
-- KEYS[6] ghosts (hash id -> ghost entries, '' -> their total), then optionally
-- KEYS[7] the queue's pause mark, KEYS[8] jobs, KEYS[9] the topic's partition set (given
-- with the topic's own queue, whose hash tag the set shares)
-- Returns {delayed, ready, running, dead}, then with KEYS[7] paused (1 or 0), with KEYS[8]
-- the due time (ms) of the ready job that waited longest, or -1, with KEYS[9] the members
-- of the partition set.
local entries = redis.call('LLEN', KEYS[2]) + redis.call('LLEN', KEYS[3]) + parked_entries(KEYS[2])
local ghosts = tonumber(redis.call('HGET', KEYS[6], '')) or 0
local counts = {
  redis.call('ZCARD', KEYS[1]),
  math.max(0, entries - ghosts),
  redis.call('ZCARD', KEYS[4]),
  redis.call('ZCARD', KEYS[5])
}
if KEYS[7] then
  counts[5] = redis.call('EXISTS', KEYS[7])
end
if KEYS[8] then
  -- The consuming end of the ready list holds the job that waited longest; a few entries
  -- are looked at, so that ghosts there are passed over.
  local oldest = -1
  if counts[2] > 0 then
    local tail = redis.call('LRANGE', KEYS[2], -16, -1)
    for i = #tail, 1, -1 do
      local id = tail[i]
      if ghosts == 0 or redis.call('HEXISTS', KEYS[6], id) == 0 then
        local record = redis.call('HGET', KEYS[8], id)
        local due = record and string.match(record, '^%w+|(%w+)|')
        if due then
          oldest = tonumber(due, 36)
          break
        end
      end
    end
  end
  counts[6] = oldest
end
if KEYS[9] then
  for _, queue in ipairs(redis.call('SMEMBERS', KEYS[9])) do
    counts[#counts + 1] = queue
  end
end
return counts
