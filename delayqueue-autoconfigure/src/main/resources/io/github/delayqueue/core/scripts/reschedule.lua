-- reschedule: DELAYED or READY -> DELAYED (or READY for a zero delay) with a new due time
-- from the Redis clock.
-- KEYS[1] delayed, KEYS[2] ready, KEYS[3] claiming, KEYS[4] jobs
-- ARGV[1] id, ARGV[2] delay ms, ARGV[3] wake channel, ARGV[4] topic
-- Returns {1, due ms} if rescheduled, {0, -1} if the job was not delayed or ready
local id = ARGV[1]
local record = redis.call('HGET', KEYS[4], id)
if not record then
  return {0, -1}
end
local removed = redis.call('ZREM', KEYS[1], id)
if removed == 0 then
  removed = redis.call('LREM', KEYS[2], 1, id)
end
if removed == 0 then
  removed = redis.call('LREM', KEYS[3], 1, id)
end
if removed == 0 then
  return {0, -1}
end
local now = redis_now()
local delay = tonumber(ARGV[2])
local due = now + delay
local created, rest = string.match(record, '^(%w+)|%w+|(.*)$')
if created then
  redis.call('HSET', KEYS[4], id, created .. '|' .. base36(due) .. '|' .. rest)
end
if delay <= 0 then
  redis.call('LPUSH', KEYS[2], id)
  return {1, now}
end
local head = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
redis.call('ZADD', KEYS[1], due, id)
if ARGV[3] ~= '' and (#head == 0 or due < tonumber(head[2])) then
  redis.call('PUBLISH', ARGV[3], ARGV[4])
end
return {1, due}
