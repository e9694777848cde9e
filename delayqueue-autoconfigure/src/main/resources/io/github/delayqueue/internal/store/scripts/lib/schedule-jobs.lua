-- needs: clock, timeline
-- schedule-jobs: the jobs a schedule's ticks produce.
-- Writes a job READY, due at a time that came. Returns false when the id is pending. t,
-- from timeline() (nil when the topic's timeline is off), gets the new job's SENT event,
-- by this instance, with the detail saying which schedule sent it.
local function write_job(keys, id, due, now, tail, t, detail)
  local record = base36(now) .. '|' .. base36(due) .. '|' .. tail
  local stored = redis.call('HSETNX', keys.jobs, id, record) == 1
  if not stored and redis.call('ZREM', keys.dead, id) == 1 then
    redis.call('HSET', keys.jobs, id, record)
    redis.call('HDEL', keys.attempts, id)
    redis.call('HDEL', keys.errors, id)
    stored = true
  end
  if stored then
    redis.call('LPUSH', keys.ready, id)
    if t then
      record_sent(t, now, detail, {id}, {due})
    end
  end
  return stored
end
