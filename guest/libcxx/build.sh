#!/bin/sh
# SPDX-License-Identifier: MIT
# Builds the C++ runtime for Hexagon Linux programs: libc++, libc++abi and libunwind
# from Debian's LLVM 16 source package (llvm-toolchain-16, fetched with tools/debsrc.sh),
# compiled with clang-16 for hexagon-unknown-linux-musl against the project's musl
# sysroot (guest/musl/build.sh), static libraries only, through LLVM's runtimes build
# (runtimes/CMakeLists.txt, Ninja). tools/hexagon-c++ compiles and links against it.
#
# Only the parts of the 136 MB source tarball the runtimes build reads are unpacked
# (runtimes/, cmake/, llvm/cmake/, and libcxx/, libcxxabi/, libunwind/ without their
# tests, benchmarks and documentation): about 20 MB instead of 1.5 GB. Debian's patch
# series (debian/patches) is not applied: it is about Debian's own build and other
# targets; the sources are upstream LLVM 16.0.6 as Debian ships them.
#
# Works in a cache directory and redoes only what changed, like guest/musl/build.sh:
# another source package means a fresh unpack; another sysroot or other flags a fresh
# configure and build; nothing changed means nothing runs.
#
# Result, in $HEXSIM_CACHE/libcxx/out: include/c++/v1 (libc++'s headers, __config_site
# included) and lib/{libc++.a,libc++abi.a,libunwind.a} (libc++experimental.a too).
#
# Environment:
#   HEXSIM_CACHE          cache root (default ~/.cache/hexsim)
#   HEXSIM_JOBS           ninja -j value (default 2)
#   HEXSIM_LIBCXX_QUIET   if set, say nothing when the libraries are up to date
#
# Progress goes to stderr; the only line on stdout is the result's path, so
# `libcxx=$(guest/libcxx/build.sh)` works.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
cache=${HEXSIM_CACHE:-${HOME}/.cache/hexsim}/libcxx
jobs=${HEXSIM_JOBS:-2}
pkg=llvm-toolchain-16=1:16.0.6-15~deb12u1
topdir=llvm-toolchain-16_16.0.6
src="$cache/src"
build="$cache/build"
out="$cache/out"
# The same code flags as the musl sysroot and tools/hexagon-cc (see guest/musl/build.sh:
# V67, static, no small data, no duplexes for ld.lld-16's sake). -funwind-tables: every
# function of the runtime has an .eh_frame entry, so an exception passes through the
# library's frames (std::function, std::thread's start ...).
# -mllvm -align-all-functions=2 -falign-loops=4: no code alignment beyond the 4 bytes
# every packet has. clang-16's Hexagon assembler fills alignment gaps with nops inside
# the packet before them after it has computed the uleb128 offsets of the exception
# tables' call-site ranges, which then stop short of (or before) the moved code: a call
# in the last packet of a function returns past its function's last call site, and
# the personality routine calls std::terminate instead of unwinding on (seen as
# "terminating due to uncaught exception" for an exception thrown through a frame
# with a destructor to run). tools/hexagon-c++ compiles programs the same way.
target=hexagon-unknown-linux-musl
cflags="-mv67 -fno-pic -G0 -mllvm -mno-pairing -funwind-tables -mllvm -align-all-functions=2 -falign-loops=4"

me=libcxx/build.sh
# shellcheck source=guest/build_lib.sh
. "$here/../build_lib.sh"

need_tools clang-16 clang++-16 llvm-ar-16 llvm-ranlib-16 cmake ninja python3 xz tar

LC_ALL=C
export LC_ALL

lock_cache "$cache"

# The sysroot first: its key is part of ours (a new C library means a new build).
sysroot=$(HEXSIM_MUSL_QUIET=1 "$top/guest/musl/build.sh") || die "cannot build the musl sysroot"
[ -f "$sysroot/.hexsim-key" ] || die "$sysroot has no .hexsim-key"

# What each stage depends on: the unpacked tree on the package and the list of parts
# unpacked; the build on the tree, the sysroot, the flags and the CMake options below.
src_key=$( { echo "$pkg"; sed -n '/^unpack()/,/^}/p' "$0"; } | sha256sum | cut -d' ' -f1)
cfg_key=$( { echo "$src_key $target $cflags"; cat "$sysroot/.hexsim-key";
             sed -n '/^configure()/,/^}/p' "$0"; } | sha256sum | cut -d' ' -f1)

if [ -f "$out/.hexsim-key" ] && [ "$(cat "$out/.hexsim-key")" = "$cfg_key" ]; then
    [ -n "${HEXSIM_LIBCXX_QUIET:-}" ] || say "libc++ is up to date"
    echo "$out"
    exit 0
fi

unpack() {
    tarball=$1
    rm -rf "$cache/unpack"
    mkdir -p "$cache/unpack"
    xz -dc "$tarball" | tar -x -C "$cache/unpack" --wildcards --no-wildcards-match-slash \
        --exclude="$topdir/libcxx/test" --exclude="$topdir/libcxx/benchmarks" \
        --exclude="$topdir/libcxx/docs" --exclude="$topdir/libcxxabi/test" \
        --exclude="$topdir/libcxxabi/docs" --exclude="$topdir/libunwind/test" \
        --exclude="$topdir/libunwind/docs" \
        "$topdir/runtimes" "$topdir/cmake" "$topdir/llvm/cmake" \
        "$topdir/libcxx" "$topdir/libcxxabi" "$topdir/libunwind"
}

