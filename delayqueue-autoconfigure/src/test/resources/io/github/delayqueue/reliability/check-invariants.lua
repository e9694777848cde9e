-- check-invariants: reads every key of one topic in one atomic step, so the snapshot
-- never catches a transition half done, and reports each job id that is not in exactly
-- one state (READY counts the ready, claiming and group lists together) and each id that
-- a structure holds without a record in the jobs hash. Ghost entries of the two lists (see
-- claim.lua) are taken off first: an id's list entries beyond its ghost count are its READY
-- state, and a ghost count above its entries, or a total that is not their sum, is a
-- violation.
-- KEYS[1] jobs, KEYS[2] delayed, KEYS[3] ready, KEYS[4] claiming, KEYS[5] running, KEYS[6] dead,
-- KEYS[7] ghosts
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
local ghosts = {}
local ghostTotal, ghostSum = 0, 0
local ghostFields = redis.call('HGETALL', KEYS[7])
for i = 1, #ghostFields, 2 do
  if ghostFields[i] == '' then
    ghostTotal = tonumber(ghostFields[i + 1])
  else
    ghosts[ghostFields[i]] = tonumber(ghostFields[i + 1])
    ghostSum = ghostSum + tonumber(ghostFields[i + 1])
  end
end
local problems = {}
if ghostTotal ~= ghostSum then
  problems[#problems + 1] = 'ghost total ' .. ghostTotal .. ' is not the sum ' .. ghostSum
end
local function markListed(id, state)
  local left = ghosts[id] or 0
  if left > 0 then
    ghosts[id] = left - 1
  else
    mark(id, state)
  end
end
for _, id in ipairs(ready) do markListed(id, 'ready') end
for _, id in ipairs(claiming) do markListed(id, 'claiming') end
-- Jobs waiting for their group's turn (see claim.lua) are READY like the ready list's: the
-- groups hash counts them, and the turns list holds each group with entries once.
local base = string.sub(KEYS[3], 1, #KEYS[3] - #'ready')
local parked = tonumber(redis.call('HGET', base .. 'groups', '')) or 0
local turns = redis.call('LRANGE', base .. 'group-turns', 0, -1)
local inTurn = {}
for _, group in ipairs(turns) do
  if inTurn[group] then
    problems[#problems + 1] = 'group ' .. group .. ' has two turns'
  end
  inTurn[group] = true
end
local listedInGroups = 0
for _, key in ipairs(redis.call('KEYS', base .. 'group:*')) do
  local group = string.sub(key, #base + #'group:' + 1)
  if not inTurn[group] then
    problems[#problems + 1] = 'group ' .. group .. ' has jobs but no turn'
  end
  inTurn[group] = nil
  for _, id in ipairs(redis.call('LRANGE', key, 0, -1)) do
    listedInGroups = listedInGroups + 1
    ready[#ready + 1] = id
    markListed(id, 'group ' .. group)
  end
end
for group in pairs(inTurn) do
  problems[#problems + 1] = 'group ' .. group .. ' has a turn but no jobs'
end
if listedInGroups ~= parked then
  problems[#problems + 1] = 'groups hash counts ' .. parked .. ' waiting entries, the group lists hold ' .. listedInGroups
end
for id, left in pairs(ghosts) do
  if left > 0 then
    problems[#problems + 1] = id .. ' has ' .. left .. ' ghosts more than list entries'
  end
end
for _, id in ipairs(running) do mark(id, 'running') end
for _, id in ipairs(dead) do mark(id, 'dead') end
local ids = redis.call('HKEYS', KEYS[1])
local out = {#ids, #delayed, #ready, #claiming, #running, #dead}
for _, problem in ipairs(problems) do out[#out + 1] = problem end
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
