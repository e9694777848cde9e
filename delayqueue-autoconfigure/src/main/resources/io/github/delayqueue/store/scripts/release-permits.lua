-- release-permits: settled or handed-back deliveries give back their global concurrency
-- permits (see acquire-permits). Not a transition. Giving back a permit that expired, or
-- was given back before, changes nothing.
-- KEYS[1] the topic's permits (zset)
-- ARGV the deliveries' members
-- Returns how many permits were given back
return {redis.call('ZREM', KEYS[1], unpack(ARGV))}
