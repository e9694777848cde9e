-- needs: keys
-- groups: a job's fair group, and the READY jobs waiting for their group's turn.
-- Fair groups: a job sent with a group (JobRequest.Builder#group) carries it in its
-- record's own field, 'created|due|ttr|max attempts|group|headers|payload', empty for
-- none; the group holds neither '|' nor a space (JobConstraints.checkGroup), and no script
-- reads the headers' JSON. The first such job marks its queue's groups hash, and from then
-- on claims take the queue's ready jobs in turns by group (see group-turns.lua).
-- A record's group, '' for none or for no record.
local function group_of(record)
  return record and string.match(record, '^[^|]*|[^|]*|[^|]*|[^|]*|([^|]*)|') or ''
end
-- How many READY jobs' entries wait in a queue's group lists (see group-turns.lua), 0 when its
-- jobs have no groups; ready is the queue's ready list key.
local function parked_entries(ready)
  return tonumber(redis.call('HGET', queue_key(ready, 'ready', 'groups'), '')) or 0
end
