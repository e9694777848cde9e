-- read-timeline: one job's timeline (see timeline in prelude.lua), oldest entry first. Not a
-- transition.
-- KEYS[1] the job's timeline (list)
-- Returns the entries; empty when none is recorded
return redis.call('LRANGE', KEYS[1], 0, -1)
