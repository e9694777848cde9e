-- declare-schedules: decides, across instances, which definition of each schedule holds.
-- Running instances declare the schedules of their configuration (YAML, @Recurring) and
-- renew the declaration periodically; definitions saved at run time are declared once and
-- for good. Of a schedule's definitions, the one first declared most recently among those
-- still declared (within 'live' ms, or saved at run time) holds: during a rolling deploy
-- the new definition holds from the first new instance on, and an old instance that starts
-- again does not bring the old one back; once no instance declares the new one any more
-- (a rollback), the old one holds again. A declaration not renewed within 'grace' ms is
-- forgotten; a schedule with none left is removed by the 'expire' pass.
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
-- KEYS[1] declarations, KEYS[2] definitions, KEYS[3] registry (hash id -> topic),
-- KEYS[4] renewals (hash instance -> "set last"), KEYS[5] sets (hash set -> entries)
-- ARGV[1] live ms, ARGV[2] grace ms, ARGV[3] mode, then:
--   declare: per schedule id, hash, topic, JSON
--   adopt:   instance, set, its entries
--   renew:   instance, set
--   save:    id, hash, topic, JSON
--   delete:  id
--   expire:  nothing
-- Returns, by mode:
--   declare: {now, per schedule: id, holding hash, its topic, the topic before or '', its JSON}
--   adopt:   {now, the live sets}
--   renew:   {now, 'renewed' or 'unknown' (declare and adopt), the live sets}
--   save:    {now, 'saved' or 'declared', the topic before or ''}
--   delete:  {now, 'deleted', 'declared' or 'absent', the topic before or ''}
--   expire:  {now, per removed schedule: id, topic}
-- The live sets: the sets renewed within 'live', sorted, separated by ','.
local now = redis_now()
local live_since = now - tonumber(ARGV[1])
local kept_since = now - tonumber(ARGV[2])
local mode = ARGV[3]

-- The latest renewal of each set, by set.
local function set_renewals()
  local latest = {}
  local raw = redis.call('HGETALL', KEYS[4])
  for j = 1, #raw, 2 do
    local set, last = string.match(raw[j + 1], '^(%S+) (%d+)$')
    last = tonumber(last)
    if not latest[set] or last > latest[set] then
      latest[set] = last
    end
  end
  return latest
end

