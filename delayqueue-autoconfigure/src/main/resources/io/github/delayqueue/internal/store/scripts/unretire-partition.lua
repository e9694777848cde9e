-- needs: none
-- unretire-partition: a revived partition (revive-partition.lua) takes jobs again: its
-- retirement mark goes, unless a later retirement replaced the one the sender met, and its
-- pause mark follows its topic's; run on the partition's slot. A revival mark, kept for a
-- while, keeps the next retirement from marking it again before the sender's job is in.
-- KEYS[1] the retirement mark, KEYS[2] the pause mark, KEYS[3] the revival mark
-- ARGV[1] the retirement mark the sender met, ARGV[2] '1' if the topic is paused,
-- ARGV[3] how long the revival mark lasts, in ms
-- Returns 1 if the partition takes jobs again, 0 if it was retired again meanwhile: the
-- sender then revives it again
local mark = redis.call('GET', KEYS[1])
if mark and mark ~= ARGV[1] then
  return 0
end
redis.call('DEL', KEYS[1])
redis.call('SET', KEYS[3], '1', 'PX', ARGV[3])
if ARGV[2] == '1' then
  redis.call('SET', KEYS[2], '1')
else
  redis.call('DEL', KEYS[2])
end
return 1
