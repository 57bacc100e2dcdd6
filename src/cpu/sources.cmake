# SPDX-License-Identifier: MIT
# CPU sources of hexsim_core: the ISA table (generated from src/cpu/isa/*.isa by
# tools/gen_isa.py into the build directory, with the semantics), decoder, packet checker,
# disassembler, packet executor. Semantic helpers: sem_lib.h and sem/*.h.
file(GLOB HEXSIM_ISA_FILES CONFIGURE_DEPENDS ${CMAKE_CURRENT_LIST_DIR}/isa/*.isa)
add_custom_command(
    OUTPUT ${HEXSIM_GEN_DIR}/isa_table.c ${HEXSIM_GEN_DIR}/isa_tags.h ${HEXSIM_GEN_DIR}/isa_sem.c
    COMMAND Python3::Interpreter ${CMAKE_SOURCE_DIR}/tools/gen_isa.py ${HEXSIM_GEN_DIR} ${HEXSIM_ISA_FILES}
    DEPENDS ${CMAKE_SOURCE_DIR}/tools/gen_isa.py ${CMAKE_SOURCE_DIR}/tools/isa_sem.py ${HEXSIM_ISA_FILES}
    COMMENT "Generating the ISA table from src/cpu/isa/*.isa"
    VERBATIM)
target_sources(hexsim_core PRIVATE
    ${HEXSIM_GEN_DIR}/isa_table.c
    ${HEXSIM_GEN_DIR}/isa_sem.c
    ${CMAKE_CURRENT_LIST_DIR}/exec.c
    ${CMAKE_CURRENT_LIST_DIR}/block.c
    ${CMAKE_CURRENT_LIST_DIR}/jit.c
    ${CMAKE_CURRENT_LIST_DIR}/x86_emit.c
    ${CMAKE_CURRENT_LIST_DIR}/timing.c
    ${CMAKE_CURRENT_LIST_DIR}/sem/fp.c
    ${CMAKE_CURRENT_LIST_DIR}/decode.c
    ${CMAKE_CURRENT_LIST_DIR}/check.c
    ${CMAKE_CURRENT_LIST_DIR}/disasm.c
    ${CMAKE_CURRENT_LIST_DIR}/regnames.c)
target_include_directories(hexsim_core PRIVATE ${CMAKE_CURRENT_LIST_DIR} ${HEXSIM_GEN_DIR})
