-- needs: none
-- revive-partition: a send met a partition's retirement mark: the partition goes back into
-- its topic's partition set, and the revival is counted, so that a retirement under way
-- can no longer take it out (see forget-partitions.lua); run on the topic's slot. The
-- sender then lifts the mark (unretire-partition.lua) and sends again.
-- KEYS[1] the topic's partition set, KEYS[2] its revival count, KEYS[3] the topic's pause
-- mark
-- ARGV[1] the queue
-- Returns 1 if the topic is paused, else 0
redis.call('SADD', KEYS[1], ARGV[1])
redis.call('INCR', KEYS[2])
return redis.call('EXISTS', KEYS[3])
