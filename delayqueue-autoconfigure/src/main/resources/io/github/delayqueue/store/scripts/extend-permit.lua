-- extend-permit: a delivery whose time to run was extended keeps its global concurrency
-- permit (see acquire-permits) as long. Not a transition. A permit given back or expired
-- stays so, and a deadline never moves earlier.
-- KEYS[1] the topic's permits (zset)
-- ARGV[1] the delivery's member, ARGV[2] its new deadline ms by the Redis clock
-- Returns {1} if the permit is held until then, {0} if it is no longer held
if not redis.call('ZSCORE', KEYS[1], ARGV[1]) then
  return {0}
end
redis.call('ZADD', KEYS[1], 'GT', ARGV[2], ARGV[1])
local now = redis_now()
local ttl = tonumber(ARGV[2]) - now
if ttl > 0 and redis.call('PTTL', KEYS[1]) < ttl then
  redis.call('PEXPIRE', KEYS[1], ttl)
end
return {1}
