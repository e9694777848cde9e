-- needs: clock, timeline, errors, successors
-- retry: RUNNING -> DELAYED (or READY when the backoff is zero) after a failed delivery
-- that has attempts left. Fenced by the delivery's attempt number. The new due time is
-- written into the record so that the next delivery reports it.
-- Ghosts (see claim.lua): the job was RUNNING, so it had no entry in the ready list; it
-- gets one only when it becomes READY, which keeps the ghost invariant.
-- A fenced delivery whose deadline is still ahead was retried by this very call's first run,
-- sent again after its reply was lost (see ack.lua): it counts as scheduled, at the due time
-- that run wrote.
-- A job with a successor (see lib/successors.lua) is not retried: its new version takes
-- its place, due at its own time.
-- KEYS[1] running, KEYS[2] delayed, KEYS[3] ready, KEYS[4] jobs, KEYS[5] attempts, KEYS[6] errors,
-- KEYS[7] successors
-- ARGV[1] id, ARGV[2] attempt, ARGV[3] backoff ms, ARGV[4] error, ARGV[5] wake channel, ARGV[6] queue,
-- ARGV[7] the delivery's deadline ms as the claim set it (optional), ARGV[8] '1' to give the
-- delivery's attempt back (the job was refused for a while, it did not fail; optional),
-- ARGV[9] the timeline argument (see lib/timeline.lua; '' or absent when off): a
-- failure records FAILED (the error's first line, cut short) and RETRIED with the new due
-- time, a job given its attempt back RETRIED only
-- Returns {1, due ms} if scheduled (now or by the first run), {0, -1} if fenced
local id = ARGV[1]
if not redis.call('ZSCORE', KEYS[1], id) or redis.call('HGET', KEYS[5], id) ~= ARGV[2] then
  local now = redis_now()
  if ARGV[7] and now < tonumber(ARGV[7]) then
    local due = string.match(redis.call('HGET', KEYS[4], id) or '', '^%w+|(%w+)|')
    return {1, due and tonumber(due, 36) or now}
  end
  return {0, -1}
end
local record = redis.call('HGET', KEYS[4], id)
redis.call('ZREM', KEYS[1], id)
if not record then
  redis.call('HDEL', KEYS[5], id)
  redis.call('HDEL', KEYS[6], id)
  return {0, -1}
end
local now = redis_now()
local t = timeline(ARGV[9])
if t and ARGV[8] ~= '1' then
  record_events(t, id, event('F', now, ARGV[2], t.by, nil, error_summary(ARGV[4])))
end
local successor = take_over({jobs = KEYS[4], delayed = KEYS[2], ready = KEYS[3], attempts = KEYS[5],
  errors = KEYS[6], successors = KEYS[7]}, id, now, ARGV[5], ARGV[6], t)
if successor then
  return {1, successor}
end
local delay = tonumber(ARGV[3])
local due = now + delay
if t then
  record_events(t, id, event('T', now, ARGV[2], t.by, due))
end
local created, rest = string.match(record, '^(%w+)|%w+|(.*)$')
if created then
  redis.call('HSET', KEYS[4], id, created .. '|' .. base36(due) .. '|' .. rest)
end
redis.call('HSET', KEYS[6], id, ARGV[4])
if ARGV[8] == '1' and redis.call('HINCRBY', KEYS[5], id, -1) <= 0 then
  redis.call('HDEL', KEYS[5], id)
end
if delay <= 0 then
  redis.call('LPUSH', KEYS[3], id)
  return {1, now}
end
local head = redis.call('ZRANGE', KEYS[2], 0, 0, 'WITHSCORES')
redis.call('ZADD', KEYS[2], due, id)
if ARGV[5] ~= '' and (#head == 0 or due < tonumber(head[2])) then
  redis.call('PUBLISH', ARGV[5], ARGV[6])
end
return {1, due}
