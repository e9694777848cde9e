-- read-dead: one page of dead jobs, oldest death first. Not a transition.
-- KEYS[1] dead, KEYS[2] jobs, KEYS[3] attempts, KEYS[4] errors
-- ARGV[1] offset, ARGV[2] count
-- Returns {id, record or '', attempts, last error or '', ...}
local first = tonumber(ARGV[1])
local ids = redis.call('ZRANGE', KEYS[1], first, first + tonumber(ARGV[2]) - 1)
local out = {}
for _, id in ipairs(ids) do
  out[#out + 1] = id
  out[#out + 1] = redis.call('HGET', KEYS[2], id) or ''
  out[#out + 1] = tonumber(redis.call('HGET', KEYS[3], id)) or 0
  out[#out + 1] = redis.call('HGET', KEYS[4], id) or ''
end
return out
