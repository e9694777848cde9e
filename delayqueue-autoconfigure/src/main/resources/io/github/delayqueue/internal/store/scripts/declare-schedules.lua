-- needs: clock, declarations
-- declare-schedules: decides, across instances, which definition of each schedule holds.
-- Running instances declare the schedules of their configuration (YAML, @Recurring) and
-- renew the declaration periodically; definitions saved at run time are declared once and
-- for good. Of a schedule's definitions, the one first declared most recently among those
-- still declared (within 'live' ms, or saved at run time) holds: during a rolling deploy
-- the new definition holds from the first new instance on, and an old instance that starts
-- again does not bring the old one back; once no instance declares the new one any more
-- (a rollback), the old one holds again. A declaration not renewed within 'grace' ms is
-- forgotten; a schedule with none left is removed by the 'expire' pass. How declarations
-- and their renewals are stored: lib/declarations.lua.
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
local k = {declarations = KEYS[1], definitions = KEYS[2], registry = KEYS[3], renewals = KEYS[4],
  sets = KEYS[5]}
local since = {live = now - tonumber(ARGV[1]), kept = now - tonumber(ARGV[2])}
local mode = ARGV[3]

local out = {now}
if mode == 'declare' then
  local marks = renewed(k)
  for i = 4, #ARGV, 4 do
    local id, hash, topic, json = ARGV[i], ARGV[i + 1], ARGV[i + 2], ARGV[i + 3]
    local entries = {}
    local found = false
    for _, e in ipairs(entries_of(k, id, marks)) do
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
    entries = prune(k, id, entries, since)
    store(k, id, entries)
    local best = holder(entries, since)
    out[#out + 1] = id
    out[#out + 1] = best.hash
    out[#out + 1] = best.topic
    out[#out + 1] = register(k, id, best.topic)
    out[#out + 1] = redis.call('HGET', KEYS[2], id .. ' ' .. best.hash)
  end
elseif mode == 'adopt' then
  local instance, set = ARGV[4], ARGV[5]
  redis.call('HSET', KEYS[5], set, ARGV[6])
  redis.call('HSET', KEYS[4], instance, set .. ' ' .. now)
  out[#out + 1] = live_sets(k, since)
elseif mode == 'renew' then
  -- Two commands and one read of the renewals, whatever the number of schedules.
  local instance, set = ARGV[4], ARGV[5]
  local renewal = redis.call('HGET', KEYS[4], instance)
  if renewal and string.match(renewal, '^(%S+) ') == set then
    redis.call('HSET', KEYS[4], instance, set .. ' ' .. now)
    out[#out + 1] = 'renewed'
    out[#out + 1] = live_sets(k, since)
  else
    out[#out + 1] = 'unknown'
    out[#out + 1] = ''
  end
elseif mode == 'save' then
  local id, hash, topic, json = ARGV[4], ARGV[5], ARGV[6], ARGV[7]
  local entries = entries_of(k, id, renewed(k))
  if declared_live(entries, since) then
    out[#out + 1] = 'declared'
    out[#out + 1] = ''
  else
    for _, e in ipairs(entries) do
      if e.hash ~= hash then
        redis.call('HDEL', KEYS[2], id .. ' ' .. e.hash)
      end
    end
    redis.call('HSET', KEYS[2], id .. ' ' .. hash, json)
    store(k, id, {{hash = hash, topic = topic, first = now, last = now, kind = 'r'}})
    out[#out + 1] = 'saved'
    out[#out + 1] = register(k, id, topic)
  end
elseif mode == 'delete' then
  local id = ARGV[4]
  local entries = entries_of(k, id, renewed(k))
  if declared_live(entries, since) then
    out[#out + 1] = 'declared'
    out[#out + 1] = ''
  elseif #entries == 0 and not redis.call('HGET', KEYS[3], id) then
    out[#out + 1] = 'absent'
    out[#out + 1] = ''
  else
    out[#out + 1] = 'deleted'
    out[#out + 1] = forget(k, id, entries)
  end
elseif mode == 'expire' then
  local marks = renewed(k)
  local all = redis.call('HKEYS', KEYS[1])
  for _, id in ipairs(all) do
    local entries = entries_of(k, id, marks)
    local kept = prune(k, id, entries, since)
    if #kept == 0 then
      out[#out + 1] = id
      out[#out + 1] = forget(k, id, entries)
    elseif #kept < #entries then
      store(k, id, kept)
    end
  end
  -- Renewals not renewed within grace (instances gone), and the sets none renews.
  local renewals = redis.call('HGETALL', KEYS[4])
  local renewed_sets = {}
  for j = 1, #renewals, 2 do
    local set, last = string.match(renewals[j + 1], '^(%S+) (%d+)$')
    if tonumber(last) < since.kept then
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
