-- needs: clock, timeline
-- requeue-dead: DEAD -> READY with attempts reset and the due time set to now. The last
-- error is kept for reference.
-- Ghosts (see claim.lua): the job was DEAD, so it had no live entry in the ready list; it
-- gets one only when it has a record and so becomes READY, which keeps the ghost invariant.
-- KEYS[1] dead, KEYS[2] ready, KEYS[3] jobs, KEYS[4] attempts
-- ARGV[1] id, or '' for the oldest dead jobs, ARGV[2] most jobs to requeue, ARGV[3] the
-- timeline argument (see lib/timeline.lua; '' or absent when off), ARGV[4] who asked
-- (api, endpoint, dashboard), the REQUEUED event's detail
-- Returns how many jobs were requeued
local now = redis_now()
local t = timeline(ARGV[3])
local ids
if ARGV[1] ~= '' then
  ids = {}
  if redis.call('ZSCORE', KEYS[1], ARGV[1]) then
    ids[1] = ARGV[1]
  end
else
  ids = redis.call('ZRANGE', KEYS[1], 0, tonumber(ARGV[2]) - 1)
end
for _, id in ipairs(ids) do
  redis.call('ZREM', KEYS[1], id)
  redis.call('HDEL', KEYS[4], id)
  local record = redis.call('HGET', KEYS[3], id)
  if record then
    local created, rest = string.match(record, '^(%w+)|%w+|(.*)$')
    if created then
      redis.call('HSET', KEYS[3], id, created .. '|' .. base36(now) .. '|' .. rest)
    end
    redis.call('LPUSH', KEYS[2], id)
    if t then
      record_events(t, id, event('Q', now, 0, t.by, now, ARGV[4]))
    end
  end
end
return #ids
