-- needs: none
-- forget-partitions: partitions marked retired (retire-partition.lua) leave their topic's
-- partition set, so that consumers and schedulers stop watching them; run on the topic's
-- slot. A sender that met a retirement mark counts a revival here before it writes
-- (revive-partition.lua), so a count that changed since the caller read it, before it
-- marked the partitions, means one of them may hold a job by now: then none leaves, and a
-- later pass tries again.
-- KEYS[1] the topic's partition set, KEYS[2] its revival count
-- ARGV[1] the revival count the caller read before marking, ARGV[2...] the queues
-- Returns how many queues left the set
if (redis.call('GET', KEYS[2]) or '0') ~= ARGV[1] then
  return 0
end
return redis.call('SREM', KEYS[1], unpack(ARGV, 2))
