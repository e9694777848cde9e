-- needs: clock, keys
-- read-group-bounds: how each of some groups of a topic stands against its own bounds (see
-- acquire-permits), for display. Not a transition.
-- KEYS[1] the topic's permits (zset), after which the group keys are named
-- ARGV the groups
-- Returns {running, held ms left, ...} per group: the deliveries holding one of its
-- permits (0 without a group concurrency), and how long its limits still refuse its jobs
-- as last found (0: not held)
local now = redis_now()
local holds = queue_key(KEYS[1], 'permits', 'group-holds')
local held_until = redis.call('HMGET', holds, unpack(ARGV))
local out = {}
for i, group in ipairs(ARGV) do
  out[#out + 1] = redis.call('ZCOUNT', queue_key(KEYS[1], 'permits', 'group-permits:' .. group), '(' .. now, '+inf')
  out[#out + 1] = math.max(0, (tonumber(held_until[i]) or 0) - now)
end
return out
