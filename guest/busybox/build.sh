#!/bin/sh
# SPDX-License-Identifier: MIT
# Builds BusyBox for the guest: Debian's busybox 1:1.35.0-4+deb12u1 source (fetched with
# tools/debsrc.sh; dpkg-source applies Debian's own patches), the project's patches
# (guest/busybox/patches/*.patch, in name order, if any) and configuration
# (guest/busybox/config.fragment over `make allnoconfig`), compiled static with
# tools/hexagon-cc against the project's musl sysroot (guest/musl/build.sh).
#
# Works in a cache directory and redoes only what changed, like guest/musl/build.sh:
# another source package or patch series means a fresh unpack and a full build; another
# fragment or sysroot a reconfigure and a full build (BusyBox's make then rebuilds what
# the changed CONFIG_ options touch); nothing changed means nothing runs.
#
# Result, in $HEXSIM_CACHE/busybox/out: `busybox` (stripped, static), `busybox.links`
# (the install path of every applet, /bin/ls ...; read by guest/rootfs/build.sh), and
# BusyBox's test suite (`testsuite/`, `.config`) for tests/boot/busybox_testsuite.py.
#
# Environment:
#   HEXSIM_CACHE            cache root (default ~/.cache/hexsim)
#   HEXSIM_JOBS             make -j value (default 2)
#   HEXSIM_BUSYBOX_QUIET    if set, say nothing when the binary is up to date
#   HEXSIM_SYSROOT          a musl sysroot to use instead of guest/musl/build.sh's
#
# Progress goes to stderr; the only line on stdout is the binary's path, so
# `busybox=$(guest/busybox/build.sh)` works.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
cache=${HEXSIM_CACHE:-${HOME}/.cache/hexsim}/busybox
jobs=${HEXSIM_JOBS:-2}
pkg=busybox=1:1.35.0-4+deb12u1
fragment="$here/config.fragment"
src="$cache/src"
build="$cache/build"
out="$cache/out"

say() { echo "busybox/build.sh: $*" >&2; }
die() { echo "busybox/build.sh: error: $*" >&2; exit 1; }

for tool in clang-16 llvm-ar-16 llvm-strip-16 llvm-objcopy-16 ld.lld-16 make patch dpkg-source cc; do
    command -v "$tool" >/dev/null 2>&1 || die "$tool not found (run tools/setup.sh)"
done
[ -r "$fragment" ] || die "$fragment not found"

