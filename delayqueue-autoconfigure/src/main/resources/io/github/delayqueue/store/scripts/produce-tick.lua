-- produce-tick: decides the ticks of schedules of one topic that fell due, each exactly
-- once however many instances call it at once: a schedule's call is applied only while the
-- state's next tick is the one the caller expects, and the time is read from the Redis
-- clock. For each schedule whose next tick N fell due:
--  * when no later tick fell due as well, N is decided on time: its job was written
--    ahead (overlap: allow), or is written now, READY, unless overlap is skip and the job
--    of the last tick that produced one is still pending (delayed, ready or running);
--  * when later ticks fell due too, no instance ran for a whole period: those ticks, and N
--    unless its job left DELAYED (then it ran), are missed, and the misfire policy decides:
--    once runs the latest, skip none, all the latest 'limit' oldest first; missed jobs
--    still DELAYED are withdrawn.
-- Then the first tick after now becomes the next one, its job written ahead (DELAYED) when
-- the schedule writes ahead. See schedule-prelude.lua for the state.
-- KEYS[1] schedule states (hash id -> state), KEYS[2] jobs, KEYS[3] delayed, KEYS[4] ready,
-- KEYS[5] dead, KEYS[6] attempts, KEYS[7] errors, KEYS[7 + i] the log of the i-th schedule
-- ARGV[1] wake channel, ARGV[2] queue, ARGV[3] log length, then per schedule: id, hash,
-- expected next, writes ahead (1|0), misfire (once|skip|all), catch-up limit, overlap
-- (allow|skip), record tail, the first tick after next, older (due ticks counted but not
-- listed, all before the listed ones), cutoff (no tick listed or counted is later than it
-- and not listed; must not be after now), n, then n ticks after next, ascending, the last
-- one after now
-- Returns {now ms, earliest due ms of a job written DELAYED or -1, then per schedule:
-- status, next, produced, skipped, missed}; status is 'done', 'early' (next not due yet),
-- 'stale' (next is not the expected one), 'changed' (another definition), 'paused',
-- 'absent' (no such schedule) or 'clock' (the ticks given do not reach now: retry)
local now = redis_now()
local keys = {jobs = KEYS[2], delayed = KEYS[3], ready = KEYS[4], dead = KEYS[5], attempts = KEYS[6],
  errors = KEYS[7]}
local log_length = tonumber(ARGV[3])
local head = redis.call('ZRANGE', KEYS[3], 0, 0, 'WITHSCORES')
local earliest = -1
local out = {now, -1}

local function pending(id)
  return redis.call('HEXISTS', keys.jobs, id) == 1 and not redis.call('ZSCORE', keys.dead, id)
end

local function decide(log, id, hash, expected, ahead, misfire, limit, overlap, tail, first, older, cutoff, ticks)
  local raw = redis.call('HGET', KEYS[1], id)
  if not raw then
    return 'absent', 0, 0, 0, 0
  end
  local s = state_of(raw)
  if s.hash ~= hash then
    return 'changed', s.next, 0, 0, 0
  end
  if s.paused == '1' then
    return 'paused', s.next, 0, 0, 0
  end
  if s.next ~= expected then
    return 'stale', s.next, 0, 0, 0
  end
  if s.next == 0 or now < s.next then
    return 'early', s.next, 0, 0, 0
  end
  if cutoff > now or #ticks == 0 or ticks[#ticks] <= now then
    return 'clock', s.next, 0, 0, 0
  end
  local n = s.next
  local due = {}
  for _, tick in ipairs(ticks) do
    if tick <= now then
      due[#due + 1] = tick
    end
  end
  local produced, skipped, missed = 0, 0, 0
  local overlapping = overlap == 'skip' and s.lastJob > 0 and pending(id .. '@' .. s.lastJob)
  if older + #due == 0 then
    if s.ahead == '1' then
      produced = 1
    elseif overlapping then
      skipped = 1
    elseif write_job(keys, id .. '@' .. n, n, now, tail) then
      produced = 1
      s.lastJob = n
    end
    s.last = n
    s.outcome = (skipped == 1) and 's' or 'p'
    log_tick(log, n, s.outcome, 1, log_length)
  else
    -- N counts as missed unless its job was written ahead and left DELAYED: then it ran.
    local seq = {}
    local kept_n = false
    if s.ahead ~= '1' or redis.call('ZSCORE', keys.delayed, id .. '@' .. n) then
      seq[1] = n
    end
    local with_n = #seq
    for _, tick in ipairs(due) do
      seq[#seq + 1] = tick
    end
    local total = with_n + older + #due
    local runs = {}
    if misfire == 'once' then
      runs[1] = seq[#seq]
    elseif misfire == 'all' then
      for j = math.max(1, #seq - limit + 1), #seq do
        runs[#runs + 1] = seq[j]
      end
    end
    if #runs > 0 and overlapping then
      skipped = #runs
      runs = {}
    end
    for _, tick in ipairs(runs) do
      if tick == n and s.ahead == '1' then
        kept_n = true
      else
        write_job(keys, id .. '@' .. tick, tick, now, tail)
        s.lastJob = tick
      end
      produced = produced + 1
    end
    if with_n == 1 and s.ahead == '1' and not kept_n then
      withdraw(keys, id .. '@' .. n)
    end
    missed = total - produced - skipped
    if missed > 0 then
      log_tick(log, (with_n == 1) and n or first, 'm', missed, log_length)
    end
    if skipped > 0 then
      log_tick(log, seq[#seq], 's', skipped, log_length)
    end
    for _, tick in ipairs(runs) do
      log_tick(log, tick, 'p', 1, log_length)
    end
    s.last = seq[#seq]
    s.outcome = (produced > 0) and 'p' or ((skipped > 0) and 's' or 'm')
    s.missed = s.missed + missed
  end
  s.next = first_after(ticks, now)
  s.ahead = ahead
  if ahead == '1' and write_job(keys, id .. '@' .. s.next, s.next, now, tail) == 'delayed' then
    if earliest < 0 or s.next < earliest then
      earliest = s.next
    end
  end
  redis.call('HSET', KEYS[1], id, state_text(s))
  return 'done', s.next, produced, skipped, missed
end

local i = 4
local k = 0
while i <= #ARGV do
  k = k + 1
  local count = tonumber(ARGV[i + 11])
  local ticks = {}
  for j = 1, count do
    ticks[j] = tonumber(ARGV[i + 11 + j])
  end
  local status, next, produced, skipped, missed = decide(KEYS[7 + k], ARGV[i], ARGV[i + 1], tonumber(ARGV[i + 2]),
    ARGV[i + 3], ARGV[i + 4], tonumber(ARGV[i + 5]), ARGV[i + 6], ARGV[i + 7], tonumber(ARGV[i + 8]),
    tonumber(ARGV[i + 9]), tonumber(ARGV[i + 10]), ticks)
  out[#out + 1] = status
  out[#out + 1] = next
  out[#out + 1] = produced
  out[#out + 1] = skipped
  out[#out + 1] = missed
  i = i + 12 + count
end
if earliest >= 0 then
  out[2] = earliest
  if ARGV[1] ~= '' and (#head == 0 or earliest < tonumber(head[2])) then
    redis.call('PUBLISH', ARGV[1], ARGV[2])
  end
end
return out
