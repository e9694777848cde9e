-- needs: none
-- schedules: a schedule's state, its ticks and its log, for the schedule scripts.
-- A schedule's state, one field of the topic's schedule-states hash, is
-- "next|hash|paused|last|outcome|missed|lastJob":
--   next     the tick to decide next, epoch ms (0: none, while paused or disabled)
--   hash     the hash of the definition the state follows
--   paused   1 while paused
--   last     the latest tick decided, epoch ms (0: none yet)
--   outcome  what became of it: p produced, s skipped, m missed, t triggered by hand
--   missed   how many ticks were missed in all
--   lastJob  the tick (or time of trigger) of the latest job produced, for overlap: skip
-- A tick is decided when it falls due, never before: only then is it known whether the
-- last tick's job is still pending, and whether the instances ran while it fell due. Its
-- job, id '<schedule id>@<tick ms>', is an ordinary READY job of the topic's first queue,
-- written as enqueue.lua writes jobs (so keeping the ghost invariant, see claim.lua: an id
-- is pushed on the ready list only for a job that becomes READY here), due at the tick.
local function state_of(raw)
  local s, from = {}, 1
  while true do
    local bar = string.find(raw, '|', from, true)
    if not bar then
      s[#s + 1] = string.sub(raw, from)
      break
    end
    s[#s + 1] = string.sub(raw, from, bar - 1)
    from = bar + 1
  end
  return {next = tonumber(s[1]), hash = s[2], paused = s[3], last = tonumber(s[4]), outcome = s[5],
    missed = tonumber(s[6]), lastJob = tonumber(s[7])}
end
local function new_state(hash)
  return {next = 0, hash = hash, paused = '0', last = 0, outcome = '', missed = 0, lastJob = 0}
end
local function state_text(s)
  return string.format('%d|%s|%s|%d|%s|%d|%d', s.next, s.hash, s.paused, s.last, s.outcome, s.missed, s.lastJob)
end
-- The first of ascending ticks after now, or nil when the ticks given do not reach now
-- or start after it (the caller's estimate of the Redis clock was off): then the call is
-- refused with 'clock' and built again.
local function first_after(ticks, cutoff, now)
  if cutoff > now then
    return nil
  end
  for _, tick in ipairs(ticks) do
    if tick > now then
      return tick
    end
  end
  return nil
end
-- Reads n ticks from ARGV, from index 'at' on.
local function ticks_at(at, n)
  local ticks = {}
  for j = 1, n do
    ticks[j] = tonumber(ARGV[at + j - 1])
  end
  return ticks
end
-- Adds an entry 'tick:outcome:count' to a schedule's log, newest first, keeping 'length'.
local function log_tick(key, tick, outcome, count, length)
  redis.call('LPUSH', key, string.format('%d:%s:%d', tick, outcome, count))
  redis.call('LTRIM', key, 0, length - 1)
end
