# SPDX-License-Identifier: MIT
# Toolchain checks (label "toolchain"): known clang-16/lld-16 defects that corrupt guest code
# without any simulator being able to notice (hexsim and qemu-hexagon run the same bytes).
add_test(NAME toolchain_lld_duplex
    COMMAND "${Python3_EXECUTABLE}" "${CMAKE_SOURCE_DIR}/tests/toolchain/lld_duplex_test.py"
            --work "${CMAKE_BINARY_DIR}/tests/toolchain")
set_tests_properties(toolchain_lld_duplex PROPERTIES LABELS toolchain TIMEOUT 60)
