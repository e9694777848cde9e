-- prelude: functions every script may use; it is prepended to each script when loaded.
-- The Redis server's clock in epoch milliseconds: the only clock that decides anything.
-- Second result: the microseconds past that millisecond.
local function redis_now()
  local t = redis.call('TIME')
  local micros = tonumber(t[2])
  return tonumber(t[1]) * 1000 + math.floor(micros / 1000), micros % 1000
end
-- Job records keep their two times in base 36, 8 characters instead of 13. The digits are
-- gathered as bytes and made into one string: Lua interns every string it builds.
local function base36(n)
  local bytes = {}
  n = math.floor(n)
  repeat
    local d = n % 36
    table.insert(bytes, 1, (d < 10) and (48 + d) or (87 + d))
    n = (n - d) / 36
  until n == 0
  return string.char(unpack(bytes))
end
