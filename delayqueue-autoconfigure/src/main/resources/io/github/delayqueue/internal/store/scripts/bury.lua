-- needs: clock, timeline, errors, successors
-- bury: RUNNING -> DEAD, keeping the reason as the job's last error. Fenced by the
-- delivery's attempt number.
-- A fenced delivery whose deadline is still ahead was buried by this very call's first run,
-- sent again after its reply was lost (see ack.lua): it counts as buried.
-- A job with a successor (see lib/successors.lua) does not die: its new version takes
-- its place.
-- KEYS[1] running, KEYS[2] dead (zset id -> ms), KEYS[3] attempts, KEYS[4] errors, KEYS[5] jobs,
-- KEYS[6] delayed, KEYS[7] ready, KEYS[8] successors
-- ARGV[1] id, ARGV[2] attempt, ARGV[3] error, ARGV[4] the delivery's deadline ms as the
-- claim set it, or -1, ARGV[5] wake channel, ARGV[6] queue, ARGV[7] the timeline argument
-- (see lib/timeline.lua; '' or absent when off): FAILED (the error's first line, cut
-- short), then DEAD
-- Returns 1 if buried (now or by the first run), 2 if its successor took its place, 0 if
-- fenced
local id = ARGV[1]
local now = redis_now()
if not redis.call('ZSCORE', KEYS[1], id) or redis.call('HGET', KEYS[3], id) ~= ARGV[2] then
  return (ARGV[4] and now < tonumber(ARGV[4])) and 1 or 0
end
redis.call('ZREM', KEYS[1], id)
local t = timeline(ARGV[7])
if t then
  record_events(t, id, event('F', now, ARGV[2], t.by, nil, error_summary(ARGV[3])))
end
if take_over({jobs = KEYS[5], delayed = KEYS[6], ready = KEYS[7], attempts = KEYS[3], errors = KEYS[4],
  successors = KEYS[8]}, id, now, ARGV[5], ARGV[6], t) then
  return 2
end
if t then
  record_events(t, id, event('D', now, ARGV[2], t.by))
end
redis.call('ZADD', KEYS[2], now, id)
redis.call('HSET', KEYS[4], id, ARGV[3])
return 1
