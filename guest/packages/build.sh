#!/bin/sh
# SPDX-License-Identifier: MIT
# Builds guest packages from Debian bookworm source packages with their own build systems
# and tools/hexagon-cc, one recipe each (guest/packages/NAME.recipe; see README.md there),
# and installs them into the staging tree $HEXSIM_CACHE/packages/root (programs in
# /usr/bin, each package's tests in /usr/share/hexsim-tests/NAME) that
# tests/packages/pkgtest.py runs and guest/packages/mkcpio.sh packs for the guest.
#
# For each NAME: the source package (tools/debsrc.sh; dpkg-source applies Debian's
# patches, or only those the recipe lists in debian_patches), then the project's patches
# (guest/packages/NAME/*.patch, in name order), the recipe's pkg_build in the unpacked
# tree ($HEXSIM_CACHE/packages/NAME/src) and its pkg_install into $HEXSIM_CACHE/packages/NAME/dest, with the test files of
# guest/packages/NAME/ (all but the patches and known.txt) and guest/packages/lib.sh.
# A package whose recipe, patches, sysroot, compiler wrapper and build environment are
# unchanged is not rebuilt (its test files are copied afresh). The staging root is then the union of every built dest.
#
# Usage: guest/packages/build.sh [--native] [NAME...]    (no NAME: every recipe)
# --native: the same recipes, sources and patches built for the host with its cc (for the
# host-native side of tools/bench/packages.py: hexsim's time against the program's own
# speed), in $HEXSIM_CACHE/packages/native/NAME, staging root $HEXSIM_CACHE/packages/native/root.
# Prints the staging root on stdout; progress and each build's time go to stderr; a
# failed build's log is in $HEXSIM_CACHE/packages/NAME/build.log.
# Environment: HEXSIM_CACHE (default ~/.cache/hexsim), HEXSIM_JOBS (make -j, default 2),
# HEXSIM_SYSROOT (a musl sysroot to use instead of guest/musl/build.sh's).
set -eu

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
cache=${HEXSIM_CACHE:-${HOME}/.cache/hexsim}/packages
jobs=${HEXSIM_JOBS:-2}
me=packages/build.sh
. "$top/guest/build_lib.sh"
native=
if [ "${1:-}" = --native ]; then
    native=1
    cache=$cache/native
    shift
fi

need_tools clang-16 llvm-ar-16 llvm-ranlib-16 llvm-strip-16 llvm-nm-16 make patch dpkg-source cc
LC_ALL=C
export LC_ALL

if [ $# -eq 0 ]; then
    for r in "$here"/*.recipe; do set -- "$@" "$(basename "$r" .recipe)"; done
fi
for name in "$@"; do
    [ -r "$here/$name.recipe" ] || die "no recipe $here/$name.recipe"
done

mkdir -p "$cache"
# The musl sysroot: HEXSIM_SYSROOT if set (as tools/hexagon-cc takes it), else
# guest/musl/build.sh's (built on first use).
sysroot=${HEXSIM_SYSROOT:-}
[ -n "$sysroot" ] || sysroot=$(HEXSIM_MUSL_QUIET=1 "$top/guest/musl/build.sh") ||
    die "cannot build the musl sysroot"
[ -f "$sysroot/.hexsim-key" ] || die "$sysroot has no .hexsim-key"

# What the recipes see: the cross tools, the GNU triplet, make's job count, and CMake's
# toolchain file (tools/hexagon-toolchain.cmake; CXX too, for recipes that say cxx=yes).
HEXSIM_SYSROOT=$sysroot
CC="$top/tools/hexagon-cc"
CXX="$top/tools/hexagon-c++"
TOOLCHAIN="$top/tools/hexagon-toolchain.cmake"
AR=llvm-ar-16
RANLIB=llvm-ranlib-16
NM=llvm-nm-16
STRIP=llvm-strip-16
HOST=hexagon-unknown-linux-musl
BUILD_CC=cc
export HEXSIM_SYSROOT CC AR RANLIB NM STRIP

# unpack_source PACKAGE=VERSION DIR: a second Debian source package a recipe builds with
# (a test framework, say), fetched and cached like the first, with Debian's patches.
unpack_source() {
    d=$("$top/tools/debsrc.sh" "$1") || die "cannot fetch the source package $1"
    dpkg-source --no-check -x "$d" "$2" > /dev/null 2>&1 || die "dpkg-source -x $d failed"
}

# inst_bin FILE...: install programs (stripped) into the package's /usr/bin.
inst_bin() {
    mkdir -p "$DEST/usr/bin"
    for f in "$@"; do
        "$STRIP" -o "$DEST/usr/bin/$(basename "$f")" "$f"
    done
}
# inst_test FILE...: copy test programs (Hexagon ELF files: stripped) and data into the
# package's test directory, keeping each FILE's path relative to the source tree.
inst_test() {
    for f in "$@"; do
        mkdir -p "$TDIR/$(dirname "$f")"
        if [ -f "$f" ] && head -c 4 "$f" | grep -q 'ELF' &&
            [ "$(od -An -j18 -N2 -tu2 "$f" | tr -d ' ')" = 164 ]; then
            "$STRIP" -o "$TDIR/$f" "$f"
            chmod 755 "$TDIR/$f"
        else
            cp -pR "$f" "$TDIR/$f"
        fi
    done
}

# install_tests: lib.sh and the package's test files (guest/packages/NAME/ but its patches
# and known.txt) into its test directory.
install_tests() {
    t="$work/dest/usr/share/hexsim-tests"
    mkdir -p "$t/$name"
    cp "$here/lib.sh" "$t/lib.sh"
    if [ -d "$pdir" ]; then
        for f in "$pdir"/*; do
            case "$f" in *.patch|*/known.txt) continue ;; esac
            cp -pR "$f" "$t/$name/"
        done
    fi
}

