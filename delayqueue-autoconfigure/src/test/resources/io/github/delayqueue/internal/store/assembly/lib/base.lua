-- needs: none
local function base() return 1 end
