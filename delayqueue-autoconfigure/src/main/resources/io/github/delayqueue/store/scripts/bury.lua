-- bury: RUNNING -> DEAD, keeping the reason as the job's last error. Fenced by the
-- delivery's attempt number.
-- KEYS[1] running, KEYS[2] dead (zset id -> ms), KEYS[3] attempts, KEYS[4] errors
-- ARGV[1] id, ARGV[2] attempt, ARGV[3] error
-- Returns 1 if buried, 0 if fenced
local id = ARGV[1]
if not redis.call('ZSCORE', KEYS[1], id) or redis.call('HGET', KEYS[3], id) ~= ARGV[2] then
  return 0
end
local now = redis_now()
redis.call('ZREM', KEYS[1], id)
redis.call('ZADD', KEYS[2], now, id)
redis.call('HSET', KEYS[4], id, ARGV[3])
return 1
