-- needs: base
local function middle() return base() end