LC_ALL=C
export LC_ALL
set -- "$here"/patches/*.patch
[ -e "$1" ] || set --

mkdir -p "$cache"
exec 9>"$cache/.lock"
flock 9 || die "cannot lock $cache/.lock"

# The sysroot first: its key is part of ours (a new C library means a new build).
sysroot=${HEXSIM_SYSROOT:-}
[ -n "$sysroot" ] || sysroot=$(HEXSIM_MUSL_QUIET=1 "$top/guest/musl/build.sh") ||
    die "cannot build the musl sysroot"
[ -f "$sysroot/.hexsim-key" ] || die "$sysroot has no .hexsim-key"

# What each stage depends on: the tree on the package and the patches; the configured
# build on the tree, the fragment (and the code below that applies it), the sysroot and
# the compiler wrapper.
src_key=$( { echo "$pkg"; [ $# -eq 0 ] || cat "$@"; } | sha256sum | cut -d' ' -f1)
cfg_key=$( { echo "$src_key"; cat "$fragment" "$sysroot/.hexsim-key" "$top/tools/hexagon-cc";
             sed -n -e '/^make_vars=/,/^$/p' -e '/^ *# Each CONFIG_X=V/,/^ *echo "$cfg_key"/p' "$0"; } |
           sha256sum | cut -d' ' -f1)

if [ -f "$out/.hexsim-key" ] && [ "$(cat "$out/.hexsim-key")" = "$cfg_key" ] && [ -x "$out/busybox" ]; then
    [ -n "${HEXSIM_BUSYBOX_QUIET:-}" ] || say "busybox is up to date"
    echo "$out/busybox"
    exit 0
fi

if [ ! -f "$src/.hexsim-src-key" ] || [ "$(cat "$src/.hexsim-src-key")" != "$src_key" ]; then
    dsc=$("$top/tools/debsrc.sh" "$pkg") || die "cannot fetch the source package $pkg"
    say "unpacking $(basename "$dsc") into $src"
    rm -rf "$src" "$build" "$out" "$cache/unpack"
    mkdir -p "$cache/unpack"
    dpkg-source --no-check -x "$dsc" "$cache/unpack/busybox" >&2
    grep -q '^VERSION = 1$' "$cache/unpack/busybox/Makefile" &&
        grep -q '^PATCHLEVEL = 35$' "$cache/unpack/busybox/Makefile" ||
        die "$dsc does not hold busybox 1.35"
    mv "$cache/unpack/busybox" "$src"
    rm -rf "$cache/unpack"
    for p in "$@"; do
        say "applying $(basename "$p")"
        patch -d "$src" -p1 --batch --forward --fuzz=0 --no-backup-if-mismatch --dry-run -s \
            -i "$p" >&2 || die "$(basename "$p") does not apply to busybox 1.35; tree left at $src"
        patch -d "$src" -p1 --batch --forward --fuzz=0 --no-backup-if-mismatch -s -i "$p" >&2
    done
    echo "$src_key" > "$src/.hexsim-src-key"
fi

# BusyBox's kbuild with the cross tools: hexagon-cc compiles and links (static,
# -mv67 -G0, the sysroot), the host compiler builds kconfig and the applet table
# generators, lld does the partial links (`ld -r`) of each directory's objects.
make_vars="CC=$top/tools/hexagon-cc HOSTCC=cc AR=llvm-ar-16 LD=ld.lld-16 STRIP=llvm-strip-16 OBJCOPY=llvm-objcopy-16 SKIP_STRIP=n"

# The build time BusyBox shows in its banner is the Debian package's date (kconfig reads
# SOURCE_DATE_EPOCH), so that a rebuild gives the same binary.
epoch=$(dpkg-parsechangelog -l "$src/debian/changelog" -S Timestamp) ||
    die "cannot read the date of $src/debian/changelog"

bbmake() {
    # shellcheck disable=SC2086
    HEXSIM_SYSROOT="$sysroot" SOURCE_DATE_EPOCH="$epoch" make -C "$src" O="$build" $make_vars "$@"
}

if [ ! -f "$build/.hexsim-cfg-key" ] || [ "$(cat "$build/.hexsim-cfg-key")" != "$cfg_key" ]; then
    say "configuring busybox (allnoconfig + $(basename "$fragment"))"
    rm -f "$out/.hexsim-key"
    mkdir -p "$build"
    bbmake allnoconfig > "$build/config.log" 2>&1 || { tail -n 20 "$build/config.log" >&2; die "make allnoconfig failed"; }
    # Each CONFIG_X=V of the fragment replaces X's line in .config (V=n: "is not set"),
    # then oldconfig gives every option the fragment opened up its default.
    # (Option names have lower-case letters too: CONFIG_INCLUDE_SUSv2.)
    ! grep -nvE '^(CONFIG_[A-Za-z0-9_]+=.*|#.*|)$' "$fragment" >&2 ||
        die "$(basename "$fragment"): the lines above are neither CONFIG_NAME=VALUE nor comments"
    grep -E '^CONFIG_[A-Za-z0-9_]+=' "$fragment" > "$build/fragment.lines"
    while IFS='=' read -r k v; do
        sed -i -e "/^# $k is not set\$/d" -e "/^$k=/d" "$build/.config"
        if [ "$v" = n ]; then echo "# $k is not set"; else echo "$k=$v"; fi >> "$build/.config"
    done < "$build/fragment.lines"
    yes '' | bbmake oldconfig >> "$build/config.log" 2>&1 || { tail -n 20 "$build/config.log" >&2; die "make oldconfig failed"; }
    # Every option the fragment names must have the value it gives (a misspelt name or an
    # unmet dependency would otherwise drop an applet silently).
    bad=
    while IFS='=' read -r k v; do
        if [ "$v" = n ]; then
            if grep -q "^$k=" "$build/.config"; then bad="$bad $k"; fi
        else
            grep -qxF "$k=$v" "$build/.config" || bad="$bad $k"
        fi
    done < "$build/fragment.lines"
    [ -z "$bad" ] || die "the configuration did not take these options from $(basename "$fragment"):$bad"
    echo "$cfg_key" > "$build/.hexsim-cfg-key"
fi

say "building busybox (make -j$jobs)"
log="$build/make.log"
if ! bbmake -j"$jobs" busybox busybox.links > "$log" 2>&1; then
    tail -n 40 "$log" >&2
    die "building busybox failed; the whole log is $log"
fi
mkdir -p "$out"
cp "$build/busybox" "$out/busybox.new"
mv "$out/busybox.new" "$out/busybox"
cp "$build/busybox.links" "$out/busybox.links"
# BusyBox's own test suite and the .config its runtest reads, for the guest test
# (tests/boot/busybox_testsuite.py).
rm -rf "$out/testsuite"
cp -pR "$src/testsuite" "$out/testsuite"
cp "$build/.config" "$out/.config"
echo "$cfg_key" > "$out/.hexsim-key"
echo "$out/busybox"
