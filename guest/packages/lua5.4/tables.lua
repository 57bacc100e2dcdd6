-- SPDX-License-Identifier: MIT
-- Tables, closures, metatables, coroutines, errors and the garbage collector (reference
-- manual sections 2.4, 2.5, 2.6, 3.4.7, 6.2, 6.6).
local t = {}
for i = 1, 1000 do t[i] = (i * 7919) % 1000 end
table.sort(t)
for i = 2, #t do assert(t[i - 1] <= t[i]) end
table.sort(t, function(a, b) return a > b end)
assert(t[1] == 999 and t[1000] == 0)
assert(#t == 1000 and select("#", table.unpack({ 1, 2, 3 })) == 3)
table.insert(t, 1, -1)
assert(t[1] == -1 and table.remove(t, 1) == -1 and #t == 1000)
assert(table.move({ 1, 2, 3 }, 1, 3, 2)[3] == 2)
-- closures share upvalues
local function counter()
    local n = 0
    return function() n = n + 1; return n end, function() return n end
end
local inc, get = counter()
inc(); inc()
assert(get() == 2)
-- metatables: arithmetic, index, call, len, eq, lt, close
local V = {}
V.__index = V
V.__add = function(a, b) return setmetatable({ x = a.x + b.x }, V) end
V.__eq = function(a, b) return a.x == b.x end
V.__lt = function(a, b) return a.x < b.x end
V.__len = function(a) return a.x end
V.__call = function(a, y) return a.x * y end
local function v(x) return setmetatable({ x = x }, V) end
assert((v(1) + v(2)).x == 3 and v(3) == v(3) and v(1) < v(2) and #v(9) == 9 and v(4)(5) == 20)
local closed = false
do
    local _ <close> = setmetatable({}, { __close = function() closed = true end })
end
assert(closed)
local defaults = setmetatable({}, { __index = function(_, k) return k .. "!" end })
assert(defaults.hi == "hi!")
-- coroutines
local gen = coroutine.wrap(function(n)
    for i = 1, n do coroutine.yield(i * i) end
    return "done"
end)
assert(gen(3) == 1 and gen() == 4 and gen() == 9 and gen() == "done")
local co = coroutine.create(function(a, b)
    local c = coroutine.yield(a + b)
    error({ code = c })
end)
local ok, r = coroutine.resume(co, 1, 2)
assert(ok and r == 3)
ok, r = coroutine.resume(co, 42)
assert(not ok and r.code == 42 and coroutine.status(co) == "dead")
-- errors and messages
ok, r = pcall(function() local x = nil; return x.y end)
assert(not ok and r:find("attempt to index"))
ok, r = xpcall(function() error("boom", 0) end, function(m) return "handled " .. m end)
assert(not ok and r == "handled boom")
assert(select(2, pcall(error)) == nil)
-- deep recursion and the C stack limit
local function depth(n) if n == 0 then return 0 end return 1 + depth(n - 1) end
assert(depth(10000) == 10000)
ok = pcall(function() local function f() return f() + 1 end return f() end)
assert(not ok)
-- the garbage collector: weak tables lose collected keys
local weak = setmetatable({}, { __mode = "k" })
do weak[{}] = 1 end
collectgarbage()
collectgarbage()
assert(next(weak) == nil)
local before = collectgarbage("count")
do local big = {} for i = 1, 100000 do big[i] = { i } end end
collectgarbage()
assert(collectgarbage("count") < before + 1000)
-- load and string.dump
local f = load("return 1 + ...")
assert(f(41) == 42)
local g = load(string.dump(function(x) return x * 2 end), "dump", "b")
assert(g(21) == 42)
assert(load("syntax error here") == nil)
print("tables ok")
