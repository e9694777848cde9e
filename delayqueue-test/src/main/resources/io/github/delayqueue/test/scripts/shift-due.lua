-- needs: clock
-- shift-due: for tests (the delayqueue-test module), not used by the queue itself. Moves a
-- queue's clock-driven times earlier, as if time had passed for it: DELAYED jobs stay
-- DELAYED with their due times (the sorted set's scores, and the due and creation times in
-- their records) moved earlier, and RUNNING deliveries keep running with their time-to-run
-- deadlines moved earlier. No job changes state here: the scheduler's next sweep moves
-- those now due or expired, as it would have at their old times. Times never go below 0.
-- Every delayed or running job of the queue is rewritten in this one call, so it is meant
-- for the few jobs of a test, not for a production backlog.
-- KEYS[1] delayed (zset id -> due ms), KEYS[2] jobs (hash id -> record), KEYS[3] running
-- (zset id -> deadline ms)
-- ARGV[1] ms to move DELAYED due times earlier, or -1 for as much as makes every one of them
-- due now, ARGV[2] ms to move RUNNING deadlines earlier (either may be 0), ARGV[3] wake
-- channel or '', ARGV[4] the queue's name
-- Returns {delayed jobs moved, delayed jobs due now, earliest due ms or -1, running
-- deliveries moved, earliest deadline ms or -1, now ms}. The queue's name is published on
-- the wake channel when anything moved, so that every scheduler sweeps it at once.
local now = redis_now()

-- Moves every score of a sorted set earlier by ms (none for 0), in slices of 500 ids per
-- ZADD. Returns how many moved, how many scores are at or before now, and the earliest score.
local function shift(key, ms)
  local entries = redis.call('ZRANGE', key, 0, -1, 'WITHSCORES')
  if #entries == 0 then
    return 0, 0, -1
  end
  local reached = 0
  local args = {}
  for i = 1, #entries, 2 do
    local score = math.max(0, tonumber(entries[i + 1]) - ms)
    if score <= now then
      reached = reached + 1
    end
    if ms > 0 then
      args[#args + 1] = score
      args[#args + 1] = entries[i]
      if #args == 1000 then
        redis.call('ZADD', key, unpack(args))
        args = {}
      end
    end
  end
  if #args > 0 then
    redis.call('ZADD', key, unpack(args))
  end
  return (ms > 0) and (#entries / 2) or 0, reached, math.max(0, tonumber(entries[2]) - ms)
end

local delayedMs = tonumber(ARGV[1])
if delayedMs < 0 then
  -- Every job due now: as much earlier as the last one is ahead.
  local last = redis.call('ZRANGE', KEYS[1], -1, -1, 'WITHSCORES')
  delayedMs = (#last == 0) and 0 or math.max(0, tonumber(last[2]) - now)
end
local moved, due, earliestDue = shift(KEYS[1], delayedMs)
if moved > 0 then
  -- The records carry the same times, so that a job's due time reads alike wherever it is
  -- read, and its age since creation stays what it was.
  for _, id in ipairs(redis.call('ZRANGE', KEYS[1], 0, -1)) do
    local record = redis.call('HGET', KEYS[2], id)
    local created, dueAt, rest = string.match(record or '', '^(%w+)|(%w+)|(.*)$')
    if created then
      redis.call('HSET', KEYS[2], id, base36(math.max(0, tonumber(created, 36) - delayedMs)) .. '|'
        .. base36(math.max(0, tonumber(dueAt, 36) - delayedMs)) .. '|' .. rest)
    end
  end
end
local running, _, earliestDeadline = shift(KEYS[3], tonumber(ARGV[2]))
if (moved > 0 or running > 0) and ARGV[3] ~= '' then
  redis.call('PUBLISH', ARGV[3], ARGV[4])
end
return {moved, due, earliestDue, running, earliestDeadline, now}
