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
-- did in the job's timeline, in the same call as the move. A topic's (or partition's)
-- timelines are the fields of one hash, named by the script's timeline argument, id ->
-- its entries joined by newlines, oldest first; an entry is
-- 'type|at ms in base 36|attempt|instance|due ms in base 36|detail', empty fields for none
-- (attempt 0 included); types: S sent, P replaced, R ready, G claimed, F failed, T retried,
-- L released, E expired, D dead, Q requeued, H rescheduled, X cancelled, C completed.
-- One hash rather than a list per job because a call moves jobs in batches: the events of
-- a call are gathered and written when the script ends (see flush_timelines), one HMGET
-- and one HSET for the whole batch instead of a command per job and event.
-- A timeline keeps the most recent events up to the cap. It never ends while its job is
-- pending (a job may wait for weeks) nor while it is dead (it goes when the dead job is
-- purged); when the job completes or is cancelled, its id goes into the ended sorted set
-- (the hash's name and ':ended'), scored with the time its timeline expires, the keep ms
-- after the end. Fields cannot expire on every Redis we support, so the calls that end
-- timelines, and sweeps, delete the expired ones, and a read treats one as gone already.
-- A new job of an id starts a new timeline; its stale entry in the ended set is dropped,
-- not obeyed, as its timeline no longer ends with C or X.
-- The argument is 'cap|keep ms|instance|hash', '' (or nil) when the topic's timeline is
-- off: timeline() reads it once per call and returns nil then, which is all a script does
-- with it when off.
local timelines_of_call = {}
local function timeline(spec)
  if not spec or spec == '' then
    return nil
  end
  if timelines_of_call[spec] then
    return timelines_of_call[spec]
  end
  local cap, keep, by, key = string.match(spec, '^(%d+)|(%d+)|([^|]*)|(.*)$')
  local t = {cap = tonumber(cap), keep = tonumber(keep), by = by, key = key, ended_key = key .. ':ended',
    ids = {}, events = {}, fresh = {}, ended = {}}
  timelines_of_call[spec] = t
  return t
end
-- One timeline entry; due and detail may be nil. A newline would split the entry in two.
local function event(letter, now, attempt, by, due, detail)
  local n = tonumber(attempt) or 0
  if detail and string.find(detail, '\n', 1, true) then
    detail = string.gsub(detail, '\n', ' ')
  end
  return letter .. '|' .. base36(now) .. '|' .. ((n > 0) and n or '') .. '|' .. (by or '') .. '|'
    .. (due and base36(due) or '') .. '|' .. (detail or '')
end
-- Adds events (entries from event()) to a job's timeline; t from timeline().
local function record_events(t, id, ...)
  local events = t.events[id]
  if not events then
    events = {}
    t.events[id] = events
    t.ids[#t.ids + 1] = id
  end
  for _, entry in ipairs({...}) do
    events[#events + 1] = entry
  end
end
-- A new job's timeline: what was kept under its id before is replaced.
local function start_timeline(t, id, entry)
  t.events[id] = nil
  record_events(t, id, entry)
  t.fresh[id] = true
end
-- The end of a job (completed or cancelled): its timeline expires after the keep time.
local function end_timeline(t, id, now)
  t.ended[#t.ended + 1] = now + t.keep
  t.ended[#t.ended + 1] = id
  t.now = now
end
-- Asks the end of the call to delete the timelines that expired by now.
local function expire_timelines(t, now)
  t.now = now
  t.expire = true
end
-- The last entry of a stored timeline ends it: its job completed or was cancelled.
local function ended_by(text)
  -- Greedy, so the newline matched is the last one: one pass over the text.
  local letter = string.match(text, '.*\n(.)') or string.sub(text, 1, 1)
  return letter == 'C' or letter == 'X'
end
-- The most recent cap entries of a timeline. An entry takes at least 14 bytes and its
-- separator one, so a text shorter than 15 bytes per allowed entry is never counted.
local function trim_timeline(text, cap)
  if #text < 15 * cap then
    return text
  end
  local _, separators = string.gsub(text, '\n', '')
  local drop = separators + 1 - cap
  local at = 0
  while drop > 0 do
    at = string.find(text, '\n', at + 1, true)
    drop = drop - 1
  end
  return (at > 0) and string.sub(text, at + 1) or text
end
local function flush_timeline(t)
  for from = 1, #t.ids, 500 do
    local ids = {unpack(t.ids, from, math.min(from + 499, #t.ids))}
    local read = {}
    for _, id in ipairs(ids) do
      if not t.fresh[id] then
        read[#read + 1] = id
      end
    end
    local before = {}
    if #read > 0 then
      local texts = redis.call('HMGET', t.key, unpack(read))
      for i, id in ipairs(read) do
        before[id] = texts[i]
      end
    end
    local writes = {}
    for _, id in ipairs(ids) do
      local text = table.concat(t.events[id], '\n')
      if before[id] then
        text = before[id] .. '\n' .. text
      end
      writes[#writes + 1] = id
      writes[#writes + 1] = trim_timeline(text, t.cap)
    end
    redis.call('HSET', t.key, unpack(writes))
  end
  for from = 1, #t.ended, 1000 do
    redis.call('ZADD', t.ended_key, unpack(t.ended, from, math.min(from + 999, #t.ended)))
  end
  if #t.ended == 0 and not t.expire then
    return
  end
  -- More than the call ended, so that the expired never pile up under a steady load.
  local expired = redis.call('ZRANGEBYSCORE', t.ended_key, '-inf', t.now, 'LIMIT', 0, #t.ended / 2 + 500)
  if #expired == 0 then
    return
  end
  local texts = redis.call('HMGET', t.key, unpack(expired))
  local gone = {}
  for i, id in ipairs(expired) do
    if texts[i] and ended_by(texts[i]) then
      gone[#gone + 1] = id
    end
  end
  redis.call('ZREM', t.ended_key, unpack(expired))
  if #gone > 0 then
    redis.call('HDEL', t.key, unpack(gone))
  end
end
-- Writes the events the call gathered; run after every script's body (see
-- DelayQueueScript).
local function flush_timelines()
  for _, t in pairs(timelines_of_call) do
    flush_timeline(t)
  end
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
-- base 36|attempts|instance|record; outcome C completed, X cancelled) and its id in the
-- completed or cancelled sorted set (by finished ms), for find and the pages of recently
-- finished jobs. A kept job is not pending: a send with its id writes a new job, and its
-- own end overwrites what was kept. Each call drops what its retention passed (up to a
-- thousand) and the oldest beyond the count cap; the keys expire with the retention, so
-- a topic where nothing finishes any more keeps nothing for longer.
-- k: finished (hash), set (the outcome's sorted set), other (the other outcome's, from
-- which the ids are removed: an id is kept with its last end only); spec: the script's retention
-- argument 'keep ms:most jobs:instance', '' when off; outcome 'C' or 'X'; ids, records
-- and attempts side by side (a missing record is skipped).
local function keep_finished(k, spec, outcome, ids, records, attempts, now)
  local keep, most, by = string.match(spec, '^(%d+):(%d+):(.*)$')
  keep, most = tonumber(keep), tonumber(most)
  local ended, scored, kept = {}, {}, {}
  local at = base36(now)
  for i, id in ipairs(ids) do
    if records[i] then
      ended[#ended + 1] = id
      scored[#scored + 1] = now
      scored[#scored + 1] = id
      kept[#kept + 1] = id
      kept[#kept + 1] = outcome .. '|' .. at .. '|' .. (tonumber(attempts[i]) or 0) .. '|' .. by .. '|' .. records[i]
    end
  end
  if #ended == 0 then
    return
  end
  redis.call('ZADD', k.set, unpack(scored))
  -- ZREM of a missing key removes nothing: no need to ask whether it exists first.
  redis.call('ZREM', k.other, unpack(ended))
  redis.call('HSET', k.finished, unpack(kept))
  local old = redis.call('ZRANGEBYSCORE', k.set, '-inf', now - keep, 'LIMIT', 0, 1000)
  local over = redis.call('ZCARD', k.set) - #old - most
  if over > 0 then
    local oldest = redis.call('ZRANGE', k.set, #old, #old + over - 1)
    for _, id in ipairs(oldest) do
      old[#old + 1] = id
    end
  end
  if #old > 0 then
    redis.call('ZREM', k.set, unpack(old))
    redis.call('HDEL', k.finished, unpack(old))
  end
  redis.call('PEXPIRE', k.set, keep)
  redis.call('PEXPIRE', k.finished, keep)
end
