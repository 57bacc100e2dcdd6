# SPDX-License-Identifier: MIT
# Comet device tests (label "devices"): the Check suite of the devices' registers, and the
# system-mode UART/SIRC test kernel run by tests/hvm/hvm_test.py.
find_package(PkgConfig REQUIRED)
pkg_check_modules(DEV_CHECK REQUIRED IMPORTED_TARGET check)
add_executable(test_devices "${CMAKE_SOURCE_DIR}/tests/devices/test_devices.c")
target_link_libraries(test_devices PRIVATE hexsim_core PkgConfig::DEV_CHECK)
add_test(NAME test_devices COMMAND test_devices)
set_tests_properties(test_devices PROPERTIES LABELS "devices;unit")
add_executable(test_virtio_blk "${CMAKE_SOURCE_DIR}/tests/devices/test_virtio_blk.c")
target_link_libraries(test_virtio_blk PRIVATE hexsim_core PkgConfig::DEV_CHECK)
add_test(NAME test_virtio_blk COMMAND test_virtio_blk)
set_tests_properties(test_virtio_blk PROPERTIES LABELS "devices;unit")
add_executable(test_p9 "${CMAKE_SOURCE_DIR}/tests/devices/test_p9.c")
target_link_libraries(test_p9 PRIVATE hexsim_core PkgConfig::DEV_CHECK)
add_test(NAME test_p9 COMMAND test_p9)
set_tests_properties(test_p9 PROPERTIES LABELS "devices;unit")
add_executable(test_net_backends "${CMAKE_SOURCE_DIR}/tests/devices/test_net_backends.c")
target_link_libraries(test_net_backends PRIVATE hexsim_core PkgConfig::DEV_CHECK)
add_test(NAME test_net_backends COMMAND test_net_backends)
set_tests_properties(test_net_backends PROPERTIES LABELS "devices;unit")
add_test(NAME devices_uart
    COMMAND "${Python3_EXECUTABLE}" "${CMAKE_SOURCE_DIR}/tests/hvm/hvm_test.py"
            --hexsim "$<TARGET_FILE:hexsim>" --work "${CMAKE_BINARY_DIR}/tests/hvm" uart)
set_tests_properties(devices_uart PROPERTIES LABELS "devices;hvm" TIMEOUT 300)
foreach(case virtio_blk virtio_blk_nosnap)
    add_test(NAME devices_${case}
        COMMAND "${Python3_EXECUTABLE}" "${CMAKE_SOURCE_DIR}/tests/hvm/hvm_test.py"
                --hexsim "$<TARGET_FILE:hexsim>" --work "${CMAKE_BINARY_DIR}/tests/hvm" ${case})
    set_tests_properties(devices_${case} PROPERTIES LABELS "devices;hvm" TIMEOUT 300)
endforeach()
