-- needs: clock
-- kept: finished jobs kept for find and the consoles, and their trimming.
-- Finished jobs kept: with the topic's completed retention on, a job that completes (ack)
-- or is cancelled leaves its record in the finished hash (id -> outcome|finished ms in
-- base 36|attempts|instance|record; outcome C completed, X cancelled), for find. Each
-- outcome's batch list keeps the order: one element per call that kept jobs, cmsgpack
-- {finished ms, ids}, oldest first, so that the order costs one command per call rather
-- than a sorted set entry per job. The counts hash holds how many jobs of each outcome
-- the finished hash keeps. A kept job is not pending: a send with its id writes a new job,
-- and its own end overwrites what was kept (an id is kept with its last end only). Such
-- an end is noted in the again hash (id -> finished ms), so that dropping the batch of
-- the earlier end leaves the later one alone; a page skips a batch's id whose kept end is
-- not that batch's. Each call drops the batches its retention passed and the oldest jobs
-- beyond the count cap, KEPT_DROP_BUDGET jobs at most whatever the surplus (a count cap
-- lowered under a large kept set, a backlog past its retention): the rest goes over the
-- next calls and the scheduler's chore (trim-kept.lua), so that no call holds Redis for
-- long. The keys expire a sixteenth of the retention after it (see keep_finished), so a
-- topic where nothing finishes any more keeps nothing for much longer.
local KEPT_DROP_BUDGET = 1000
-- k: finished, counts, again (hashes), batches: {C = completed list, X = cancelled list};
-- count: how many jobs of the outcome are kept; budget: how many ids the call may still
-- look at. Returns how many are kept after the drop, and the budget left.
local function drop_kept(k, outcome, count, keep, most, now, budget)
  local again = nil
  while budget > 0 do
    local head = redis.call('LINDEX', k.batches[outcome], 0)
    if not head then
      break
    end
    local batch = cmsgpack.unpack(head)
    local at, ids = batch[1], batch[2]
    local take = math.min(#ids, budget)
    local young = at > now - keep
    if young then
      if count <= most then
        break
      end
      take = math.min(take, count - most)
    end
    if again == nil then
      again = redis.call('EXISTS', k.again) == 1
    end
    local later = again and redis.call('HMGET', k.again, unpack(ids, 1, take)) or {}
    local drop, ended = {}, {}
    for i = 1, take do
      local at_again = later[i] and tonumber(later[i])
      if not at_again or at_again <= at then
        drop[#drop + 1] = ids[i]
        if at_again then
          ended[#ended + 1] = ids[i]
        end
      end
    end
    if #drop > 0 then
      redis.call('HDEL', k.finished, unpack(drop))
      count = count - #drop
    end
    if #ended > 0 then
      redis.call('HDEL', k.again, unpack(ended))
    end
    if take == #ids then
      redis.call('LPOP', k.batches[outcome])
    else
      redis.call('LSET', k.batches[outcome], 0, cmsgpack.pack({at, {unpack(ids, take + 1)}}))
    end
    budget = budget - take
    -- Batches are in the order of the Redis clock: those after a batch too young to go by
    -- its age are too, and need not be read when the count is within the cap.
    if young and count <= most then
      break
    end
  end
  return count, budget
end
-- Take id out of its batch that finished at ms at, one of the newest batches of the list
-- (those not older than now). Needed when an id ends again within the millisecond of its
-- earlier end (or before it, if the Redis clock stepped back): the note in the again hash
-- and a page's check of the kept end compare times, which cannot tell the two ends apart.
local function unbatch(list, id, at, now)
  local index = -1
  while true do
    local element = redis.call('LINDEX', list, index)
    if not element then
      return
    end
    local batch = cmsgpack.unpack(element)
    if batch[1] < now then
      return
    end
    if batch[1] == at then
      local rest = {}
      for _, other in ipairs(batch[2]) do
        if other ~= id then
          rest[#rest + 1] = other
        end
      end
      if #rest < #batch[2] then
        if #rest == 0 then
          redis.call('LREM', list, -1, element)
        else
          redis.call('LSET', list, index, cmsgpack.pack({at, rest}))
        end
        return
      end
    end
    index = index - 1
  end
end
-- Keep jobs that just finished. spec: the script's retention argument
-- 'keep ms:most jobs:instance', '' when off; outcome 'C' or 'X'; ids, records and attempts
-- side by side (a missing record is skipped). Then drops what both outcomes no longer keep.
local function keep_finished(k, spec, outcome, ids, records, attempts, now)
  local keep, most, by = string.match(spec, '^(%d+):(%d+):(.*)$')
  keep, most = tonumber(keep), tonumber(most)
  local ended, kept = {}, {}
  local head = outcome .. '|' .. base36(now) .. '|'
  -- Most jobs of a call share their attempt count: each prefix is built once rather than
  -- for every job.
  local prefixes = {}
  for i, id in ipairs(ids) do
    if records[i] then
      local attempt = attempts[i] or '0'
      local prefix = prefixes[attempt]
      if not prefix then
        prefix = head .. (tonumber(attempt) or 0) .. '|' .. by .. '|'
        prefixes[attempt] = prefix
      end
      ended[#ended + 1] = id
      kept[#kept + 1] = id
      kept[#kept + 1] = prefix .. records[i]
    end
  end
  if #ended == 0 then
    return
  end
  -- The keys' expiry is set again once a sixteenth of the retention has passed since it
  -- last was (counts field e), for a little more than the retention, rather than by every
  -- call, which would add five commands to each. A key created in between gets its expiry
  -- when it is created.
  local state = redis.call('HMGET', k.counts, 'C', 'X', 'e')
  local counts = {C = tonumber(state[1]) or 0, X = tonumber(state[2]) or 0}
  local renewal = math.max(1, math.floor(keep / 16))
  local renewed = tonumber(state[3])
  local renew = not renewed or now - renewed >= renewal or now < renewed
  local before = redis.call('HMGET', k.finished, unpack(ended))
  for i, old in ipairs(before) do
    if old then
      local was = string.sub(old, 1, 1)
      counts[was] = counts[was] - 1
      redis.call('HSET', k.again, ended[i], now)
      redis.call('PEXPIRE', k.again, keep + renewal)
      local at = tonumber(string.match(old, '^%a|(%w+)|'), 36)
      if at >= now then
        unbatch(k.batches[was], ended[i], at, now)
      end
    end
  end
  redis.call('HSET', k.finished, unpack(kept))
  if redis.call('RPUSH', k.batches[outcome], cmsgpack.pack({now, ended})) == 1 and not renew then
    redis.call('PEXPIRE', k.batches[outcome], keep + renewal)
  end
  counts[outcome] = counts[outcome] + #ended
  -- The other outcome's batches are looked at only when it keeps jobs, and at each renewal
  -- for batches whose jobs all ended again since.
  local budget = KEPT_DROP_BUDGET
  for _, other in ipairs({'C', 'X'}) do
    if other == outcome or counts[other] > 0 or renew then
      counts[other], budget = drop_kept(k, other, counts[other], keep, most, now, budget)
    end
  end
  if renew then
    redis.call('HSET', k.counts, 'C', counts.C, 'X', counts.X, 'e', now)
    for _, key in ipairs({k.finished, k.counts, k.again, k.batches.C, k.batches.X}) do
      redis.call('PEXPIRE', key, keep + renewal)
    end
  else
    redis.call('HSET', k.counts, 'C', counts.C, 'X', counts.X)
  end
end
-- The keys of keep_finished from a script's KEYS, starting at first: finished, completed
-- list, cancelled list, counts, again.
local function kept_keys(first)
  return {finished = KEYS[first], batches = {C = KEYS[first + 1], X = KEYS[first + 2]},
    counts = KEYS[first + 3], again = KEYS[first + 4]}
end
