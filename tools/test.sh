#!/bin/sh
# SPDX-License-Identifier: MIT
# Sets up, builds the guest kernel (guest/linux/build.sh: about 6 minutes on an idle 2-core
# machine the first time, cached in ~/.cache/hexsim afterwards) and its debug-info twin,
# the musl sysroot
# (guest/musl/build.sh), BusyBox (guest/busybox/build.sh) and the C++ runtime
# (guest/libcxx/build.sh; all cached likewise), builds
# a Debug tree with
# AddressSanitizer and UndefinedBehaviorSanitizer in build-test/, and runs every registered
# test with ctest (the boot tests included), then builds the libFuzzer targets in build-fuzz/
# and fuzzes each for a short smoke time (ctest label "fuzz"); exits non-zero if either failed.
# This is what CI runs (.ci/run).
set -eu
cd "$(dirname "$0")/.."

./tools/setup.sh
vmlinux=$(guest/linux/build.sh)
# The same kernel with DWARF for the kernel-aware debugger tests (label kdebug): a second
# cached build beside the first (docs/guide/kernel-debugging.md gives its cost).
vmlinux_debug=$(guest/linux/build.sh --debug-info)
# The musl sysroot for tests/userland (cold: about 6 minutes on a loaded 2-core machine).
sysroot=$(guest/musl/build.sh)
# BusyBox for the root file system (cold: about 4 minutes; the rootfs_build test copies it)
# and for the user-mode process tests (userland_procs runs its sh).
busybox=$(guest/busybox/build.sh)
# libc++, libc++abi and libunwind for the C++ programs of tests/userland (cold: about
# 7 minutes on a loaded 2-core machine, 4 minutes of CPU).
libcxx=$(guest/libcxx/build.sh)
cmake -S . -B build-test -DCMAKE_BUILD_TYPE=Debug -DHEXSIM_SANITIZE=ON -DHEXSIM_VMLINUX="$vmlinux" \
    -DHEXSIM_MUSL_SYSROOT="$sysroot" -DHEXSIM_USER_BUSYBOX="$busybox" -DHEXSIM_LIBCXX="$libcxx" \
    -DHEXSIM_VMLINUX_DEBUG="$vmlinux_debug"
cmake --build build-test -j"$(nproc)"

# A UBSan report should say where it came from; callers may override.
UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1}
export UBSAN_OPTIONS

status=0
ctest --test-dir build-test --output-on-failure -j2 || status=$?

# The fuzz targets (tests/fuzz/), built with clang-16's libFuzzer, ASan and UBSan in
# build-fuzz/, each fuzzed for HEXSIM_FUZZ_SMOKE_SECONDS (default 20) from the seed corpus:
# the ctest label "fuzz". Long runs: tools/fuzz.sh.
smoke=${HEXSIM_FUZZ_SMOKE_SECONDS:-20}
cmake -S . -B build-fuzz -DCMAKE_C_COMPILER=clang-16 -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DHEXSIM_FUZZ=ON -DHEXSIM_FUZZ_SMOKE_SECONDS="$smoke" >/dev/null
cmake --build build-fuzz -j"$(nproc)" --target fuzz_targets
ctest --test-dir build-fuzz --output-on-failure -L fuzz || status=$?
exit $status
