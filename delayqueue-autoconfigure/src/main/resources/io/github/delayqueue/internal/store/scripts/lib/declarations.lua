-- needs: none
-- declarations: which declared definition of each schedule holds (see declare-schedules.lua
-- for how the instances declare them).
-- A schedule's declarations are one field of the declarations hash, entries separated by
-- ';', each "hash topic first last kind" (kind d declared, r saved at run time); each
-- definition's JSON is the field "<id> <hash>" of the definitions hash; the registry maps
-- each schedule to the topic of the definition that holds.
-- Renewals: an instance declares all its schedules ('declare', then 'adopt') only when
-- they changed; then, each heartbeat, it renews them all at once ('renew'): one field of
-- the renewals hash per instance, "<set> <last>", where the set names the instance's
-- declared definitions, a field of the sets hash ("<id> <hash>" entries separated by ';').
-- A declaration's 'last' is therefore the latest of its entry's own and of the renewals
-- of every set that holds it (see renewed()). Which definition holds changes with time
-- only when a set starts or stops being renewed within 'live': 'renew' answers with the
-- sets renewed within it, and an instance that sees them differ declares again, so that
-- whose definition holds is decided as when every declaration was renewed one by one.
-- k holds the key names: declarations, definitions, registry, renewals and sets; since
-- holds the oldest times that count: live (a declaration within 'live' ms holds) and kept
-- (one within 'grace' ms is kept).
-- The latest renewal of each set, by set.
local function set_renewals(k)
  local latest = {}
  local raw = redis.call('HGETALL', k.renewals)
  for j = 1, #raw, 2 do
    local set, last = string.match(raw[j + 1], '^(%S+) (%d+)$')
    last = tonumber(last)
    if not latest[set] or last > latest[set] then
      latest[set] = last
    end
  end
  return latest
end

local function live_sets(k, since)
  local sets = {}
  for set, last in pairs(set_renewals(k)) do
    if last >= since.live then
      sets[#sets + 1] = set
    end
  end
  table.sort(sets)
  return table.concat(sets, ',')
end

-- The latest renewal of each declared definition, by "<id> <hash>".
local function renewed(k)
  local marks = {}
  for set, last in pairs(set_renewals(k)) do
    local entries = redis.call('HGET', k.sets, set)
    if entries then
      for entry in string.gmatch(entries, '[^;]+') do
        if not marks[entry] or last > marks[entry] then
          marks[entry] = last
        end
      end
    end
  end
  return marks
end

local function entries_of(k, id, marks)
  local raw = redis.call('HGET', k.declarations, id)
  local entries = {}
  if raw then
    for text in string.gmatch(raw, '[^;]+') do
      local hash, topic, first, last, kind = string.match(text, '^(%S+) (%S+) (%d+) (%d+) (%a)$')
      last = math.max(tonumber(last), marks[id .. ' ' .. hash] or 0)
      entries[#entries + 1] = {hash = hash, topic = topic, first = tonumber(first), last = last, kind = kind}
    end
  end
  return entries
end

local function store(k, id, entries)
  if #entries == 0 then
    redis.call('HDEL', k.declarations, id)
    return
  end
  local parts = {}
  for _, e in ipairs(entries) do
    parts[#parts + 1] = string.format('%s %s %d %d %s', e.hash, e.topic, e.first, e.last, e.kind)
  end
  redis.call('HSET', k.declarations, id, table.concat(parts, ';'))
end

local function is_live(e, since)
  return e.kind == 'r' or e.last >= since.live
end

local function declared_live(entries, since)
  for _, e in ipairs(entries) do
    if e.kind == 'd' and e.last >= since.live then
      return true
    end
  end
  return false
end

-- Keeps the entries still declared within grace (and run-time ones); forgets the others'
-- definitions.
local function prune(k, id, entries, since)
  local kept = {}
  for _, e in ipairs(entries) do
    if e.kind == 'r' or e.last >= since.kept then
      kept[#kept + 1] = e
    else
      redis.call('HDEL', k.definitions, id .. ' ' .. e.hash)
    end
  end
  return kept
end

local function holder(entries, since)
  local best
  for _, e in ipairs(entries) do
    if is_live(e, since) and (not best or e.first > best.first or (e.first == best.first and e.hash > best.hash)) then
      best = e
    end
  end
  if not best then
    for _, e in ipairs(entries) do
      if not best or e.last > best.last then
        best = e
      end
    end
  end
  return best
end

local function register(k, id, topic)
  local before = redis.call('HGET', k.registry, id)
  if before == topic then
    return ''
  end
  redis.call('HSET', k.registry, id, topic)
  return before or ''
end

local function forget(k, id, entries)
  for _, e in ipairs(entries) do
    redis.call('HDEL', k.definitions, id .. ' ' .. e.hash)
  end
  redis.call('HDEL', k.declarations, id)
  local before = redis.call('HGET', k.registry, id)
  redis.call('HDEL', k.registry, id)
  return before or ''
end
