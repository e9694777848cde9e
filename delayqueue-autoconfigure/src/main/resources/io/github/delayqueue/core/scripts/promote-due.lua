-- promote-due: DELAYED -> READY for jobs whose due time has come, oldest first.
-- The ready list is consumed from its right end, so jobs pushed on the left in due order
-- are taken in due order.
-- KEYS[1] delayed (zset id -> due ms), KEYS[2] ready (list)
-- ARGV[1] most jobs to move
-- Returns {moved, next due ms or -1, now ms}
local now = redis_now()
local ids = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', now, 'LIMIT', 0, tonumber(ARGV[1]))
for i = 1, #ids, 500 do
  local last = math.min(i + 499, #ids)
  redis.call('ZREM', KEYS[1], unpack(ids, i, last))
  redis.call('LPUSH', KEYS[2], unpack(ids, i, last))
end
local head = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
local nextDue = -1
if #head > 0 then
  nextDue = tonumber(head[2])
end
return {#ids, nextDue, now}
