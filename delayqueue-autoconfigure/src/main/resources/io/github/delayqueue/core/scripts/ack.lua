-- ack: RUNNING -> gone. Fenced by the delivery's attempt number: an acknowledgement for a
-- delivery that expired, or was delivered again since, changes nothing.
-- KEYS[1] running, KEYS[2] jobs, KEYS[3] attempts, KEYS[4] errors
-- ARGV[1] id, ARGV[2] attempt
-- Returns 1 if acknowledged, 0 if fenced
if not redis.call('ZSCORE', KEYS[1], ARGV[1]) or redis.call('HGET', KEYS[3], ARGV[1]) ~= ARGV[2] then
  return 0
end
redis.call('ZREM', KEYS[1], ARGV[1])
redis.call('HDEL', KEYS[2], ARGV[1])
redis.call('HDEL', KEYS[3], ARGV[1])
redis.call('HDEL', KEYS[4], ARGV[1])
return 1
