# SPDX-License-Identifier: MIT
# The `rootfs` target (not part of `all`): guest/rootfs/build.sh builds BusyBox
# (guest/busybox, cached in $HEXSIM_CACHE) and writes ${CMAKE_BINARY_DIR}/rootfs.cpio
# with tools/mkcpio.py.
add_custom_target(rootfs
    COMMAND "${CMAKE_SOURCE_DIR}/guest/rootfs/build.sh" "${CMAKE_BINARY_DIR}" "${Python3_EXECUTABLE}"
    BYPRODUCTS "${CMAKE_BINARY_DIR}/rootfs.cpio"
    COMMENT "Building the root file system: ${CMAKE_BINARY_DIR}/rootfs.cpio"
    USES_TERMINAL VERBATIM)
# The root file system with the guest packages (target `rootfs-packages`, not part of
# `all`): guest/packages/rootfs.sh builds them (cached) and writes
# ${CMAKE_BINARY_DIR}/rootfs-packages.cpio.
add_custom_target(rootfs-packages
    COMMAND "${CMAKE_SOURCE_DIR}/guest/packages/rootfs.sh" "${CMAKE_BINARY_DIR}" "${Python3_EXECUTABLE}"
    DEPENDS rootfs
    BYPRODUCTS "${CMAKE_BINARY_DIR}/rootfs-packages.cpio"
    COMMENT "Building the root file system with the guest packages: ${CMAKE_BINARY_DIR}/rootfs-packages.cpio"
    USES_TERMINAL VERBATIM)
