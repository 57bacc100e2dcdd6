# SPDX-License-Identifier: MIT
# Debugger tests (label "debug"): a scripted CLI session compared with its expected
# transcript, and lldb-16 driving the gdb remote stub (skipped, status 77, without lldb-16).
add_test(NAME debug_cli
    COMMAND "${Python3_EXECUTABLE}" "${CMAKE_SOURCE_DIR}/tests/debug/debug_test.py"
            --hexsim "$<TARGET_FILE:hexsim>" --work "${CMAKE_BINARY_DIR}/tests/debug")
set_tests_properties(debug_cli PROPERTIES LABELS debug TIMEOUT 300)
add_test(NAME debug_lldb
    COMMAND "${Python3_EXECUTABLE}" "${CMAKE_SOURCE_DIR}/tests/debug/lldb_test.py"
            --hexsim "$<TARGET_FILE:hexsim>" --work "${CMAKE_BINARY_DIR}/tests/debug-lldb")
set_tests_properties(debug_lldb PROPERTIES LABELS debug TIMEOUT 300 SKIP_RETURN_CODE 77)
# HVX in the debugger, the gdb stub (lldb-16), snapshots, --stats and --profile
# (tests/debug/hvx_test.py; user mode and an HVM test kernel)
foreach(part cli lldb snap)
    add_test(NAME debug_hvx_${part}
        COMMAND "${Python3_EXECUTABLE}" "${CMAKE_SOURCE_DIR}/tests/debug/hvx_test.py"
                --hexsim "$<TARGET_FILE:hexsim>" --objdump "$<TARGET_FILE:hexsim-objdump>"
                --work "${CMAKE_BINARY_DIR}/tests/debug-hvx" --part ${part})
    set_tests_properties(debug_hvx_${part} PROPERTIES LABELS debug TIMEOUT 600
                         SKIP_RETURN_CODE 77)
endforeach()