if [ ! -f "$src/.hexsim-src-key" ] || [ "$(cat "$src/.hexsim-src-key")" != "$src_key" ]; then
    dsc=$("$top/tools/debsrc.sh" "$pkg") || die "cannot fetch the source package $pkg"
    tarball="$(dirname "$dsc")/${topdir}.orig.tar.xz"
    [ -r "$tarball" ] || die "$(dirname "$dsc") has no ${topdir}.orig.tar.xz"
    say "unpacking the runtimes from $(basename "$tarball") into $src"
    rm -rf "$src" "$build" "$out"
    unpack "$tarball"
    [ -f "$cache/unpack/$topdir/libunwind/src/Registers.hpp" ] &&
        grep -q '_LIBCPP_VERSION 160006' "$cache/unpack/$topdir/libcxx/include/__config" ||
        die "$(basename "$tarball") does not hold libc++ 16.0.6 and libunwind"
    mv "$cache/unpack/$topdir" "$src"
    rm -rf "$cache/unpack"
    echo "$src_key" > "$src/.hexsim-src-key"
fi

# The runtimes build as a cross build: the compilers' target and sysroot, no test
# executables while configuring (there is no C++ library to link them with yet),
# static libraries only, libc++abi on libunwind (not libgcc_s), libc++ on libc++abi,
# musl's locale support, no tests, benchmarks or documentation. CMake's library checks
# only compile (no C++ library to link with yet), so every function "exists": musl has
# no __cxa_thread_atexit_impl (glibc's), and libc++abi is told to use its own
# thread_local destructor list. (The other library checks only matter for shared
# libraries.)
configure() {
    # shellcheck disable=SC2086
    cmake -G Ninja -S "$src/runtimes" -B "$build" \
        -DCMAKE_BUILD_TYPE=Release \
        -DCMAKE_INSTALL_PREFIX="$out" \
        -DCMAKE_SYSTEM_NAME=Linux \
        -DCMAKE_SYSTEM_PROCESSOR=hexagon \
        -DCMAKE_SYSROOT="$sysroot" \
        -DCMAKE_C_COMPILER=clang-16 \
        -DCMAKE_CXX_COMPILER=clang++-16 \
        -DCMAKE_ASM_COMPILER=clang-16 \
        -DCMAKE_C_COMPILER_TARGET=$target \
        -DCMAKE_CXX_COMPILER_TARGET=$target \
        -DCMAKE_ASM_COMPILER_TARGET=$target \
        -DCMAKE_C_FLAGS="$cflags" \
        -DCMAKE_CXX_FLAGS="$cflags" \
        -DCMAKE_ASM_FLAGS="$cflags" \
        -DCMAKE_AR="$(command -v llvm-ar-16)" \
        -DCMAKE_RANLIB="$(command -v llvm-ranlib-16)" \
        -DCMAKE_TRY_COMPILE_TARGET_TYPE=STATIC_LIBRARY \
        -DLLVM_ENABLE_RUNTIMES="libunwind;libcxxabi;libcxx" \
        -DLLVM_INCLUDE_TESTS=OFF \
        -DLLVM_INCLUDE_DOCS=OFF \
        -DLIBUNWIND_ENABLE_SHARED=OFF \
        -DLIBUNWIND_INCLUDE_TESTS=OFF \
        -DLIBUNWIND_INCLUDE_DOCS=OFF \
        -DLIBUNWIND_USE_COMPILER_RT=ON \
        -DLIBCXXABI_ENABLE_SHARED=OFF \
        -DLIBCXXABI_USE_LLVM_UNWINDER=ON \
        -DLIBCXXABI_USE_COMPILER_RT=ON \
        -DLIBCXXABI_INCLUDE_TESTS=OFF \
        -DLIBCXXABI_HAS_CXA_THREAD_ATEXIT_IMPL=OFF \
        -DLIBCXX_ENABLE_SHARED=OFF \
        -DLIBCXX_HAS_MUSL_LIBC=ON \
        -DLIBCXX_USE_COMPILER_RT=ON \
        -DLIBCXX_CXX_ABI=libcxxabi \
        -DLIBCXX_INCLUDE_TESTS=OFF \
        -DLIBCXX_INCLUDE_BENCHMARKS=OFF \
        -DLIBCXX_INCLUDE_DOCS=OFF
}

if [ ! -f "$build/.hexsim-cfg-key" ] || [ "$(cat "$build/.hexsim-cfg-key")" != "$cfg_key" ]; then
    say "configuring libc++, libc++abi and libunwind for $target"
    rm -rf "$build" "$out"
    mkdir -p "$build"
    if ! configure > "$build/configure.log" 2>&1; then
        tail -n 40 "$build/configure.log" >&2
        die "configuring the runtimes failed; the whole log is $build/configure.log"
    fi
    echo "$cfg_key" > "$build/.hexsim-cfg-key"
fi

say "building libc++, libc++abi and libunwind (ninja -j$jobs)"
rm -f "$out/.hexsim-key"
log="$build/build.log"
if ! ninja -C "$build" -j"$jobs" install > "$log" 2>&1; then
    tail -n 40 "$log" >&2
    die "building the runtimes failed; the whole log is $log"
fi
for lib in libc++.a libc++abi.a libunwind.a; do
    [ -f "$out/lib/$lib" ] || die "the build installed no $out/lib/$lib"
done
[ -f "$out/include/c++/v1/__config_site" ] || die "the build installed no include/c++/v1/__config_site"
echo "$cfg_key" > "$out/.hexsim-key"
echo "$out"
