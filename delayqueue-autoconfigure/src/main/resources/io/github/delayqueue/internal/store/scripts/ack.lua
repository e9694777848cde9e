-- needs: clock, timeline, successors, kept
-- ack: RUNNING -> gone, for one or more deliveries of a queue. Each is fenced by its
-- attempt number: an acknowledgement for a delivery that expired, or was delivered again
-- since, changes nothing. A job with a successor (see lib/successors.lua) is not gone:
-- its new version takes its place. With the topic's completed retention on, a job that is
-- gone is kept as completed (see keep_finished in lib/kept.lua).
-- Settled already: before a delivery's time-to-run deadline nothing but that delivery
-- moves its job out of RUNNING (the sweep requeues only after it, and no other delivery
-- exists), so a fenced delivery whose deadline is still ahead was settled by this very
-- call's first run, sent again after its reply was lost: it counts as acknowledged. After
-- the deadline the two cannot be told apart, and it counts as fenced.
-- KEYS[1] running, KEYS[2] jobs, KEYS[3] attempts, KEYS[4] errors, KEYS[5] delayed,
-- KEYS[6] ready, KEYS[7] successors, then the keys of keep_finished: KEYS[8] finished,
-- KEYS[9] completed, KEYS[10] cancelled, KEYS[11] finished counts, KEYS[12] finished again
-- Timelines (see lib/timeline.lua): COMPLETED for each delivery acknowledged, by this
-- instance; the timeline of a job that is gone then expires.
-- ARGV[1] wake channel, ARGV[2] queue, ARGV[3] the retention argument of keep_finished
-- ('' when off), ARGV[4] the timeline argument ('' when off), then per delivery: id,
-- attempt, deadline ms (by the Redis clock, as the claim set it; -1 if unknown)
-- Returns one integer per delivery, in order: 1 if acknowledged (now or by the first run),
-- 0 if fenced
-- One command per key for the whole batch (ZMSCORE, HMGET, variadic ZREM and HDEL): the
-- cost per command, not per id, dominates; TIME is read only when a delivery is fenced or
-- a successor takes over, and the successors hash only when it exists.
local ids = {}
for i = 5, #ARGV, 3 do
  ids[#ids + 1] = ARGV[i]
end
local out = {}
if #ids == 0 then
  return out
end
local deadlines = redis.call('ZMSCORE', KEYS[1], unpack(ids))
local attempts = redis.call('HMGET', KEYS[3], unpack(ids))
local done, doneAttempts = {}, {}
local now
for i, id in ipairs(ids) do
  if deadlines[i] and attempts[i] == ARGV[3 * i + 3] then
    done[#done + 1] = id
    doneAttempts[#done] = attempts[i]
    out[i] = 1
  else
    now = now or redis_now()
    out[i] = (now < tonumber(ARGV[3 * i + 4])) and 1 or 0
  end
end
if #done == 0 then
  return out
end
redis.call('ZREM', KEYS[1], unpack(done))
local t = timeline(ARGV[4])
if t then
  now = now or redis_now()
  log_steps(t, 'C', now, t.by, nil, step_groups(done, doneAttempts))
end
local gone = done
if redis.call('EXISTS', KEYS[7]) == 1 then
  now = now or redis_now()
  local k = {jobs = KEYS[2], delayed = KEYS[5], ready = KEYS[6], attempts = KEYS[3], errors = KEYS[4],
    successors = KEYS[7]}
  gone = {}
  local goneAttempts = {}
  for i, id in ipairs(done) do
    if not take_over(k, id, now, ARGV[1], ARGV[2], t) then
      gone[#gone + 1] = id
      goneAttempts[#gone] = doneAttempts[i]
    end
  end
  if #gone == 0 then
    return out
  end
  doneAttempts = goneAttempts
end
if ARGV[3] ~= '' then
  now = now or redis_now()
  keep_finished(kept_keys(8), ARGV[3], 'C', gone,
    redis.call('HMGET', KEYS[2], unpack(gone)), doneAttempts, now)
end
redis.call('HDEL', KEYS[2], unpack(gone))
redis.call('HDEL', KEYS[3], unpack(gone))
redis.call('HDEL', KEYS[4], unpack(gone))
if t then
  end_timelines(t, gone)
end
return out
