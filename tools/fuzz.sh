#!/bin/sh
# SPDX-License-Identifier: MIT
# Builds the libFuzzer targets of tests/fuzz/ (clang-16, HEXSIM_FUZZ=ON) in build-fuzz/ and
# runs one of them, or each in turn, for SECONDS seconds at nice 19 (one at a time: the
# machine is shared). New inputs go to build-fuzz/fuzz-work/TARGET/ (the repo's seed corpus
# tests/fuzz/corpus/TARGET/ is read, never written); crashes are written as
# build-fuzz/fuzz-work/TARGET/crash-* and reproduce with
#   build-fuzz/tests/fuzz_TARGET FILE       (or, without libFuzzer: build/tests/fuzz_replay_TARGET FILE)
# Extra arguments after SECONDS go to libFuzzer (for example -jobs=1 -dict=...).
# Usage: tools/fuzz.sh TARGET|all SECONDS [LIBFUZZER-OPTIONS...]
set -eu
cd "$(dirname "$0")/.."

# the target list of tests/fuzz/tests.cmake (one list)
TARGETS=$(sed -n 's/^set(HEXSIM_FUZZ_TARGETS \(.*\))$/\1/p' tests/fuzz/tests.cmake)
if [ $# -lt 2 ]; then
    echo "usage: tools/fuzz.sh TARGET|all SECONDS [LIBFUZZER-OPTIONS...]  (targets: $TARGETS)" >&2
    exit 2
fi
which="$1"
secs="$2"
shift 2
case "$which" in
all) run="$TARGETS" ;;
*) case " $TARGETS " in
   *" $which "*) run="$which" ;;
   *) echo "fuzz.sh: unknown target '$which' (targets: $TARGETS, all)" >&2; exit 2 ;;
   esac ;;
esac
case "$secs" in
''|*[!0-9]*) echo "fuzz.sh: SECONDS must be a whole number, not '$secs'" >&2; exit 2 ;;
esac

./tools/setup.sh
cmake -S . -B build-fuzz -DCMAKE_C_COMPILER=clang-16 -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DHEXSIM_FUZZ=ON >/dev/null
targets=""
for t in $run; do targets="$targets fuzz_$t"; done
# shellcheck disable=SC2086
nice -n 19 cmake --build build-fuzz -j"$(nproc)" --target $targets

UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
export UBSAN_OPTIONS
status=0
for t in $run; do
    work="build-fuzz/fuzz-work/$t"
    mkdir -p "$work"
    echo "fuzz.sh: $t for $secs s"
    # crash-*, leak-*, timeout-* land in the work directory
    if ! (cd "$work" && nice -n 19 "../../tests/fuzz_$t" -max_total_time="$secs" -timeout=10 \
            -rss_limit_mb=2048 -print_final_stats=1 "$@" . "../../../tests/fuzz/corpus/$t"); then
        echo "fuzz.sh: $t found a problem; see $work/" >&2
        status=1
    fi
done
exit $status
