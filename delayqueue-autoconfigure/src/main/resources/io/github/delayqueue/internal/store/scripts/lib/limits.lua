-- needs: none
-- limits: a topic's or a group's rate limit and concurrency, counted on the Redis clock;
-- now is the Redis time of the calling script.
-- Rate limit: starts are counted in buckets of `width` ms (1 ms up to a period of 10 s, then
-- a ten-thousandth of the period, rounded up), so that the call costs the same whatever the
-- limit: a list, oldest first, holds one entry 'first ms of the bucket, starts so far, counts
-- until ms' per bucket that had a start, the second number a running total since the list
-- began. The head entry only carries the total of the buckets gone before; the starts that
-- count are the tail's total less the head's. A start admitted at n counts until n plus the
-- period the caller gives (its bucket until the latest of its starts' ends); a delivery is
-- admitted only while fewer than `limit` starts count.
-- The period may differ from call to call: a caller counts each admission for the limit's
-- period plus the time its start may lag behind the admission (which grows with its round
-- trips to Redis), so that a start counts for at least a whole period after it happened.
-- A bucket counts at least as long as the one before it (a start that would end earlier
-- counts longer), so that buckets stop counting oldest first and the key lasts as long as
-- the newest; counting longer only errs on the safe side.
-- Why no window of one period ever holds more than `limit` starts, wherever it begins (a
-- fixed window would let twice the limit through across its boundary): take any window
-- [s, s + period) and the last admission in it, at n. Every start in the window happened in
-- (n - period, n], and counts for at least a period after it happened, so it still counted
-- at n, or was admitted in that very call. That call admitted only while the count stayed
-- within `limit`, so the window holds at most `limit` starts. Scripts run one at a time, and
-- should the clock step back, a start joins the newest bucket, which counts longer.
-- Each call drops the buckets that stopped counting since the last one and adds to the
-- newest: its cost grows with those buckets, never with the limit or the starts.
-- Global concurrency: the permits hold one member per admitted delivery, scored by its
-- time-to-run deadline. Settling gives it back (release-permits); a permit whose deadline
-- passed is free again, as its delivery is then delivered again, so an instance that died
-- holding permits leaks none.
-- A bucket's entry: its first ms, the running total of starts and when it stops counting
-- (absent in entries written before buckets carried it: the end of the bucket plus the
-- period).
local function bucket(entry)
  local first, total, ends = string.match(entry, '^(%d+) (%d+) ?(%d*)$')
  return tonumber(first), tonumber(total), tonumber(ends)
end
local function ends_of(w, first, ends)
  return ends or (first + w.width - 1 + w.period)
end
-- A rate limit's window at key: drops the buckets that stopped counting and returns the
-- starts that count, with what count_starts needs to add to the newest bucket.
local function window(key, limit, period, now)
  local w = {key = key, limit = limit, period = period, width = math.max(1, math.ceil(period / 10000)),
    tail = 0, empty = true}
  local gone = 0
  local head = redis.call('LINDEX', key, 0)
  if head then
    w.empty = false
    local _
    _, gone = bucket(head)
    local oldest = redis.call('LINDEX', key, 1)
    while oldest do
      local first, total, ends = bucket(oldest)
      if ends_of(w, first, ends) > now then
        break
      end
      redis.call('LPOP', key)
      gone = total
      oldest = redis.call('LINDEX', key, 1)
    end
    if oldest then
      local first, total, ends = bucket(redis.call('LINDEX', key, -1))
      w.newest, w.tail, w.newest_ends = first, total, ends_of(w, first, ends)
    else
      w.tail = gone
    end
  end
  w.starts = w.tail - gone
  return w
end
local function count_starts(w, n, now)
  local first = now - now % w.width
  local ends = math.max(now + w.period, w.newest_ends or 0)
  local entry = string.format('%.0f %.0f %.0f', math.max(first, w.newest or first), w.tail + n, ends)
  if w.newest and w.newest >= first then
    redis.call('LSET', w.key, -1, entry)
  elseif w.empty then
    -- The head: no bucket gone before.
    redis.call('RPUSH', w.key, '0 0', entry)
  else
    redis.call('RPUSH', w.key, entry)
  end
  redis.call('PEXPIRE', w.key, ends - now)
  w.starts = w.starts + n
end
-- How long until a full window's oldest counting bucket stops counting.
local function wait_of(w, now)
  local first, _, ends = bucket(redis.call('LINDEX', w.key, 1))
  return math.max(1, ends_of(w, first, ends) - now)
end
-- How many of concurrency permits at key are free now; those whose deadline passed are
-- dropped.
local function free_permits(key, concurrency, now)
  redis.call('ZREMRANGEBYSCORE', key, '-inf', now)
  return concurrency - redis.call('ZCARD', key)
end
-- Adds permits (deadline, member pairs) at key, which lasts as long as the longest.
local function add_permits(key, permits, longest)
  redis.call('ZADD', key, unpack(permits))
  if redis.call('PTTL', key) < longest then
    redis.call('PEXPIRE', key, longest)
  end
end
