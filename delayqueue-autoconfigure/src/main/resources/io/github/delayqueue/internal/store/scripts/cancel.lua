-- needs: clock, timeline, kept
-- cancel: DELAYED or READY -> gone. A job that a consumer is holding (RUNNING) or that is
-- DEAD is not cancelled. Never searches the ready list, whatever its length: a READY job's
-- id stays in the ready (or claiming) list as a ghost, counted in the ghosts hash, and
-- claim.lua drops it when it comes up. Ghost invariant: for every id, the entries of the
-- ready and claiming lists number 1 if the job is READY, else 0, plus ghosts[id]; the
-- empty field ghosts[''] holds the sum of all ghosts[id] (no job id is empty).
-- A RUNNING job's successor (see lib/successors.lua) is pending too: cancelling the job
-- removes it, and the delivery under way goes on. With the topic's completed retention on,
-- a cancelled job is kept as cancelled (see keep_finished in lib/kept.lua).
-- KEYS[1] jobs, KEYS[2] delayed, KEYS[3] running, KEYS[4] dead, KEYS[5] attempts,
-- KEYS[6] errors, KEYS[7] ghosts (hash id -> ghost entries, '' -> their total),
-- KEYS[8] successors, then the keys of keep_finished: KEYS[9] finished, KEYS[10] completed,
-- KEYS[11] cancelled, KEYS[12] finished counts, KEYS[13] finished again
-- Timelines (see lib/timeline.lua): CANCELLED with who asked; the timeline of a job
-- that is gone then expires (a running job whose successor was cancelled goes on).
-- ARGV[1] id, ARGV[2] the retention argument of keep_finished ('' when off), ARGV[3] the
-- timeline argument ('' or absent when off), ARGV[4] who asked (api, endpoint, dashboard)
-- Returns 1 if cancelled, 0 if the job was gone, dead or running without a successor
-- O(1) and O(log N) commands only.
local id = ARGV[1]
if redis.call('HEXISTS', KEYS[1], id) == 0 then
  return 0
end
if redis.call('ZREM', KEYS[2], id) == 0 then
  if redis.call('ZSCORE', KEYS[3], id) then
    local cancelled = redis.call('HDEL', KEYS[8], id)
    local t = timeline(ARGV[3])
    if t and cancelled == 1 then
      record_events(t, id, event('X', redis_now(), 0, t.by, nil, ARGV[4]))
    end
    return cancelled
  end
  if redis.call('ZSCORE', KEYS[4], id) then
    return 0
  end
  -- READY: its entry in the ready or claiming list becomes a ghost.
  redis.call('HINCRBY', KEYS[7], id, 1)
  redis.call('HINCRBY', KEYS[7], '', 1)
end
if ARGV[2] ~= '' then
  keep_finished(kept_keys(9), ARGV[2], 'X', {id},
    {redis.call('HGET', KEYS[1], id)}, {redis.call('HGET', KEYS[5], id)}, redis_now())
end
redis.call('HDEL', KEYS[1], id)
redis.call('HDEL', KEYS[5], id)
redis.call('HDEL', KEYS[6], id)
local t = timeline(ARGV[3])
if t then
  record_events(t, id, event('X', redis_now(), 0, t.by, nil, ARGV[4]))
  end_timeline(t, id)
end
return 1
