-- needs: clock, keys, limits
-- acquire-permits: admits claimed deliveries of a topic under its limits, on the Redis clock,
-- for every instance and every partition of the topic alike. Not a transition: the
-- deliveries are RUNNING already; those not admitted are handed back, uncounted, by the
-- caller. Deliveries are admitted in order, each while every limit it is under has room.
-- Rate limits and permits are counted as lib/limits.lua describes.
-- Groups (JobRequest.Builder#group): each named group of the topic has a rate limit and a
-- concurrency of its own, counted the same way under keys of its own in the topic's hash
-- tag ('group-starts:<group>', 'group-permits:<group>'); jobs without a group are bound by
-- the topic's limits only. A delivery is admitted only while both the topic and its group
-- have room, so a group at its bound refuses its own deliveries and no other group's. A
-- group that refused one is marked in 'group-holds', for display only.
-- Turns: a listener that the global concurrency refused joins the topic's line
-- ('permit-turns', scored by when it joined; 'permit-turns-seen' holds when each last asked,
-- and one that stopped asking for TURN_TTL_MS leaves it). Permits given back are kept for
-- those ahead in the line, so that a listener that gives one back does not take it again
-- at once while another waits, and the permits go round the listeners that want them. The
-- first in line is told to ask again soon (TURN_RECHECK_MS); a listener admitted leaves the
-- line. A listener that asks with no name ('') never joins it.
-- KEYS[1] the topic's start counts (list), KEYS[2] its permits (zset), KEYS[3] its hold mark,
-- KEYS[4] its permit turns (zset), KEYS[5] when each listener in line last asked (hash)
-- ARGV[1] rate limit (0: none), ARGV[2] its period ms, ARGV[3] global concurrency (0: none),
-- ARGV[4] each group's concurrency (0: none), ARGV[5] each group's rate limit (0: none),
-- ARGV[6] its period ms, ARGV[7] the asking listener's name ('' for none), ARGV[8..] per
-- delivery: its member (unique while the delivery lasts: id and attempt), its time to run
-- ms, its group ('' for none)
-- Returns {admitted, wait ms, now ms, room, verdicts, group, wait ms, ...}: verdicts holds
-- one letter per delivery, 'a' admitted, 't' refused by the topic's limits, 'g' refused by
-- its group's. When the topic refused some, wait is how long until its limits may admit
-- one more: the time until the oldest bucket stops counting, the hold mark's time to live,
-- or -1 when only a permit given back can admit one. Room is how many more starts the
-- topic's rate limit admits now (-1: no rate limit), which tells the caller how many jobs
-- are worth claiming next. Each group that refused a delivery follows, with its wait alike.
local now = redis_now()
local asked = (#ARGV - 7) / 3
local me = ARGV[7]
local TURN_TTL_MS, TURN_RECHECK_MS = 1000, 20
local held = redis.call('PTTL', KEYS[3])
if held > 0 then
  return {0, held, now, 0, string.rep('t', asked)}
end
local limit, period, concurrency = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3])
local room = asked
local topic_window
if limit > 0 then
  topic_window = window(KEYS[1], limit, period, now)
  room = math.max(0, math.min(room, limit - topic_window.starts))
end
-- How many listeners are ahead of me in the line, dropping those that stopped asking; and
-- whether I am in it.
local function line_ahead()
  local ahead = 0
  for _, member in ipairs(redis.call('ZRANGE', KEYS[4], 0, -1)) do
    local seen = tonumber(redis.call('HGET', KEYS[5], member)) or 0
    if seen < now - TURN_TTL_MS then
      redis.call('ZREM', KEYS[4], member)
      redis.call('HDEL', KEYS[5], member)
    elseif member == me then
      return ahead, true
    else
      ahead = ahead + 1
    end
  end
  return ahead, false
end
local ahead, in_line, permits_short = 0, false, false
if concurrency > 0 and room > 0 then
  ahead, in_line = line_ahead()
  local free = math.max(0, free_permits(KEYS[2], concurrency, now) - ahead)
  permits_short = free < room
  room = math.min(room, free)