build_one() {
    name=$1
    pdir="$here/$name"
    work="$cache/$name"
    (
        lock_cache "$cache/.lock-$name"
        source=
        debian_patches=all
        cxx=no
        . "$here/$name.recipe"
        [ -n "$source" ] || die "$name.recipe sets no source=PACKAGE=VERSION"
        cxxkey=
        if [ "$cxx" = yes ] && [ -z "$native" ]; then
            # C++: the runtime tools/hexagon-c++ links (guest/libcxx/build.sh, cached)
            HEXSIM_LIBCXX=$(HEXSIM_LIBCXX_QUIET=1 "$top/guest/libcxx/build.sh") ||
                die "cannot build libc++ (guest/libcxx/build.sh)"
            export HEXSIM_LIBCXX
            cxxkey="$HEXSIM_LIBCXX/.hexsim-key $top/tools/hexagon-c++ $TOOLCHAIN"
        fi
        set -- "$pdir"/*.patch
        [ -e "$1" ] || set --
        # the build's key: the package, recipe, patches, sysroot, compiler wrappers (and
        # the C++ runtime) and the environment set above (test files are copied afresh
        # every time)
        # shellcheck disable=SC2086
        key=$( { echo "$source $debian_patches${native:+ $native_key}"; cat "$here/$name.recipe" "$sysroot/.hexsim-key" \
                 "$top/tools/hexagon-cc" $cxxkey "$@"; sed -n '/^# What the recipes see/,/^build_one/p' "$0"; } |
               sha256sum | cut -d' ' -f1)
        if [ -f "$work/dest/.hexsim-key" ] && [ "$(cat "$work/dest/.hexsim-key")" = "$key" ]; then
            say "$name is up to date"
            install_tests
            exit 0
        fi
        t0=$(date +%s)
        dsc=$("$top/tools/debsrc.sh" "$source") || die "cannot fetch the source package $source"
        say "$name: unpacking $(basename "$dsc")"
        rm -rf "$work"
        mkdir -p "$work"
        if [ "$debian_patches" = all ]; then
            dpkg-source --no-check -x "$dsc" "$work/src" > "$work/unpack.log" 2>&1 ||
                { cat "$work/unpack.log" >&2; die "dpkg-source -x $dsc failed"; }
        else
            dpkg-source --no-check --skip-patches -x "$dsc" "$work/src" > "$work/unpack.log" 2>&1 ||
                { cat "$work/unpack.log" >&2; die "dpkg-source -x $dsc failed"; }
            for p in $debian_patches; do
                say "$name: applying Debian's $p"
                patch -d "$work/src" -p1 --batch --forward --no-backup-if-mismatch -s \
                    -i "$work/src/debian/patches/$p" >&2 || die "Debian's $p does not apply"
            done
        fi
        for p in "$@"; do
            say "$name: applying $(basename "$p")"
            patch -d "$work/src" -p1 --batch --forward --fuzz=0 --no-backup-if-mismatch -s \
                -i "$p" >&2 || die "$(basename "$p") does not apply to $source"
        done
        t1=$(date +%s)
        say "$name: building (log: $work/build.log)"
        DEST="$work/dest.new"
        TDIR="$DEST/usr/share/hexsim-tests/$name"
        SRC="$work/src"
        JOBS=$jobs
        cd "$SRC"
        # each step runs with set -e, in the background so that the shell keeps it on
        # (it ignores set -e in a command whose status it tests)
        rc=0
        (set -e; pkg_build) > "$work/build.log" 2>&1 &
        wait $! || rc=$?
        if [ "$rc" != 0 ]; then
            tail -n 30 "$work/build.log" >&2
            die "building $name failed; the whole log is $work/build.log"
        fi
        mkdir -p "$TDIR"
        (set -e; pkg_install) >> "$work/build.log" 2>&1 &
        wait $! || rc=$?
        [ "$rc" = 0 ] || { tail -n 20 "$work/build.log" >&2; die "installing $name failed"; }
        t2=$(date +%s)
        echo "$key" > "$DEST/.hexsim-key"
        mv "$DEST" "$work/dest"
        install_tests
        say "$name: built in $((t2 - t0)) s (fetch and unpack $((t1 - t0)) s, build $((t2 - t1)) s)"
    )
}

# --native: the host's tools instead (set here, outside the lines the cross builds' key
# covers, so that those keys do not change); HOST the host's triplet, so that the recipes'
# configure --host=... builds for the host.
if [ -n "$native" ]; then
    need_tools ar ranlib nm strip
    CC=cc
    CXX=c++
    TOOLCHAIN=
    AR=ar
    RANLIB=ranlib
    NM=nm
    STRIP=strip
    HOST=$(cc -dumpmachine)
    export CC AR RANLIB NM STRIP
    native_key="native $(cc --version | head -n 1) $(sed -n '/^# --native: the host/,/^fi$/p' "$0")"
fi

for name in "$@"; do
    build_one "$name" || exit 1
done

# The staging root: every package built so far.
lock_cache "$cache/.lock-root"
rm -rf "$cache/root.new"
mkdir -p "$cache/root.new"
for d in "$cache"/*/dest; do
    [ -f "$d/.hexsim-key" ] || continue
    cp -pR "$d"/. "$cache/root.new/"
    rm -f "$cache/root.new/.hexsim-key"
done
rm -rf "$cache/root"
mv "$cache/root.new" "$cache/root"
echo "$cache/root"
