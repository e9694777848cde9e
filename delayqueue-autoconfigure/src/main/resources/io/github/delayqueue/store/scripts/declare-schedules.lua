-- declare-schedules: decides, across instances, which definition of each schedule holds.
-- Running instances declare the schedules of their configuration (YAML, @Recurring) and
-- declare them again periodically; definitions saved at run time are declared once and
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
-- KEYS[1] declarations, KEYS[2] definitions, KEYS[3] registry (hash id -> topic)
-- ARGV[1] live ms, ARGV[2] grace ms, ARGV[3] mode, then:
--   declare: per schedule id, hash, topic, JSON
--   save:    id, hash, topic, JSON
--   delete:  id
--   expire:  nothing
-- Returns, by mode:
--   declare: {now, per schedule: id, holding hash, its topic, the topic before or '', its JSON}
--   save:    {now, 'saved' or 'declared', the topic before or ''}
--   delete:  {now, 'deleted', 'declared' or 'absent', the topic before or ''}
--   expire:  {now, per removed schedule: id, topic}
local now = redis_now()
local live_since = now - tonumber(ARGV[1])
local kept_since = now - tonumber(ARGV[2])
local mode = ARGV[3]

local function entries_of(id)
  local raw = redis.call('HGET', KEYS[1], id)
  local entries = {}
  if raw then
    for text in string.gmatch(raw, '[^;]+') do
      local hash, topic, first, last, kind = string.match(text, '^(%S+) (%S+) (%d+) (%d+) (%a)$')
      entries[#entries + 1] = {hash = hash, topic = topic, first = tonumber(first), last = tonumber(last),
        kind = kind}
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
  for i = 4, #ARGV, 4 do
    local id, hash, topic, json = ARGV[i], ARGV[i + 1], ARGV[i + 2], ARGV[i + 3]
    local entries = {}
    local found = false
    for _, e in ipairs(entries_of(id)) do
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
elseif mode == 'save' then
  local id, hash, topic, json = ARGV[4], ARGV[5], ARGV[6], ARGV[7]
  local entries = entries_of(id)
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
  local entries = entries_of(id)
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
  local all = redis.call('HKEYS', KEYS[1])
  for _, id in ipairs(all) do
    local entries = entries_of(id)
    local kept = prune(id, entries)
    if #kept == 0 then
      out[#out + 1] = id
      out[#out + 1] = forget(id, entries)
    elseif #kept < #entries then
      store(id, kept)
    end
  end
end
return out
