-- needs: base, middle
local function top() return middle() + base() end
