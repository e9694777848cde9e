-- acquire-permits: admits claimed deliveries of a topic under its limits, on the Redis clock,
-- for every instance and every partition of the topic alike. Not a transition: the
-- deliveries are RUNNING already; those not admitted are handed back, uncounted, by the
-- caller. Deliveries are admitted in order, as many as every limit allows.
-- Rate limit: the start log holds one entry per admitted delivery, scored by its admission
-- time, and an entry counts until a period has passed since it. A delivery is admitted only
-- while fewer than `limit` entries are younger than a period, so that any window of one
-- period, wherever it begins, holds at most `limit` starts (a sliding window log; a fixed
-- window would let twice the limit through across its boundary).
-- Global concurrency: the permits hold one member per admitted delivery, scored by its
-- time-to-run deadline. Settling gives it back (release-permits); a permit whose deadline
-- passed is free again, as its delivery is then delivered again, so an instance that died
-- holding permits leaks none.
-- KEYS[1] the topic's start log (zset), KEYS[2] its permits (zset), KEYS[3] its hold mark
-- ARGV[1] rate limit (0: none), ARGV[2] its period ms, ARGV[3] global concurrency (0: none),
-- ARGV[4..] per delivery: its member (unique while the delivery lasts: id and attempt), its
-- time to run ms
-- Returns {admitted, wait ms, now ms}: the first `admitted` deliveries are admitted; when fewer than
-- all were, wait is how long until the limits may admit one more: the time until the oldest
-- start leaves the window, the hold mark's time to live, or -1 when only a permit given back
-- can admit one.
local now, micros = redis_now()
local asked = (#ARGV - 3) / 2
local held = redis.call('PTTL', KEYS[3])
if held > 0 then
  return {0, held, now}
end
local admitted = asked
local wait = -1
local limit = tonumber(ARGV[1])
local period = tonumber(ARGV[2])
local starts = 0
if limit > 0 then
  redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - period)
  starts = redis.call('ZCARD', KEYS[1])
  admitted = math.max(0, math.min(admitted, limit - starts))
end
local concurrency = tonumber(ARGV[3])
if concurrency > 0 and admitted > 0 then
  redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', now)
  admitted = math.max(0, math.min(admitted, concurrency - redis.call('ZCARD', KEYS[2])))
end
if admitted > 0 then
  local entries, permits = {}, {}
  local longest = 0
  for i = 1, admitted do
    local member, ttr = ARGV[2 + 2 * i], tonumber(ARGV[3 + 2 * i])
    longest = math.max(longest, ttr)
    -- A member of the log is unique for good: the same delivery may be handed back and
    -- admitted again within one period, and each admission is a start of its own.
    entries[#entries + 1] = now
    entries[#entries + 1] = member .. '@' .. now .. '.' .. micros .. '.' .. i
    permits[#permits + 1] = now + ttr
    permits[#permits + 1] = member
  end
  if limit > 0 then
    redis.call('ZADD', KEYS[1], unpack(entries))
    redis.call('PEXPIRE', KEYS[1], period)
    starts = starts + admitted
  end
  if concurrency > 0 then
    redis.call('ZADD', KEYS[2], unpack(permits))
    if redis.call('PTTL', KEYS[2]) < longest then
      redis.call('PEXPIRE', KEYS[2], longest)
    end
  end
end
if admitted < asked and limit > 0 and starts >= limit then
  local oldest = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
  wait = math.max(1, tonumber(oldest[2]) + period - now)
end
return {admitted, wait, now}
