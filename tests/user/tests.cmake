# SPDX-License-Identifier: MIT
# Linux user-mode tests (label "user"): guest programs built with clang-16, run by hexsim --user.
add_test(NAME user_mode
    COMMAND "${Python3_EXECUTABLE}" "${CMAKE_SOURCE_DIR}/tests/user/user_test.py"
            --hexsim "$<TARGET_FILE:hexsim>" --work "${CMAKE_BINARY_DIR}/tests/user")
set_tests_properties(user_mode PROPERTIES LABELS user TIMEOUT 1800)
# Compiled blocks against interpreted ones: same output, faults and statistics
add_test(NAME user_jit_equiv
    COMMAND "${Python3_EXECUTABLE}" "${CMAKE_SOURCE_DIR}/tests/user/jit_equiv.py"
            --hexsim "$<TARGET_FILE:hexsim>" --work "${CMAKE_BINARY_DIR}/tests/user_jit")
set_tests_properties(user_jit_equiv PROPERTIES LABELS user TIMEOUT 1800)
# Threads, signals, timers and the file/process system calls against qemu-hexagon
add_test(NAME user_os
    COMMAND "${Python3_EXECUTABLE}" "${CMAKE_SOURCE_DIR}/tests/user/os_test.py"
            --hexsim "$<TARGET_FILE:hexsim>" --work "${CMAKE_BINARY_DIR}/tests/user_os")
set_tests_properties(user_os PROPERTIES LABELS user TIMEOUT 600)
# --strace: a program's system calls, signals and exit decoded as strace prints them
add_test(NAME user_strace
    COMMAND "${Python3_EXECUTABLE}" "${CMAKE_SOURCE_DIR}/tests/user/strace_test.py"
            --hexsim "$<TARGET_FILE:hexsim>" --work "${CMAKE_BINARY_DIR}/tests/user_strace")
set_tests_properties(user_strace PROPERTIES LABELS user TIMEOUT 300)
# --perf-map: the map's lines name the compiled blocks (count, packet starts, functions)
add_test(NAME user_perf_map
    COMMAND "${Python3_EXECUTABLE}" "${CMAKE_SOURCE_DIR}/tests/user/perf_map_test.py"
            --hexsim "$<TARGET_FILE:hexsim>" --work "${CMAKE_BINARY_DIR}/tests/user_perf_map")
set_tests_properties(user_perf_map PROPERTIES LABELS user TIMEOUT 120)
