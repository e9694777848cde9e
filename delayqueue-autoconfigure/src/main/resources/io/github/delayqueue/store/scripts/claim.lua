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
-- (see timeline in prelude.lua; '' when off): each job claimed gets CLAIMED with its
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
-- Fair groups. Once a queue's jobs have groups (its groups hash exists, see enqueue.lua), a
-- claim moves the ready list's entries, oldest first and up to a thousand per call, onto
-- one list per group ('group:<group>', jobs without a group in group ''), and takes jobs
-- from the groups in turns: the group-turns list holds each group whose list has entries,
-- once, the next group first, and a group whose turn was taken goes to its end while its
-- list has entries left. So a group with a hundred thousand ready jobs waits for its turn
-- like a group with ten, and within a group jobs go in the order they became ready. The
-- groups hash holds '' -> the entries of the group lists, which are READY jobs like the
-- ready list's, 'p' -> the id put forward and 'pg' -> its group: while the group lists hold
-- entries, the job whose turn is next goes back on the ready list's consuming end, so that
-- a consumer waiting on the list (BLMOVE) wakes for it, and whichever claim takes it takes
-- it first. Entries only move between lists, so the ghost invariant holds with the group
-- lists' entries counted among the ready list's.
-- Groups held by their own limits (a group concurrency or rate limit, as the claiming
-- instance last learnt them) are passed over and keep their place in the line. The job put
-- forward is of a group not held; when every group with jobs waiting is held, none is, so
-- that waiting consumers block until a job becomes ready, and the instance that holds the
-- groups claims again when the first hold ends. A claim that takes a job put forward while
-- its group is held returns it to the head of its group's line.
-- Returns the ids taken: the moved id if it was the one put forward, then the jobs whose
-- turn it is, one more than count when an id was moved.
local function take_in_turns(groups, moved, count)
  local turns = queue_key(KEYS[1], 'ready', 'group-turns')
  local prefix = queue_key(KEYS[1], 'ready', 'group:')
  -- Groups whose own limits admit none of their jobs now (ARGV[6]): their turns are passed
  -- over, and they keep their place in the line.
  local held, holding = {}, 0
  for group in string.gmatch(ARGV[6] or '', '%S+') do
    held[group] = true
    holding = holding + 1
  end
  local forward, forward_group = unpack(redis.call('HMGET', groups, 'p', 'pg'))
  forward_group = forward_group or ''
  local picked, entries = {}, {}
  local wanted = count
  -- The id put forward, once found among the entries taken: picked, or, when its group is
  -- held, returned to the head of its group's line.
  local found, returned = false, nil
  local function found_forward(id)
    found = true
    if held[forward_group] then
      returned = id
    else
      picked[1] = id
    end
  end
  if moved then
    wanted = wanted + 1
    if moved == forward then
      found_forward(moved)
    else
      entries[1] = moved
    end
  end
  local popped = redis.call('RPOP', KEYS[1], 1000)
  if popped then
    for _, id in ipairs(popped) do
      if id == forward and not found then
        found_forward(id)
      else
        entries[#entries + 1] = id
      end
    end
  end
  if found then
    forward = nil
    redis.call('HDEL', groups, 'p', 'pg')
  end
  if returned and redis.call('LPUSH', prefix .. forward_group, returned) == 1 then
    redis.call('LPUSH', turns, forward_group)
  end
  if #entries > 0 then
    local records = redis.call('HMGET', KEYS[4], unpack(entries))
    local lists, order = {}, {}
    for i, id in ipairs(entries) do
      local group = group_of(records[i])
      local list = lists[group]
      if not list then
        list = {}
        lists[group] = list
        order[#order + 1] = group
      end
      list[#list + 1] = id
    end
    for _, group in ipairs(order) do
      local ids = lists[group]
      if redis.call('RPUSH', prefix .. group, unpack(ids)) == #ids then
        redis.call('RPUSH', turns, group)
      end
    end
  end
  local parked = (tonumber(redis.call('HGET', groups, '')) or 0) + #entries + (returned and 1 or 0)
  -- The next group in turn that is not held, if any.
  local function next_in_turn()
    local group
    for _, candidate in ipairs(redis.call('LRANGE', turns, 0, holding)) do
      if not held[candidate] then
        group = candidate
        break
      end
    end
    if not group then
      return nil
    end
    redis.call('LREM', turns, 1, group)
    local id = redis.call('LPOP', prefix .. group)
    if redis.call('EXISTS', prefix .. group) == 1 then
      redis.call('RPUSH', turns, group)
    end
    if id then
      parked = parked - 1
    end
    return id, group
  end
  -- Turns in rounds: each round gives the groups at the head of the line (no more groups
  -- than jobs still wanted) the same number of jobs each, one LPOP per group, and sends
  -- those with jobs left to the end of the line; the jobs are handed out one group after
  -- another, as turns one at a time would hand them.
  while #picked < wanted and parked > 0 do
    local need = wanted - #picked
    -- Held groups keep their place at the head of the line; at most `holding` of them.
    local head = redis.call('LRANGE', turns, 0, need + holding - 1)
    local line, passed, examined = {}, {}, 0
    for _, group in ipairs(head) do
      if #line == need then
        break
      end
      examined = examined + 1
      if held[group] then
        passed[#passed + 1] = group
      else
        line[#line + 1] = group
      end
    end
    if #line == 0 then
      break
    end
    local each = math.max(1, math.floor(need / #line))
    local taken_by, again = {}, {}
    for i, group in ipairs(line) do
      local ids = redis.call('LPOP', prefix .. group, each) or {}
      taken_by[i] = ids
      parked = parked - #ids
      if #ids == each and redis.call('EXISTS', prefix .. group) == 1 then
        again[#again + 1] = group
      end
    end
    redis.call('LTRIM', turns, examined, -1)
    if #passed > 0 then
      local back = {}
      for i = #passed, 1, -1 do
        back[#back + 1] = passed[i]
      end
      redis.call('LPUSH', turns, unpack(back))
    end
    if #again > 0 then
      redis.call('RPUSH', turns, unpack(again))
    end
    for round = 1, each do
      for i = 1, #line do
        local id = taken_by[i][round]
        if id then
          picked[#picked + 1] = id
        end
      end
    end
  end
  -- An id put forward that is neither on the ready list's consuming end nor moved by a
  -- consumer was taken by a claim that did not know it (an older version's, during an
  -- upgrade): another is put forward, or the group lists would wait for the next send.
  if forward and not redis.call('LPOS', KEYS[2], forward)
      and not redis.call('LPOS', KEYS[1], forward, 'RANK', -1, 'MAXLEN', 64) then
    forward = nil
  end
  if parked > 0 and not forward then
    local id, group = next_in_turn()
    if id then
      redis.call('RPUSH', KEYS[1], id)
      redis.call('HSET', groups, 'p', id, 'pg', group)
    end
  end
  if parked < 0 then
    parked = 0
  end
  redis.call('HSET', groups, '', parked)
  return picked
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
  taken = take_in_turns(groups, taken[1], count)
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