end
local group_concurrency, group_limit, group_period = tonumber(ARGV[4]), tonumber(ARGV[5]), tonumber(ARGV[6])
local grouped = group_concurrency > 0 or group_limit > 0
local groups, group_order = {}, {}
local function group_state(group)
  local g = groups[group]
  if g then
    return g
  end
  g = {room = asked, admitted = 0, permits = {}, longest = 0}
  if group_limit > 0 then
    local starts = queue_key(KEYS[1], 'start-counts', 'group-starts:' .. group)
    g.window = window(starts, group_limit, group_period, now)
    g.room = math.min(g.room, group_limit - g.window.starts)
  end
  if group_concurrency > 0 then
    g.permits_key = queue_key(KEYS[2], 'permits', 'group-permits:' .. group)
    g.room = math.min(g.room, free_permits(g.permits_key, group_concurrency, now))
  end
  groups[group] = g
  group_order[#group_order + 1] = group
  return g
end
local verdicts, admitted, permits, longest = {}, 0, {}, 0
local refused_by_topic = false
for i = 1, asked do
  local member, ttr, group = ARGV[5 + 3 * i], tonumber(ARGV[6 + 3 * i]), ARGV[7 + 3 * i]
  local verdict = 'a'
  if admitted >= room then
    verdict = 't'
    refused_by_topic = true
  elseif grouped and group ~= '' then
    local g = group_state(group)
    if g.room <= 0 then
      verdict = 'g'
      g.refused = true
    else
      g.room = g.room - 1
      g.admitted = g.admitted + 1
      if g.permits_key then
        g.longest = math.max(g.longest, ttr)
        g.permits[#g.permits + 1] = now + ttr
        g.permits[#g.permits + 1] = member
      end
    end
  end
  if verdict == 'a' then
    admitted = admitted + 1
    if concurrency > 0 then
      longest = math.max(longest, ttr)
      permits[#permits + 1] = now + ttr
      permits[#permits + 1] = member
    end
  end
  verdicts[i] = verdict
end
if admitted > 0 then
  if topic_window then
    count_starts(topic_window, admitted, now)
  end
  if concurrency > 0 then
    add_permits(KEYS[2], permits, longest)
  end
end
local wait = -1
if refused_by_topic and topic_window and topic_window.starts >= limit then
  wait = wait_of(topic_window, now)
end
if admitted > 0 and in_line then
  redis.call('ZREM', KEYS[4], me)
  redis.call('HDEL', KEYS[5], me)
elseif refused_by_topic and permits_short and me ~= '' then
  redis.call('ZADD', KEYS[4], 'NX', now, me)
  redis.call('HSET', KEYS[5], me, now)
  redis.call('PEXPIRE', KEYS[4], TURN_TTL_MS)
  redis.call('PEXPIRE', KEYS[5], TURN_TTL_MS)
  if wait < 0 and ahead == 0 then
    wait = TURN_RECHECK_MS
  end
end
local out = {admitted, wait, now, topic_window and math.max(0, limit - topic_window.starts) or -1,
  table.concat(verdicts)}
-- Each group that refused a delivery is marked held in the topic's group-holds hash (group
-- -> until ms) for as long as it says, or a second when only a permit given back ends it,
-- for the endpoint and dashboard to show (see read-group-bounds).
local HELD_SHOWN_MS = 1000
local refused_groups, shown_until = {}, now
for _, group in ipairs(group_order) do
  local g = groups[group]
  if g.admitted > 0 then
    if g.window then
      count_starts(g.window, g.admitted, now)
    end
    if g.permits_key then
      add_permits(g.permits_key, g.permits, g.longest)
    end
  end
  if g.refused then
    local group_wait = (g.window and g.window.starts >= group_limit) and wait_of(g.window, now) or -1
    out[#out + 1] = group
    out[#out + 1] = group_wait
    refused_groups[#refused_groups + 1] = group
    refused_groups[#refused_groups + 1] = now + math.max(group_wait, HELD_SHOWN_MS)
    shown_until = math.max(shown_until, now + math.max(group_wait, HELD_SHOWN_MS))
  end
end
if #refused_groups > 0 then
  local holds = queue_key(KEYS[2], 'permits', 'group-holds')
  redis.call('HSET', holds, unpack(refused_groups))
  if redis.call('PTTL', holds) < shown_until - now then
    redis.call('PEXPIRE', holds, shown_until - now)
  end
end
return out
