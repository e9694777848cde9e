-- needs: none
-- remove-schedule: removes a schedule from its topic: its definition, state and log. Jobs
-- its ticks produced are ordinary jobs and left to run.
-- KEYS[1] schedule states, KEYS[2] schedule definitions, KEYS[3] the schedule's log
-- ARGV[1] id
-- Returns {1} if the topic held the schedule, {0} otherwise
local removed = redis.call('HDEL', KEYS[1], ARGV[1]) + redis.call('HDEL', KEYS[2], ARGV[1])
redis.call('DEL', KEYS[3])
return {(removed > 0) and 1 or 0}
