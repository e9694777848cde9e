-- needs: clock, kept
-- trim-kept: drops what a queue keeps of its finished jobs beyond its retention or its
-- count cap, as each call that keeps a job does (see drop_kept in lib/kept.lua), for the
-- scheduler's chore: a surplus larger than one call's budget, or one left when no job
-- finishes any more, goes over the chore's calls, KEPT_DROP_BUDGET jobs at most each.
-- KEYS[1] finished, KEYS[2] completed list, KEYS[3] cancelled list, KEYS[4] counts,
-- KEYS[5] again (see keep_finished in lib/kept.lua)
-- ARGV[1] the retention argument of keep_finished ('keep ms:most jobs:instance')
-- Returns {completed jobs kept, cancelled jobs kept, 1 if the call stopped at its budget
-- (more may be due), else 0}
local k = kept_keys(1)
local keep, most = string.match(ARGV[1], '^(%d+):(%d+):')
keep, most = tonumber(keep), tonumber(most)
local state = redis.call('HMGET', k.counts, 'C', 'X')
if not state[1] and not state[2] then
  return {0, 0, 0}
end
local now = redis_now()
local counts = {C = tonumber(state[1]) or 0, X = tonumber(state[2]) or 0}
local budget = KEPT_DROP_BUDGET
for _, outcome in ipairs({'C', 'X'}) do
  counts[outcome], budget = drop_kept(k, outcome, counts[outcome], keep, most, now, budget)
end
-- HSET keeps the key's expiry, which keep_finished renews.
redis.call('HSET', k.counts, 'C', counts.C, 'X', counts.X)
return {counts.C, counts.X, (budget == 0) and 1 or 0}
