-- find: reads one job and works out its state. Not a transition.
-- KEYS[1] jobs, KEYS[2] delayed, KEYS[3] running, KEYS[4] dead, KEYS[5] attempts, KEYS[6] errors
-- ARGV[1] id
-- Returns {} when the job is gone, else {record, state, attempts, last error or '',
-- time of death (the dead set's score) or ''}
local id = ARGV[1]
local record = redis.call('HGET', KEYS[1], id)
if not record then
  return {}
end
local state = 'READY'
local died = ''
if redis.call('ZSCORE', KEYS[2], id) then
  state = 'DELAYED'
elseif redis.call('ZSCORE', KEYS[3], id) then
  state = 'RUNNING'
else
  died = redis.call('ZSCORE', KEYS[4], id) or ''
  if died ~= '' then
    state = 'DEAD'
  end
end
local attempts = tonumber(redis.call('HGET', KEYS[5], id)) or 0
return {record, state, attempts, redis.call('HGET', KEYS[6], id) or '', died}
