#!/bin/sh
# SPDX-License-Identifier: MIT
# Builds the Hexagon sysroot: Debian's musl 1.2.3 source (fetched with tools/debsrc.sh)
# with the project's Hexagon port (guest/musl/patches/*.patch, applied in name order),
# compiled with clang-16 for hexagon-unknown-linux-musl, static and shared (libc.so, which
# is also the dynamic loader /lib/ld-musl-hexagon.so.1), plus the compiler helper library
# (guest/musl/builtins/). The system-call numbers (arch/hexagon/bits/
# syscall.h.in) are generated from Linux 6.1's asm-generic unistd.h with Hexagon's
# __ARCH_WANT_ set, read from linux-source-6.1.
#
# Works in a cache directory and redoes only what changed, like guest/linux/build.sh:
# another source package or patch series means a fresh unpack and a full build; other
# compiler flags a reconfigure; changed builtins only their rebuild; nothing changed
# means nothing runs.
#
# Result: $HEXSIM_CACHE/musl/sysroot with usr/include (musl's headers and Linux 6.1's
# uapi headers for Hexagon), usr/lib/crt1.o,
# crti.o, crtn.o, libc.a (libm, libpthread, librt ... folded in, their .a files empty as
# musl installs them), libc.so with lib/ld-musl-hexagon.so.1 (a relative symbolic link
# to it) and libclang_rt.builtins-hexagon.a (the helpers
# clang-16 calls, under the name clang's driver links for this target; libc.so has its
# own hidden copy; position-independent, so that shared libraries can link them too).
#
# Environment:
#   HEXSIM_CACHE          cache root (default ~/.cache/hexsim)
#   HEXSIM_LINUX_TARBALL  kernel source for the syscall numbers
#                         (default /usr/src/linux-source-6.1.tar.xz)
#   HEXSIM_JOBS           make -j value (default 2)
#   HEXSIM_MUSL_QUIET     if set, say nothing when the sysroot is up to date
#
# Progress goes to stderr; the only line on stdout is the sysroot's path, so
# `sysroot=$(guest/musl/build.sh)` works.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
tarball=${HEXSIM_LINUX_TARBALL:-/usr/src/linux-source-6.1.tar.xz}
cache=${HEXSIM_CACHE:-${HOME}/.cache/hexsim}/musl
jobs=${HEXSIM_JOBS:-2}
pkg=musl=1.2.3-1
src="$cache/src"
build="$cache/build"
sysroot="$cache/sysroot"
# -mv67: clang-16 defaults to hexagonv60; v67 is the newest version qemu-hexagon 7.2
#   accepts and what the rest of the project's guest code uses.
# -fno-pic: libc.a is for executables that are not position-independent (musl's make
#   adds -fPIC after these flags for libc.so's objects).
# -G0: no small-data (GP-relative) accesses, whose R_HEX_GPREL16_* relocations
#   ld.lld-16 does not handle ("unknown relocation (11)").
# -mno-pairing: ld.lld-16 mislinks R_HEX_8_X in an extended duplex
#   (tools/lld_duplex_check.py); without duplexes there is no such relocation.
# tools/hexagon-cc uses the same flags for programs.
target="--target=hexagon-unknown-linux-musl -mv67"
cflags="-fno-pic -G0 -mllvm -mno-pairing"

me=musl/build.sh
# shellcheck source=guest/build_lib.sh
. "$here/../build_lib.sh"

[ -r "$tarball" ] || die "$tarball not found (apt-get install linux-source-6.1, or run tools/setup.sh)"
need_tools clang-16 ld.lld-16 llvm-ar-16 llvm-ranlib-16 make patch dpkg-source xz

