-- count-states: counts a topic's jobs in each state in one consistent read. Not a transition.
-- Ids in the claiming list count as ready: they are on their way to a consumer.
-- KEYS[1] delayed, KEYS[2] ready, KEYS[3] claiming, KEYS[4] running, KEYS[5] dead
-- Returns {delayed, ready, running, dead}
return {
  redis.call('ZCARD', KEYS[1]),
  redis.call('LLEN', KEYS[2]) + redis.call('LLEN', KEYS[3]),
  redis.call('ZCARD', KEYS[4]),
  redis.call('ZCARD', KEYS[5])
}
