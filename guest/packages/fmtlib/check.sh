#!/bin/sh
# SPDX-License-Identifier: MIT
# {fmt}'s test suite as its CMake registers it (test/CMakeLists.txt add_fmt_test: one
# googletest program per test, run from the build tree with no arguments), each program
# one test here; googletest's own count of the cases it ran follows as a note. QUICK: the
# programs but format-test, chrono-test and unicode-test (the longest under emulation).
. ../lib.sh
cd bld/bin
progs="args-test assert-test color-test core-test gtest-extra-test format-impl-test ostream-test
 compile-test compile-fp-test printf-test ranges-test scan-test std-test xchar-test
 enforce-checks-test posix-mock-test os-test"
[ -n "$QUICK" ] || progs="$progs format-test chrono-test unicode-test"
# shellcheck disable=SC2086
t_wrap $progs
for p in $progs; do
    t_run "$p" "./$p"
done
