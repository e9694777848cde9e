-- needs: clock, timeline, successors
-- sweep: the two transitions the clock drives, for one topic, in one call:
-- DELAYED -> READY for jobs whose due time has come, oldest first. The ready list is
-- consumed from its right end, so jobs pushed on the left in due order are taken in due
-- order.
-- RUNNING -> READY (attempts left) or RUNNING -> DEAD (none left) for deliveries whose time
-- to run has elapsed. Requeued jobs go to the consuming end of the ready list: they are
-- overdue already. A running id whose record vanished is dropped.
-- Both sorted sets' heads are read first, so that a sweep that finds nothing to do (the
-- common case: most sweeps are safety nets) costs two ZRANGEs, and a TIME only when a set
-- holds something.
-- Ghosts (see claim.lua): ids are pushed on the ready list only for jobs that become READY
-- here (DELAYED or RUNNING before), which keeps the ghost invariant.
-- An expired delivery of a job with a successor (see lib/successors.lua) is neither
-- requeued nor dead: its new version takes its place, and counts as requeued.
-- KEYS[1] delayed (zset id -> due ms), KEYS[2] ready (list), KEYS[3] running (zset id ->
-- deadline ms), KEYS[4] dead (zset id -> ms), KEYS[5] jobs, KEYS[6] attempts (hash id ->
-- deliveries), KEYS[7] errors (hash id -> text), KEYS[8] successors
-- Timelines (see lib/timeline.lua): READY for each job moved there when due; for an
-- expired delivery EXPIRED, then RETRIED (due now) or DEAD; no instance for any of them.
-- ARGV[1] most jobs to move per transition, ARGV[2] topic's max attempts, ARGV[3] the
-- timeline argument ('' or absent when off)
-- Returns {promoted, next due ms or -1, requeued, dead, vanished, next deadline ms or -1,
-- now ms or -1 when both sets were empty, microseconds past now's millisecond, then the ids
-- of the jobs made dead, if any}; the microseconds let the scheduler wake at a due time's
-- start rather than anywhere in the millisecond
local delayedHead = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
local runningHead = redis.call('ZRANGE', KEYS[3], 0, 0, 'WITHSCORES')
if #delayedHead == 0 and #runningHead == 0 then
  return {0, -1, 0, 0, 0, -1, -1, 0}
end
local now, micros = redis_now()
local limit = tonumber(ARGV[1])
local t = timeline(ARGV[3])

-- The ids of a sorted set scored at or before now, at most limit of them.
local function due(key, head)
  if #head == 0 or tonumber(head[2]) > now then
    return {}
  end
  return redis.call('ZRANGEBYSCORE', key, '-inf', now, 'LIMIT', 0, limit)
end

-- The lowest score of a sorted set, or -1; the head read before still holds when
-- nothing was taken from the set.
local function earliest(key, head, taken)
  if taken > 0 then
    head = redis.call('ZRANGE', key, 0, 0, 'WITHSCORES')
  end
  if #head == 0 then
    return -1
  end
  return tonumber(head[2])
end

local promote = due(KEYS[1], delayedHead)
for i = 1, #promote, 500 do
  local last = math.min(i + 499, #promote)
  redis.call('ZREM', KEYS[1], unpack(promote, i, last))
  redis.call('LPUSH', KEYS[2], unpack(promote, i, last))
end
if t then
  log_steps(t, 'R', now, nil, nil, step_groups(promote))
end

local expired = due(KEYS[3], runningHead)
local requeued, dead, vanished = 0, 0, 0
-- Successors make delayed jobs too: the next due time is read after them.
local tookOver = 0
local k
if #expired > 0 and redis.call('EXISTS', KEYS[8]) == 1 then
  k = {jobs = KEYS[5], delayed = KEYS[1], ready = KEYS[2], attempts = KEYS[6], errors = KEYS[7],
    successors = KEYS[8]}
end
local deadIds = {}
for _, id in ipairs(expired) do
  redis.call('ZREM', KEYS[3], id)
  local record = redis.call('HGET', KEYS[5], id)
  if not record then
    redis.call('HDEL', KEYS[6], id)
    redis.call('HDEL', KEYS[7], id)
    if k then
      redis.call('HDEL', KEYS[8], id)
    end
    vanished = vanished + 1
  else
    local attempts = tonumber(redis.call('HGET', KEYS[6], id)) or 0
    if t then
      record_events(t, id, event('E', now, attempts))
    end
    if k and take_over(k, id, now, nil, nil, t) then
      requeued = requeued + 1
      tookOver = tookOver + 1
    else
      local max = tonumber(string.match(record, '^%w+|%w+|%d*|(%d*)|')) or tonumber(ARGV[2])
      if attempts >= max then
        redis.call('ZADD', KEYS[4], now, id)
        redis.call('HSET', KEYS[7], id, 'Time to run elapsed on attempt ' .. attempts .. ' of ' .. max)
        dead = dead + 1
        deadIds[dead] = id
        if t then
          record_events(t, id, event('D', now, attempts))
        end
      else
        redis.call('RPUSH', KEYS[2], id)
        redis.call('HSET', KEYS[7], id, 'Time to run elapsed on attempt ' .. attempts)
        requeued = requeued + 1
        if t then
          record_events(t, id, event('T', now, attempts, nil, now))
        end
      end
    end
  end
end
local nextDue = earliest(KEYS[1], delayedHead, #promote + tookOver)
local nextDeadline = earliest(KEYS[3], runningHead, #expired)

local out = {#promote, nextDue, requeued, dead, vanished, nextDeadline, now, micros}
for i = 1, dead do
  out[8 + i] = deadIds[i]
end
return out
