-- SPDX-License-Identifier: MIT
-- The string library (reference manual section 6.4): formatting, patterns, gsub, pack and
-- unpack, utf8.
assert(string.format("%5.2f|%-4d|%x|%q", 3.14159, 7, 255, "a\nb") == ' 3.14|7   |ff|"a\\\nb"')
assert(string.format("%g %g %g", 1e20, 0.1, 100) == "1e+20 0.1 100")
assert(string.format("%s %10.3s|", "hello", "world") == "hello        wor|")
assert(("abc"):rep(3, "-") == "abc-abc-abc" and ("abc"):upper() == "ABC")
assert(("hello world"):find("o w") == 5 and ("hello"):sub(-3) == "llo")
assert(("hello"):byte(1, -1) == 104 and string.char(72, 105) == "Hi")
assert(select("#", ("hello"):byte(1, -1)) == 5)
local k, v = string.match("key = value", "(%w+)%s*=%s*(%w+)")
assert(k == "key" and v == "value")
assert(string.gsub("hello world", "o", "0") == "hell0 w0rld")
assert(select(2, string.gsub("abcabc", "b", "")) == 2)
assert(string.gsub("$name is $age", "%$(%w+)", { name = "Lua", age = 30 }) == "Lua is 30")
assert(string.gsub("abc", "%w", function(c) return c:byte() .. "," end) == "97,98,99,")
local words = {}
for w in string.gmatch("one two  three", "%a+") do words[#words + 1] = w end
assert(#words == 3 and words[3] == "three")
assert(string.match("  trim  ", "^%s*(.-)%s*$") == "trim")
assert(string.find("a.b", ".", 1, true) == 2 and string.match("[x]", "%b[]") == "[x]")
assert(string.match("THE (quick) fox", "%f[%a]%a+") == "THE")
assert(string.pack("<i4", 1) == "\1\0\0\0" and string.pack(">i2", 258) == "\1\2")
assert(string.unpack("<i8", string.pack("<i8", -2)) == -2)
local d = string.pack("<d", 1.5)
assert(#d == 8 and string.unpack("<d", d) == 1.5)
assert(string.packsize("i4i8") == 12 and string.packsize("!8i4i8") == 16 and string.unpack("z", "ab\0c") == "ab")
assert(utf8.char(72, 228, 8364, 128512) == "H\xC3\xA4\xE2\x82\xAC\xF0\x9F\x98\x80")
assert(utf8.len("H\xC3\xA4\xE2\x82\xAC") == 3 and utf8.codepoint("\xE2\x82\xAC") == 8364)
assert(utf8.len("\xff") == nil)
local t = {}
for _, c in utf8.codes("a\xC3\xA4") do t[#t + 1] = c end
assert(t[1] == 97 and t[2] == 228)
assert(tostring(nil) == "nil" and tostring(true) == "true" and #"\0a\0" == 3)
assert(("x"):rep(100000):len() == 100000)
assert(table.concat({ 1, 2, 3 }, ", ") == "1, 2, 3")
print("strings ok")
