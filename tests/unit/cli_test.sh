#!/bin/sh
# SPDX-License-Identifier: MIT
# Command-line checks of the hexsim program: --help and --version succeed and print what
# they should, bad options exit 2 with usage on stderr, a missing KERNEL file is named in
# the error, a readable file that is not a Hexagon ELF is refused (exit 1), and options
# that cannot work are refused (exit 2): system-mode options with --user, --gdb beyond
# port 65535, --mem below 32M, --console sdl without a display; each class of error exits
# with the status --help documents for it; files to be written are checked before the run;
# --help TOPIC prints each topic.
# Usage: cli_test.sh PATH_TO_HEXSIM EXPECTED_VERSION
set -eu

if [ $# -ne 2 ]; then
    echo "usage: $0 PATH_TO_HEXSIM EXPECTED_VERSION" >&2
    exit 2
fi
HEXSIM=$1
VERSION=$2

TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT INT TERM
failures=0

fail() {
    echo "FAIL: $*" >&2
    failures=$((failures + 1))
}

# run ARGS...: runs hexsim, leaving stdout in $TMP/out, stderr in $TMP/err, status in $rc.
run() {
    rc=0
    "$HEXSIM" "$@" >"$TMP/out" 2>"$TMP/err" || rc=$?
}

expect_rc() {
    if [ "$rc" -ne "$1" ]; then
        fail "$2: exit status $rc, expected $1"
        sed 's/^/  stderr: /' "$TMP/err" >&2
    fi
}

# expect_in FILE TEXT WHAT
expect_in() {
    if ! grep -q -F -- "$2" "$1"; then
        fail "$3: '$2' not found in $(basename "$1")"
    fi
}

run --help
expect_rc 0 "--help"
expect_in "$TMP/out" "Usage" "--help"
[ -s "$TMP/err" ] && fail "--help wrote to stderr"

run -h
expect_rc 0 "-h"
expect_in "$TMP/out" "Usage" "-h"

run --version
expect_rc 0 "--version"
expect_in "$TMP/out" "hexsim $VERSION" "--version"

run --bogus
expect_rc 2 "--bogus"
expect_in "$TMP/err" "--bogus" "--bogus"
expect_in "$TMP/err" "Usage" "--bogus"
[ -s "$TMP/out" ] && fail "--bogus wrote to stdout"
# a mistake is followed by the usage lines only (the message stays in sight) ...
expect_in "$TMP/err" "hexsim --help" "--bogus"
grep -q "^Options:" "$TMP/err" && fail "--bogus: the whole help follows the message"
# ... and says what is wrong with it
run --timing-param lat_load=1000 --user /nonexistent
expect_rc 2 "--timing-param lat_load=1000"
expect_in "$TMP/err" "latencies must be 1-64" "--timing-param lat_load=1000"
run --timing-param line=48 --user /nonexistent
expect_in "$TMP/err" "line must be a power of 2" "--timing-param line=48"

# no KERNEL: the project's kernel from the cache; none there: usage error naming the path
HEXSIM_CACHE="$TMP/no-cache"
export HEXSIM_CACHE
run
unset HEXSIM_CACHE
expect_rc 2 "no arguments"
expect_in "$TMP/err" "Usage" "no arguments"
expect_in "$TMP/err" "$TMP/no-cache/linux/build/vmlinux" "no arguments"

run "$TMP/no-such-vmlinux"
expect_rc 1 "missing kernel"
expect_in "$TMP/err" "$TMP/no-such-vmlinux" "missing kernel"

run "$TMP"
expect_rc 1 "directory as kernel"
expect_in "$TMP/err" "$TMP" "directory as kernel"

printf 'not really an ELF\n' >"$TMP/vmlinux"
run "$TMP/vmlinux"
expect_rc 1 "readable kernel"
expect_in "$TMP/err" "is not an ELF file" "readable kernel"

run "$TMP/vmlinux" --initrd "$TMP/no-such-rootfs.cpio"
expect_rc 1 "missing initrd"
expect_in "$TMP/err" "$TMP/no-such-rootfs.cpio" "missing initrd"

run "$TMP/vmlinux" --initrd "$TMP/vmlinux"
expect_rc 1 "kernel and initrd"
expect_in "$TMP/err" "is not an ELF file" "kernel and initrd"

run "$TMP/vmlinux" "$TMP/vmlinux"
expect_rc 2 "two kernels"
expect_in "$TMP/err" "unexpected extra argument" "two kernels"

# issue 38: refusals instead of silent surprises
run --gdb 99999 --user /nonexistent
expect_rc 2 "--gdb 99999"
expect_in "$TMP/err" "PORT from 0 to 65535" "--gdb 99999"
run --gdb host: --user /nonexistent
expect_rc 2 "--gdb host:"
for opt in "--mem 64M" "--smp 2" "--initrd x" "--append x" "--net none" "--clock wall" \
           "--rng-seed 1" "--trace-hvm" "--console=stdio"; do
    # shellcheck disable=SC2086
    run $opt --user /nonexistent
    expect_rc 2 "$opt with --user"
    expect_in "$TMP/err" "this option is for system mode" "$opt with --user"
done
run --user /nonexistent --mem 64M            # after PROG: the program's own arguments
expect_rc 1 "--mem after PROG"
run "$TMP/vmlinux" --mem 16M
expect_rc 2 "--mem 16M"
expect_in "$TMP/err" "panics at boot with less than 32 MiB" "--mem 16M"
# the limits in the error are those --help TOPIC states (one table row makes both)
expect_in "$TMP/err" "from 32M to 768M" "--mem 16M"
run --help system
expect_in "$TMP/out" "From 32M to 768M" "--help system states the --mem range"
run "$TMP/vmlinux" --mem 1G
expect_rc 2 "--mem 1G"
expect_in "$TMP/err" "from 32M to 768M" "--mem 1G"
run "$TMP/vmlinux" --clock sometimes
expect_rc 2 "--clock sometimes"
expect_in "$TMP/err" "--clock takes wall or virtual" "--clock sometimes"
run "$TMP/vmlinux" --rng-seed -3
expect_rc 2 "--rng-seed -3"
expect_in "$TMP/err" "--rng-seed takes a number" "--rng-seed -3"
# --console sdl without a display: exit 2 with a message, not an invisible machine
rc=0
env -u DISPLAY -u WAYLAND_DISPLAY -u SDL_VIDEODRIVER "$HEXSIM" "$TMP/vmlinux" --console sdl \
    >"$TMP/out" 2>"$TMP/err" </dev/null || rc=$?
expect_rc 2 "--console sdl without a display"
grep -q -e "no display" -e "without SDL2" "$TMP/err" ||
    fail "--console sdl without a display: no message saying so"
# the documented status of each error class (the list --help prints)
run --help
for code in 0 1 2 3 4 124 137; do
    grep -q "^  $code " "$TMP/out" || fail "--help does not list exit status $code"
done
long=$(printf '%0600d' 0)
for args in "--bogus" "--mem" "--smp 9 $TMP/vmlinux" "--mem 16M $TMP/vmlinux" \
            "--timing=fast $TMP/vmlinux" "--max-packets 0 $TMP/vmlinux" \
            "--max-seconds -1 $TMP/vmlinux" "--jit-threshold 0 $TMP/vmlinux" \
            "--code-cache 1K $TMP/vmlinux" "--no-jit=1 $TMP/vmlinux" "--help=nosuchtopic" \
            "--append $long $TMP/vmlinux" "--record a --replay b $TMP/vmlinux" \
            "--strace $TMP/vmlinux" "--host-time $TMP/vmlinux" "--user" \
            "--snapshot-at 5 $TMP/vmlinux" "--mcpu v99 $TMP/vmlinux"; do
    # shellcheck disable=SC2086
    run $args
    expect_rc 2 "usage error: $(echo "$args" | cut -c1-40)"
    expect_in "$TMP/err" "Usage" "usage error: $(echo "$args" | cut -c1-40)"
done
# a too-long --append is a command-line mistake (it was status 1, that of unreadable files)
run --append "$long" "$TMP/vmlinux"
expect_in "$TMP/err" "--append takes at most 511 bytes" "--append of 600 bytes"
# files that will be written are checked before anything runs (status 1, nothing left)
run --profile "$TMP/no-such-dir/prof" "$TMP/vmlinux"
expect_rc 1 "--profile into a missing directory"
expect_in "$TMP/err" "--profile: cannot write '$TMP/no-such-dir/prof'" "--profile unwritable"
grep -q "not an ELF" "$TMP/err" && fail "--profile unwritable: checked only after the load"
run --stats-json "$TMP" "$TMP/vmlinux"
expect_rc 1 "--stats-json naming a directory"
expect_in "$TMP/err" "--stats-json: cannot write" "--stats-json naming a directory"
run --snapshot-at 5,9 --snapshot-out "$TMP/no-such-dir/s%N" --user /nonexistent
expect_rc 1 "--snapshot-out into a missing directory"
expect_in "$TMP/err" "$TMP/no-such-dir/s5" "--snapshot-out names the first file"
run --profile "$TMP/new.prof" "$TMP/vmlinux"
expect_rc 1 "--profile to a new file, kernel not an ELF"
[ -e "$TMP/new.prof" ] && fail "the check of --profile left $TMP/new.prof behind"
run --restore "$TMP/no-such.snap"
expect_rc 1 "--restore of a missing file"
# --help TOPIC: each topic, and --help=TOPIC the same
for t in general system user debug timing snapshot network console all; do
    run --help "$t"
    expect_rc 0 "--help $t"
    [ -s "$TMP/out" ] || fail "--help $t printed nothing"
done
cp "$TMP/out" "$TMP/topic"
run --help=all
cmp -s "$TMP/out" "$TMP/topic" || fail "--help=all differs from --help all"
run --help timing
expect_in "$TMP/out" "--timing-param NAME=VALUE" "--help timing"
grep -q -- "--initrd" "$TMP/out" && fail "--help timing lists --initrd"

run --help
expect_in "$TMP/out" "--clock wall|virtual" "--help names --clock"
expect_in "$TMP/out" "--rng-seed" "--help names --rng-seed"

if [ "$failures" -ne 0 ]; then
    echo "$failures check(s) failed" >&2
    exit 1
fi
echo "cli: all checks passed"
