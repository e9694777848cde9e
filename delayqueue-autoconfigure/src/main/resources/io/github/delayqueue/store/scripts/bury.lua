-- bury: RUNNING -> DEAD, keeping the reason as the job's last error. Fenced by the
-- delivery's attempt number.
-- A fenced delivery whose deadline is still ahead was buried by this very call's first run,
-- sent again after its reply was lost (see ack.lua): it counts as buried.
-- KEYS[1] running, KEYS[2] dead (zset id -> ms), KEYS[3] attempts, KEYS[4] errors
-- ARGV[1] id, ARGV[2] attempt, ARGV[3] error, ARGV[4] the delivery's deadline ms as the
-- claim set it (optional)
-- Returns 1 if buried (now or by the first run), 0 if fenced
local id = ARGV[1]
local now = redis_now()
if not redis.call('ZSCORE', KEYS[1], id) or redis.call('HGET', KEYS[3], id) ~= ARGV[2] then
  return (ARGV[4] and now < tonumber(ARGV[4])) and 1 or 0
end
redis.call('ZREM', KEYS[1], id)
redis.call('ZADD', KEYS[2], now, id)
redis.call('HSET', KEYS[4], id, ARGV[3])
return 1
