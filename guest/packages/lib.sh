# SPDX-License-Identifier: MIT
# shellcheck shell=sh
# Shell functions every package's check.sh sources (installed as
# /usr/share/hexsim-tests/lib.sh): each test prints one line, "PASS: NAME", "FAIL: NAME"
# or "SKIP: NAME (REASON)", which tests/packages/pkgtest.py counts. A failed test's output
# follows its line, each line prefixed by "  | ". The same script runs in the booted guest
# (BusyBox ash; RUN empty, BIN=/usr/bin) and on the host (RUN a script that runs its
# arguments with "hexsim --user" or qemu-hexagon, BIN a directory of wrappers that run the
# package's programs through it, REAL the directory of the programs themselves).
#
# Environment a check.sh reads: RUN (one word, empty or the emulator: `$RUN ./prog`),
# BIN (the package's programs, runnable by name), REAL (the programs' files), QUICK
# (non-empty: the short subset CI runs).

: "${BIN:=/usr/bin}"
: "${REAL:=$BIN}"
: "${RUN:=}"
: "${QUICK:=}"

# t_run NAME CMD...: one test, passed when CMD exits 0, skipped when it exits 77 (the
# automake convention the packages' test scripts follow).
t_run() {
    _n=$1
    shift
    "$@" > "t_$$.log" 2>&1 && _s=0 || _s=$?
    if [ "$_s" = 0 ]; then
        echo "PASS: $_n"
    elif [ "$_s" = 77 ]; then
        echo "SKIP: $_n (the test exits 77: $(tail -n 1 "t_$$.log"))"
    else
        echo "FAIL: $_n (exit $_s)"
        tail -n 15 "t_$$.log" | sed 's/^/  | /'
    fi
    rm -f "t_$$.log"
}

# t_wrap PROG...: on the host (RUN set), make each test program runnable by name as it is
# in the guest: PROG becomes PROG.elf and PROG a script running it through $RUN.
t_wrap() {
    [ -n "$RUN" ] || return 0
    for _p in "$@"; do
        _d=$(cd "$(dirname "$_p")" && pwd)
        mv "$_p" "$_p.elf"
        printf '#!/bin/sh\nexec %s "%s/%s.elf" "$@"\n' "$RUN" "$_d" "$(basename "$_p")" > "$_p"
        chmod 755 "$_p"
    done
}

# t_skip NAME REASON
t_skip() {
    echo "SKIP: $1 ($2)"
}

# t_same NAME EXPECTED_FILE CMD...: passed when CMD exits 0 and prints EXPECTED_FILE.
t_same() {
    _n=$1
    _e=$2
    shift 2
    if "$@" > "t_$$.out" 2> "t_$$.err" && cmp -s "$_e" "t_$$.out"; then
        echo "PASS: $_n"
    else
        echo "FAIL: $_n"
        { diff "$_e" "t_$$.out"; cat "t_$$.err"; } 2>&1 | tail -n 15 | sed 's/^/  | /'
    fi
    rm -f "t_$$.out" "t_$$.err"
}
