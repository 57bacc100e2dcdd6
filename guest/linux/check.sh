#!/bin/sh
# SPDX-License-Identifier: MIT
# Checks the guest kernel patch series: runs the kernel's scripts/checkpatch.pl --no-tree
# on every patch in guest/linux/patches/ and fails if any reports an error (warnings are
# shown but allowed). Also checks each patch carries the project's Signed-off-by line.
#
# checkpatch.pl comes from the kernel tree build.sh unpacked ($HEXSIM_CACHE/linux/src)
# when there is one, else from /usr/src/linux-source-6.1.tar.xz (its three files are
# extracted once into $HEXSIM_CACHE/linux/checkpatch/).
set -eu

here=$(cd "$(dirname "$0")" && pwd)
tarball=${HEXSIM_LINUX_TARBALL:-/usr/src/linux-source-6.1.tar.xz}
cache=${HEXSIM_CACHE:-${HOME}/.cache/hexsim}/linux
signoff="Signed-off-by: hexsim developers <dev@hexsim.invalid>"

die() { echo "check.sh: error: $*" >&2; exit 1; }

LC_ALL=C
export LC_ALL
set -- "$here"/patches/*.patch
[ -e "$1" ] || die "no patches in $here/patches"

checkpatch="$cache/src/scripts/checkpatch.pl"
if [ ! -f "$checkpatch" ]; then
    checkpatch="$cache/checkpatch/scripts/checkpatch.pl"
    if [ ! -f "$checkpatch" ]; then
        [ -r "$tarball" ] || die "$tarball not found (apt-get install linux-source-6.1)"
        top=$(tar -tJf "$tarball" | head -n 1 | cut -d/ -f1)
        mkdir -p "$cache/checkpatch.tmp"
        tar -xJf "$tarball" -C "$cache/checkpatch.tmp" --strip-components=1 \
            "$top/scripts/checkpatch.pl" "$top/scripts/spelling.txt" \
            "$top/scripts/const_structs.checkpatch"
        rm -rf "$cache/checkpatch"
        mv "$cache/checkpatch.tmp" "$cache/checkpatch"
    fi
fi

failed=0
for p in "$@"; do
    name=$(basename "$p")
    grep -qxF "$signoff" "$p" || { echo "$name: no '$signoff' line"; failed=1; }
    out=$(perl "$checkpatch" --no-tree --no-color --show-types "$p" 2>&1) || true
    total=$(echo "$out" | grep -E '^total: [0-9]+ errors' || true)
    [ -n "$total" ] || { echo "$out"; die "$name: checkpatch.pl gave no summary"; }
    errors=$(echo "$total" | sed -E 's/^total: ([0-9]+) errors.*/\1/')
    echo "$name: $total"
    # Each finding: its ERROR/WARNING line and the location line after it.
    echo "$out" | awk '/^(ERROR|WARNING|CHECK)/ { n = 2 } n > 0 { print "    " $0; n-- }'
    [ "$errors" -eq 0 ] || failed=1
done

[ "$failed" -eq 0 ] || die "the patch series has checkpatch errors or missing sign-offs"
echo "check.sh: $# patches, no checkpatch errors"
