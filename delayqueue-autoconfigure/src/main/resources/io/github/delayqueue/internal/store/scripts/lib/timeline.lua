-- needs: clock
-- timeline: what every script that moves a job records of it, when the topic's timeline is
-- on.
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
-- worked out once per call rather than for every job of a batch.
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
-- them, so that Lua does no work per job: jobs of a group share one attempt and due time.
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
