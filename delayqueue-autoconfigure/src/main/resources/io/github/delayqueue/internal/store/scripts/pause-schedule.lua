-- needs: clock, schedules
-- pause-schedule: pauses or resumes a schedule. A paused schedule has no next tick; ticks
-- falling due while it is paused are neither run nor counted as missed. A resume starts
-- again at the first tick after now. See lib/schedules.lua for the state.
-- KEYS[1] schedule states
-- ARGV[1] id, ARGV[2] 1 to pause or 0 to resume; to resume also ARGV[3] hash, ARGV[4]
-- enabled (1|0), ARGV[5] cutoff (must not be after now), ARGV[6] n, then n ticks,
-- ascending, every tick after the cutoff up to the last one, which is after now
-- Returns {status, now, next}; status is 'done', 'same' (already so), 'absent', 'changed'
-- (another definition: retry) or 'clock' (retry)
local now = redis_now()
local id = ARGV[1]
local raw = redis.call('HGET', KEYS[1], id)
if not raw then
  return {'absent', now, 0}
end
local s = state_of(raw)
if s.paused == ARGV[2] then
  return {'same', now, s.next}
end
if ARGV[2] == '1' then
  s.paused = '1'
  s.next = 0
else
  if s.hash ~= ARGV[3] then
    return {'changed', now, s.next}
  end
  local first = first_after(ticks_at(7, tonumber(ARGV[6])), tonumber(ARGV[5]), now)
  if not first then
    return {'clock', now, s.next}
  end
  s.paused = '0'
  s.next = (ARGV[4] == '1') and first or 0
end
redis.call('HSET', KEYS[1], id, state_text(s))
return {'done', now, s.next}
