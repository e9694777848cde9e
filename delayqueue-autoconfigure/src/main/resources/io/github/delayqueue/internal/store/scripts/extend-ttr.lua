-- needs: clock
-- extend-ttr: a RUNNING delivery's time-to-run deadline moves later, so that a handler that
-- legitimately runs long keeps its delivery. Fenced by the delivery's attempt number like
-- ack.lua, and refused once the deadline has passed, even before a sweep requeued the job:
-- the delivery has lost its lease then, whatever happens next.
-- The deadline only ever moves later. So the rule of ack.lua holds with the deadline a
-- settlement carries, the claim's or the latest extension's that the handler heard of: before
-- it, nothing but this delivery moves the job out of RUNNING.
-- KEYS[1] running (zset id -> deadline ms), KEYS[2] attempts
-- ARGV[1] id, ARGV[2] attempt, ARGV[3] time to run from now, ms
-- Returns the delivery's deadline ms after the call, or -1 if refused
local id = ARGV[1]
local deadline = redis.call('ZSCORE', KEYS[1], id)
if not deadline or redis.call('HGET', KEYS[2], id) ~= ARGV[2] then
  return -1
end
deadline = tonumber(deadline)
local now = redis_now()
if deadline <= now then
  return -1
end
local extended = now + tonumber(ARGV[3])
if extended > deadline then
  redis.call('ZADD', KEYS[1], extended, id)
  return extended
end
return deadline
