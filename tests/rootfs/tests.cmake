# SPDX-License-Identifier: MIT
# Root file system tests (label "rootfs"): rootfs_build builds guest/rootfs (BusyBox and the
# cpio image; a fixture the others need), then BusyBox's applets and a builtins-only ash
# session run under qemu-hexagon and hexsim --user, and the cpio image is checked. Exit 77
# (skip) when hexsim rejects a packet clang emitted.
set(ROOTFS_TEST "${CMAKE_SOURCE_DIR}/tests/rootfs/rootfs_test.py")
add_test(NAME rootfs_build
    COMMAND "${Python3_EXECUTABLE}" "${ROOTFS_TEST}" build --build "${CMAKE_BINARY_DIR}")
set_tests_properties(rootfs_build PROPERTIES LABELS rootfs FIXTURES_SETUP rootfs TIMEOUT 1800)
foreach(t utils shell cpio)
    add_test(NAME rootfs_${t}
        COMMAND "${Python3_EXECUTABLE}" "${ROOTFS_TEST}" ${t} --build "${CMAKE_BINARY_DIR}"
                --hexsim "$<TARGET_FILE:hexsim>")
    set_tests_properties(rootfs_${t} PROPERTIES LABELS rootfs FIXTURES_REQUIRED rootfs
                         SKIP_RETURN_CODE 77 TIMEOUT 900)
endforeach()
