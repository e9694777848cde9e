-- needs: clock, keys, timeline, successors, groups
-- release: RUNNING -> READY for a delivery that was claimed but never started (the
-- consumer is shutting down). The delivery is not counted, and the job goes to the
-- consuming end of the ready list so another consumer takes it at once.
-- Ghosts (see claim.lua): the job was RUNNING, so it had no entry in the ready list; its
-- one new entry (in the ready list or its group's line) keeps the ghost invariant.
-- A job with a successor (see lib/successors.lua) is not released: its new version
-- takes its place.
-- KEYS[1] running, KEYS[2] ready, KEYS[3] attempts, KEYS[4] jobs, KEYS[5] delayed,
-- KEYS[6] errors, KEYS[7] successors
-- ARGV[1] id, ARGV[2] attempt, ARGV[3] wake channel, ARGV[4] queue, ARGV[5] the timeline
-- argument (see lib/timeline.lua; '' or absent when off): RELEASED
-- Returns 1 if released (or replaced by its successor), 0 if fenced
local id = ARGV[1]
if not redis.call('ZSCORE', KEYS[1], id) or redis.call('HGET', KEYS[3], id) ~= ARGV[2] then
  return 0
end
redis.call('ZREM', KEYS[1], id)
local t = timeline(ARGV[5])
local now
if t then
  now = redis_now()
  record_events(t, id, event('L', now, ARGV[2], t.by))
end
if take_over({jobs = KEYS[4], delayed = KEYS[5], ready = KEYS[2], attempts = KEYS[3], errors = KEYS[6],
  successors = KEYS[7]}, id, now, ARGV[3], ARGV[4], t) then
  return 1
end
if redis.call('HINCRBY', KEYS[3], id, -1) <= 0 then
  redis.call('HDEL', KEYS[3], id)
end
-- A queue whose jobs take turns by group (see lib/group-turns.lua): with a job put forward, the job
-- goes back to the head of its group's line, where it was, rather than behind the jobs of
-- its group that became ready after it; without one, it is put forward itself, so that a
-- waiting consumer wakes for it and a claim that holds its group returns it to the head
-- of that line.
local groups = queue_key(KEYS[2], 'ready', 'groups')
local marked, forward = unpack(redis.call('HMGET', groups, '', 'p'))
if marked then
  local group = group_of(redis.call('HGET', KEYS[4], id))
  if not forward then
    redis.call('RPUSH', KEYS[2], id)
    redis.call('HSET', groups, 'p', id, 'pg', group)
    return 1
  end
  if redis.call('LPUSH', queue_key(KEYS[2], 'ready', 'group:') .. group, id) == 1 then
    redis.call('LPUSH', queue_key(KEYS[2], 'ready', 'group-turns'), group)
  end
  redis.call('HINCRBY', groups, '', 1)
  return 1
end
redis.call('RPUSH', KEYS[2], id)
return 1
