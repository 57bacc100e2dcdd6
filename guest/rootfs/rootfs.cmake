# SPDX-License-Identifier: MIT
# The `rootfs` target (not part of `all`): guest/rootfs/build.sh builds BusyBox
# (guest/busybox, cached in $HEXSIM_CACHE) and writes ${CMAKE_BINARY_DIR}/rootfs.cpio
# with tools/mkcpio.py.
add_custom_target(rootfs
    COMMAND "${CMAKE_SOURCE_DIR}/guest/rootfs/build.sh" "${CMAKE_BINARY_DIR}" "${Python3_EXECUTABLE}"
    BYPRODUCTS "${CMAKE_BINARY_DIR}/rootfs.cpio"
    COMMENT "Building the root file system: ${CMAKE_BINARY_DIR}/rootfs.cpio"
    USES_TERMINAL VERBATIM)
# The `rootfs-disk` target (not part of `all`): the same root file system as an ext4 disk
# image, ${CMAKE_BINARY_DIR}/rootfs.ext4 (256 MiB, sparse), made from rootfs.cpio by
# tools/mkext4.py with e2fsprogs; boot it with --drive file=build/rootfs.ext4 --append
# "root=/dev/vda rw" (or tools/run.sh --disk).
add_custom_target(rootfs-disk
    COMMAND "${Python3_EXECUTABLE}" "${CMAKE_SOURCE_DIR}/tools/mkext4.py"
            "${CMAKE_BINARY_DIR}/rootfs.cpio" -o "${CMAKE_BINARY_DIR}/rootfs.ext4" --size 256M
    BYPRODUCTS "${CMAKE_BINARY_DIR}/rootfs.ext4"
    COMMENT "Building the root file system disk: ${CMAKE_BINARY_DIR}/rootfs.ext4"
    USES_TERMINAL VERBATIM)
add_dependencies(rootfs-disk rootfs)
# The root file system with the guest packages (target `rootfs-packages`, not part of
# `all`): guest/packages/rootfs.sh builds them (cached) and writes
# ${CMAKE_BINARY_DIR}/rootfs-packages.cpio.
add_custom_target(rootfs-packages
    COMMAND "${CMAKE_SOURCE_DIR}/guest/packages/rootfs.sh" "${CMAKE_BINARY_DIR}" "${Python3_EXECUTABLE}"
    DEPENDS rootfs
    BYPRODUCTS "${CMAKE_BINARY_DIR}/rootfs-packages.cpio"
    COMMENT "Building the root file system with the guest packages: ${CMAKE_BINARY_DIR}/rootfs-packages.cpio"
    USES_TERMINAL VERBATIM)
