-- needs: clock, keys, timeline, group-turns
-- claim: READY -> RUNNING. Counts the delivery, sets the time-to-run deadline and returns
-- the job records. The id a consumer moved into the claiming list with BLMOVE is claimed
-- only if it is still there (a reaper may have handed it back); further jobs are taken
-- straight from the ready list, which is atomic inside this script.
-- A claim that Redis runs twice (its reply lost with the connection, the call resent after a
-- reconnect, as Lettuce does) hands over the jobs of its first run rather than take more and
-- leave those running, unseen, until their time to run ends. So each claiming thread keeps a
-- receipt of its last claim that took jobs: the call's token, ':', then the ids and attempts
-- of its jobs in MessagePack.
-- Ghosts: cancel and reschedule never search the ready list; they leave a READY job's id
-- in it (or in the claiming list) and count it in the ghosts hash. The ghost invariant,
-- kept by every script: for every id, the entries of the ready and claiming lists number 1
-- if the job is READY (a record, in none of delayed, running and dead), else 0, plus
-- ghosts[id]; ghosts[''] holds the sum of all ghosts[id] (no job id is empty), and the hash
-- is deleted when no ghost is left. So only a script that makes a job READY pushes its id
-- (enqueue, sweep, release, retry, requeue-dead, reschedule), requeue-orphans, BLMOVE and
-- a claim of a paused topic only move entries between the two lists, and this script drops a taken entry whose id
-- has ghosts left, decrementing them: entries of one id are alike, so whichever is taken
-- first is the ghost. The same id sent again is therefore delivered once, and a ghost
-- never is, not even as a vanished job.
-- KEYS[1] ready, KEYS[2] claiming (list), KEYS[3] running (zset id -> deadline ms),
-- KEYS[4] jobs, KEYS[5] attempts, KEYS[6] the claiming thread's receipt (string),
-- KEYS[7] ghosts (hash id -> ghost entries, '' -> their total), KEYS[8] the topic's pause
-- mark (optional)
-- ARGV[1] id moved by BLMOVE or '', ARGV[2] most jobs to take from ready (1,000 at most),
-- ARGV[3] topic's ttr ms,
-- ARGV[4] this call's token, unique to the claiming thread, ARGV[5] the timeline argument
-- (see lib/timeline.lua; '' when off): each job claimed gets CLAIMED with its
-- attempt and this instance; a replayed claim records nothing again, ARGV[6] the groups
-- held by their own limits, separated by spaces ('' or absent for none; see take_in_turns)
-- Returns {now ms, id, attempt, record, ...}; attempt is -1 (and record '') for an id whose
-- record vanished, which is dropped. Returns {now ms, 'paused'} when the topic is paused:
-- nothing is claimed or counted, and the moved id goes back to the consuming end of the
-- ready list, where it was, so that the order of ready jobs is kept.
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
-- Every list entry this call took, in order; ids are what is left once ghosts are dropped.
local taken = {}
if ARGV[1] ~= '' and redis.call('LREM', KEYS[2], -1, ARGV[1]) == 1 then
  taken[1] = ARGV[1]
else
  -- A moved id still in the claiming list proves the call new: only otherwise is the
  -- receipt read, which spares the common single-id claim a command.
  local replayed = first_run()
  if replayed then
    return replayed
  end
end
-- Checked after the replay: jobs a first run claimed before the pause are running already.
if KEYS[8] and redis.call('EXISTS', KEYS[8]) == 1 then
  if taken[1] then
    redis.call('RPUSH', KEYS[1], taken[1])
  end
  return {now, 'paused'}
end
-- At most 1,000 ids: Lua's unpack takes about 8,000 values, the writes below pass two per
-- id, and a script that fails after its RPOP would leave the popped ids in no state at all.
local count = math.min(tonumber(ARGV[2]), 1000)
local groups = queue_key(KEYS[1], 'ready', 'groups')
if redis.call('EXISTS', groups) == 1 then
  local k = {ready = KEYS[1], claiming = KEYS[2], jobs = KEYS[4]}
  taken = take_in_turns(k, ARGV[6], groups, taken[1], count)
elseif count > 0 then
  local popped = redis.call('RPOP', KEYS[1], count)
  if popped then
    for _, id in ipairs(popped) do
      taken[#taken + 1] = id
    end
  end
end
if #taken == 0 then
  return out
end
-- One EXISTS per call when there are no ghosts, the common case.
local ghostsLeft = {}
if redis.call('EXISTS', KEYS[7]) == 1 then
  local counts = redis.call('HMGET', KEYS[7], unpack(taken))
  for i, id in ipairs(taken) do
    if ghostsLeft[id] == nil then
      ghostsLeft[id] = tonumber(counts[i]) or 0
    end
  end
end
local ids = {}
local seen = {}
local ghostIds, dropped = {}, 0
for _, id in ipairs(taken) do
  local left = ghostsLeft[id]
  if left and left > 0 then
    if not seen[id] then
      -- seen also marks ids with a ghost dropped: a later entry of theirs is claimed.
      seen[id] = 'ghost'
      ghostIds[#ghostIds + 1] = id
    end
    ghostsLeft[id] = left - 1
    dropped = dropped + 1
  elseif seen[id] ~= true then
    seen[id] = true
    ids[#ids + 1] = id
  end
end
if dropped > 0 then
  local cleared, kept = {}, {}
  for _, id in ipairs(ghostIds) do
    if ghostsLeft[id] == 0 then
      cleared[#cleared + 1] = id
    else
      kept[#kept + 1] = id
      kept[#kept + 1] = ghostsLeft[id]
    end
  end
  if #kept > 0 then
    redis.call('HSET', KEYS[7], unpack(kept))
  end
  if #cleared > 0 then
    redis.call('HDEL', KEYS[7], unpack(cleared))
  end
  if redis.call('HINCRBY', KEYS[7], '', -dropped) <= 0 then
    redis.call('HDEL', KEYS[7], '')
  end
end
if #ids == 0 then
  return out
end
local records = redis.call('HMGET', KEYS[4], unpack(ids))
local attempts = redis.call('HMGET', KEYS[5], unpack(ids))
local counted, deadlines, vanished = {}, {}, {}
local defaultTtr = tonumber(ARGV[3])
local t = timeline(ARGV[5])
local longestTtr = 0
local claimed, claimedAttempts = {}, {}
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
    if t then
      claimed[#claimed + 1] = id
      claimedAttempts[#claimed] = attempt
    end
  else
    vanished[#vanished + 1] = id
    out[#out + 1] = id
    out[#out + 1] = -1
    out[#out + 1] = ''
  end
end
if t then
  log_steps(t, 'G', now, t.by, nil, step_groups(claimed, claimedAttempts))
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
