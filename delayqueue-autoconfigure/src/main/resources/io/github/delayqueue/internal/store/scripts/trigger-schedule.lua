-- needs: clock, timeline, schedules, schedule-jobs
-- trigger-schedule: puts a job of a schedule into its topic now, READY, besides its ticks,
-- paused or not; its id is '<schedule id>@<now ms>'. It counts as the latest job for
-- overlap: skip. See lib/schedules.lua for the state.
-- KEYS[1] schedule states, KEYS[2] jobs, KEYS[3] ready, KEYS[4] dead, KEYS[5] attempts,
-- KEYS[6] errors, KEYS[7] the schedule's log
-- ARGV[1] id, ARGV[2] hash, ARGV[3] record tail, ARGV[4] log length, ARGV[5] the timeline
-- argument (see lib/timeline.lua; '' when off: the job starts its timeline with SENT)
-- Returns {status, job id}; status is 'triggered', 'absent', 'changed' (another
-- definition: retry) or 'busy' (a job with that id is pending: retry)
local now = redis_now()
local keys = {jobs = KEYS[2], ready = KEYS[3], dead = KEYS[4], attempts = KEYS[5], errors = KEYS[6]}
local id = ARGV[1]
local raw = redis.call('HGET', KEYS[1], id)
if not raw then
  return {'absent', ''}
end
local s = state_of(raw)
if s.hash ~= ARGV[2] then
  return {'changed', ''}
end
local job = id .. '@' .. now
if not write_job(keys, job, now, now, ARGV[3], timeline(ARGV[5]), 'schedule ' .. id .. ', by hand') then
  return {'busy', job}
end
s.lastJob = now
redis.call('HSET', KEYS[1], id, state_text(s))
log_tick(KEYS[7], now, 't', 1, tonumber(ARGV[4]))
return {'triggered', job}
