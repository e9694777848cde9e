-- needs: keys
-- release-permits: settled or handed-back deliveries give back their global concurrency
-- permits and their group's (see acquire-permits). Not a transition. Giving back a permit
-- that expired, or was given back before, changes nothing.
-- KEYS[1] the topic's permits (zset)
-- ARGV[1] the deliveries' group ('' for none), ARGV[2..] the deliveries' members
-- Returns how many permits were given back
local members = {unpack(ARGV, 2)}
local released = redis.call('ZREM', KEYS[1], unpack(members))
if ARGV[1] ~= '' then
  released = released + redis.call('ZREM', queue_key(KEYS[1], 'permits', 'group-permits:' .. ARGV[1]),
    unpack(members))
end
return {released}
