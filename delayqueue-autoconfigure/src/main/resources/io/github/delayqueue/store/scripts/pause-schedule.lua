-- pause-schedule: pauses or resumes a schedule. A pause withdraws the job written ahead
-- for a tick still to come and leaves no next tick; ticks falling due while paused are
-- neither run nor counted as missed. A resume starts again at the first tick after now,
-- its job written ahead when the schedule writes ahead. See schedule-prelude.lua for the
-- state.
-- KEYS[1] schedule states, KEYS[2] jobs, KEYS[3] delayed, KEYS[4] ready, KEYS[5] dead,
-- KEYS[6] attempts, KEYS[7] errors
-- ARGV[1] wake channel, ARGV[2] queue, ARGV[3] id, ARGV[4] 1 to pause or 0 to resume;
-- to resume also ARGV[5] hash, ARGV[6] writes ahead (1|0), ARGV[7] enabled (1|0),
-- ARGV[8] record tail, ARGV[9] cutoff (must not be after now), ARGV[10] n, then n ticks,
-- ascending, every tick after the cutoff up to the last one, which is after now
-- Returns {status, now, next, earliest due ms of a job written DELAYED or -1}; status is
-- 'done', 'same' (already so), 'absent', 'changed' (another definition: retry) or 'clock'
local now = redis_now()
local keys = {jobs = KEYS[2], delayed = KEYS[3], ready = KEYS[4], dead = KEYS[5], attempts = KEYS[6],
  errors = KEYS[7]}
local id = ARGV[3]
local raw = redis.call('HGET', KEYS[1], id)
if not raw then
  return {'absent', now, 0, -1}
end
local s = state_of(raw)
if s.paused == ARGV[4] then
  return {'same', now, s.next, -1}
end
local earliest = -1
if ARGV[4] == '1' then
  if s.ahead == '1' and s.next > now then
    withdraw(keys, id .. '@' .. s.next)
  end
  s.paused = '1'
  s.ahead = '0'
  s.next = 0
else
  if s.hash ~= ARGV[5] then
    return {'changed', now, s.next, -1}
  end
  local ticks = {}
  for j = 1, tonumber(ARGV[10]) do
    ticks[j] = tonumber(ARGV[10 + j])
  end
  local first = first_after(ticks, now)
  if not first or tonumber(ARGV[9]) > now then
    return {'clock', now, s.next, -1}
  end
  s.paused = '0'
  s.ahead = '0'
  s.next = 0
  if ARGV[7] == '1' then
    s.next = first
    if ARGV[6] == '1' then
      s.ahead = '1'
      local head = redis.call('ZRANGE', KEYS[3], 0, 0, 'WITHSCORES')
      if write_job(keys, id .. '@' .. first, first, now, ARGV[8]) == 'delayed' then
        earliest = first
        if ARGV[1] ~= '' and (#head == 0 or first < tonumber(head[2])) then
          redis.call('PUBLISH', ARGV[1], ARGV[2])
        end
      end
    end
  end
end
redis.call('HSET', KEYS[1], id, state_text(s))
return {'done', now, s.next, earliest}
