-- prelude: functions every script may use; it is prepended to each script when loaded.
-- The Redis server's clock in epoch milliseconds: the only clock that decides anything.
-- Second result: the microseconds past that millisecond.
local function redis_now()
  local t = redis.call('TIME')
  local micros = tonumber(t[2])
  return tonumber(t[1]) * 1000 + math.floor(micros / 1000), micros % 1000
end
-- Job records keep their two times in base 36, 8 characters instead of 13. Epoch
-- milliseconds from 1972 to 2059 have exactly 8 base-36 digits: those are worked out
-- without a loop or a table, which took a quarter of an enqueue call's time in Redis.
local function base36_digit(d)
  return (d < 10) and (48 + d) or (87 + d)
end
local function base36(n)
  n = math.floor(n)
  if n < 78364164096 or n >= 2821109907456 then
    local bytes = {}
    repeat
      local d = n % 36
      table.insert(bytes, 1, base36_digit(d))
      n = (n - d) / 36
    until n == 0
    return string.char(unpack(bytes))
  end
  local h = n % 36; n = (n - h) / 36
  local g = n % 36; n = (n - g) / 36
  local f = n % 36; n = (n - f) / 36
  local e = n % 36; n = (n - e) / 36
  local d = n % 36; n = (n - d) / 36
  local c = n % 36; n = (n - c) / 36
  local b = n % 36
  local a = (n - b) / 36
  return string.char(base36_digit(a), base36_digit(b), base36_digit(c), base36_digit(d), base36_digit(e),
    base36_digit(f), base36_digit(g), base36_digit(h))
end
-- Timelines: with the topic's timeline on, every script that moves a job records what it
-- did, in the same call as the move. An event is 'type|at ms in base 36|attempt|instance|due
-- ms in base 36|detail', empty fields for none (attempt 0 included); types: S sent, P
-- replaced, R ready, G claimed, F failed, T retried, L released, E expired, D dead, Q
-- requeued, H rescheduled, X cancelled, C completed. Events go to two places:
-- - The queue's step log: every event, in the order the calls ran, in lists of one time
--   slot each (see log_steps). A call appends one element per kind of step whatever the
--   number of jobs it moved, so that the steps of a batch (a sweep's READY, a claim's
--   CLAIMED, an acknowledgement's COMPLETED, a send's SENT) cost one command, not one per
--   job. A slot expires twice the keep time after it ends.
-- - The job's own list, for the steps a job may outlive the log with: every step but
--   READY by the sweep, CLAIMED, COMPLETED, and SENT when the job is due within the keep
--   time. A list keeps the most recent events up to the cap, trimmed only when over it; it
--   never expires while its job is pending (a job may wait for weeks) nor while it is dead
--   (it goes when the dead job is purged); when the job completes or is cancelled, it
--   expires after the argument's keep ms. The queue's list set ('<prefix>/lists') holds
--   the ids of the jobs with a list that does not expire yet, so that an acknowledgement
--   finds the few of its jobs that have one by asking one key (and none at all when the
--   set is empty) rather than building every job's list name. A member whose list is gone
--   (its job was sent again) or whose job is gone (it ended while the timeline was off)
--   is taken out by the scheduler's chore (trim-timeline-lists.lua), which also sets the
--   expiry of such a list: the set names no more than the queue's jobs, and is gone
--   with the last of them.
-- A reader takes the job's steps from the log, and those of its list that the log no
-- longer holds before them; a job sent again with the id of a finished or dead one starts
-- a new timeline at its SENT, and a purge marks the log ('~') so that nothing before it is
-- read for the id.
-- The argument is 'cap|keep ms|instance|key prefix', '' (or nil) when the topic's timeline
-- is off: timeline() reads it once per call and returns nil then, which is all a script
-- does with it when off.
local function timeline(spec)
  if not spec or spec == '' then
    return nil
  end
  local cap, keep, by, prefix = string.match(spec, '^(%d+)|(%d+)|([^|]*)|(.*)$')
  return {cap = tonumber(cap), keep = tonumber(keep), by = by, prefix = prefix}
