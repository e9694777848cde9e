-- claim: READY -> RUNNING. Counts the delivery, sets the time-to-run deadline and returns
-- the job records. The id a consumer moved into the claiming list with BLMOVE is claimed
-- only if it is still there (a reaper may have handed it back); further jobs are taken
-- straight from the ready list, which is atomic inside this script.
-- A claim that Redis runs twice (its reply lost with the connection, the call resent after a
-- reconnect, as Lettuce does) hands over the jobs of its first run rather than take more and
-- leave those running, unseen, until their time to run ends. So each claiming thread keeps a
-- receipt of its last claim that took jobs: the call's token, ':', then the ids and attempts
-- of its jobs in MessagePack.
-- KEYS[1] ready, KEYS[2] claiming (list), KEYS[3] running (zset id -> deadline ms),
-- KEYS[4] jobs, KEYS[5] attempts, KEYS[6] the claiming thread's receipt (string)
-- ARGV[1] id moved by BLMOVE or '', ARGV[2] most jobs to take from ready (1,000 at most),
-- ARGV[3] topic's ttr ms,
-- ARGV[4] this call's token, unique to the claiming thread
-- Returns {now ms, id, attempt, record, ...}; attempt is -1 (and record '') for an id whose
-- record vanished, which is dropped
-- Every step is one command for the whole batch (RPOP with a count, HMGET, variadic HSET
-- and ZADD): under load Redis's cost per command, not per id, sets the drain rate.
local now = redis_now()
local out = {now}
-- The jobs of this very call's first run that are still its deliveries, or nil if Redis
-- has not run this call before.
local function first_run()
  local receipt = redis.call('GET', KEYS[6])
  if not receipt then
    return nil
  end
  local mark = ARGV[4] .. ':'
  if string.sub(receipt, 1, #mark) ~= mark then
    return nil
  end
  local saved = cmsgpack.unpack(string.sub(receipt, #mark + 1))
  local ids, attempts = {}, {}
  for i = 1, #saved, 2 do
    ids[#ids + 1] = saved[i]
    attempts[#attempts + 1] = saved[i + 1]
  end
  local records = redis.call('HMGET', KEYS[4], unpack(ids))
  local current = redis.call('HMGET', KEYS[5], unpack(ids))
  local deadlines = redis.call('ZMSCORE', KEYS[3], unpack(ids))
  for i, id in ipairs(ids) do
    if records[i] and deadlines[i] and tonumber(current[i]) == attempts[i] then
      out[#out + 1] = id
      out[#out + 1] = attempts[i]
      out[#out + 1] = records[i]
    end
  end
  return out
end
local ids = {}
local seen = {}
local function add(id)
  if not seen[id] then
    seen[id] = true
    ids[#ids + 1] = id
  end
end
if ARGV[1] ~= '' and redis.call('LREM', KEYS[2], -1, ARGV[1]) == 1 then
  add(ARGV[1])
else
  -- A moved id still in the claiming list proves the call new: only otherwise is the
  -- receipt read, which spares the common single-id claim a command.
  local replayed = first_run()
  if replayed then
    return replayed
  end
end
-- At most 1,000 ids: Lua's unpack takes about 8,000 values, the writes below pass two per
-- id, and a script that fails after its RPOP would leave the popped ids in no state at all.
local count = math.min(tonumber(ARGV[2]), 1000)
if count > 0 then
  local popped = redis.call('RPOP', KEYS[1], count)
  if popped then
    for _, id in ipairs(popped) do
      add(id)
    end
  end
end
if #ids == 0 then
  return out
end
local records = redis.call('HMGET', KEYS[4], unpack(ids))
local attempts = redis.call('HMGET', KEYS[5], unpack(ids))
local counted, deadlines, vanished = {}, {}, {}
local defaultTtr = tonumber(ARGV[3])
local longestTtr = 0
for i, id in ipairs(ids) do
  local record = records[i]
  if record then
    local ttr = tonumber(string.match(record, '^%w+|%w+|(%d*)|')) or defaultTtr
    longestTtr = math.max(longestTtr, ttr)
    local attempt = (tonumber(attempts[i]) or 0) + 1
    counted[#counted + 1] = id
    counted[#counted + 1] = attempt
    deadlines[#deadlines + 1] = now + ttr
    deadlines[#deadlines + 1] = id
    out[#out + 1] = id
    out[#out + 1] = attempt
    out[#out + 1] = record
  else
    vanished[#vanished + 1] = id
    out[#out + 1] = id
    out[#out + 1] = -1
    out[#out + 1] = ''
  end
end
if #counted > 0 then
  redis.call('HSET', KEYS[5], unpack(counted))
  redis.call('ZADD', KEYS[3], unpack(deadlines))
  -- Kept as long as the deliveries last: a call resent later finds them requeued anyway.
  redis.call('SET', KEYS[6], ARGV[4] .. ':' .. cmsgpack.pack(counted), 'PX', longestTtr)
end
if #vanished > 0 then
  redis.call('HDEL', KEYS[5], unpack(vanished))
end
return out
