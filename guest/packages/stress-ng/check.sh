#!/bin/sh
# SPDX-License-Identifier: MIT
# stress-ng's stressors that issue 43 lists, one test each: N instances (SNG_N, default 0:
# one per online CPU) for SNG_TIME seconds (default 60; QUICK: 3 s and a few stressors),
# with --verify (the stressors that have it check their results) and --metrics-brief. A
# test passes when stress-ng exits 0 and says nothing of a failure; a stressor that
# reports "not implemented" on this system is skipped. stress-ng's output (its bogo-ops
# line: bogo ops, real time, usr and sys time) follows each test's line, prefixed "  = ".
. ../lib.sh
n=${SNG_N:-0}
if [ -n "$QUICK" ]; then
    time=${SNG_TIME:-3}
    set -- cpu futex pthread fork pipe
else
    time=${SNG_TIME:-60}
    set -- cpu futex pthread mutex sem signal sigq pipe fork mmap malloc switch clone \
        timer clock msg yield
fi
for s in "$@"; do
    # mmap and malloc default to 256 MB per instance: a quarter of it fits the guest's
    # memory with four instances
    "$BIN/stress-ng" --"$s" "$n" --timeout "$time" --verify --metrics-brief \
        --mmap-bytes 32M --malloc-bytes 16M --temp-path . > "s_$$.log" 2>&1 && st=0 || st=$?
    if [ "$st" = 0 ] && grep -q 'not implemented' "s_$$.log"; then
        echo "SKIP: $s ($(grep -m1 'not implemented' "s_$$.log"))"
    elif [ "$st" = 0 ] && ! grep -qiE 'fail|error' "s_$$.log"; then
        echo "PASS: $s"
    else
        echo "FAIL: $s (exit $st)"
    fi
    sed 's/^/  = /' "s_$$.log"
    rm -f "s_$$.log"
done
