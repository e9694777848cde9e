-- activate-schedule: a schedule's definition takes effect in its topic: stored, and its
-- state created or moved to the new definition. A new schedule starts at the first tick
-- after now. A changed one keeps the ticks that fell due (their jobs run) and goes on from
-- the first tick after now under the new definition: a job written ahead for a tick still
-- to come is withdrawn first, so that no tick runs twice or is lost. A paused schedule
-- stays paused; a disabled one has no next tick. The same definition again changes
-- nothing. See schedule-prelude.lua for the state.
-- KEYS[1] schedule states, KEYS[2] schedule definitions (hash id -> JSON), KEYS[3] jobs,
-- KEYS[4] delayed, KEYS[5] ready, KEYS[6] dead, KEYS[7] attempts, KEYS[8] errors
-- ARGV[1] wake channel, ARGV[2] queue, ARGV[3] id, ARGV[4] hash, ARGV[5] definition JSON,
-- ARGV[6] writes ahead (1|0), ARGV[7] enabled (1|0), ARGV[8] record tail, ARGV[9] cutoff (must not be after now),
-- ARGV[10] n, then n ticks, ascending, every tick after the cutoff up to the last one, which
-- is after now
-- Returns {status, now, next, earliest due ms of a job written DELAYED or -1}; status is
-- 'same', 'activated' or 'clock' (the ticks given do not reach now: retry)
local now = redis_now()
local keys = {jobs = KEYS[3], delayed = KEYS[4], ready = KEYS[5], dead = KEYS[6], attempts = KEYS[7],
  errors = KEYS[8]}
local id, hash = ARGV[3], ARGV[4]
local ticks = {}
for j = 1, tonumber(ARGV[10]) do
  ticks[j] = tonumber(ARGV[10 + j])
end
local raw = redis.call('HGET', KEYS[1], id)
local s = raw and state_of(raw) or new_state(hash)
if raw and s.hash == hash then
  redis.call('HSET', KEYS[2], id, ARGV[5])
  return {'same', now, s.next, -1}
end
local first = first_after(ticks, now)
if not first or tonumber(ARGV[9]) > now then
  return {'clock', now, s.next, -1}
end
redis.call('HSET', KEYS[2], id, ARGV[5])
if raw and s.ahead == '1' and s.next > now then
  withdraw(keys, id .. '@' .. s.next)
end
s.hash = hash
s.ahead = '0'
s.next = 0
local earliest = -1
if ARGV[7] == '1' and s.paused == '0' then
  s.next = first
  if ARGV[6] == '1' then
    s.ahead = '1'
    local head = redis.call('ZRANGE', KEYS[4], 0, 0, 'WITHSCORES')
    if write_job(keys, id .. '@' .. first, first, now, ARGV[8]) == 'delayed' then
      earliest = first
      if ARGV[1] ~= '' and (#head == 0 or first < tonumber(head[2])) then
        redis.call('PUBLISH', ARGV[1], ARGV[2])
      end
    end
  end
end
redis.call('HSET', KEYS[1], id, state_text(s))
return {'activated', now, s.next, earliest}