end
-- A call records its steps at one time, mostly of first or early attempts: their text is
-- worked out once per call, as formatting them for every job of a batch took Lua about
-- as long as the RPUSH that stores the event.
local event_time, event_time_text = nil, nil
local attempt_texts = {}
-- One timeline entry; due and detail may be nil.
local function event(letter, now, attempt, by, due, detail)
  if now ~= event_time then
    event_time, event_time_text = now, base36(now)
  end
  local n = tonumber(attempt) or 0
  local attempt_text = attempt_texts[n]
  if not attempt_text then
    attempt_text = (n > 0) and tostring(n) or ''
    attempt_texts[n] = attempt_text
  end
  return letter .. '|' .. event_time_text .. '|' .. attempt_text .. '|' .. (by or '') .. '|'
    .. (due and base36(due) or '') .. '|' .. (detail or '')
end
-- The step log's slots: a sixtieth of the keep time, from a second to a minute, so that a
-- short keep time is not held up by a long slot, nor a long one spread over many.
local function log_slot_ms(keep)
  return math.max(1000, math.min(60000, math.floor(keep / 60)))
end
-- Appends one element to the step log of the queue whose timeline key prefix is given:
-- the slot of now, created with its expiry (twice keep after the slot ends) and entered
-- in the log's index of slots (start ms -> start ms), which lasts as long as its newest
-- slot.
local function append_log(prefix, keep, now, element)
  local slot_ms = log_slot_ms(keep)
  local start = now - now % slot_ms
  local key = prefix .. '/log:' .. start
  if redis.call('RPUSH', key, element) == 1 then
    local index = prefix .. '/log-slots'
    local life = start + slot_ms - now + 2 * keep
    redis.call('PEXPIRE', key, life)
    redis.call('ZADD', index, start, start)
    redis.call('ZREMRANGEBYSCORE', index, '-inf', '(' .. (now - 2 * keep - 2 * slot_ms))
    if redis.call('PTTL', index) < life then
      redis.call('PEXPIRE', index, life)
    end
  end
end
-- Marks the step log of a queue, if it has one, so that its readers take nothing of a job
-- before the mark (a purged job): the mark goes to the newest slot, after which every
-- later step is written, whatever the keep time of the instance that writes it.
local function mark_log(prefix, now, id)
  local newest = redis.call('ZRANGE', prefix .. '/log-slots', -1, -1)
  if #newest == 1 then
    redis.call('RPUSHX', prefix .. '/log:' .. newest[1], cmsgpack.pack({'~', now, '', '', {0, -1, {id}}}))
  end
end
-- Appends steps of one kind, taken at one time, to the step log in one element: the
-- MessagePack of {type, at ms, instance, detail, then per group of jobs that share their
-- attempt and due time: {attempt, due ms or -1, ids}}. groups is that list of groups (see
-- step_groups); t from timeline(). A batch's ids go into the element as the script holds
-- them: Lua does no work per job, which took most of the timeline's time in Redis when each
-- job had its own id, attempt and due time in the element.
local function log_steps(t, letter, now, by, detail, groups)
  if #groups == 0 then
    return
  end
  local element = {letter, now, by or '', detail or ''}
  for i = 1, #groups do
    element[4 + i] = groups[i]
  end
  append_log(t.prefix, t.keep, now, cmsgpack.pack(element))
