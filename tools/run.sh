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
# --append "quiet").
#     tools/run.sh --packages [ARGS]
# boots a root file system that also holds the guest packages (guest/packages: sqlite3,
# zstd, xz, bzip2, lua...; built the first time, which takes long on a cold cache, see
# guest/packages/README.md, and cached): build/rootfs-packages.cpio.
#     tools/run.sh --disk [ARGS]
# boots from the disk build/rootfs.ext4 instead (root=/dev/vda; made from the same root
# file system by `cmake --build build --target rootfs-disk` the first time; kept after
# that, so what the guest writes there stays from one boot to the next).
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

if [ "${1:-}" = "--disk" ]; then
    shift
    [ -f build/rootfs.ext4 ] || cmake --build build --target rootfs-disk
    echo "run.sh: booting: build/hexsim $vmlinux --drive file=build/rootfs.ext4" \
         "--append 'root=/dev/vda rw' $*" >&2
    exec ./build/hexsim "$vmlinux" --drive file=build/rootfs.ext4 --append "root=/dev/vda rw" "$@"
fi

echo "run.sh: booting: build/hexsim $vmlinux --initrd build/$rootfs.cpio $*" >&2
exec ./build/hexsim "$vmlinux" --initrd "build/$rootfs.cpio" "$@"
