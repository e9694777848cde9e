-- requeue-dead: DEAD -> READY with attempts reset and the due time set to now. The last
-- error is kept for reference.
-- KEYS[1] dead, KEYS[2] ready, KEYS[3] jobs, KEYS[4] attempts
-- ARGV[1] id, or '' for the oldest dead jobs, ARGV[2] most jobs to requeue
-- Returns how many jobs were requeued
-- Times in records are base 36; scripts cannot share functions, so each has this one.
local function base36(n)
  local digits, s = '0123456789abcdefghijklmnopqrstuvwxyz', ''
  n = math.floor(n)
  repeat
    local d = n % 36
    s = string.sub(digits, d + 1, d + 1) .. s
    n = math.floor(n / 36)
  until n == 0
  return s
end
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local ids
if ARGV[1] ~= '' then
  ids = {}
  if redis.call('ZSCORE', KEYS[1], ARGV[1]) then
    ids[1] = ARGV[1]
  end
else
  ids = redis.call('ZRANGE', KEYS[1], 0, tonumber(ARGV[2]) - 1)
end
for _, id in ipairs(ids) do
  redis.call('ZREM', KEYS[1], id)
  redis.call('HDEL', KEYS[4], id)
  local record = redis.call('HGET', KEYS[3], id)
  if record then
    local created, rest = string.match(record, '^(%w+)|%w+|(.*)$')
    if created then
      redis.call('HSET', KEYS[3], id, created .. '|' .. base36(now) .. '|' .. rest)
    end
    redis.call('LPUSH', KEYS[2], id)
  end
end
return #ids