LC_ALL=C
export LC_ALL
set -- "$here"/patches/*.patch
[ -e "$1" ] || die "no patches in $here/patches"
builtins=$(ls "$here"/builtins/*.c)

lock_cache "$cache"

dsc=$("$top/tools/debsrc.sh" "$pkg") || die "cannot fetch the source package $pkg"

# What each stage depends on: the source tree on the package, the patches and the
# syscall list (the kernel tarball and the generator function below); the configured
# build on the tree and the flags; the installed sysroot on all that and the builtins.
# Other edits of this script change nothing that is built.
src_key=$( { echo "$pkg"; stat -L -c '%n %s %Y' "$tarball"; cat "$@";
             sed -n '/^gen_syscalls()/,/^}/p' "$0"; } | sha256sum | cut -d' ' -f1)
cfg_key=$(echo "$src_key $target $cflags shared" | sha256sum | cut -d' ' -f1)
all_key=$( { echo "$cfg_key"; cat $builtins "$here"/builtins/*.h 2>/dev/null; } | sha256sum | cut -d' ' -f1)

if [ -f "$sysroot/.hexsim-key" ] && [ "$(cat "$sysroot/.hexsim-key")" = "$all_key" ]; then
    [ -n "${HEXSIM_MUSL_QUIET:-}" ] || say "sysroot is up to date"
    echo "$sysroot"
    exit 0
fi

# Linux 6.1's system-call numbers as Hexagon's kernel sees them: asm-generic/unistd.h
# with arch/hexagon/include/uapi/asm/unistd.h's __ARCH_WANT_ defines and 32-bit longs.
gen_syscalls() {
    out=$1
    k="$cache/kernel-uapi"
    rm -rf "$k"
    mkdir -p "$k/x"
    say "reading the system-call numbers from $(basename "$tarball")"
    tar -xJf "$tarball" -C "$k/x" --wildcards --no-wildcards-match-slash \
        '*/include/uapi/asm-generic/unistd.h' '*/arch/hexagon/include/uapi/asm/unistd.h'
    mkdir -p "$k/inc/asm" "$k/inc/asm-generic"
    cp "$k"/x/*/include/uapi/asm-generic/unistd.h "$k/inc/asm-generic/" ||
        die "$tarball lacks include/uapi/asm-generic/unistd.h"
    cp "$k"/x/*/arch/hexagon/include/uapi/asm/unistd.h "$k/inc/asm/" ||
        die "$tarball lacks arch/hexagon/include/uapi/asm/unistd.h"
    echo '#define __BITS_PER_LONG 32' > "$k/inc/asm/bitsperlong.h"
    names=$(clang-16 -E -dM -nostdinc -I "$k/inc" -x c "$k/inc/asm/unistd.h" |
        sed -n 's/^#define \(__NR_[a-z0-9_]*\) .*/\1/p' |
        grep -v -x -e __NR_syscalls -e __NR_arch_specific_syscall | sort -u)
    [ -n "$names" ] || die "no __NR_ names in the kernel's unistd.h"
    { echo '#include <asm/unistd.h>'; for n in $names; do echo "@ \"$n\" $n"; done; } |
        clang-16 -E -P -nostdinc -I "$k/inc" -x c - | grep '^@ ' > "$k/values"
    : > "$k/list"
    while read -r _ name value; do
        name=$(echo "$name" | tr -d '"')
        v=$(($(echo "$value" | tr -d ' ')))
        echo "$v $name" >> "$k/list"
    done < "$k/values"
    # musl's spelling on its other 32-bit ports: the calls with 32-bit times carry
    # a time32 suffix (musl's internal syscall.h maps the plain names back to
    # them), and lseek with 64-bit offsets is _llseek.
    sort -n -k1,1 -k2 "$k/list" | awk '
        BEGIN {
            ren["__NR_clock_gettime"] = "__NR_clock_gettime32"
            ren["__NR_clock_settime"] = "__NR_clock_settime32"
            ren["__NR_clock_getres"] = "__NR_clock_getres_time32"
            ren["__NR_clock_nanosleep"] = "__NR_clock_nanosleep_time32"
            ren["__NR_gettimeofday"] = "__NR_gettimeofday_time32"
            ren["__NR_settimeofday"] = "__NR_settimeofday_time32"
            ren["__NR_timer_gettime"] = "__NR_timer_gettime32"
            ren["__NR_timer_settime"] = "__NR_timer_settime32"
            ren["__NR_timerfd_gettime"] = "__NR_timerfd_gettime32"
            ren["__NR_timerfd_settime"] = "__NR_timerfd_settime32"
        }
        { name = ($2 in ren) ? ren[$2] : $2 }
        name == "__NR_llseek" { print "#define __NR__llseek " $1 }
        { print "#define " name " " $1 }' > "$out"
    grep -q '^#define __NR_clock_gettime64 403$' "$out" || die "generated syscall list lacks clock_gettime64 (403)"
    grep -q '^#define __NR_clone 220$' "$out" || die "generated syscall list lacks clone (220)"
    grep -q '^#define __NR__llseek 62$' "$out" || die "generated syscall list lacks _llseek (62)"
    rm -rf "$k"
}

