#!/bin/sh
# SPDX-License-Identifier: MIT
# The root file system with the packages: BUILD/rootfs.cpio (guest/rootfs, the small
# default) followed by the cpio of every package guest/packages/build.sh builds
# (guest/packages/mkcpio.sh), written as BUILD/rootfs-packages.cpio; the kernel unpacks the
# two archives in turn. CMake's `rootfs-packages` target and `tools/run.sh --packages` run it.
# Usage: guest/packages/rootfs.sh BUILD_DIR [PYTHON]   (packages: $HEXSIM_PACKAGES, default
# every recipe). Prints the image's path on stdout; progress goes to stderr.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
[ $# -ge 1 ] || { echo "usage: $0 BUILD_DIR [PYTHON]" >&2; exit 2; }
build=$1
python=${2:-python3}
[ -f "$build/rootfs.cpio" ] || "$here/../rootfs/build.sh" "$build" "$python" > /dev/null
# shellcheck disable=SC2086
root=$("$here/build.sh" ${HEXSIM_PACKAGES:-})
"$here/mkcpio.sh" "$root" "$build/packages.cpio" "$python" > /dev/null
cat "$build/rootfs.cpio" "$build/packages.cpio" > "$build/rootfs-packages.cpio.new"
mv "$build/rootfs-packages.cpio.new" "$build/rootfs-packages.cpio"
echo "packages/rootfs.sh: $build/rootfs-packages.cpio ($(stat -c %s "$build/rootfs-packages.cpio") bytes)" >&2
echo "$build/rootfs-packages.cpio"
