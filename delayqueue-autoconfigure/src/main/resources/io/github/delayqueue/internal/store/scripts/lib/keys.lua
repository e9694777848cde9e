-- needs: none
-- keys: key names of a queue from another of its keys (scripts never build a key from scratch).
-- Another key of the same queue: key, whose name ends in own, with own replaced by name.
local function queue_key(key, own, name)
  return string.sub(key, 1, #key - #own) .. name
end
