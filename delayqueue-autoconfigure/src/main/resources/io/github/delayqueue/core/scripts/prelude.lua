-- prelude: functions every script may use; it is prepended to each script when loaded.
-- The Redis server's clock in epoch milliseconds: the only clock that decides anything.
local function redis_now()
  local t = redis.call('TIME')
  return tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
end
-- Job records keep their two times in base 36, 8 characters instead of 13.
local function base36(n)
  local digits, s = '0123456789abcdefghijklmnopqrstuvwxyz', ''
  n = math.floor(n)
  repeat
    local d = n % 36
    s = string.sub(digits, d + 1, d + 1) .. s
    n = math.floor(n / 36)
  until n == 0
  return s
end
