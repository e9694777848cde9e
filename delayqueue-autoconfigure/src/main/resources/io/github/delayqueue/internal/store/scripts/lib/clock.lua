-- needs: none
-- clock: the Redis clock, and times as job records write them.
-- The Redis server's clock in epoch milliseconds: the only clock that decides anything.
-- Second result: the microseconds past that millisecond.
local function redis_now()
  local t = redis.call('TIME')
  local micros = tonumber(t[2])
  return tonumber(t[1]) * 1000 + math.floor(micros / 1000), micros % 1000
end
-- Job records keep their two times in base 36, 8 characters instead of 13. Epoch
-- milliseconds from 1972 to 2059 have exactly 8 base-36 digits: those are worked out
-- without a loop or a table, as every job a script writes or moves needs them.
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
