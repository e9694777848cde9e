-- acquire-permits: admits claimed deliveries of a topic under its limits, on the Redis clock,
-- for every instance and every partition of the topic alike. Not a transition: the
-- deliveries are RUNNING already; those not admitted are handed back, uncounted, by the
-- caller. Deliveries are admitted in order, as many as every limit allows.
-- Rate limit: starts are counted in buckets of `width` ms (1 ms up to a period of 10 s, then
-- a ten-thousandth of the period, rounded up), so that the call costs the same whatever the
-- limit: a list, oldest first, holds one entry 'first ms of the bucket, starts so far' per
-- bucket that had a start, the second number a running total since the list began. The
-- head entry only carries the total of the buckets gone before; the starts that count are
-- the tail's total less the head's. A bucket [b, b + width) counts until a period has
-- passed since its last millisecond, that is while b + width - 1 > now - period; a
-- delivery is admitted only while fewer than `limit` starts count.
-- Why no window of one period ever holds more than `limit` starts, wherever it begins (a
-- fixed window would let twice the limit through across its boundary): take any window
-- [s, s + period) and the last admission in it, at n. Every start in the window lies in
-- (n - period, n], since s > n - period; a start at t lies in a bucket with b <= t <=
-- b + width - 1, so it still counted at n (t > n - period), or was admitted in that very
-- call. That call admitted only while the count stayed within `limit`, so the window holds
-- at most `limit` starts. Counting a whole bucket at the window's edge only errs on the
-- safe side: a start may be admitted up to width - 1 ms later than a log of single starts
-- would admit it. Scripts run one at a time, and should the clock step back, a start joins
-- the newest bucket, which counts longer.
-- Each call drops the buckets that stopped counting since the last one and adds to the
-- newest: its cost grows with those buckets, never with the limit or the starts.
-- Global concurrency: the permits hold one member per admitted delivery, scored by its
-- time-to-run deadline. Settling gives it back (release-permits); a permit whose deadline
-- passed is free again, as its delivery is then delivered again, so an instance that died
-- holding permits leaks none.
-- KEYS[1] the topic's start counts (list), KEYS[2] its permits (zset), KEYS[3] its hold mark
-- ARGV[1] rate limit (0: none), ARGV[2] its period ms, ARGV[3] global concurrency (0: none),
-- ARGV[4..] per delivery: its member (unique while the delivery lasts: id and attempt), its
-- time to run ms
-- Returns {admitted, wait ms, now ms, room}: the first `admitted` deliveries are admitted; when
-- fewer than all were, wait is how long until the limits may admit one more: the time until
-- the oldest bucket stops counting, the hold mark's time to live, or -1 when only a permit
-- given back can admit one. Room is how many more starts the rate limit admits now (-1: no
-- rate limit), which tells the caller how many jobs are worth claiming next.
local now = redis_now()
local asked = (#ARGV - 3) / 2
local held = redis.call('PTTL', KEYS[3])
if held > 0 then
  return {0, held, now, 0}
end
local admitted = asked
local wait = -1
local limit = tonumber(ARGV[1])
local period = tonumber(ARGV[2])
local width = math.max(1, math.ceil(period / 10000))
local function bucket(entry)
  local first, total = string.match(entry, '^(%d+) (%d+)$')
  return tonumber(first), tonumber(total)
end
local starts, newest, tail, empty = 0, nil, 0, true
if limit > 0 then
  local gone = 0
  local head = redis.call('LINDEX', KEYS[1], 0)
  if head then
    empty = false
    local _
    _, gone = bucket(head)
    local oldest = redis.call('LINDEX', KEYS[1], 1)
    while oldest do
      local first, total = bucket(oldest)
      if first + width - 1 > now - period then
        break
      end
      redis.call('LPOP', KEYS[1])
      gone = total
      oldest = redis.call('LINDEX', KEYS[1], 1)
    end
    if oldest then
      newest, tail = bucket(redis.call('LINDEX', KEYS[1], -1))
    else
      tail = gone
    end
  end
  starts = tail - gone
  admitted = math.max(0, math.min(admitted, limit - starts))
end
local concurrency = tonumber(ARGV[3])
if concurrency > 0 and admitted > 0 then
  redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', now)
  admitted = math.max(0, math.min(admitted, concurrency - redis.call('ZCARD', KEYS[2])))
end
if admitted > 0 then
  if limit > 0 then
    local first = now - now % width
    local entry = string.format('%.0f %.0f', math.max(first, newest or first), tail + admitted)
    if newest and newest >= first then
      redis.call('LSET', KEYS[1], -1, entry)
    elseif empty then
      -- The head: no bucket gone before.
      redis.call('RPUSH', KEYS[1], '0 0', entry)
    else
      redis.call('RPUSH', KEYS[1], entry)
    end
    redis.call('PEXPIRE', KEYS[1], period + width)
    starts = starts + admitted
  end
  if concurrency > 0 then
    local permits = {}
    local longest = 0
    for i = 1, admitted do
      local ttr = tonumber(ARGV[3 + 2 * i])
      longest = math.max(longest, ttr)
      permits[#permits + 1] = now + ttr
      permits[#permits + 1] = ARGV[2 + 2 * i]
    end
    redis.call('ZADD', KEYS[2], unpack(permits))
    if redis.call('PTTL', KEYS[2]) < longest then
      redis.call('PEXPIRE', KEYS[2], longest)
    end
  end
end
if admitted < asked and limit > 0 and starts >= limit then
  local oldest = bucket(redis.call('LINDEX', KEYS[1], 1))
  wait = math.max(1, oldest + width - 1 + period - now)
end
return {admitted, wait, now, (limit > 0) and math.max(0, limit - starts) or -1}
