-- needs: clock, timeline, schedules, schedule-jobs
-- activate-schedule: a schedule's definition takes effect in its topic: stored, and its
-- state created or moved to the new definition. A new schedule starts at the first tick
-- after now. A changed one whose next tick has not fallen due goes on from the first tick
-- after now under the new definition. A changed one whose next tick N fell due while no
-- instance decided it (every instance was down, say) goes on from the new definition's
-- first tick at or after N, which produce-tick then decides under the new definition: the
-- ticks that fell due since are run or counted missed by the new misfire policy, as after
-- any downtime. That tick comes from the caller, who computes it from the N this script
-- answered with ('behind') and calls again; it is taken only while N is still the state's.
-- A paused schedule stays paused; a disabled one has no next tick (a tick that fell due
-- under the old definition is decided at once). The same definition again changes
-- nothing. See lib/schedules.lua for the state.
-- KEYS[1] schedule states, KEYS[2] schedule definitions (hash id -> JSON), KEYS[3] jobs,
-- KEYS[4] ready, KEYS[5] dead, KEYS[6] attempts, KEYS[7] errors, KEYS[8] the log
-- ARGV[1] id, ARGV[2] hash, ARGV[3] definition JSON, ARGV[4] enabled (1|0), ARGV[5] record
-- tail of the new definition, ARGV[6] log length, ARGV[7] cutoff (must not be after now),
-- ARGV[8] the timeline argument (see lib/timeline.lua; '' when off), ARGV[9] n, then
-- n ticks, ascending, every tick after the cutoff up to the last one, which is after now,
-- then optionally the N answered by 'behind' and the new definition's first tick at or
-- after it
-- Returns {status, now, next}; status is 'same', 'activated', 'behind' (next is N: call
-- again with the first tick at or after it) or 'clock' (retry)
local now = redis_now()
local keys = {jobs = KEYS[3], ready = KEYS[4], dead = KEYS[5], attempts = KEYS[6], errors = KEYS[7]}
local id, hash = ARGV[1], ARGV[2]
local raw = redis.call('HGET', KEYS[1], id)
local s = raw and state_of(raw) or new_state(hash)
if raw and s.hash == hash then
  redis.call('HSET', KEYS[2], id, ARGV[3])
  return {'same', now, s.next}
end
local first = first_after(ticks_at(10, tonumber(ARGV[9])), tonumber(ARGV[7]), now)
if not first then
  return {'clock', now, s.next}
end
local n = tonumber(ARGV[9])
local enabled = ARGV[4] == '1'
if raw and enabled and s.paused == '0' and s.next > 0 and s.next <= now then
  -- Fell due under the old definition and not decided yet: the new one decides it.
  local behind, resume = tonumber(ARGV[10 + n]), tonumber(ARGV[11 + n])
  if behind ~= s.next or not resume then
    return {'behind', now, s.next}
  end
  redis.call('HSET', KEYS[2], id, ARGV[3])
  s.hash = hash
  s.next = resume
  redis.call('HSET', KEYS[1], id, state_text(s))
  return {'activated', now, s.next}
end
redis.call('HSET', KEYS[2], id, ARGV[3])
if raw and s.paused == '0' and s.next > 0 and s.next <= now then
  -- Disabled from now on: the tick that fell due under the old definition is decided now.
  if write_job(keys, id .. '@' .. s.next, s.next, now, ARGV[5], timeline(ARGV[8]), 'schedule ' .. id) then
    s.lastJob = s.next
  end
  s.last = s.next
  s.outcome = 'p'
  log_tick(KEYS[8], s.next, 'p', 1, tonumber(ARGV[6]))
end
s.hash = hash
s.next = (enabled and s.paused == '0') and first or 0
redis.call('HSET', KEYS[1], id, state_text(s))
return {'activated', now, s.next}
