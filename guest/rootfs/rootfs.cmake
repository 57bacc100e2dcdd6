# SPDX-License-Identifier: MIT
# The `rootfs` target (not part of `all`): builds guest/rootfs with its Makefile (clang-16 for
# Hexagon, the project's own libc) into ${CMAKE_BINARY_DIR}/rootfs/ and writes
# ${CMAKE_BINARY_DIR}/rootfs.cpio with tools/mkcpio.py.
find_program(HEXSIM_MAKE NAMES make gmake)
if(HEXSIM_MAKE)
    add_custom_target(rootfs
        COMMAND "${HEXSIM_MAKE}" -C "${CMAKE_SOURCE_DIR}/guest/rootfs" "O=${CMAKE_BINARY_DIR}"
                "PYTHON=${Python3_EXECUTABLE}"
        BYPRODUCTS "${CMAKE_BINARY_DIR}/rootfs.cpio"
        COMMENT "Building the root file system: ${CMAKE_BINARY_DIR}/rootfs.cpio"
        USES_TERMINAL VERBATIM)
endif()
