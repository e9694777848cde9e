-- needs: none
-- find: reads one job and works out its state. Not a transition.
-- KEYS[1] jobs, KEYS[2] delayed, KEYS[3] running, KEYS[4] dead, KEYS[5] attempts, KEYS[6] errors,
-- KEYS[7] finished (see keep_finished in lib/kept.lua)
-- ARGV[1] id
-- Returns {} when the job is gone and not kept, else {record, state, attempts, last error or
-- '', time of death (the dead set's score) or ''}, and for a kept finished job (state
-- COMPLETED or CANCELLED) also {finished ms, instance}
local id = ARGV[1]
local record = redis.call('HGET', KEYS[1], id)
if not record then
  local kept = redis.call('HGET', KEYS[7], id)
  if not kept then
    return {}
  end
  local outcome, at, attempts, by, rest = string.match(kept, '^(%a)|(%w+)|(%d+)|([^|]*)|(.*)$')
  return {rest, (outcome == 'X') and 'CANCELLED' or 'COMPLETED', tonumber(attempts), '', '', tonumber(at, 36), by}
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
