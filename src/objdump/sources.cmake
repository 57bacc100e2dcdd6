# SPDX-License-Identifier: MIT
# hexsim-objdump: the Hexagon ELF disassembler whose `-d` listing matches llvm-objdump-16, used by
# the differential tests in tests/isa. Included from src/CMakeLists.txt after hexsim_core exists;
# it reads ELF files with libelf (elfutils) and gets instruction text from hexsim_core.
find_package(PkgConfig REQUIRED)
pkg_check_modules(LIBELF REQUIRED IMPORTED_TARGET libelf)

add_executable(hexsim-objdump
    "${CMAKE_CURRENT_LIST_DIR}/main.c"
    "${CMAKE_CURRENT_LIST_DIR}/elf_reader.c"
    "${CMAKE_CURRENT_LIST_DIR}/print.c"
    "${CMAKE_CURRENT_LIST_DIR}/options_table.c")
# (hexsim_cli: the printers of the option table, defined by cli/sources.cmake later)
target_link_libraries(hexsim-objdump PRIVATE hexsim_core hexsim_cli PkgConfig::LIBELF)
set_target_properties(hexsim-objdump PROPERTIES
    RUNTIME_OUTPUT_DIRECTORY "${CMAKE_BINARY_DIR}")

# Decode-throughput benchmark (tools/bench): a program, not a test.
add_executable(hexsim-decode-bench ${PROJECT_SOURCE_DIR}/tools/bench/decode_bench.c)
target_link_libraries(hexsim-decode-bench PRIVATE hexsim_core)
