#!/bin/sh
# SPDX-License-Identifier: MIT
# Builds the guest kernel: Debian's linux-source-6.1 with the Comet patch series
# (guest/linux/patches/*.patch, applied in name order) and guest/linux/comet_defconfig,
# compiled for Hexagon with clang-16 and lld-16. Works in a cache directory outside the
# source tree and redoes only what changed: a different tarball or patch series means a
# fresh unpack and a full build; a different config means a reconfigure and an
# incremental build; nothing different means nothing is run.
#
# With --debug-info it builds a second kernel beside the first, in
# $HEXSIM_CACHE/linux-debug/{src,build}: the same patches and config plus
# guest/linux/debug_info.config (DWARF 5 for hexsim's debugger and lldb). The default
# kernel, its config and its cache are untouched. clang-16 with -g emits slightly different
# Hexagon code (.text 3 KiB larger), so the debug kernel boots with the same console
# output but for timestamps and its size, in about 1% more packets (boot_kdebug_same).
#
# Environment:
#   HEXSIM_CACHE          cache root (default ~/.cache/hexsim); the kernel lives in
#                         $HEXSIM_CACHE/linux/{src,build}
#   HEXSIM_LINUX_TARBALL  kernel source (default /usr/src/linux-source-6.1.tar.xz)
#   HEXSIM_JOBS           make -j value (default 2)
#
# Progress goes to stderr; the only line on stdout is the path of the built vmlinux, so
# `vmlinux=$(guest/linux/build.sh)` works.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
tarball=${HEXSIM_LINUX_TARBALL:-/usr/src/linux-source-6.1.tar.xz}
jobs=${HEXSIM_JOBS:-2}
debug_info=false
case "${1:-}" in
"") ;;
--debug-info) debug_info=true ;;
*) echo "usage: build.sh [--debug-info]" >&2; exit 2 ;;
esac
if $debug_info; then
    cache=${HEXSIM_CACHE:-${HOME}/.cache/hexsim}/linux-debug
    fragments="$here/comet_defconfig $here/debug_info.config"
    defconfig_name=comet_debug_defconfig
else
    cache=${HEXSIM_CACHE:-${HOME}/.cache/hexsim}/linux
    fragments="$here/comet_defconfig"
    defconfig_name=comet_defconfig
fi
src="$cache/src"
build="$cache/build"
make_vars="ARCH=hexagon LLVM=-16"
# ld.lld-16 mislinks R_HEX_8_X in an extended SA1_addi duplex (tools/lld_duplex_check.py):
# with duplexes the 13:40 build passed a stack word as start_pfn to memmap_init and died in
# new_slab. No duplexes, no such relocation: kbuild reads KCFLAGS/KAFLAGS from the environment.
KCFLAGS="-mllvm -mno-pairing"
KAFLAGS="-mllvm -mno-pairing"
export KCFLAGS KAFLAGS
# The same kernel from every build: the banner (/proc/version, the first console line)
# would otherwise carry the builder's user, host and clock, so a kernel built elsewhere
# (CI's) boots with other console lengths and other packet counts than this one.
KBUILD_BUILD_USER=hexsim
KBUILD_BUILD_HOST=comet
KBUILD_BUILD_VERSION=1
KBUILD_BUILD_TIMESTAMP="Mon Jan  1 00:00:00 UTC 2024"
export KBUILD_BUILD_USER KBUILD_BUILD_HOST KBUILD_BUILD_VERSION KBUILD_BUILD_TIMESTAMP

me=build.sh
# shellcheck source=guest/build_lib.sh
. "$here/../build_lib.sh"

[ -r "$tarball" ] || die "$tarball not found (apt-get install linux-source-6.1, or run tools/setup.sh)"
for f in $fragments; do
    [ -r "$f" ] || die "$f not found"
done
need_tools clang-16 ld.lld-16 llvm-nm-16 patch flex bison bc make xz perl

