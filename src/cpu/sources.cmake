# SPDX-License-Identifier: MIT
# CPU sources of hexsim_core: the ISA table (generated from src/cpu/isa/*.isa by
# tools/gen_isa.py into the build directory, with the semantics), decoder, packet checker,
# disassembler, packet executor. Semantic helpers: sem_lib.h and sem/*.h.
file(GLOB HEXSIM_ISA_FILES CONFIGURE_DEPENDS ${CMAKE_CURRENT_LIST_DIR}/isa/*.isa)
add_custom_command(
    OUTPUT ${HEXSIM_GEN_DIR}/isa_table.c ${HEXSIM_GEN_DIR}/isa_tags.h ${HEXSIM_GEN_DIR}/isa_sem.c
           ${HEXSIM_GEN_DIR}/isa_stencil_src.c
    COMMAND Python3::Interpreter ${CMAKE_SOURCE_DIR}/tools/gen_isa.py ${HEXSIM_GEN_DIR} ${HEXSIM_ISA_FILES}
    DEPENDS ${CMAKE_SOURCE_DIR}/tools/gen_isa.py ${CMAKE_SOURCE_DIR}/tools/isa_sem.py ${HEXSIM_ISA_FILES}
    COMMENT "Generating the ISA table from src/cpu/isa/*.isa"
    VERBATIM)

# The block compiler's stencils (cpu/stencil.h): the semantics compiled once more, by clang
# (for its musttail), for an x86-64 Linux host; elsewhere, or without clang, the tables are
# empty and compiled blocks call the semantic functions.
set(HEXSIM_STENCIL_FLAGS -std=gnu11 -O2 -fno-pic -mcmodel=small -ffunction-sections
    -fno-asynchronous-unwind-tables -fno-stack-protector -fcf-protection=none -fno-jump-tables
    -D_POSIX_C_SOURCE=200809L -DHX_STENCIL
    -I${CMAKE_CURRENT_LIST_DIR} -I${CMAKE_SOURCE_DIR}/include -I${HEXSIM_GEN_DIR})
file(GLOB HEXSIM_SEM_HEADERS CONFIGURE_DEPENDS ${CMAKE_CURRENT_LIST_DIR}/*.h
    ${CMAKE_CURRENT_LIST_DIR}/sem/*.h ${CMAKE_SOURCE_DIR}/include/hexsim/*.h)
if(CMAKE_SYSTEM_NAME STREQUAL "Linux" AND CMAKE_SYSTEM_PROCESSOR MATCHES "^(x86_64|AMD64)$")
    find_program(HEXSIM_STENCIL_CC NAMES clang-16 clang
        DOC "clang that compiles the block compiler's stencils")
    find_program(HEXSIM_OBJDUMP NAMES objdump DOC "GNU objdump (checks the stencils)")
endif()
if(HEXSIM_STENCIL_CC AND HEXSIM_OBJDUMP)
    # twice: for the usual stack alignment, and without keeping one (tools/stencils.py)
    foreach(align abi any)
        set(extra)
        if(align STREQUAL "any")
            set(extra -mstack-alignment=8)
        endif()
        add_custom_command(
            OUTPUT ${HEXSIM_GEN_DIR}/isa_stencil_${align}.o
            COMMAND ${HEXSIM_STENCIL_CC} ${HEXSIM_STENCIL_FLAGS} ${extra}
                -c ${HEXSIM_GEN_DIR}/isa_stencil_src.c -o ${HEXSIM_GEN_DIR}/isa_stencil_${align}.o
            DEPENDS ${HEXSIM_GEN_DIR}/isa_stencil_src.c ${HEXSIM_SEM_HEADERS}
            COMMENT "Compiling the block compiler's stencils (${align})"
            VERBATIM)
    endforeach()
    add_custom_command(
        OUTPUT ${HEXSIM_GEN_DIR}/isa_stencil.c
        COMMAND Python3::Interpreter ${CMAKE_SOURCE_DIR}/tools/stencils.py
            ${HEXSIM_GEN_DIR}/isa_stencil.c ${HEXSIM_OBJDUMP}
            ${HEXSIM_GEN_DIR}/isa_stencil_abi.o ${HEXSIM_GEN_DIR}/isa_stencil_any.o
        DEPENDS ${HEXSIM_GEN_DIR}/isa_stencil_abi.o ${HEXSIM_GEN_DIR}/isa_stencil_any.o
            ${CMAKE_SOURCE_DIR}/tools/stencils.py
        VERBATIM)
    add_custom_command(
        OUTPUT ${HEXSIM_GEN_DIR}/stencil_slow.o
        COMMAND ${HEXSIM_STENCIL_CC} ${HEXSIM_STENCIL_FLAGS}
            -c ${CMAKE_CURRENT_LIST_DIR}/stencil_slow.c -o ${HEXSIM_GEN_DIR}/stencil_slow.o
        DEPENDS ${CMAKE_CURRENT_LIST_DIR}/stencil_slow.c ${HEXSIM_SEM_HEADERS}
            ${HEXSIM_GEN_DIR}/isa_tags.h
        VERBATIM)
    target_sources(hexsim_core PRIVATE ${HEXSIM_GEN_DIR}/stencil_slow.o)
    set(HEXSIM_HAVE_STENCILS ON CACHE INTERNAL "the build has stencils (tests check them)")
else()
    set(HEXSIM_HAVE_STENCILS OFF CACHE INTERNAL "the build has stencils (tests check them)")
    message(STATUS "hexsim: no stencils for the block compiler (needs an x86-64 Linux host, "
                   "clang and objdump): compiled blocks call the semantic functions")
    add_custom_command(
        OUTPUT ${HEXSIM_GEN_DIR}/isa_stencil.c
        COMMAND Python3::Interpreter ${CMAKE_SOURCE_DIR}/tools/stencils.py
            ${HEXSIM_GEN_DIR}/isa_stencil.c
        DEPENDS ${CMAKE_SOURCE_DIR}/tools/stencils.py
        VERBATIM)
endif()

target_sources(hexsim_core PRIVATE
    ${HEXSIM_GEN_DIR}/isa_table.c
    ${HEXSIM_GEN_DIR}/isa_stencil.c
    ${HEXSIM_GEN_DIR}/isa_sem.c
    ${CMAKE_CURRENT_LIST_DIR}/exec.c
    ${CMAKE_CURRENT_LIST_DIR}/hvx_mem.c
    ${CMAKE_CURRENT_LIST_DIR}/block.c
    ${CMAKE_CURRENT_LIST_DIR}/jit.c
    ${CMAKE_CURRENT_LIST_DIR}/x86_emit.c
    ${CMAKE_CURRENT_LIST_DIR}/timing.c
    ${CMAKE_CURRENT_LIST_DIR}/sem/fp.c
    ${CMAKE_CURRENT_LIST_DIR}/arch.c
    ${CMAKE_CURRENT_LIST_DIR}/decode.c
    ${CMAKE_CURRENT_LIST_DIR}/check.c
    ${CMAKE_CURRENT_LIST_DIR}/disasm.c
    ${CMAKE_CURRENT_LIST_DIR}/regnames.c)
target_include_directories(hexsim_core PRIVATE ${CMAKE_CURRENT_LIST_DIR} ${HEXSIM_GEN_DIR})
# The HVX rows' lane loops (the semantic functions the interpreter and --no-stencils call): gcc
# at -O2 vectorizes only loops needing no run-time checks (its "very cheap" model); the
# "cheap" one also takes those whose operands might overlap (checked once per call).
if(CMAKE_C_COMPILER_ID STREQUAL "GNU")
    set_source_files_properties(${HEXSIM_GEN_DIR}/isa_sem.c PROPERTIES
        COMPILE_OPTIONS "-fvect-cost-model=cheap")
endif()
