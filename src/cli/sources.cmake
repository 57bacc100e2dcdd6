# SPDX-License-Identifier: MIT
# The command line (src/cli): the option table, its parser and `--help` printer and the
# exit statuses go into hexsim_cli, which the hexsim program and the documentation
# generator hexsim-docgen (man pages, bash completion) both link; the start-up of each mode
# is part of the hexsim program only. Included from src/CMakeLists.txt after hexsim exists.
add_library(hexsim_cli STATIC
    ${CMAKE_CURRENT_LIST_DIR}/options_table.c
    ${CMAKE_CURRENT_LIST_DIR}/options.c
    ${CMAKE_CURRENT_LIST_DIR}/help.c
    ${CMAKE_CURRENT_LIST_DIR}/exit_status.c)
target_link_libraries(hexsim_cli PUBLIC hexsim_core m)
target_sources(hexsim PRIVATE
    ${CMAKE_CURRENT_LIST_DIR}/data_paths.c
    ${CMAKE_CURRENT_LIST_DIR}/run_user.c
    ${CMAKE_CURRENT_LIST_DIR}/run_system.c
    ${CMAKE_CURRENT_LIST_DIR}/run_debug.c)
target_link_libraries(hexsim PRIVATE hexsim_cli)

# The man pages and the bash completion, made from the tables at build time (part of `all`;
# installed by the rules in src/CMakeLists.txt).
add_executable(hexsim-docgen ${CMAKE_CURRENT_LIST_DIR}/docgen.c
    ${CMAKE_CURRENT_SOURCE_DIR}/objdump/options_table.c)
target_link_libraries(hexsim-docgen PRIVATE hexsim_cli)
set(HEXSIM_DOC_FILES
    "${HEXSIM_DOC_DIR}/hexsim.1" "${HEXSIM_DOC_DIR}/hexsim-objdump.1" "${HEXSIM_DOC_DIR}/hexsim")
add_custom_command(OUTPUT ${HEXSIM_DOC_FILES}
    COMMAND ${CMAKE_COMMAND} -E make_directory "${HEXSIM_DOC_DIR}"
    COMMAND hexsim-docgen hexsim.1 "${HEXSIM_DOC_DIR}/hexsim.1"
    COMMAND hexsim-docgen hexsim-objdump.1 "${HEXSIM_DOC_DIR}/hexsim-objdump.1"
    COMMAND hexsim-docgen completion "${HEXSIM_DOC_DIR}/hexsim"
    DEPENDS hexsim-docgen
    COMMENT "Man pages and bash completion from the option tables"
    VERBATIM)
add_custom_target(hexsim-docs ALL DEPENDS ${HEXSIM_DOC_FILES})
