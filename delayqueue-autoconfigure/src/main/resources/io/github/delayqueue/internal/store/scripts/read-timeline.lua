-- needs: timeline
-- read-timeline: one job's steps (see lib/timeline.lua), from its list and from its
-- queue's step log, in calls that each read a bounded part of the log, so that a long log
-- never holds Redis up for long. Not a transition.
-- The log is read from the slot of the job's first send (its record's created time, pending
-- or kept as finished) to its end (kept as finished) or now; all of it for a job that is
-- neither.
-- KEYS[1] the job's list, KEYS[2] the step log's index of slots, KEYS[3] jobs, KEYS[4]
-- finished
-- ARGV[1] id, ARGV[2] first slot start to read ('' on the first call: worked out here),
-- ARGV[3] last slot start to read, ARGV[4] the slot to go on from ('' on the first call),
-- ARGV[5] the position in it to go on from, ARGV[6] most log elements to read
-- Returns {first slot, last slot, slot to go on from ('' when the log is read to its
-- end), position, number of list entries, the list's entries (first call only), then the
-- log's entries for the id, oldest first, as the list's}
local id = ARGV[1]
local from, to = ARGV[2], ARGV[3]
local first_call = from == ''
if first_call then
  from, to = '-inf', '+inf'
  local record = redis.call('HGET', KEYS[3], id)
  local created = record and string.match(record, '^(%w+)|')
  if not created then
    local kept = redis.call('HGET', KEYS[4], id)
    if kept then
      local finished
      finished, created = string.match(kept, '^%a|(%w+)|%d*|[^|]*|(%w+)|')
      if finished then
        to = string.format('%.0f', tonumber(finished, 36))
      end
    end
  end
  if created then
    -- A slot is at most a minute long: the one the send fell in starts no earlier.
    from = string.format('%.0f', tonumber(created, 36) - 60000)
  end
end
local out = {from, to, '', 0, 0}
if first_call then
  local entries = redis.call('LRANGE', KEYS[1], 0, -1)
  out[5] = #entries
  for _, entry in ipairs(entries) do
    out[#out + 1] = entry
  end
end
local prefix = string.sub(KEYS[2], 1, -(#'/log-slots' + 1)) .. '/log:'
local budget = tonumber(ARGV[6])
local cursor = (ARGV[4] ~= '') and ARGV[4] or from
local position = (ARGV[4] ~= '') and tonumber(ARGV[5]) or 0
local slots = redis.call('ZRANGEBYSCORE', KEYS[2], cursor, to, 'LIMIT', 0, 100)
for i, slot in ipairs(slots) do
  local at = (i == 1 and slot == ARGV[4]) and position or 0
  while true do
    if budget <= 0 then
      out[3], out[4] = slot, at
      return out
    end
    local want = math.min(budget, 100)
    local elements = redis.call('LRANGE', prefix .. slot, at, at + want - 1)
    for _, element in ipairs(elements) do
      if string.find(element, id, 1, true) then
        local step = cmsgpack.unpack(element)
        for g = 5, #step do
          local group = step[g]
          -- Not a table: an element of a snapshot build before groups; its steps are not read.
          if type(group) == 'table' then
            for _, other in ipairs(group[3]) do
              if other == id then
                out[#out + 1] = event(step[1], step[2], group[1], step[3], (group[2] >= 0) and group[2] or nil, step[4])
              end
            end
          end
        end
      end
    end
    at = at + #elements
    budget = budget - #elements
    if #elements < want then
      break
    end
  end
end
if #slots == 100 then
  out[3], out[4] = string.format('%.0f', tonumber(slots[100]) + 1), 0
end
return out
