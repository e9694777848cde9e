-- prelude: functions every script may use; it is prepended to each script when loaded.
-- The Redis server's clock in epoch milliseconds: the only clock that decides anything.
-- Second result: the microseconds past that millisecond.
local function redis_now()
  local t = redis.call('TIME')
  local micros = tonumber(t[2])
  return tonumber(t[1]) * 1000 + math.floor(micros / 1000), micros % 1000
end
-- Job records keep their two times in base 36, 8 characters instead of 13. Epoch
-- milliseconds from 1972 to 2059 have exactly 8 base-36 digits: those are worked out
-- without a loop or a table, which took a quarter of an enqueue call's time in Redis.
local function base36_digit(d)
  return (d < 10) and (48 + d) or (87 + d)
end
local function base36(n)
  n = math.floor(n)
  if n < 78364164096 or n >= 2821109907456 then
    local bytes = {}
    repeat
      local d = n % 36
      table.insert(bytes, 1, base36_digit(d))
      n = (n - d) / 36
    until n == 0
    return string.char(unpack(bytes))
  end
  local h = n % 36; n = (n - h) / 36
  local g = n % 36; n = (n - g) / 36
  local f = n % 36; n = (n - f) / 36
  local e = n % 36; n = (n - e) / 36
  local d = n % 36; n = (n - d) / 36
  local c = n % 36; n = (n - c) / 36
  local b = n % 36
  local a = (n - b) / 36
  return string.char(base36_digit(a), base36_digit(b), base36_digit(c), base36_digit(d), base36_digit(e),
    base36_digit(f), base36_digit(g), base36_digit(h))
end
-- Successors: a send with IfPending.REPLACE that finds its job RUNNING cannot change the
-- delivery in progress; it keeps the new version, a whole record, in the successors hash.
-- Whichever script ends that delivery (ack, retry, bury, release, or the sweep when its
-- time to run elapses) calls take_over, and the new version becomes the job, DELAYED or
-- READY by its own due time, with no attempts and no error yet. So a successor exists only
-- for a RUNNING job, and a replacement is never lost to a delivery that was already under
-- way. k holds the topic's key names (from KEYS): jobs, delayed, ready, attempts, errors,
-- successors. The wake channel is published when the new version is the earliest delayed
-- job. Returns its due time in ms, or nil if the job had no successor.
local function take_over(k, id, now, channel, queue)
  local record = redis.call('HGET', k.successors, id)
  if not record then
    return nil
  end
  redis.call('HDEL', k.successors, id)
  redis.call('HSET', k.jobs, id, record)
  redis.call('HDEL', k.attempts, id)
  redis.call('HDEL', k.errors, id)
  local due = tonumber(string.match(record, '^%w+|(%w+)|') or '', 36) or now
  if due <= now then
    redis.call('LPUSH', k.ready, id)
    return now
  end
  local head = redis.call('ZRANGE', k.delayed, 0, 0, 'WITHSCORES')
  redis.call('ZADD', k.delayed, due, id)
  if channel and channel ~= '' and (#head == 0 or due < tonumber(head[2])) then
    redis.call('PUBLISH', channel, queue)
  end
  return due
end
