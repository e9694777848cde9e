-- needs: none
-- hold-topic: holds a whole topic back for a while on every instance: acquire-permits admits
-- none of its deliveries until the mark expires. Not a transition. A shorter hold never
-- cuts a longer one short.
-- KEYS[1] the topic's hold mark
-- ARGV[1] how long, ms
-- Returns the hold's time left, ms
local wanted = tonumber(ARGV[1])
if redis.call('PTTL', KEYS[1]) < wanted then
  redis.call('SET', KEYS[1], '1', 'PX', wanted)
end
return {redis.call('PTTL', KEYS[1])}
