-- requeue-expired: RUNNING -> READY (attempts left) or RUNNING -> DEAD (none left) for
-- deliveries whose time to run has elapsed. Requeued jobs go to the consuming end of the
-- ready list: they are overdue already. A running id whose record vanished is dropped.
-- KEYS[1] running (zset id -> deadline ms), KEYS[2] ready, KEYS[3] dead (zset id -> ms),
-- KEYS[4] jobs, KEYS[5] attempts (hash id -> deliveries), KEYS[6] errors (hash id -> text)
-- ARGV[1] most jobs to handle, ARGV[2] topic's max attempts
-- Returns {requeued, dead, vanished, next deadline ms or -1, now ms}
local now = redis_now()
local ids = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', now, 'LIMIT', 0, tonumber(ARGV[1]))
local requeued, dead, vanished = 0, 0, 0
for _, id in ipairs(ids) do
  redis.call('ZREM', KEYS[1], id)
  local record = redis.call('HGET', KEYS[4], id)
  if not record then
    redis.call('HDEL', KEYS[5], id)
    redis.call('HDEL', KEYS[6], id)
    vanished = vanished + 1
  else
    local attempts = tonumber(redis.call('HGET', KEYS[5], id)) or 0
    local max = tonumber(string.match(record, '^%w+|%w+|%d*|(%d*)|')) or tonumber(ARGV[2])
    if attempts >= max then
      redis.call('ZADD', KEYS[3], now, id)
      redis.call('HSET', KEYS[6], id, 'Time to run elapsed on attempt ' .. attempts .. ' of ' .. max)
      dead = dead + 1
    else
      redis.call('RPUSH', KEYS[2], id)
      redis.call('HSET', KEYS[6], id, 'Time to run elapsed on attempt ' .. attempts)
      requeued = requeued + 1
    end
  end
end
local head = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
local nextDeadline = -1
if #head > 0 then
  nextDeadline = tonumber(head[2])
end
return {requeued, dead, vanished, nextDeadline, now}