if [ ! -f "$src/.hexsim-src-key" ] || [ "$(cat "$src/.hexsim-src-key")" != "$src_key" ]; then
    say "unpacking $(basename "$dsc") into $src"
    rm -rf "$src" "$build" "$sysroot" "$cache/unpack"
    mkdir -p "$cache/unpack"
    dpkg-source --no-check -x "$dsc" "$cache/unpack/musl" >&2
    [ -f "$cache/unpack/musl/VERSION" ] && [ "$(cat "$cache/unpack/musl/VERSION")" = 1.2.3 ] ||
        die "$dsc does not hold musl 1.2.3"
    mv "$cache/unpack/musl" "$src"
    rm -rf "$cache/unpack"
    for p in "$@"; do
        say "applying $(basename "$p")"
        if ! patch -d "$src" -p1 --batch --forward --fuzz=0 --no-backup-if-mismatch \
                --dry-run -s -i "$p" >&2; then
            die "$(basename "$p") does not apply to musl 1.2.3; tree left at $src"
        fi
        patch -d "$src" -p1 --batch --forward --fuzz=0 --no-backup-if-mismatch -s -i "$p" >&2
    done
    # The generated list is kept beside the tree: reading the tarball takes a while.
    sys_key=$( { stat -L -c '%n %s %Y' "$tarball"; sed -n '/^gen_syscalls()/,/^}/p' "$0"; } |
        sha256sum | cut -d' ' -f1)
    if [ ! -f "$cache/syscall.h.in" ] || [ "$(cat "$cache/syscall.key" 2>/dev/null)" != "$sys_key" ]; then
        gen_syscalls "$cache/syscall.h.in"
        echo "$sys_key" > "$cache/syscall.key"
    fi
    cp "$cache/syscall.h.in" "$src/arch/hexagon/bits/syscall.h.in"
    echo "$src_key" > "$src/.hexsim-src-key"
fi

if [ ! -f "$build/.hexsim-cfg-key" ] || [ "$(cat "$build/.hexsim-cfg-key")" != "$cfg_key" ]; then
    say "configuring musl for hexagon-unknown-linux-musl"
    rm -rf "$build" "$sysroot"
    mkdir -p "$build"
    # shellcheck disable=SC2086
    (cd "$build" && "$src/configure" --target=hexagon-unknown-linux-musl --prefix=/usr \
        --syslibdir=/lib CC="clang-16 $target" CFLAGS="$cflags" \
        LIBCC="$build/builtins.a" AR=llvm-ar-16 RANLIB=llvm-ranlib-16) >&2
    echo "$cfg_key" > "$build/.hexsim-cfg-key"
fi

