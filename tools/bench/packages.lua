-- SPDX-License-Identifier: MIT
-- The script workload of tools/bench/packages.py for Debian's Lua 5.4 (the interpreter is
-- the program measured; Debian's lua5.4 source has no test or benchmark scripts, so this
-- one is written here): the kinds of work interpreters spend their time on, each printing a
-- checksum, every number from a fixed-seed generator so the output is the same everywhere.
-- Usage: lua packages.lua N   (N scales every part; 4 is about 0.2 s natively)
local n = tonumber(arg and arg[1]) or 1

-- a linear congruential generator (no math.random: its algorithm is the library's choice)
local seed = 12345
local function rand(m)
  seed = (seed * 1103515245 + 12345) % 2147483648
  return seed % m
end

-- recursion and integer arithmetic
local function fib(k)
  if k < 2 then return k end
  return fib(k - 1) + fib(k - 2)
end
local f = 0
for _ = 1, n do f = f + fib(20) end
print(string.format("fib %d", f))

-- tables as arrays: sieve and a sort with a comparison function
local primes = 0
for _ = 1, n do
  local lim = 50000
  local comp = {}
  for i = 2, lim do
    if not comp[i] then
      primes = primes + 1
      for j = i * i, lim, i do comp[j] = true end
    end
  end
end
local arr = {}
for i = 1, 10000 * n do arr[i] = rand(1000000) end
table.sort(arr, function(a, b) return a > b end)
local sum = 0
for i = 1, #arr, 97 do sum = (sum + arr[i] * i) % 1000000007 end
print(string.format("sieve %d sort %d", primes, sum))

-- tables as records and hash maps, closures
local words = {}
local syll = { "ka", "to", "ri", "na", "me", "su", "lo", "pe", "di", "gu" }
for i = 1, 8000 * n do
  local w = syll[rand(10) + 1] .. syll[rand(10) + 1] .. syll[rand(10) + 1]
  words[i] = w
end
local count = {}
for _, w in ipairs(words) do count[w] = (count[w] or 0) + 1 end
local keys = {}
for k in pairs(count) do keys[#keys + 1] = k end
table.sort(keys, function(a, b)
  if count[a] ~= count[b] then return count[a] > count[b] end
  return a < b
end)
local function counter()
  local c = 0
  return function(d) c = c + d; return c end
end
local acc = counter()
for i = 1, #keys do acc(count[keys[i]] * i) end
print(string.format("words %d top %s %d acc %d", #keys, keys[1], count[keys[1]], acc(0)))

-- strings: formatting, concatenation through a buffer, patterns
local parts = {}
for i = 1, 5000 * n do
  parts[#parts + 1] = string.format("%05d:%s;", i * 7 % 100000, words[(i % #words) + 1])
end
local s = table.concat(parts)
local hits = 0
for a, b in s:gmatch("(%d+):(%a+);") do
  if b:find("ka") and tonumber(a) % 3 == 0 then hits = hits + 1 end
end
local t = s:gsub("to", "TO"):upper():len()
print(string.format("string %d hits %d len %d", #s, hits, t))

-- floating point: an n-body style integration
local bodies = {}
for i = 1, 5 do
  bodies[i] = { x = rand(1000) / 100, y = rand(1000) / 100, z = rand(1000) / 100,
                vx = 0.0, vy = 0.0, vz = 0.0, m = 1 + rand(10) }
end
for _ = 1, 5000 * n do
  for i = 1, #bodies do
    local bi = bodies[i]
    for j = i + 1, #bodies do
      local bj = bodies[j]
      local dx, dy, dz = bi.x - bj.x, bi.y - bj.y, bi.z - bj.z
      local d2 = dx * dx + dy * dy + dz * dz + 0.01
      local mag = 0.001 / (d2 * math.sqrt(d2))
      bi.vx = bi.vx - dx * bj.m * mag
      bi.vy = bi.vy - dy * bj.m * mag
      bi.vz = bi.vz - dz * bj.m * mag
      bj.vx = bj.vx + dx * bi.m * mag
      bj.vy = bj.vy + dy * bi.m * mag
      bj.vz = bj.vz + dz * bi.m * mag
    end
  end
  for i = 1, #bodies do
    local b = bodies[i]
    b.x, b.y, b.z = b.x + 0.001 * b.vx, b.y + 0.001 * b.vy, b.z + 0.001 * b.vz
  end
end
local e = 0.0
for i = 1, #bodies do
  local b = bodies[i]
  e = e + 0.5 * b.m * (b.vx * b.vx + b.vy * b.vy + b.vz * b.vz)
end
print(string.format("nbody %.9f", e))

-- coroutines
local gen = coroutine.wrap(function()
  for i = 1, 12000 * n do coroutine.yield(i % 7) end
  return -1
end)
local cs = 0
while true do
  local v = gen()
  if v < 0 then break end
  cs = cs + v
end
print(string.format("coroutine %d", cs))
