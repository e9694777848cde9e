-- schedule-prelude: functions the schedule scripts share; prepended to each of them, after
-- prelude.lua.
-- A schedule's state, one field of the topic's schedule-states hash, is
-- "next|hash|paused|ahead|last|outcome|missed|lastJob":
--   next     the tick to decide next, epoch ms (0: none, while paused or disabled)
--   hash     the hash of the definition the state follows
--   paused   1 while paused
--   ahead    1 when next's job was written ahead, DELAYED and due at next
--   last     the latest tick decided, epoch ms (0: none yet)
--   outcome  what became of it: p produced, s skipped, m missed, t triggered by hand
--   missed   how many ticks were missed in all
--   lastJob  the tick (or time of trigger) of the latest job produced, for overlap: skip
-- A tick's job id is '<schedule id>@<tick ms>'; it is an ordinary job of the topic's
-- first queue, written as enqueue.lua writes jobs (and so keeping the ghost invariant, see
-- claim.lua: an id is pushed on the ready list only for a job that becomes READY here).
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
  return {next = tonumber(s[1]), hash = s[2], paused = s[3], ahead = s[4], last = tonumber(s[5]),
    outcome = s[6], missed = tonumber(s[7]), lastJob = tonumber(s[8])}
end
local function new_state(hash)
  return {next = 0, hash = hash, paused = '0', ahead = '0', last = 0, outcome = '', missed = 0, lastJob = 0}
end
local function state_text(s)
  return string.format('%d|%s|%s|%s|%d|%s|%d|%d', s.next, s.hash, s.paused, s.ahead, s.last, s.outcome, s.missed,
    s.lastJob)
end
-- Writes a job due at a time: READY (pushed on the ready list) when due by now, DELAYED
-- otherwise. Returns 'ready', 'delayed', or nil when the id is pending already.
local function write_job(keys, id, due, now, tail)
  local record = base36(now) .. '|' .. base36(due) .. '|' .. tail
  local stored = redis.call('HSETNX', keys.jobs, id, record) == 1
  if not stored and redis.call('ZREM', keys.dead, id) == 1 then
    redis.call('HSET', keys.jobs, id, record)
    redis.call('HDEL', keys.attempts, id)
    redis.call('HDEL', keys.errors, id)
    stored = true
  end
  if not stored then
    return nil
  end
  if due <= now then
    redis.call('LPUSH', keys.ready, id)
    return 'ready'
  end
  redis.call('ZADD', keys.delayed, due, id)
  return 'delayed'
end
-- Withdraws a job that is still DELAYED (as cancel.lua does); true if it was.
local function withdraw(keys, id)
  if redis.call('ZREM', keys.delayed, id) == 0 then
    return false
  end
  redis.call('HDEL', keys.jobs, id)
  redis.call('HDEL', keys.attempts, id)
  redis.call('HDEL', keys.errors, id)
  return true
end
-- The first of ascending ticks after now; nil when none is (the caller's clock was behind).
local function first_after(ticks, now)
  for _, tick in ipairs(ticks) do
    if tick > now then
      return tick
    end
  end
  return nil
end
-- Adds an entry 'tick:outcome:count' to a schedule's log, newest first, keeping 'length'.
local function log_tick(key, tick, outcome, count, length)
  redis.call('LPUSH', key, string.format('%d:%s:%d', tick, outcome, count))
  redis.call('LTRIM', key, 0, length - 1)
end
