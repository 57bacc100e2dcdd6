# SPDX-License-Identifier: MIT
# shellcheck shell=sh disable=SC2154   # $me is set by the script that sources this
# Shell functions the guest build scripts share (guest/linux/build.sh, guest/musl/build.sh),
# sourced after they set $me, the name their messages start with: progress and errors on
# stderr, the check for the tools a build needs, and the lock on a cache directory that
# keeps two builds of the same cache from running at once.

say() { echo "$me: $*" >&2; }
die() { echo "$me: error: $*" >&2; exit 1; }

# need_tools TOOL...: stop unless every TOOL is on the PATH.
need_tools() {
    for tool in "$@"; do
        command -v "$tool" >/dev/null 2>&1 || die "$tool not found (run tools/setup.sh)"
    done
}

# lock_cache DIR: create DIR and hold its lock (descriptor 9) until the script exits.
lock_cache() {
    mkdir -p "$1"
    exec 9>"$1/.lock"
    flock 9 || die "cannot lock $1/.lock"
}
