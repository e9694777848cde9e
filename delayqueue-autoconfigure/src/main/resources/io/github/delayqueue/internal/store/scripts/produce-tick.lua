-- needs: clock, timeline, schedules, schedule-jobs
-- produce-tick: decides the ticks of schedules of one topic that fell due, each exactly
-- once however many instances call it at once: a schedule's part of the call is applied
-- only while the state's next tick N is the one the caller expects, and the time is read
-- from the Redis clock. For each schedule whose N fell due:
--  * when no later tick fell due as well, N is on time: its job is written, unless overlap
--    is skip and the job of the latest tick that produced one is still pending (delayed,
--    ready or running): then N is skipped;
--  * a tick whose job id ('<schedule id>@<tick ms>') is already held by a pending job (one
--    triggered by hand in the tick's millisecond) writes nothing and counts as skipped;
--  * when later ticks fell due too, no instance decided N for a whole period: of N and the
--    later due ticks the misfire policy decides which run: once the latest, skip none,
--    all the latest 'limit' of them, oldest first (overlap: skip applies to the run as to
--    an on-time tick); the others are missed.
-- Then the first tick after now becomes N. See lib/schedules.lua for the state.
-- KEYS[1] schedule states (hash id -> state), KEYS[2] jobs, KEYS[3] ready, KEYS[4] dead,
-- KEYS[5] attempts, KEYS[6] errors, KEYS[6 + i] the log of the i-th schedule
-- ARGV[1] log length, ARGV[2] the timeline argument (see lib/timeline.lua; '' when
-- off: a job written starts its timeline with SENT), ARGV[3] how far ahead of the Redis
-- clock the ticks are decided, ms (0 but for tests that move a topic's time forward, see
-- DelayQueueTester), then per schedule: id, hash, expected N, misfire (once|skip|all),
-- catch-up limit, overlap (allow|skip), record tail, the first tick after N, older (due
-- ticks after N counted but not listed, all before the listed ones), cutoff (every tick
-- after it up to the last listed is listed; must not be after now), n, then n ticks
-- after N, ascending, the last one after now
-- Returns {now ms, then per schedule: status, N now, produced, skipped, missed, the latest
-- tick decided (0 unless done)}; status is
-- 'done', 'early' (N not due yet), 'stale' (N is not the expected one), 'changed' (another
-- definition), 'paused', 'absent' (no such schedule) or 'clock' (retry)
local now = redis_now() + tonumber(ARGV[3])
local keys = {jobs = KEYS[2], ready = KEYS[3], dead = KEYS[4], attempts = KEYS[5], errors = KEYS[6]}
local log_length = tonumber(ARGV[1])
local t = timeline(ARGV[2])

local function pending(id)
  return redis.call('HEXISTS', keys.jobs, id) == 1 and not redis.call('ZSCORE', keys.dead, id)
end

local function decide(log, id, hash, expected, misfire, limit, overlap, tail, first, older, cutoff, ticks)
  local raw = redis.call('HGET', KEYS[1], id)
  if not raw then
    return 'absent', 0, 0, 0, 0, 0
  end
  local s = state_of(raw)
  if s.hash ~= hash then
    return 'changed', s.next, 0, 0, 0, 0
  end
  if s.paused == '1' then
    return 'paused', s.next, 0, 0, 0, 0
  end
  if s.next ~= expected then
    return 'stale', s.next, 0, 0, 0, 0
  end
  if s.next == 0 or now < s.next then
    return 'early', s.next, 0, 0, 0, 0
  end
  local next = first_after(ticks, cutoff, now)
  if not next then
    return 'clock', s.next, 0, 0, 0, 0
  end
  -- seq: N, then the later ticks that fell due (the 'older' ones counted, not listed).
  local seq = {s.next}
  for _, tick in ipairs(ticks) do
    if tick <= now then
      seq[#seq + 1] = tick
    end
  end
  local total = #seq + older
  local runs = {}
  if total == 1 or misfire == 'once' then
    runs[1] = seq[#seq]
  elseif misfire == 'all' then
    for j = math.max(1, #seq - limit + 1), #seq do
      runs[#runs + 1] = seq[j]
    end
  end
  local skipped = 0
  if #runs > 0 and overlap == 'skip' and s.lastJob > 0 and pending(id .. '@' .. s.lastJob) then
    skipped = #runs
    runs = {}
  end
  local missed = total - #runs - skipped
  if missed > 0 then
    log_tick(log, s.next, 'm', missed, log_length)
  end
  if skipped > 0 then
    log_tick(log, seq[#seq], 's', skipped, log_length)
  end
  local produced = 0
  for _, tick in ipairs(runs) do
    if write_job(keys, id .. '@' .. tick, tick, now, tail, t, 'schedule ' .. id) then
      log_tick(log, tick, 'p', 1, log_length)
      s.lastJob = tick
      produced = produced + 1
    else
      -- A pending job holds the tick's id (a job triggered by hand in the tick's
      -- millisecond, or sent with that id): nothing was written, the tick is skipped.
      log_tick(log, tick, 's', 1, log_length)
      skipped = skipped + 1
    end
  end
  s.last = seq[#seq]
  s.outcome = (produced > 0) and 'p' or ((skipped > 0) and 's' or 'm')
  s.missed = s.missed + missed
  s.next = next
  redis.call('HSET', KEYS[1], id, state_text(s))
  return 'done', s.next, produced, skipped, missed, s.last
end

local out = {now}
local i = 4
local k = 0
while i <= #ARGV do
  k = k + 1
  local n = tonumber(ARGV[i + 10])
  local status, next, produced, skipped, missed, last = decide(KEYS[6 + k], ARGV[i], ARGV[i + 1], tonumber(ARGV[i + 2]),
    ARGV[i + 3], tonumber(ARGV[i + 4]), ARGV[i + 5], ARGV[i + 6], tonumber(ARGV[i + 7]), tonumber(ARGV[i + 8]),
    tonumber(ARGV[i + 9]), ticks_at(i + 11, n))
  out[#out + 1] = status
  out[#out + 1] = next
  out[#out + 1] = produced
  out[#out + 1] = skipped
  out[#out + 1] = missed
  out[#out + 1] = last
  i = i + 11 + n
end
return out
