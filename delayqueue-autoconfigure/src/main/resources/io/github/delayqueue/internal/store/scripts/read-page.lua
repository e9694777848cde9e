-- needs: keys, groups
-- read-page: part of a page of a queue's jobs in one state, oldest first. Not a transition.
-- DELAYED, RUNNING and DEAD pages come from their sorted sets by rank (due time, deadline,
-- time of death). READY pages come from the consuming end: the claiming list, the ready
-- list from its right end, then the jobs waiting for their group's turn (see lib/group-turns.lua).
-- There offsets count jobs, as count-states does, never ghost entries (see claim.lua):
-- every READY job is on exactly one page, once, at its first entry. Without ghosts every
-- entry is a READY job of its own and the page is read straight from its position. With
-- ghosts the entries before the page must be walked to count the jobs among them; a call
-- walks a bounded number of entries and says where the next call goes on, so that no
-- call holds Redis for long however deep the page: the caller calls again until the page
-- is full or the state's end is reached. Records are returned until a call's bytes reach
-- ARGV[6] (at least one), and the rest of the page is left to the next call.
-- KEYS[1] the state's sorted set, or the ready list, KEYS[2] jobs, KEYS[3] attempts,
-- KEYS[4] errors, KEYS[5] delayed, KEYS[6] running, KEYS[7] dead, and for READY pages
-- KEYS[8] claiming, KEYS[9] ghosts (hash id -> ghost entries, '' -> their total)
-- ARGV[1] 'zset' or 'list', ARGV[2] the rank or entry where this call starts, ARGV[3] how
-- many jobs to skip from there, ARGV[4] how many to return, at most 1,000, ARGV[5] 'head'
-- to return only each record's head (its fields before the headers, all a page row
-- shows) or 'full', ARGV[6] the most record bytes returned, ARGV[7..] for READY pages
-- with ghosts, the ids of READY jobs with ghosts that earlier calls of the page counted
-- Returns {where the next call starts, or -1 at the state's end, jobs still to skip there,
-- n, n ids of READY jobs with ghosts counted (for the next call's ARGV[7..]), then per job:
-- id, record or its head, attempts, last error or '', score or ''}
local WALKED_PER_CALL = 2000
local from = tonumber(ARGV[2])
local skip = tonumber(ARGV[3])
local count = math.min(tonumber(ARGV[4]), 1000)
local heads = ARGV[5] == 'head'
local budget = tonumber(ARGV[6])
-- ids and where each one's entry or rank is, then where the next call starts.
local ids, scores, at = {}, {}, {}
local next_from = -1
-- READY jobs with ghosts counted, each with the entry where it was (-1: by an earlier call).
local counted = {}
if count <= 0 then
  return {-1, 0, 0}
end
if ARGV[1] == 'zset' then
  from = from + skip
  skip = 0
  local page = redis.call('ZRANGE', KEYS[1], from, from + count - 1, 'WITHSCORES')
  for i = 1, #page, 2 do
    ids[#ids + 1] = page[i]
    scores[#ids] = page[i + 1]
    at[#ids] = from + #ids - 1
  end
  if #ids == count then
    next_from = from + count
  end
else
  local claiming = redis.call('LLEN', KEYS[8])
  local listed = claiming + redis.call('LLEN', KEYS[1])
  local parked = parked_entries(KEYS[1])
  local total = listed + parked
  -- The group lists (see lib/group-turns.lua) in turn order, each {key, length}, read once if needed.
  local lists
  local function group_lists()
    if not lists then
      lists = {}
      if parked > 0 then
        local prefix = queue_key(KEYS[1], 'ready', 'group:')
        for _, group in ipairs(redis.call('LRANGE', queue_key(KEYS[1], 'ready', 'group-turns'), 0, -1)) do
          lists[#lists + 1] = {prefix .. group, redis.call('LLEN', prefix .. group)}
        end
      end
    end
    return lists
  end
  -- Entries from..from+size-1, counted from the consuming end: the claiming list, the
  -- ready list, then the group lists from their heads, where claims take them.
  local function entries(first, size)
    local got = {}
    local to = math.min(first + size, total) - 1
    if first < claiming then
      local part = redis.call('LRANGE', KEYS[8], -(math.min(to, claiming - 1) + 1), -(first + 1))
      for i = #part, 1, -1 do
        got[#got + 1] = part[i]
      end
    end
    local readyFrom = math.max(first, claiming) - claiming
    local readyTo = math.min(to, listed - 1) - claiming
    if readyTo >= readyFrom then
      local part = redis.call('LRANGE', KEYS[1], -(readyTo + 1), -(readyFrom + 1))
      for i = #part, 1, -1 do
        got[#got + 1] = part[i]
      end
    end
    if to >= listed then
      local offset = listed
      for _, list in ipairs(group_lists()) do
        local low = math.max(first, offset) - offset
        local high = math.min(to, offset + list[2] - 1) - offset
        if high >= low then
          for _, id in ipairs(redis.call('LRANGE', list[1], low, high)) do
            got[#got + 1] = id
          end
        end
        offset = offset + list[2]
        if offset > to then
          break
        end
      end
    end
    return got
  end
  local ghosts = tonumber(redis.call('HGET', KEYS[9], '')) or 0
  if from == 0 and skip >= total - ghosts then
    -- Past the last job: nothing to walk.
    return {-1, 0, 0}
  end
  if ghosts == 0 then
    from = from + skip
    skip = 0
    local got = entries(from, count)
    for i, id in ipairs(got) do
      ids[i] = id
      scores[i] = ''
      at[i] = from + i - 1
    end
    if from + #got < total then
      next_from = from + #got
    end
  else
    for i = 7, #ARGV do
      counted[ARGV[i]] = -1
    end
    local walked = 0
    while from < total and #ids < count and walked < WALKED_PER_CALL do
      local chunk = entries(from, math.min(1000, WALKED_PER_CALL - walked))
      local marks = redis.call('HMGET', KEYS[9], unpack(chunk))
      for i, id in ipairs(chunk) do
        if #ids < count then
          local job = not marks[i]
          if not job and not counted[id] then
            job = redis.call('HEXISTS', KEYS[2], id) == 1 and not (redis.call('ZSCORE', KEYS[5], id)
              or redis.call('ZSCORE', KEYS[6], id) or redis.call('ZSCORE', KEYS[7], id))
            if job then
              counted[id] = from
            end
          end
          if job then
            if skip > 0 then
              skip = skip - 1
            else
              ids[#ids + 1] = id
              scores[#ids] = ''
              at[#ids] = from
            end
          end
          from = from + 1
          walked = walked + 1
        end
      end
    end
    if from < total then
      next_from = from
    end
  end
end
local rows, cut = {}, nil
if #ids > 0 then
  local records = redis.call('HMGET', KEYS[2], unpack(ids))
  local attempts = redis.call('HMGET', KEYS[3], unpack(ids))
  local errors = redis.call('HMGET', KEYS[4], unpack(ids))
  local bytes = 0
  for i, id in ipairs(ids) do
    local record = records[i]
    if record and heads then
      record = string.match(record, '^[^|]*|[^|]*|[^|]*|[^|]*') or record
    end
    if record and #rows > 0 and bytes + #record > budget then
      cut = at[i]
      break
    end
    if record then
      bytes = bytes + #record
      rows[#rows + 1] = id
      rows[#rows + 1] = record
      rows[#rows + 1] = tonumber(attempts[i]) or 0
      rows[#rows + 1] = errors[i] or ''
      rows[#rows + 1] = scores[i]
    end
  end
end
-- A page cut short by its bytes goes on from the first job left out, which the next call
-- must count again, as every job with ghosts counted from there on.
local out = {cut or next_from, cut and 0 or skip, 0}
for id, where in pairs(counted) do
  if not cut or where < cut then
    out[3] = out[3] + 1
    out[#out + 1] = id
  end
end
for _, value in ipairs(rows) do
  out[#out + 1] = value
end
return out
