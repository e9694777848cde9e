-- count-states: counts a topic's jobs in each state in one consistent read. Not a transition.
-- Ids in the claiming list count as ready: they are on their way to a consumer. Ghost
-- entries of the two lists (left by cancel and reschedule, see claim.lua) are not jobs:
-- their total, ghosts[''], is taken off.
-- KEYS[1] delayed, KEYS[2] ready, KEYS[3] claiming, KEYS[4] running, KEYS[5] dead,
-- KEYS[6] ghosts (hash id -> ghost entries, '' -> their total), KEYS[7] the topic's pause
-- mark (optional)
-- Returns {delayed, ready, running, dead, paused (1 or 0, with KEYS[7] only)}
local entries = redis.call('LLEN', KEYS[2]) + redis.call('LLEN', KEYS[3])
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
return counts
