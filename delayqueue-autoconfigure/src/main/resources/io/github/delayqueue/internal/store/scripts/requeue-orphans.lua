-- needs: none
-- requeue-orphans: claiming -> READY for ids that a consumer moved out of the ready list
-- but never claimed (it stopped, or died between BLMOVE and claim). Only ids still in the
-- claiming list move, so a claim that completes meanwhile wins.
-- Ghosts (see claim.lua): the ghost invariant counts the ready and claiming lists together,
-- so moving an entry, ghost or not, between them keeps it.
-- KEYS[1] claiming (list), KEYS[2] ready
-- ARGV ids
-- Returns how many ids were requeued
local requeued = 0
for _, id in ipairs(ARGV) do
  if redis.call('LREM', KEYS[1], -1, id) == 1 then
    redis.call('RPUSH', KEYS[2], id)
    requeued = requeued + 1
  end
end
return requeued