# The helpers clang-16 calls for division and memcpy (guest/musl/builtins), built once,
# position-independent with hidden visibility: linked into libc.so (musl's LIBCC, not
# exported from it) and installed for programs and shared libraries, each of which gets its
# own copy (as libgcc.a is used). libc.so is relinked when they change.
say "building the compiler helper library"
obj="$build/builtins"
rm -rf "$obj"
mkdir -p "$obj"
for c in $builtins; do
    o="$obj/$(basename "$c" .c).o"
    # shellcheck disable=SC2086
    clang-16 $target $cflags -fPIC -fvisibility=hidden -O2 -std=c11 -Wall -Wextra -Werror \
        -ffreestanding -fno-builtin -nostdinc -isystem "$(clang-16 -print-resource-dir)/include" \
        -c "$c" -o "$o" >&2
done
rm -f "$build/builtins.a.new"
llvm-ar-16 rcs "$build/builtins.a.new" "$obj"/*.o
if ! cmp -s "$build/builtins.a.new" "$build/builtins.a"; then
    mv "$build/builtins.a.new" "$build/builtins.a"
    rm -f "$build/lib/libc.so"
fi
rm -f "$build/builtins.a.new"

say "building musl (make -j$jobs)"
rm -f "$sysroot/.hexsim-key"
# musl's make prints every command: they go to make.log, the end of which is shown
# if something fails.
log="$build/make.log"
if ! { make -C "$build" -j"$jobs" && make -C "$build" DESTDIR="$sysroot" install; } > "$log" 2>&1; then
    tail -n 40 "$log" >&2
    die "building musl failed; the whole log is $log"
fi
# musl links the loader to libc.so by absolute path (/usr/lib/libc.so); a relative link
# works from any guest root, qemu-hexagon -L's included (it follows links on the host).
ln -sf ../usr/lib/libc.so "$sysroot/lib/ld-musl-hexagon.so.1"

# Linux 6.1's user-space API headers for Hexagon (linux/, asm/, asm-generic/ ...), which
# programs like BusyBox include next to the C library's: `make headers` in a scratch
# copy of the parts of the kernel tree it reads (13 MB, not the whole 1.3 GB), removed
# afterwards. Redone when the sysroot was.
if [ ! -f "$sysroot/usr/include/linux/.hexsim-uapi" ]; then
    say "installing Linux 6.1's uapi headers from $(basename "$tarball")"
    k="$cache/kernel-tree"
    rm -rf "$k"
    mkdir -p "$k"
    ktop=$(tar -tJf "$tarball" 2>/dev/null | head -n 1 | cut -d/ -f1) || true
    [ -n "$ktop" ] || die "cannot list $tarball"
    tar -xJf "$tarball" -C "$k" --wildcards "$ktop/Makefile" "$ktop/Kbuild" "$ktop/Kconfig" \
        "$ktop/scripts/*" "$ktop/include/uapi/*" "$ktop/arch/hexagon/*" "$ktop/usr/*"
    [ -d "$k/$ktop/arch/hexagon/include/uapi" ] || die "$tarball does not hold a Hexagon kernel tree"
    # `make headers` leaves the sanitised headers in usr/include (headers_install would
    # only copy them, with rsync).
    if ! make -C "$k/$ktop" ARCH=hexagon HOSTCC=cc headers > "$build/headers.log" 2>&1; then
        tail -n 20 "$build/headers.log" >&2
        die "making the kernel headers failed; the log is $build/headers.log"
    fi
    (cd "$k/$ktop/usr/include" && find . -name '*.h' -exec cp --parents {} "$sysroot/usr/include/" \;)
    rm -rf "$k"
    [ -f "$sysroot/usr/include/linux/version.h" ] && [ -f "$sysroot/usr/include/asm/unistd.h" ] ||
        die "headers_install left no linux/version.h or asm/unistd.h"
    touch "$sysroot/usr/include/linux/.hexsim-uapi"
fi

rm -f "$sysroot/usr/lib/libclang_rt.builtins-hexagon.a"
cp "$build/builtins.a" "$sysroot/usr/lib/libclang_rt.builtins-hexagon.a"

echo "$all_key" > "$sysroot/.hexsim-key"
echo "$sysroot"
