-- needs: clock, timeline
-- reschedule: DELAYED or READY -> DELAYED (or READY for a zero delay) with a new due time
-- from the Redis clock. RUNNING and DEAD jobs are not rescheduled. Never searches the
-- ready list, whatever its length: a READY job given a delay leaves its id in the ready
-- (or claiming) list as a ghost, counted in the ghosts hash, which claim.lua drops when it
-- comes up; a READY job given a zero delay stays where it is with its due time rewritten.
-- Ghost invariant: for every id, the entries of the ready and claiming lists number 1 if
-- the job is READY, else 0, plus ghosts[id]; ghosts[''] holds the sum of all ghosts[id].
-- KEYS[1] jobs, KEYS[2] delayed, KEYS[3] ready, KEYS[4] running, KEYS[5] dead,
-- KEYS[6] ghosts (hash id -> ghost entries, '' -> their total)
-- ARGV[1] id, ARGV[2] delay ms, ARGV[3] wake channel, ARGV[4] topic, ARGV[5] the timeline
-- argument (see lib/timeline.lua; '' or absent when off): RESCHEDULED with the new
-- due time
-- Returns {1, due ms} if rescheduled, {0, -1} if the job was gone, running or dead
-- O(1) and O(log N) commands only.
local id = ARGV[1]
local record = redis.call('HGET', KEYS[1], id)
if not record then
  return {0, -1}
end
local delayed = redis.call('ZSCORE', KEYS[2], id)
if not delayed and (redis.call('ZSCORE', KEYS[4], id) or redis.call('ZSCORE', KEYS[5], id)) then
  return {0, -1}
end
local now = redis_now()
local delay = tonumber(ARGV[2])
local due = now + delay
local t = timeline(ARGV[5])
if t then
  record_events(t, id, event('H', now, 0, t.by, due))
end
local created, rest = string.match(record, '^(%w+)|%w+|(.*)$')
if created then
  redis.call('HSET', KEYS[1], id, created .. '|' .. base36(due) .. '|' .. rest)
end
if delay <= 0 then
  if delayed then
    redis.call('ZREM', KEYS[2], id)
    redis.call('LPUSH', KEYS[3], id)
  end
  return {1, now}
end
if not delayed then
  -- READY: its entry in the ready or claiming list becomes a ghost.
  redis.call('HINCRBY', KEYS[6], id, 1)
  redis.call('HINCRBY', KEYS[6], '', 1)
end
local head = redis.call('ZRANGE', KEYS[2], 0, 0, 'WITHSCORES')
redis.call('ZADD', KEYS[2], due, id)
if ARGV[3] ~= '' and (#head == 0 or due < tonumber(head[2])) then
  redis.call('PUBLISH', ARGV[3], ARGV[4])
end
return {1, due}
