-- ack: RUNNING -> gone, for one or more deliveries of a topic. Each is fenced by its
-- attempt number: an acknowledgement for a delivery that expired, or was delivered again
-- since, changes nothing.
-- KEYS[1] running, KEYS[2] jobs, KEYS[3] attempts, KEYS[4] errors
-- ARGV id, attempt, id, attempt, ...
-- Returns one integer per delivery, in order: 1 if acknowledged, 0 if fenced
-- One command per key for the whole batch (ZMSCORE, HMGET, variadic ZREM and HDEL): the
-- cost per command, not per id, dominates.
local ids = {}
for i = 1, #ARGV, 2 do
  ids[#ids + 1] = ARGV[i]
end
local out = {}
if #ids == 0 then
  return out
end
local deadlines = redis.call('ZMSCORE', KEYS[1], unpack(ids))
local attempts = redis.call('HMGET', KEYS[3], unpack(ids))
local done = {}
for i, id in ipairs(ids) do
  if deadlines[i] and attempts[i] == ARGV[2 * i] then
    done[#done + 1] = id
    out[i] = 1
  else
    out[i] = 0
  end
end
if #done > 0 then
  redis.call('ZREM', KEYS[1], unpack(done))
  redis.call('HDEL', KEYS[2], unpack(done))
  redis.call('HDEL', KEYS[3], unpack(done))
  redis.call('HDEL', KEYS[4], unpack(done))
end
return out
