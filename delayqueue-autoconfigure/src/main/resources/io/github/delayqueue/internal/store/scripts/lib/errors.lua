-- needs: none
-- errors: what a job keeps of the error of a failed delivery.
-- An error's first line (class and message, no stack frames), cut to at most 200 bytes
-- without splitting a UTF-8 character.
local function error_summary(text)
  local line = string.match(text or '', '^[^\n]*')
  if #line <= 200 then
    return line
  end
  local cut = 200
  -- Back over continuation bytes to the character they belong to, and drop it.
  while cut > 0 and string.byte(line, cut + 1) and string.byte(line, cut + 1) >= 128
    and string.byte(line, cut + 1) < 192 do
    cut = cut - 1
  end
  return string.sub(line, 1, cut)
end
