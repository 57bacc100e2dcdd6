# SPDX-License-Identifier: MIT
# Timing-model tests (label "timing"): micro-programs with cycle counts that follow from the
# model's parameters, cache statistics, determinism (tests/timing/timing_test.py).
add_test(NAME timing_model
    COMMAND "${Python3_EXECUTABLE}" "${CMAKE_SOURCE_DIR}/tests/timing/timing_test.py"
            --hexsim "$<TARGET_FILE:hexsim>" --work "${CMAKE_BINARY_DIR}/tests/timing")
set_tests_properties(timing_model PROPERTIES LABELS timing TIMEOUT 600)
