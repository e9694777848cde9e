-- needs: clock
-- read-finished: one page of a queue's kept finished jobs of one outcome (see keep_finished
-- in lib/kept.lua), the most recent first. Not a transition.
-- KEYS[1] the outcome's batch list (completed or cancelled), KEYS[2] finished,
-- KEYS[3] finished counts
-- ARGV[1] the outcome, C or X, ARGV[2] offset, ARGV[3] count, at most 1,000, ARGV[4] 'head'
-- to return of each kept record only its fields before the job's headers (all a page row
-- shows), or 'full'
-- Returns {kept of the outcome, then per job: id, kept record or its head}
-- Reads the batches from the newest, a few at a time, and skips each id whose kept end is
-- a later one: O(offset + count) ids looked up, and those of ends overwritten since.
local outcome = ARGV[1]
local skip = tonumber(ARGV[2])
local count = math.min(tonumber(ARGV[3]), 1000)
local heads = ARGV[4] == 'head'
local out = {tonumber(redis.call('HGET', KEYS[3], outcome)) or 0}
local found = 0
local last = -1
while found < count do
  local batches = redis.call('LRANGE', KEYS[1], last - 7, last)
  if #batches == 0 then
    break
  end
  for b = #batches, 1, -1 do
    local batch = cmsgpack.unpack(batches[b])
    local head = outcome .. '|' .. base36(batch[1]) .. '|'
    local ids = batch[2]
    local kept = redis.call('HMGET', KEYS[2], unpack(ids))
    for i = #ids, 1, -1 do
      if found < count and kept[i] and string.sub(kept[i], 1, #head) == head then
        if skip > 0 then
          skip = skip - 1
        else
          found = found + 1
          out[#out + 1] = ids[i]
          out[#out + 1] = heads and string.match(kept[i], '^[^|]*|[^|]*|[^|]*|[^|]*|[^|]*|[^|]*|[^|]*|[^|]*')
            or kept[i]
        end
      end
    end
  end
  if #batches < 8 then
    break
  end
  last = last - 8
end
return out
