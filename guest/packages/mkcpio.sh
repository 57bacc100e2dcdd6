#!/bin/sh
# SPDX-License-Identifier: MIT
# Packs a staging root of guest/packages/build.sh (default $HEXSIM_CACHE/packages/root) into
# a cpio archive with tools/mkcpio.py: every directory, file and symlink under it, at the
# same path in the guest. Appended to the root file system's cpio (the kernel unpacks the
# two in turn), it adds the packages' programs in /usr/bin and their tests in
# /usr/share/hexsim-tests. Usage: guest/packages/mkcpio.sh [ROOT] OUT.cpio [PYTHON]
# Prints OUT.cpio's path on stdout.
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
if [ $# -ge 2 ]; then root=$1; shift; else root=${HEXSIM_CACHE:-${HOME}/.cache/hexsim}/packages/root; fi
[ $# -ge 1 ] || { echo "usage: $0 [ROOT] OUT.cpio [PYTHON]" >&2; exit 2; }
out=$1
python=${2:-python3}
[ -d "$root/usr" ] || { echo "mkcpio.sh: error: $root holds no packages (run guest/packages/build.sh)" >&2; exit 1; }
list="$out.list"
(
    cd "$root"
    find . -mindepth 1 | LC_ALL=C sort | while IFS= read -r p; do
        g=${p#.}
        if [ -L "$p" ]; then
            echo "slink $g $(readlink "$p")"
        elif [ -d "$p" ]; then
            echo "dir $g 755"
        else
            echo "file $g $(stat -c %a "$p") $root/${p#./}"
        fi
    done
) > "$list"
"$python" "$top/tools/mkcpio.py" --list "$list" --bin "$root" -o "$out"
rm -f "$list"
echo "$out"
