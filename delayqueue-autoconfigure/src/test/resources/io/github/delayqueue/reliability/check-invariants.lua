-- check-invariants: reads every key of one topic in one atomic step, so the snapshot
-- never catches a transition half done, and reports each job id that is not in exactly
-- one state (READY counts the ready and claiming lists together) and each id that a
-- structure holds without a record in the jobs hash.
-- KEYS[1] jobs, KEYS[2] delayed, KEYS[3] ready, KEYS[4] claiming, KEYS[5] running, KEYS[6] dead
-- Returns {jobs, delayed, ready, claiming, running, dead, violation, ...}
local where = {}
local order = {}
local function mark(id, state)
  if where[id] then
    where[id] = where[id] .. ',' .. state
  else
    where[id] = state
    order[#order + 1] = id
  end
end
local delayed = redis.call('ZRANGE', KEYS[2], 0, -1)
local ready = redis.call('LRANGE', KEYS[3], 0, -1)
local claiming = redis.call('LRANGE', KEYS[4], 0, -1)
local running = redis.call('ZRANGE', KEYS[5], 0, -1)
local dead = redis.call('ZRANGE', KEYS[6], 0, -1)
for _, id in ipairs(delayed) do mark(id, 'delayed') end
for _, id in ipairs(ready) do mark(id, 'ready') end
for _, id in ipairs(claiming) do mark(id, 'claiming') end
for _, id in ipairs(running) do mark(id, 'running') end
for _, id in ipairs(dead) do mark(id, 'dead') end
local ids = redis.call('HKEYS', KEYS[1])
local out = {#ids, #delayed, #ready, #claiming, #running, #dead}
local recorded = {}
for _, id in ipairs(ids) do
  recorded[id] = true
  local states = where[id]
  if not states then
    out[#out + 1] = id .. ' has a record but no state'
  elseif string.find(states, ',') then
    out[#out + 1] = id .. ' is in ' .. states
  end
end
for _, id in ipairs(order) do
  if not recorded[id] then
    out[#out + 1] = id .. ' is in ' .. where[id] .. ' without a record'
  end
end
return out
