-- needs: none
-- trim-timeline-lists: one bounded step through a queue's list set (see timeline in
-- lib/timeline.lua), for the scheduler's chore. A member leaves the set when its list is gone
-- (its job was purged, or sent again with no list), and when its job is gone while its
-- list is not (the job vanished without an end that ended its timeline, or ended while
-- the topic's timeline was off): that list then expires after the keep time, as an
-- ended timeline does. A member whose job is still there (pending or dead) stays.
-- KEYS[1] jobs, KEYS[2] the list set
-- ARGV[1] the timeline key prefix, ARGV[2] the SSCAN cursor ('0' to start), ARGV[3] how
-- many members to look at (a hint to SSCAN), ARGV[4] keep ms
-- Returns {the next cursor, '0' when the whole set was looked at; how many members left}
if redis.call('EXISTS', KEYS[2]) == 0 then
  return {'0', 0}
end
local prefix, keep = ARGV[1], tonumber(ARGV[4])
local scan = redis.call('SSCAN', KEYS[2], ARGV[2], 'COUNT', tonumber(ARGV[3]))
local gone = {}
for _, id in ipairs(scan[2]) do
  local list = prefix .. id
  if redis.call('EXISTS', list) == 0 then
    gone[#gone + 1] = id
  elseif redis.call('HEXISTS', KEYS[1], id) == 0 then
    redis.call('PEXPIRE', list, keep)
    gone[#gone + 1] = id
  end
end
if #gone > 0 then
  redis.call('SREM', KEYS[2], unpack(gone))
end
return {scan[1], #gone}
