-- claim: READY -> RUNNING. Counts the delivery, sets the time-to-run deadline and returns
-- the job records. The id a consumer moved into the claiming list with BLMOVE is claimed
-- only if it is still there (a reaper may have handed it back); further jobs are taken
-- straight from the ready list, which is atomic inside this script.
-- KEYS[1] ready, KEYS[2] claiming (list), KEYS[3] running (zset id -> deadline ms),
-- KEYS[4] jobs, KEYS[5] attempts
-- ARGV[1] id moved by BLMOVE or '', ARGV[2] most jobs to take from ready, ARGV[3] topic's ttr ms
-- Returns {now ms, id, attempt, record, ...}; attempt is -1 (and record '') for an id whose
-- record vanished, which is dropped
local now = redis_now()
local out = {now}
local function take(id)
  local record = redis.call('HGET', KEYS[4], id)
  if not record then
    redis.call('HDEL', KEYS[5], id)
    out[#out + 1] = id
    out[#out + 1] = -1
    out[#out + 1] = ''
    return
  end
  local ttr = tonumber(string.match(record, '^%w+|%w+|(%d*)|')) or tonumber(ARGV[3])
  local attempt = redis.call('HINCRBY', KEYS[5], id, 1)
  redis.call('ZADD', KEYS[3], now + ttr, id)
  out[#out + 1] = id
  out[#out + 1] = attempt
  out[#out + 1] = record
end
if ARGV[1] ~= '' and redis.call('LREM', KEYS[2], -1, ARGV[1]) == 1 then
  take(ARGV[1])
end
for _ = 1, tonumber(ARGV[2]) do
  local id = redis.call('RPOP', KEYS[1])
  if not id then
    break
  end
  take(id)
end
return out