# The patch series in application order. LC_ALL=C makes the glob order plain byte order.
LC_ALL=C
export LC_ALL
set -- "$here"/patches/*.patch
[ -e "$1" ] || die "no patches in $here/patches"

lock_cache "$cache"

# What the source tree and the configured build depend on. The tarball is identified
# by name, size and modification time (hashing 140 MB on every run would cost more
# than the check is worth); the patches and the config by content.
src_key=$( { stat -L -c '%n %s %Y' "$tarball"; cat "$@"; } | sha256sum | cut -d' ' -f1)
# shellcheck disable=SC2086
cfg_key=$( { echo "$src_key $make_vars $KCFLAGS $KAFLAGS $KBUILD_BUILD_USER $KBUILD_BUILD_HOST $KBUILD_BUILD_VERSION $KBUILD_BUILD_TIMESTAMP"; cat $fragments; } | sha256sum | cut -d' ' -f1)

if [ ! -f "$src/.hexsim-src-key" ] || [ "$(cat "$src/.hexsim-src-key")" != "$src_key" ]; then
    say "unpacking $tarball into $src"
    rm -rf "$src" "$build" "$cache/unpack"
    mkdir -p "$cache/unpack"
    tar -xJf "$tarball" -C "$cache/unpack"
    top=$(ls "$cache/unpack")
    [ -d "$cache/unpack/$top/arch/hexagon" ] || die "$tarball does not hold a kernel tree"
    mv "$cache/unpack/$top" "$src"
    rmdir "$cache/unpack"
    for p in "$@"; do
        say "applying $(basename "$p")"
        # Dry run first, so a patch that does not apply leaves no half-applied files.
        if ! patch -d "$src" -p1 --batch --forward --fuzz=0 --no-backup-if-mismatch \
                --dry-run -s -i "$p" >&2; then
            die "$(basename "$p") does not apply to $(basename "$tarball"); tree left at $src"
        fi
        patch -d "$src" -p1 --batch --forward --fuzz=0 --no-backup-if-mismatch -s -i "$p" >&2
    done
    echo "$src_key" > "$src/.hexsim-src-key"
fi

cfg_ok=false
if [ -f "$build/.hexsim-cfg-key" ] && [ "$(cat "$build/.hexsim-cfg-key")" = "$cfg_key" ]; then
    cfg_ok=true
fi

if ! $cfg_ok; then
    say "configuring with $fragments"
    mkdir -p "$build"
    rm -f "$build/.hexsim-cfg-key"
    defconfig="$src/arch/hexagon/configs/$defconfig_name"
    # shellcheck disable=SC2086
    cat $fragments > "$defconfig"
    # shellcheck disable=SC2086
    make -C "$src" O="$build" $make_vars "$defconfig_name" >&2
    # Kconfig silently drops what it cannot satisfy; insist on every line of the file.
    missing=""
    while IFS= read -r line; do
        case "$line" in
        CONFIG_*=*)
            grep -qxF "$line" "$build/.config" || missing="$missing
  $line" ;;
        "# CONFIG_"*" is not set")
            sym=${line#\# }; sym=${sym%% *}
            if grep -q "^$sym=" "$build/.config"; then
                missing="$missing
  $line"
            fi ;;
        esac
    done < "$defconfig"
    [ -z "$missing" ] || die "the configured kernel differs from $fragments in:$missing"
fi

if ! $cfg_ok || [ ! -f "$build/vmlinux" ]; then
    say "building vmlinux (make $make_vars -j$jobs)"
    # shellcheck disable=SC2086
    make -C "$src" O="$build" $make_vars -j"$jobs" vmlinux >&2
    # The kernel must carry what hexsim relies on: the boot console, the board, the
    # second-level interrupt controller, the initrd hand-off and the command-line page.
    syms=$(llvm-nm-16 "$build/vmlinux")
    for s in angel_console_init comet_sirc_init comet_init reserve_initrd_mem \
             external_cmdline_buffer msm_serial_probe smsc911x_drv_probe; do
        echo "$syms" | grep -q " $s\$" || die "vmlinux lacks the symbol $s"
    done
    python3 "$here/../../tools/lld_duplex_check.py" "$build/vmlinux" >&2 ||
        die "vmlinux has duplexes ld.lld-16 may have mislinked"
    if $debug_info; then
        llvm-readelf-16 -S "$build/vmlinux" | grep -q ' \.debug_info ' ||
            die "vmlinux built with $here/debug_info.config has no .debug_info"
    fi
    echo "$cfg_key" > "$build/.hexsim-cfg-key"
else
    say "vmlinux is up to date"
fi

echo "$build/vmlinux"
