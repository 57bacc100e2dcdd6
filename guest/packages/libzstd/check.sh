#!/bin/sh
# SPDX-License-Identifier: MIT
# zstd's tests as its tests/Makefile runs them: `make check` (playTests.sh without its long
# tests) and the programs of `make test` (fuzzer, zstreamtest, invalidDictionaries, legacy,
# decodecorpus, poolTests) with fewer iterations than the Makefile's time limits (-T200s,
# -T90s: minutes of emulated time each), given as counts so that every mode does the same
# work. QUICK: the unit programs, short.
. ../lib.sh
cd tests
t_wrap datagen fuzzer zstreamtest invalidDictionaries legacy decodecorpus poolTests
if [ -z "$QUICK" ]; then
    t_run playTests env ZSTD_BIN="$BIN/zstd" READELF_TARGET="$REAL/zstd" DATAGEN_BIN="$PWD/datagen" EXE_PREFIX= EXEC_PREFIX= \
        sh ./playTests.sh
    t_run fuzzer ./fuzzer -v -i200 -s1
    t_run zstreamtest ./zstreamtest -v -i200 -s1
    t_run zstreamtest-newapi ./zstreamtest --newapi -t1 -i200 -s1
    t_run decodecorpus ./decodecorpus -t -n200 -s1
else
    t_run fuzzer ./fuzzer -v -i20 -s1
    t_run zstreamtest ./zstreamtest -v -i20 -s1
    t_run decodecorpus ./decodecorpus -t -n20 -s1
fi
t_run invalidDictionaries ./invalidDictionaries
t_run legacy ./legacy
t_run poolTests ./poolTests
