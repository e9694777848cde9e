-- needs: clock, keys
-- extend-permit: a delivery whose time to run was extended keeps its global concurrency
-- permit and its group's (see acquire-permits) as long. Not a transition. A permit given
-- back or expired stays so, and a deadline never moves earlier.
-- KEYS[1] the topic's permits (zset)
-- ARGV[1] the delivery's member, ARGV[2] its new deadline ms by the Redis clock, ARGV[3] its
-- group ('' or absent for none)
-- Returns {1} if a permit is held until then, {0} if none is held any longer
local now = redis_now()
local ttl = tonumber(ARGV[2]) - now
local function extend(key)
  if not redis.call('ZSCORE', key, ARGV[1]) then
    return false
  end
  redis.call('ZADD', key, 'GT', ARGV[2], ARGV[1])
  if ttl > 0 and redis.call('PTTL', key) < ttl then
    redis.call('PEXPIRE', key, ttl)
  end
  return true
end
local held = extend(KEYS[1])
if ARGV[3] and ARGV[3] ~= '' and extend(queue_key(KEYS[1], 'permits', 'group-permits:' .. ARGV[3])) then
  held = true
end
return {held and 1 or 0}
