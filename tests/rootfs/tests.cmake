# SPDX-License-Identifier: MIT
# Root file system tests (label "rootfs"): rootfs_build builds guest/rootfs (a fixture the
# others need), then the libc test program, the utilities and scripted shell sessions run
# under qemu-hexagon and, where hexsim's user mode has the system calls, hexsim --user; and
# the cpio image is checked. Exit 77 (skip) when hexsim rejects a packet clang emitted.
set(ROOTFS_TEST "${CMAKE_SOURCE_DIR}/tests/rootfs/rootfs_test.py")
add_test(NAME rootfs_build
    COMMAND "${Python3_EXECUTABLE}" "${ROOTFS_TEST}" build --build "${CMAKE_BINARY_DIR}")
set_tests_properties(rootfs_build PROPERTIES LABELS rootfs FIXTURES_SETUP rootfs TIMEOUT 1200)
foreach(t libc utils shell lineedit cpio)
    add_test(NAME rootfs_${t}
        COMMAND "${Python3_EXECUTABLE}" "${ROOTFS_TEST}" ${t} --build "${CMAKE_BINARY_DIR}"
                --hexsim "$<TARGET_FILE:hexsim>")
    set_tests_properties(rootfs_${t} PROPERTIES LABELS rootfs FIXTURES_REQUIRED rootfs
                         SKIP_RETURN_CODE 77 TIMEOUT 900)
endforeach()
