#!/bin/sh
# SPDX-License-Identifier: MIT
# Lua: the project's self-checking scripts (each asserts what the Lua 5.4 reference manual
# specifies and prints "NAME ok"), run from source and, compiled by luac, from bytecode.
# Lua's own test suite is not in the Debian source (see lua5.4.recipe).
. ../lib.sh
for s in arith strings tables files shell; do
    echo "$s ok" > "$s.expected"
    t_same "$s" "$s.expected" "$BIN/lua" "$s.lua"
    [ -n "$QUICK" ] && continue
    t_same "$s-luac" "$s.expected" sh -c "$BIN/luac -o $s.luac $s.lua && $BIN/lua $s.luac"
done
rm -f ./*.expected ./*.luac
