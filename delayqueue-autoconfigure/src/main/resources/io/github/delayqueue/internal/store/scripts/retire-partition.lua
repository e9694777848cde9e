-- needs: keys
-- retire-partition: a partition that its topic's configuration no longer has, and that is
-- drained, leaves service; run on the partition's own slot. Every key that can hold a
-- job of it is checked in one command: only when none exists does it get its retirement
-- mark, so no job is in it then, and a send that comes later finds the mark, writes
-- nothing and puts the partition back into its topic's partition set first (see
-- enqueue.lua, revive-partition.lua). A partition revived a moment ago, whose sender is
-- about to write, counts as holding something. Its pause mark goes with it: a revival
-- sets it again from the topic's.
-- KEYS[1] jobs, KEYS[2] delayed, KEYS[3] ready, KEYS[4] claiming, KEYS[5] running,
-- KEYS[6] dead, KEYS[7] attempts, KEYS[8] errors, KEYS[9] ghosts, KEYS[10] the revival
-- mark, KEYS[11] the retirement mark, KEYS[12] the pause mark
-- ARGV[1] the topic's revival count, read before this call (see forget-partitions.lua)
-- Returns 1 if the partition is marked retired, 0 if it holds anything
if redis.call('EXISTS', unpack(KEYS, 1, 10)) > 0 then
  return 0
end
redis.call('SET', KEYS[11], ARGV[1])
-- A job waiting for its group's turn (see lib/group-turns.lua) has its record or a ghost: with none
-- left, the groups hash holds no entries, and a revived partition starts without it.
redis.call('DEL', queue_key(KEYS[3], 'ready', 'groups'))
redis.call('DEL', KEYS[12])
return 1
