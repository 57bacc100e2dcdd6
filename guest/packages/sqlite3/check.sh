#!/bin/sh
# SPDX-License-Identifier: MIT
# SQLite: speedtest1 with --verify (its own checks of each step's results, and a hash of
# every result compared with a host-native build's, speedtest1.expected) for each test
# set; `make test`'s fuzztest without sessionfuzz (which needs zlib): fuzzcheck over four of
# its databases of test cases, one test each (each database's SQL run against each of its
# databases, checking for crashes, memory leaks and its invariants); and a session of the
# shell compared with the output of a host-native build with SQLite's LONGDOUBLE_TYPE
# double (Hexagon's long double is double, and SQLite's printf rounds in it).
# QUICK: the main test set at a smaller size, fuzzdata6 (the smallest) and the shell session.
. ../lib.sh
t_wrap bld/fuzzcheck
size=10
sets="main cte orm fp"
if [ -n "$QUICK" ]; then size=2; sets=main; fi
for s in $sets; do
    grep "^$s $size " speedtest1.expected | cut -d' ' -f3- > st.expected
    t_same "speedtest1-$s-$size" st.expected sh -c \
        "$BIN/speedtest1 --verify --size $size --testset $s --memdb | sed -n 's/^Verification Hash: //p'"
done
t_run "speedtest1-file-db" sh -c "rm -f st.db && $BIN/speedtest1 --verify --size 1 --nosync st.db"
fdbs="1 4 6 8"
[ -z "$QUICK" ] || fdbs=6
for d in $fdbs; do
    t_run "fuzzcheck-fuzzdata$d" bld/fuzzcheck --limit-mem 100M "test/fuzzdata$d.db"
done
# timeout (coreutils on the host, BusyBox's in the guest) ends a session that hangs, so
# that the tests behind it still run
t_same shell shell.expected timeout 300 sh -c "$BIN/sqlite3 -bail :memory: < shell.sql"
if [ -z "$QUICK" ]; then
    t_same shell-file-db shell.expected timeout 300 sh -c \
        "rm -f shell.db && $BIN/sqlite3 -bail shell.db < shell.sql"
fi
rm -f st.expected st.db shell.db
