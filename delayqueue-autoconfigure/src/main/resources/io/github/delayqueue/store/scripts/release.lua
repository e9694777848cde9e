-- release: RUNNING -> READY for a delivery that was claimed but never started (the
-- consumer is shutting down). The delivery is not counted, and the job goes to the
-- consuming end of the ready list so another consumer takes it at once.
-- Ghosts (see claim.lua): the job was RUNNING, so it had no entry in the ready list; its
-- one new entry keeps the ghost invariant.
-- KEYS[1] running, KEYS[2] ready, KEYS[3] attempts
-- ARGV[1] id, ARGV[2] attempt
-- Returns 1 if released, 0 if fenced
local id = ARGV[1]
if not redis.call('ZSCORE', KEYS[1], id) or redis.call('HGET', KEYS[3], id) ~= ARGV[2] then
  return 0
end
redis.call('ZREM', KEYS[1], id)
if redis.call('HINCRBY', KEYS[3], id, -1) <= 0 then
  redis.call('HDEL', KEYS[3], id)
end
redis.call('RPUSH', KEYS[2], id)
return 1
