# SPDX-License-Identifier: MIT
# Linux user-mode tests (label "user"): guest programs built with clang-16, run by hexsim --user.
add_test(NAME user_mode
    COMMAND "${Python3_EXECUTABLE}" "${CMAKE_SOURCE_DIR}/tests/user/user_test.py"
            --hexsim "$<TARGET_FILE:hexsim>" --work "${CMAKE_BINARY_DIR}/tests/user")
set_tests_properties(user_mode PROPERTIES LABELS user TIMEOUT 1800)
