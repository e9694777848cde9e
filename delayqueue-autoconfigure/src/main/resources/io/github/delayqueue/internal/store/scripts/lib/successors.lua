-- needs: clock, timeline
-- successors: the new version of a RUNNING job, which takes its place when the delivery ends.
-- Successors: a send with IfPending.REPLACE that finds its job RUNNING cannot change the
-- delivery in progress; it keeps the new version, a whole record, in the successors hash.
-- Whichever script ends that delivery (ack, retry, bury, release, or the sweep when its
-- time to run elapses) calls take_over, and the new version becomes the job, DELAYED or
-- READY by its own due time, with no attempts and no error yet. So a successor exists only
-- for a RUNNING job, and a replacement is never lost to a delivery that was already under
-- way. k holds the topic's key names (from KEYS): jobs, delayed, ready, attempts, errors,
-- successors. now may be nil: the clock is read only when there is a successor. The wake
-- channel is published when the new version is the earliest delayed job. t, from
-- timeline() (nil when off), gets a READY event when the new version is due now (its send
-- recorded it as replaced). Returns its due time in ms, or nil if the job had no successor.
local function take_over(k, id, now, channel, queue, t)
  local record = redis.call('HGET', k.successors, id)
  if not record then
    return nil
  end
  now = now or redis_now()
  redis.call('HDEL', k.successors, id)
  redis.call('HSET', k.jobs, id, record)
  redis.call('HDEL', k.attempts, id)
  redis.call('HDEL', k.errors, id)
  local due = tonumber(string.match(record, '^%w+|(%w+)|') or '', 36) or now
  if due <= now then
    redis.call('LPUSH', k.ready, id)
    if t then
      record_events(t, id, event('R', now))
    end
    return now
  end
  local head = redis.call('ZRANGE', k.delayed, 0, 0, 'WITHSCORES')
  redis.call('ZADD', k.delayed, due, id)
  if channel and channel ~= '' and (#head == 0 or due < tonumber(head[2])) then
    redis.call('PUBLISH', channel, queue)
  end
  return due
end
