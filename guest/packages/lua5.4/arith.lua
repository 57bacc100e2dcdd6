-- SPDX-License-Identifier: MIT
-- Integer and float arithmetic as the Lua 5.4 reference manual (section 3.4) defines it:
-- wrap-around integers, floor division and modulo, conversions, math library.
assert(math.maxinteger + 1 == math.mininteger)
assert(math.mininteger - 1 == math.maxinteger)
assert(7 // 2 == 3 and -7 // 2 == -4 and 7 // -2 == -4)
assert(7 % 3 == 1 and -7 % 3 == 2 and 7 % -3 == -2)
assert(7.0 // 2 == 3.0 and math.type(7.0 // 2) == "float")
assert(math.type(1) == "integer" and math.type(1.0) == "float" and math.type("1") == nil)
assert(1 / 0 == math.huge and -1 / 0 == -math.huge)
local nan = 0 / 0
assert(nan ~= nan)
assert(3 / 2 == 1.5 and 2^10 == 1024.0)
assert(0x7fffffffffffffff == math.maxinteger)
assert(0xff == 255 and 1e2 == 100.0)
assert(math.tointeger(3.0) == 3 and math.tointeger(3.5) == nil)
assert(3 | 5 == 7 and 3 & 5 == 1 and 3 ~ 5 == 6 and ~0 == -1)
assert(1 << 63 == math.mininteger and 1 << 64 == 0 and -1 >> 63 == 1)
assert(math.floor(-3.5) == -4 and math.ceil(-3.5) == -3)
assert(math.abs(math.mininteger) == math.mininteger)
assert(math.fmod(-7, 3) == -1 and math.fmod(7, -3) == 1)
assert(math.ult(1, -1) and not math.ult(-1, 1))
assert(math.max(3, 9, 1) == 9 and math.min(3.5, -2) == -2)
assert(math.abs(math.sqrt(2) * math.sqrt(2) - 2) < 1e-15)
assert(math.abs(math.sin(math.pi / 6) - 0.5) < 1e-15)
assert(math.abs(math.exp(math.log(10)) - 10) < 1e-14)
assert(tostring(1e15) == "1e+15" and tostring(2^53) == "9.007199254741e+15")
assert(tostring(-0.0) == "-0.0" and tostring(10 // 3) == "3" and tostring(1.5) == "1.5")
assert(tonumber("0x10") == 16 and tonumber("  12  ") == 12 and tonumber("1e1") == 10.0)
assert(tonumber("z", 36) == 35 and tonumber("777", 8) == 511 and tonumber("x") == nil)
assert(string.format("%d", 3.0) == "3")
assert(not pcall(string.format, "%d", 3.5))
-- a deterministic pseudo-random sequence: same seed, same numbers
math.randomseed(42)
local a, b = math.random(1, 1000), math.random()
math.randomseed(42)
assert(math.random(1, 1000) == a and math.random() == b and b >= 0 and b < 1)
-- sum of a long loop: integer and float
local s, f = 0, 0.0
for i = 1, 100000 do s = s + i; f = f + i / 2 end
assert(s == 5000050000 and f == 2500025000.0)
print("arith ok")
