# SPDX-License-Identifier: MIT
# Debugger (src/debug): the core, command interpreter, session and gdb stub go into
# hexsim_core; the GNU readline line editor is linked into the hexsim program only (it keeps
# the pointer readline's completion hooks need, which the library may not hold).
target_sources(hexsim_core PRIVATE
    ${CMAKE_CURRENT_LIST_DIR}/symtab.c
    ${CMAKE_CURRENT_LIST_DIR}/cpu_regs.c
    ${CMAKE_CURRENT_LIST_DIR}/vreg.c
    ${CMAKE_CURRENT_LIST_DIR}/expr.c
    ${CMAKE_CURRENT_LIST_DIR}/types.c
    ${CMAKE_CURRENT_LIST_DIR}/dwarf.c
    ${CMAKE_CURRENT_LIST_DIR}/cfi.c
    ${CMAKE_CURRENT_LIST_DIR}/value.c
    ${CMAKE_CURRENT_LIST_DIR}/cli_src.c
    ${CMAKE_CURRENT_LIST_DIR}/cli_mem.c
    ${CMAKE_CURRENT_LIST_DIR}/debugger.c
    ${CMAKE_CURRENT_LIST_DIR}/kernel.c
    ${CMAKE_CURRENT_LIST_DIR}/print.c
    ${CMAKE_CURRENT_LIST_DIR}/cli.c
    ${CMAKE_CURRENT_LIST_DIR}/cli_bp.c
    ${CMAKE_CURRENT_LIST_DIR}/gdbstub.c
    ${CMAKE_CURRENT_LIST_DIR}/session.c)
# DWARF (line tables, functions, variables and types) through elfutils' libdw
pkg_check_modules(LIBDW REQUIRED IMPORTED_TARGET libdw)
target_link_libraries(hexsim_core PUBLIC PkgConfig::LIBDW)
find_library(HEXSIM_READLINE_LIB readline REQUIRED)
target_sources(hexsim PRIVATE ${CMAKE_CURRENT_LIST_DIR}/rl_editor.c)
target_link_libraries(hexsim PRIVATE ${HEXSIM_READLINE_LIB})
