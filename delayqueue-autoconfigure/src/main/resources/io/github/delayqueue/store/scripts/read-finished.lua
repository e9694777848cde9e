-- read-finished: one page of a queue's kept finished jobs of one outcome (see keep_finished
-- in prelude.lua), the most recent first. Not a transition.
-- KEYS[1] the outcome's sorted set (completed or cancelled), KEYS[2] finished
-- ARGV[1] offset, ARGV[2] count, at most 1,000
-- Returns {kept in the set, then per job: id, kept record}
-- O(log N + count).
local first = tonumber(ARGV[1])
local count = math.min(tonumber(ARGV[2]), 1000)
local out = {redis.call('ZCARD', KEYS[1])}
if count <= 0 then
  return out
end
local ids = redis.call('ZREVRANGE', KEYS[1], first, first + count - 1)
if #ids == 0 then
  return out
end
local kept = redis.call('HMGET', KEYS[2], unpack(ids))
for i, id in ipairs(ids) do
  if kept[i] then
    out[#out + 1] = id
    out[#out + 1] = kept[i]
  end
end
return out
