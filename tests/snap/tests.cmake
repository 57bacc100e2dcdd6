# SPDX-License-Identifier: MIT
# Snapshots: the container's Check suite (label unit), user-mode snapshots of b1 and a
# small program with their refusals (label user), the debugger's savevm/loadvm in user
# mode (label debug), and save/restore of a Linux boot (label boot; needs the guest kernel,
# like tests/boot).
add_executable(test_snap_file "${CMAKE_CURRENT_LIST_DIR}/test_snap_file.c")
target_link_libraries(test_snap_file PRIVATE hexsim_core PkgConfig::DEV_CHECK)
add_test(NAME test_snap_file COMMAND test_snap_file)
set_tests_properties(test_snap_file PROPERTIES LABELS unit)
add_test(NAME snap_user
    COMMAND "${Python3_EXECUTABLE}" "${CMAKE_CURRENT_LIST_DIR}/user_snap_test.py" user
            --hexsim "$<TARGET_FILE:hexsim>" --work "${CMAKE_BINARY_DIR}/tests/snap-user")
set_tests_properties(snap_user PROPERTIES LABELS user TIMEOUT 1800)
add_test(NAME snap_debug
    COMMAND "${Python3_EXECUTABLE}" "${CMAKE_CURRENT_LIST_DIR}/user_snap_test.py" debug
            --hexsim "$<TARGET_FILE:hexsim>" --work "${CMAKE_BINARY_DIR}/tests/snap-debug")
set_tests_properties(snap_debug PROPERTIES LABELS debug TIMEOUT 600)
if(EXISTS "${_hexsim_vmlinux}")
    add_test(NAME boot_snapshot
        COMMAND "${Python3_EXECUTABLE}" "${CMAKE_CURRENT_LIST_DIR}/snap_test.py"
                --hexsim "$<TARGET_FILE:hexsim>" --vmlinux "${_hexsim_vmlinux}"
                --initrd "${CMAKE_BINARY_DIR}/rootfs.cpio")
    set_tests_properties(boot_snapshot PROPERTIES LABELS boot FIXTURES_REQUIRED rootfs
                         TIMEOUT 600)
endif()
