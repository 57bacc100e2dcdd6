#!/bin/sh
# SPDX-License-Identifier: MIT
# Builds the root file system image: BusyBox (guest/busybox/build.sh, cached) copied to
# BUILD/rootfs/bin with its list of applet paths, /init (init/init.c) compiled there with
# tools/hexagon-cc, then BUILD/rootfs.cpio from guest/rootfs/rootfs.list with
# tools/mkcpio.py (a symlink to /bin/busybox for every applet, /init, /etc). CMake's
# `rootfs` target and the rootfs_build test run it.
#
# Usage: guest/rootfs/build.sh BUILD_DIR [PYTHON]
# Prints the image's path on stdout; progress goes to stderr.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
[ $# -ge 1 ] || { echo "usage: $0 BUILD_DIR [PYTHON]" >&2; exit 2; }
build=$1
python=${2:-python3}

busybox=$(HEXSIM_BUSYBOX_QUIET=1 "$top/guest/busybox/build.sh") ||
    { echo "rootfs/build.sh: error: building BusyBox failed (guest/busybox/build.sh)" >&2; exit 1; }
mkdir -p "$build/rootfs/bin"
cp "$busybox" "$build/rootfs/bin/busybox.new"
mv "$build/rootfs/bin/busybox.new" "$build/rootfs/bin/busybox"
cp "$(dirname "$busybox")/busybox.links" "$build/rootfs/bin/busybox.links"
"$top/tools/hexagon-cc" -Os -std=c11 -Wall -Wextra -Werror -s "$here/init/init.c" \
    -o "$build/rootfs/bin/init.new"
mv "$build/rootfs/bin/init.new" "$build/rootfs/bin/init"
"$python" "$top/tools/mkcpio.py" --list "$here/rootfs.list" --bin "$build/rootfs/bin" \
    -o "$build/rootfs.cpio"
echo "rootfs/build.sh: $build/rootfs.cpio ($(stat -c %s "$build/rootfs.cpio") bytes)" >&2
echo "$build/rootfs.cpio"
