-- needs: clock, timeline
-- purge-dead: DEAD -> gone for jobs that died at or before a cutoff.
-- KEYS[1] dead, KEYS[2] jobs, KEYS[3] attempts, KEYS[4] errors
-- ARGV[1] cutoff: '+inf' for all, else an age in ms counted back from the Redis clock
-- ARGV[2] most jobs to purge
-- ARGV[3] optional: the one job to purge if it is dead, whenever it died ('' for none)
-- ARGV[4] optional: the key prefix of the topic's timelines (see lib/timeline.lua):
-- a purged job's timeline goes with it (and its id from the list set), whether the topic
-- records timelines now or not
-- Returns how many jobs were purged
local cutoff = ARGV[1]
local now
if cutoff ~= '+inf' then
  now = redis_now()
  cutoff = string.format('%.0f', now - tonumber(cutoff))
end
local ids
if ARGV[3] and ARGV[3] ~= '' then
  ids = {}
  if redis.call('ZSCORE', KEYS[1], ARGV[3]) then
    ids[1] = ARGV[3]
  end
else
  ids = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', cutoff, 'LIMIT', 0, tonumber(ARGV[2]))
end
for _, id in ipairs(ids) do
  redis.call('ZREM', KEYS[1], id)
  redis.call('HDEL', KEYS[2], id)
  redis.call('HDEL', KEYS[3], id)
  redis.call('HDEL', KEYS[4], id)
  if ARGV[4] then
    redis.call('DEL', ARGV[4] .. id)
    -- Its steps in the queue's step log are read no more.
    now = now or redis_now()
    mark_log(ARGV[4], now, id)
  end
end
if ARGV[4] and #ids > 0 then
  redis.call('SREM', ARGV[4] .. '/lists', unpack(ids))
end
return #ids
