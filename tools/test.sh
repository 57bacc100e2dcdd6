#!/bin/sh
# SPDX-License-Identifier: MIT
# Sets up, builds the guest kernel (guest/linux/build.sh: about 6 minutes on an idle 2-core
# machine the first time, cached in ~/.cache/hexsim afterwards), builds a Debug tree with
# AddressSanitizer and UndefinedBehaviorSanitizer in build-test/, and runs every registered
# test with ctest (the boot tests included); exits with ctest's status.
# This is what CI runs (.ci/run).
set -eu
cd "$(dirname "$0")/.."

./tools/setup.sh
vmlinux=$(guest/linux/build.sh)
cmake -S . -B build-test -DCMAKE_BUILD_TYPE=Debug -DHEXSIM_SANITIZE=ON -DHEXSIM_VMLINUX="$vmlinux"
cmake --build build-test -j"$(nproc)"

# A UBSan report should say where it came from; callers may override.
UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1}
export UBSAN_OPTIONS

exec ctest --test-dir build-test --output-on-failure -j2
