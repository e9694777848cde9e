-- read-timeline: one job's timeline (see timeline in prelude.lua), its entries joined by
-- newlines, oldest first. Not a transition: a timeline that expired but is not deleted yet
-- reads as none.
-- KEYS[1] the topic's timelines (hash), KEYS[2] their ends (sorted set)
-- ARGV[1] the job's id
-- Returns {} when none is recorded, else {entries}
local text = redis.call('HGET', KEYS[1], ARGV[1])
if not text then
  return {}
end
local expires = redis.call('ZSCORE', KEYS[2], ARGV[1])
if expires and tonumber(expires) <= redis_now() and ended_by(text) then
  return {}
end
return {text}
