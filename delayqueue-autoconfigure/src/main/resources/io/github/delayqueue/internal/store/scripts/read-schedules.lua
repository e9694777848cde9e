-- needs: clock
-- read-schedules: reads schedules for the consoles and the loop that produces ticks, in
-- one consistent read per hash tag. With ARGV[1] '*', the Redis time and hashes whole (the
-- registry and the declarations). Otherwise a topic's: its schedules' definitions and states, whole, and
-- the logs of the schedules named, each entry followed by the state of the job it
-- produced now.
-- KEYS[1] schedule definitions, KEYS[2] schedule states, KEYS[3] jobs, KEYS[4] delayed,
-- KEYS[5] running, KEYS[6] dead, KEYS[7 + i] the log of the i-th schedule; or, with '*',
-- any hashes
-- ARGV[i] the id of the i-th schedule whose log is read, or '*'
-- Returns, with '*', {now ms, then per hash n, n field-value pairs}; for a topic, per hash
-- {n, n field-value pairs}, then per log: k, k pairs of
-- entry and job state, the job state being d (delayed), r (ready), u (running), x (dead),
-- or '' (gone, or no job)
local function whole(key, out)
  local fields = redis.call('HGETALL', key)
  out[#out + 1] = #fields / 2
  for _, value in ipairs(fields) do
    out[#out + 1] = value
  end
end
local out = {}
if ARGV[1] == '*' then
  out[1] = redis_now()
  for _, key in ipairs(KEYS) do
    whole(key, out)
  end
  return out
end
whole(KEYS[1], out)
whole(KEYS[2], out)
for i = 7, #KEYS do
  local id = ARGV[i - 6]
  local entries = redis.call('LRANGE', KEYS[i], 0, -1)
  out[#out + 1] = #entries
  for _, entry in ipairs(entries) do
    local tick, outcome = string.match(entry, '^(%d+):(%a)')
    local state = ''
    if outcome == 'p' or outcome == 't' then
      local job = id .. '@' .. tick
      if redis.call('HEXISTS', KEYS[3], job) == 1 then
        if redis.call('ZSCORE', KEYS[4], job) then
          state = 'd'
        elseif redis.call('ZSCORE', KEYS[5], job) then
          state = 'u'
        elseif redis.call('ZSCORE', KEYS[6], job) then
          state = 'x'
        else
          state = 'r'
        end
      end
    end
    out[#out + 1] = entry
    out[#out + 1] = state
  end
end
return out
