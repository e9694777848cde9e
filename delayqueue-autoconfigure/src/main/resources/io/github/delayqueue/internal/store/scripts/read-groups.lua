-- needs: keys
-- read-groups: the groups whose READY jobs wait for their turn in a queue (see lib/group-turns.lua),
-- with how many wait in each, the next group's first. Not a transition.
-- KEYS[1] the queue's ready list, after which the group keys are named
-- ARGV[1] most groups to read
-- Returns {how many groups have jobs waiting, group, jobs waiting, ...}
local turns = queue_key(KEYS[1], 'ready', 'group-turns')
local prefix = queue_key(KEYS[1], 'ready', 'group:')
local out = {redis.call('LLEN', turns)}
for _, group in ipairs(redis.call('LRANGE', turns, 0, tonumber(ARGV[1]) - 1)) do
  out[#out + 1] = group
  out[#out + 1] = redis.call('LLEN', prefix .. group)
end
return out
