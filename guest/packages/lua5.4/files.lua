-- SPDX-License-Identifier: MIT
-- The io and os libraries (reference manual sections 6.8, 6.9) on the file system and
-- the clock.
local name = os.tmpname()
local f = assert(io.open(name, "w"))
for i = 1, 1000 do f:write(i, "\n") end
f:write(string.rep("x", 70000))
f:close()
local n, sum = 0, 0
for line in io.lines(name) do
    n = n + 1
    if n <= 1000 then sum = sum + tonumber(line) end
end
assert(n == 1001 and sum == 500500)
f = assert(io.open(name, "rb"))
assert(f:seek("end") == 3893 + 70000)
assert(f:seek("set", 3) == 3 and f:read(1) == "\n" and f:read("n") == 3)
f:close()
f = assert(io.open(name, "a+"))
f:write("tail")
f:seek("set", 0)
assert(f:read("l") == "1")
f:close()
assert(os.rename(name, name .. ".2"))
assert(io.open(name) == nil)
assert(os.remove(name .. ".2"))
assert(select(2, io.open("/nonexistent/x")):find("No such file"))
assert(os.getenv("PATH") ~= nil and os.getenv("NO_SUCH_VARIABLE_HERE") == nil)
assert(os.time({ year = 2000, month = 1, day = 1, hour = 12 }) > 0)
assert(os.date("!%Y-%m-%d %H:%M:%S", 86400 * 365) == "1971-01-01 00:00:00")
assert(os.clock() >= 0 and os.time() > 1600000000)
print("files ok")
