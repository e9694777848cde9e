-- needs: clock, groups
-- count-unsettled: for tests (the delayqueue-test module), not used by the queue itself.
-- Counts in one consistent read what a queue still has to do now: DELAYED jobs whose due
-- time has come (the scheduler has yet to move them), READY jobs and RUNNING deliveries.
-- Jobs due later and dead jobs are settled for now. Ids in the claiming list count as
-- ready, as do those waiting for their group's turn, and ghost entries (see claim.lua)
-- are taken off, as in count-states.lua.
-- KEYS[1] delayed (zset id -> due ms), KEYS[2] ready, KEYS[3] claiming, KEYS[4] running,
-- KEYS[5] ghosts (hash id -> ghost entries, '' -> their total)
-- Returns {due, ready, running, now ms}
local now = redis_now()
local entries = redis.call('LLEN', KEYS[2]) + redis.call('LLEN', KEYS[3]) + parked_entries(KEYS[2])
local ghosts = tonumber(redis.call('HGET', KEYS[5], '')) or 0
return {
  redis.call('ZCOUNT', KEYS[1], '-inf', now),
  math.max(0, entries - ghosts),
  redis.call('ZCARD', KEYS[4]),
  now
}
