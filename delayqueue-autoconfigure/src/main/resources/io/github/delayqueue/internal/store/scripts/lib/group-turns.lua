-- needs: groups, keys
-- group-turns: claims take a queue's ready jobs in turns by group.
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
-- k holds the queue's key names: ready, claiming and jobs; held_groups names the groups
-- held, separated by spaces ('' or nil for none); groups is the queue's groups hash and
-- moved the id a consumer moved into the claiming list (nil for none).
-- Returns the ids taken: the moved id if it was the one put forward, then the jobs whose
-- turn it is, one more than count when an id was moved.
local function take_in_turns(k, held_groups, groups, moved, count)
  local turns = queue_key(k.ready, 'ready', 'group-turns')
  local prefix = queue_key(k.ready, 'ready', 'group:')
  -- Groups whose own limits admit none of their jobs now (held_groups): their turns are passed
  -- over, and they keep their place in the line.
  local held, holding = {}, 0
  for group in string.gmatch(held_groups or '', '%S+') do
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
  local popped = redis.call('RPOP', k.ready, 1000)
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
    local records = redis.call('HMGET', k.jobs, unpack(entries))
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
  if forward and not redis.call('LPOS', k.claiming, forward)
      and not redis.call('LPOS', k.ready, forward, 'RANK', -1, 'MAXLEN', 64) then
    forward = nil
  end
  if parked > 0 and not forward then
    local id, group = next_in_turn()
    if id then
      redis.call('RPUSH', k.ready, id)
      redis.call('HSET', groups, 'p', id, 'pg', group)
    end
  end
  if parked < 0 then
    parked = 0
  end
  redis.call('HSET', groups, '', parked)
  return picked
end
