-- enqueue: new jobs enter DELAYED (due later) or READY (due now).
-- A job's record is "created|due|ttrMs|maxAttempts|headersJson|payloadJson", the two times in
-- epoch ms written in base 36 to keep records short; this script prepends them, taken from
-- the Redis clock, to the tail the client sends.
-- A job whose id the topic already holds is skipped and reported; the stored job is unchanged.
-- KEYS[1] jobs (hash id -> record), KEYS[2] delayed (zset id -> due ms), KEYS[3] ready (list)
-- ARGV[1] wake channel, ARGV[2] topic, then per job: id, due ('d<ms>' delay or 'a<ms>' epoch ms), record tail
-- Returns {earliest new delayed due ms or -1, skipped duplicate id, ...}
local now = redis_now()
local created = base36(now) .. '|'
local head = redis.call('ZRANGE', KEYS[2], 0, 0, 'WITHSCORES')
local earliest = -1
local out = {-1}
for i = 3, #ARGV, 3 do
  local id, due, tail = ARGV[i], ARGV[i + 1], ARGV[i + 2]
  local ms = tonumber(string.sub(due, 2))
  if string.sub(due, 1, 1) == 'd' then
    ms = now + ms
  elseif ms < now then
    ms = now
  end
  -- HSETNX both checks for a duplicate id and stores the record: one command, not two.
  if redis.call('HSETNX', KEYS[1], id, created .. base36(ms) .. '|' .. tail) == 0 then
    out[#out + 1] = id
  elseif ms <= now then
    redis.call('LPUSH', KEYS[3], id)
  else
    redis.call('ZADD', KEYS[2], ms, id)
    if earliest < 0 or ms < earliest then
      earliest = ms
    end
  end
end
if earliest >= 0 and ARGV[1] ~= '' and (#head == 0 or earliest < tonumber(head[2])) then
  redis.call('PUBLISH', ARGV[1], ARGV[2])
end
out[1] = earliest
return out
