-- cancel: DELAYED or READY -> gone. A job that a consumer is holding (RUNNING) is not
-- cancelled.
-- KEYS[1] delayed, KEYS[2] ready, KEYS[3] claiming, KEYS[4] jobs, KEYS[5] attempts, KEYS[6] errors
-- ARGV[1] id
-- Returns 1 if cancelled, 0 if the job was not delayed or ready
local id = ARGV[1]
local removed = redis.call('ZREM', KEYS[1], id)
if removed == 0 then
  removed = redis.call('LREM', KEYS[2], 1, id)
end
if removed == 0 then
  removed = redis.call('LREM', KEYS[3], 1, id)
end
if removed == 0 then
  return 0
end
redis.call('HDEL', KEYS[4], id)
redis.call('HDEL', KEYS[5], id)
redis.call('HDEL', KEYS[6], id)
return 1
