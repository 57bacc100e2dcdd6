#!/bin/sh
# SPDX-License-Identifier: MIT
# The project's main job: set up, build hexsim, the guest kernel (guest/linux/build.sh;
# about 6 minutes on an idle 2-core machine the first time, cached afterwards) and the root
# file system (guest/rootfs: BusyBox from guest/busybox, linked with the musl sysroot of
# guest/musl; both built the first time, about 10 minutes together, and cached), then
# boot Linux to a shell:
#     hexsim vmlinux --initrd rootfs.cpio
# On a terminal the console is raw: Ctrl-A x quits, Ctrl-A h lists the other keys; the
# shell's `poweroff` ends the run. Extra arguments go to hexsim (for example --smp 2 or
# --append "quiet"). With --packages first, the root file system also holds the guest
# packages (guest/packages: sqlite3, zstd, xz, bzip2, lua...; built the first time, about
# N minutes, and cached): build/rootfs-packages.cpio.
set -eu
cd "$(dirname "$0")/.."
rootfs=rootfs
if [ "${1:-}" = --packages ]; then
    rootfs=rootfs-packages
    shift
fi

./tools/setup.sh
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release
cmake --build build -j"$(nproc)"
cmake --build build --target "$rootfs"
vmlinux=$(guest/linux/build.sh)

echo "run.sh: booting: build/hexsim $vmlinux --initrd build/$rootfs.cpio $*" >&2
exec ./build/hexsim "$vmlinux" --initrd "build/$rootfs.cpio" "$@"