local function live_sets()
  local sets = {}
  for set, last in pairs(set_renewals()) do
    if last >= live_since then
      sets[#sets + 1] = set
    end
  end
  table.sort(sets)
  return table.concat(sets, ',')
end

-- The latest renewal of each declared definition, by "<id> <hash>".
local function renewed()
  local marks = {}
  for set, last in pairs(set_renewals()) do
    local entries = redis.call('HGET', KEYS[5], set)
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

local function entries_of(id, marks)
  local raw = redis.call('HGET', KEYS[1], id)
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

local function store(id, entries)
  if #entries == 0 then
    redis.call('HDEL', KEYS[1], id)
    return
  end
  local parts = {}
  for _, e in ipairs(entries) do
    parts[#parts + 1] = string.format('%s %s %d %d %s', e.hash, e.topic, e.first, e.last, e.kind)
  end
  redis.call('HSET', KEYS[1], id, table.concat(parts, ';'))
end

local function is_live(e)
  return e.kind == 'r' or e.last >= live_since
end

local function declared_live(entries)
  for _, e in ipairs(entries) do
    if e.kind == 'd' and e.last >= live_since then
      return true
    end
  end
  return false
end

-- Keeps the entries still declared within grace (and run-time ones); forgets the others'
-- definitions.
local function prune(id, entries)
  local kept = {}
  for _, e in ipairs(entries) do
    if e.kind == 'r' or e.last >= kept_since then
      kept[#kept + 1] = e
    else
      redis.call('HDEL', KEYS[2], id .. ' ' .. e.hash)
    end
  end
  return kept
end

local function holder(entries)
  local best
  for _, e in ipairs(entries) do
    if is_live(e) and (not best or e.first > best.first or (e.first == best.first and e.hash > best.hash)) then
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

local function register(id, topic)
  local before = redis.call('HGET', KEYS[3], id)
  if before == topic then
    return ''
  end
  redis.call('HSET', KEYS[3], id, topic)
  return before or ''
end

local function forget(id, entries)
  for _, e in ipairs(entries) do
    redis.call('HDEL', KEYS[2], id .. ' ' .. e.hash)
  end
  redis.call('HDEL', KEYS[1], id)
  local before = redis.call('HGET', KEYS[3], id)
  redis.call('HDEL', KEYS[3], id)
  return before or ''
end

local out = {now}
if mode == 'declare' then
  local marks = renewed()
  for i = 4, #ARGV, 4 do
    local id, hash, topic, json = ARGV[i], ARGV[i + 1], ARGV[i + 2], ARGV[i + 3]
    local entries = {}
    local found = false
    for _, e in ipairs(entries_of(id, marks)) do
      -- A declaration replaces what was saved at run time.
      if e.kind == 'd' then
        if e.hash == hash then
          e.last = now
          e.topic = topic
          found = true
        end
        entries[#entries + 1] = e
      else
        redis.call('HDEL', KEYS[2], id .. ' ' .. e.hash)
      end
    end
    -- A renewal, each heartbeat, writes only the time of the declaration: the JSON of
    -- a hash is stored once.
    if not found then
      entries[#entries + 1] = {hash = hash, topic = topic, first = now, last = now, kind = 'd'}
      redis.call('HSET', KEYS[2], id .. ' ' .. hash, json)
    end
    entries = prune(id, entries)
    store(id, entries)
    local best = holder(entries)
    out[#out + 1] = id
    out[#out + 1] = best.hash
    out[#out + 1] = best.topic
    out[#out + 1] = register(id, best.topic)
    out[#out + 1] = redis.call('HGET', KEYS[2], id .. ' ' .. best.hash)
  end
elseif mode == 'adopt' then
  local instance, set = ARGV[4], ARGV[5]
  redis.call('HSET', KEYS[5], set, ARGV[6])
  redis.call('HSET', KEYS[4], instance, set .. ' ' .. now)
  out[#out + 1] = live_sets()
elseif mode == 'renew' then
  -- Two commands and one read of the renewals, whatever the number of schedules.
  local instance, set = ARGV[4], ARGV[5]
  local renewal = redis.call('HGET', KEYS[4], instance)
  if renewal and string.match(renewal, '^(%S+) ') == set then
    redis.call('HSET', KEYS[4], instance, set .. ' ' .. now)
    out[#out + 1] = 'renewed'
    out[#out + 1] = live_sets()
  else
    out[#out + 1] = 'unknown'
    out[#out + 1] = ''
  end
elseif mode == 'save' then
  local id, hash, topic, json = ARGV[4], ARGV[5], ARGV[6], ARGV[7]
  local entries = entries_of(id, renewed())
  if declared_live(entries) then
    out[#out + 1] = 'declared'
    out[#out + 1] = ''
  else
    for _, e in ipairs(entries) do
      if e.hash ~= hash then
        redis.call('HDEL', KEYS[2], id .. ' ' .. e.hash)
      end
    end
    redis.call('HSET', KEYS[2], id .. ' ' .. hash, json)
    store(id, {{hash = hash, topic = topic, first = now, last = now, kind = 'r'}})
    out[#out + 1] = 'saved'
    out[#out + 1] = register(id, topic)
  end
elseif mode == 'delete' then
  local id = ARGV[4]
  local entries = entries_of(id, renewed())
  if declared_live(entries) then
    out[#out + 1] = 'declared'
    out[#out + 1] = ''
  elseif #entries == 0 and not redis.call('HGET', KEYS[3], id) then
    out[#out + 1] = 'absent'
    out[#out + 1] = ''
  else
    out[#out + 1] = 'deleted'
    out[#out + 1] = forget(id, entries)
  end
elseif mode == 'expire' then
  local marks = renewed()
  local all = redis.call('HKEYS', KEYS[1])
  for _, id in ipairs(all) do
    local entries = entries_of(id, marks)
    local kept = prune(id, entries)
    if #kept == 0 then
      out[#out + 1] = id
      out[#out + 1] = forget(id, entries)
    elseif #kept < #entries then
      store(id, kept)
    end
  end
  -- Renewals not renewed within grace (instances gone), and the sets none renews.
  local renewals = redis.call('HGETALL', KEYS[4])
  local renewed_sets = {}
  for j = 1, #renewals, 2 do
    local set, last = string.match(renewals[j + 1], '^(%S+) (%d+)$')
    if tonumber(last) < kept_since then
      redis.call('HDEL', KEYS[4], renewals[j])
    else
      renewed_sets[set] = true
    end
  end
  for _, set in ipairs(redis.call('HKEYS', KEYS[5])) do
    if not renewed_sets[set] then
      redis.call('HDEL', KEYS[5], set)
    end
  end
end
return out
