#!/bin/sh
# SPDX-License-Identifier: MIT
# hexsim set-up: installs every Debian 12 package the project needs to build, test and
# boot. Idempotent: packages already present are skipped by apt-get; runs as root or via sudo.
set -eu

PKGS="build-essential cmake pkg-config libelf-dev libdw-dev libsdl2-dev libreadline-dev check
zlib1g-dev libsubunit-dev libslirp-dev clang-16 libclang-rt-16-dev lld-16 llvm-16 lldb-16 qemu-user
python3 binutils"
# (binutils: its objdump checks the block compiler's stencils, src/cpu/sources.cmake; gcc
# pulls it in anyway, but the build uses it by name)
# Guest kernel (guest/linux/build.sh): the source tarball, and what its build runs
# besides the compiler: Kconfig's lexer and parser generators, bc for the timeconst
# header, xz to unpack, patch to apply the series, perl for checkpatch.pl and build
# scripts. cpio is not needed: the initramfs is loaded separately, not built in.
PKGS="$PKGS linux-source-6.1 flex bison bc xz-utils patch perl"
# Debian source packages (tools/debsrc.sh: apt-get source needs dpkg-source) and the
# musl sysroot (guest/musl/build.sh: clang-16, lld-16, llvm-16's ar and llvm-config).
PKGS="$PKGS dpkg-dev"
# Disk images (tools/mkext4.py, the rootfs-disk target: mke2fs -d, debugfs; the disk boot
# tests read the images back with debugfs)
PKGS="$PKGS e2fsprogs"
# The C++ runtime (guest/libcxx/build.sh: LLVM's runtimes build through CMake and Ninja).
PKGS="$PKGS ninja-build"
# Flame graph pictures (tests/timing/flamegraph_test.py): rsvg-convert renders the SVG
# --profile writes, to check its labels can be read; node runs the picture's zoom and
# search script against the picture's own boxes.
PKGS="$PKGS librsvg2-bin nodejs"
# The SDL console window (src/devices/host/sdl.cmake): libvterm, its terminal emulator,
# and console-setup-linux's PSF console fonts, which it draws with (read at run time).
PKGS="$PKGS libvterm-dev console-setup-linux"

missing=""
for p in $PKGS; do
    if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
        missing="$missing $p"
    fi
done

if [ -z "$missing" ]; then
    echo "setup: all packages present"
    exit 0
fi

SUDO=""
if [ "$(id -u)" -ne 0 ]; then
    SUDO="sudo"
fi
echo "setup: installing:$missing"
$SUDO apt-get update -q
# $missing is a space-separated word list; splitting it is intended.
# shellcheck disable=SC2086
$SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends $missing