end
-- Groups for log_steps of ids that differ in one value: values[i] is ids[i]'s attempt (or
-- due ms, with by_due); a nil values gives one group of attempt 0, no due time. Most calls
-- hold one group: a batch's jobs mostly share their attempt and due time.
local function step_groups(ids, values, by_due)
  if not values then
    return (#ids > 0) and {{0, -1, ids}} or {}
  end
  local groups, index = {}, {}
  for i, id in ipairs(ids) do
    local value = values[i] or 0
    local group = index[value]
    if not group then
      local number = tonumber(value) or 0
      group = by_due and {0, number, {}} or {number, -1, {}}
      index[value] = group
      groups[#groups + 1] = group
    end
    local members = group[3]
    members[#members + 1] = id
  end
  return groups
end
-- Appends events (entries from event()) to a job's list in one RPUSH, and each to the
-- step log; t from timeline().
local function record_events(t, id, ...)
  local key = t.prefix .. id
  if redis.call('RPUSH', key, ...) > t.cap then
    redis.call('LTRIM', key, -t.cap, -1)
  end
  redis.call('SADD', t.prefix .. '/lists', id)
  for _, entry in ipairs({...}) do
    local letter, at, attempt, by, due, detail = string.match(entry, '^(%a)|(%w+)|(%d*)|([^|]*)|(%w*)|(.*)$')
    append_log(t.prefix, t.keep, tonumber(at, 36), cmsgpack.pack({letter, tonumber(at, 36), by, detail,
      {tonumber(attempt) or 0, (due ~= '') and tonumber(due, 36) or -1, {id}}}))
  end
end
-- The SENT steps of new jobs sent at one time: ids and their due ms side by side. The
-- lists of earlier jobs of their ids are cleared (a new job starts a new timeline) in one
-- DEL, a job due after the keep time gets a new list with its step (it may outlive the
-- log), and all the steps go to the log in one element.
local function record_sent(t, now, detail, ids, dues)
  local lists = {}
  for i, id in ipairs(ids) do
    lists[i] = t.prefix .. id
  end
  for i = 1, #lists, 500 do
    redis.call('DEL', unpack(lists, i, math.min(i + 499, #lists)))
  end
  local listed = {}
  for i, due in ipairs(dues) do
    if due > now + t.keep then
      redis.call('RPUSH', lists[i], event('S', now, 0, t.by, due, detail))
      listed[#listed + 1] = ids[i]
    end
  end
  for i = 1, #listed, 500 do
    redis.call('SADD', t.prefix .. '/lists', unpack(listed, i, math.min(i + 499, #listed)))
  end
  log_steps(t, 'S', now, t.by, detail, step_groups(ids, dues, true))
end
-- The end of jobs that completed: the lists of those that have one (most have none: their
-- steps are all in the log) expire after the keep time.
local function end_timelines(t, ids)
  local set = t.prefix .. '/lists'
  if #ids == 0 or redis.call('EXISTS', set) == 0 then
    return
  end
  local ended = {}
  for i, member in ipairs(redis.call('SMISMEMBER', set, unpack(ids))) do
    if member == 1 then
      redis.call('PEXPIRE', t.prefix .. ids[i], t.keep)
      ended[#ended + 1] = ids[i]
    end
  end
  if #ended > 0 then
    redis.call('SREM', set, unpack(ended))
  end
end
-- The end of a job (completed or cancelled): its timeline expires after the keep time.
local function end_timeline(t, id)
  redis.call('PEXPIRE', t.prefix .. id, t.keep)
  redis.call('SREM', t.prefix .. '/lists', id)
end
-- An error's first line (class and message, no stack frames), cut to at most 200 bytes
-- without splitting a UTF-8 character.
local function error_summary(text)
  local line = string.match(text or '', '^[^\n]*')
  if #line <= 200 then
    return line
  end
  local cut = 200
  -- Back over continuation bytes to the character they belong to, and drop it.
  while cut > 0 and string.byte(line, cut + 1) and string.byte(line, cut + 1) >= 128
    and string.byte(line, cut + 1) < 192 do
    cut = cut - 1
  end
  return string.sub(line, 1, cut)
end
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
  -- Most jobs of a call share their attempt count: each prefix is built once, as turning
  -- a count into text for every job took about as long as the rest of the copy.
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
  -- call: five PEXPIREs took a tenth of a call. A key created in between gets its expiry
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
-- Fair groups: a job sent with a group (JobRequest.Builder#group) carries it in its
-- record's own field, 'created|due|ttr|max attempts|group|headers|payload', empty for
-- none; the group holds neither '|' nor a space (JobConstraints.checkGroup), and no script
-- reads the headers' JSON. The first such job marks its queue's groups hash, and from then
-- on claims take the queue's ready jobs in turns by group (see claim.lua).
-- A record's group, '' for none or for no record.
local function group_of(record)
  return record and string.match(record, '^[^|]*|[^|]*|[^|]*|[^|]*|([^|]*)|') or ''
end
-- Another key of the same queue: key, whose name ends in own, with own replaced by name.
local function queue_key(key, own, name)
  return string.sub(key, 1, #key - #own) .. name
end
-- How many READY jobs' entries wait in a queue's group lists (see claim.lua), 0 when its
-- jobs have no groups; ready is the queue's ready list key.
local function parked_entries(ready)
  return tonumber(redis.call('HGET', queue_key(ready, 'ready', 'groups'), '')) or 0
end
