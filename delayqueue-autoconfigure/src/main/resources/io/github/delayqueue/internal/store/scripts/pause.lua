-- needs: none
-- pause: marks a queue as paused, or removes the mark. Not a transition: claim.lua takes no
-- job of a queue while its mark exists. A script, so that the marks of every queue of a
-- topic are written in one pipelined round trip.
-- KEYS[1] the queue's pause mark
-- ARGV[1] '1' to pause, '0' to resume
-- Returns 1
if ARGV[1] == '1' then
  redis.call('SET', KEYS[1], '1')
else
  redis.call('DEL', KEYS[1])
end
return 1
