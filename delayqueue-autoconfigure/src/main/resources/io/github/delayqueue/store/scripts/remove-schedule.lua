-- remove-schedule: removes a schedule from its topic: its definition, state and log, and
-- the job written ahead for its next tick while that job is still DELAYED. Jobs of ticks
-- that fell due are left to run. See schedule-prelude.lua for the state.
-- KEYS[1] schedule states, KEYS[2] schedule definitions, KEYS[3] jobs, KEYS[4] delayed,
-- KEYS[5] attempts, KEYS[6] errors, KEYS[7] the schedule's log
-- ARGV[1] id
-- Returns {1} if the topic held the schedule, {0} otherwise
local keys = {jobs = KEYS[3], delayed = KEYS[4], attempts = KEYS[5], errors = KEYS[6]}
local id = ARGV[1]
local raw = redis.call('HGET', KEYS[1], id)
if raw then
  local s = state_of(raw)
  if s.ahead == '1' and s.next > 0 then
    withdraw(keys, id .. '@' .. s.next)
  end
end
local removed = redis.call('HDEL', KEYS[1], id) + redis.call('HDEL', KEYS[2], id)
redis.call('DEL', KEYS[7])
return {(removed > 0) and 1 or 0}
