# SPDX-License-Identifier: MIT
# Differential disassembly tests: hexsim-objdump against llvm-objdump-16 (label "isa").
# Included from tests/CMakeLists.txt. Each test prints what it covered and the differing lines
# ("llvm: ... / hexsim: ..."), and fails on any difference; work files go to
# <build>/tests/isa/<test>/. Each test compares two passes, plain `llvm-objdump-16 -d` (its
# default CPU, hexagonv60) and --mcpu=hexagonv68; the environment variable HEXSIM_MCPU
# (a CPU name, or "default") runs a single pass instead.
#   isa_objdump_format  listing layout rules and command-line errors, on small objects
#   isa_table_entries   every ISA table row, assembled by llvm-mc-16 (also writes
#                       <build>/isa-unassemblable.txt: rows llvm-mc rejects)
#   isa_programs        guest C programs (tests/isa/progs) built by clang-16 at several levels
#   isa_random_words    a million random words, each its own packet (HEXSIM_RANDOM_SEED)
#   isa_random_words_hvx  300000 random words, half in the HVX encoding spaces, with HVX
#   isa_random_multiword  a million random words laid out as packets of 1-4 words, for
#                       the packet-formation rules (src/cpu/check.c)
#   isa_vmlinux         the guest kernel, when there is one (skipped otherwise)
#   isa_exec            execution of every ISA table row under qemu-hexagon and hexsim --user,
#                       compared state by state (exec_diff.py; rows not implemented yet are
#                       listed in tests/isa/exec_pending.txt, known qemu-hexagon 7.2 deviations
#                       from the PRM in tests/isa/qemu_deviations.txt; HEXSIM_EXEC_CASES cases
#                       per row)
#   isa_random_packets  random valid packets under qemu-hexagon and hexsim --user
#                       (random_packets.py; regression cases in tests/isa/regress/)
#   isa_rp_classify     random_packets.py's classifier of known qemu deviations (unit test)
#   isa_hvx_exec        execution of every HVX row qemu-hexagon 7.2 runs, random and
#                       edge-valued vectors, under qemu-hexagon and hexsim --user (default,
#                       --no-jit, --jit-threshold 1); the rows it cannot run against models
#                       (hvx_models.py) and known values (hvx_known_values.txt) (hvx_exec.py;
#                       rows without semantics listed in tests/isa/hvx_pending.txt)
#   isa_hvx_packets     random packets of HVX rows, the same way (hvx_exec.py --packets)
#   isa_hvx_packet_rules  the HVX packet rules: hand-written and random packets against
#                       llvm-mc-16/llvm-objdump-16 (hvx_packet_rules.py)
#   isa_known_values    packets whose correct result the manual gives (known_values.txt,
#                       the list of known qemu-hexagon 7.2 errors among them) under hexsim
#                       --user compiled, --no-stencils and --no-jit (and qemu, reported)
#   isa_new_cores       the audio extension (V67t/V71t) and the V73 additions, which
#                       qemu-hexagon 7.2 cannot run, under hexsim --user (with and without
#                       --no-jit) against a model of the PRM pseudo-code (new_cores.py)
set(HEXSIM_ISA_DIR "${CMAKE_SOURCE_DIR}/tests/isa")
set(HEXSIM_ISA_WORK "${CMAKE_BINARY_DIR}/tests/isa")
set(HEXSIM_OBJDUMP "${CMAKE_BINARY_DIR}/hexsim-objdump")
set(HEXSIM_PROGRAMS_MCPU "" CACHE STRING
    "CPU pass of isa_programs (empty: both passes; default, or e.g. hexagonv68: that one only)")


# hexsim_isa_test(NAME script TIMEOUT seconds ARGS ...)
function(hexsim_isa_test name script)
    cmake_parse_arguments(T "" "TIMEOUT" "ARGS" ${ARGN})
    add_test(NAME ${name}
        COMMAND "${Python3_EXECUTABLE}" "${HEXSIM_ISA_DIR}/${script}"
                --hexsim "${HEXSIM_OBJDUMP}" ${T_ARGS})
    set_tests_properties(${name} PROPERTIES
        LABELS isa
        TIMEOUT ${T_TIMEOUT}
        SKIP_RETURN_CODE 77)
endfunction()

hexsim_isa_test(isa_objdump_format objdump_format.py TIMEOUT 120
    ARGS --work "${HEXSIM_ISA_WORK}/objdump_format")
hexsim_isa_test(isa_table_entries table_entries.py TIMEOUT 300
    ARGS --isa-dir "${CMAKE_SOURCE_DIR}/src/cpu/isa"
         --work "${HEXSIM_ISA_WORK}/table_entries"
         --unassemblable "${CMAKE_BINARY_DIR}/isa-unassemblable.txt"
         --diffs "${HEXSIM_ISA_WORK}/table_entries.diffs")
hexsim_isa_test(isa_programs programs.py TIMEOUT 300
    ARGS --progs "${HEXSIM_ISA_DIR}/progs"
         --work "${HEXSIM_ISA_WORK}/programs"
         --diffs "${HEXSIM_ISA_WORK}/programs.diffs")
# Like the other tests, the programs are compared in both passes (V60 and V68) unless
# HEXSIM_PROGRAMS_MCPU names one.
set_tests_properties(isa_programs PROPERTIES ENVIRONMENT "HEXSIM_MCPU=${HEXSIM_PROGRAMS_MCPU}")
hexsim_isa_test(isa_random_words random_words.py TIMEOUT 600
    ARGS --work "${HEXSIM_ISA_WORK}/random_words" --max-packet-words 1
         --diffs "${HEXSIM_ISA_WORK}/random_words.diffs")
# Packets of 1-4 random words (parse bits, loop ends and duplexes set as in random_words.py):
# every packet llvm-objdump-16 accepts or refuses must be accepted or refused alike. About
# 35-60 s on two cores, like isa_random_words; another seed by hand:
#   HEXSIM_RANDOM_SEED=7 tests/isa/random_words.py --hexsim build/hexsim-objdump --work /tmp/rp
hexsim_isa_test(isa_random_multiword random_words.py TIMEOUT 600
    ARGS --work "${HEXSIM_ISA_WORK}/random_multiword" --max-packet-words 4
         --diffs "${HEXSIM_ISA_WORK}/random_multiword.diffs")
# The same with HVX (random_words.py --hvx): 300000 words, half of them from the HVX
# encoding spaces, compared without HVX and with --mattr=+hvx,+hvx-ieee-fp,+hvx-qfloat at
# V60, V62, V65, V68, V69 and V73 (the --mcpu gating of HVX rows and the reversed pairs).
hexsim_isa_test(isa_random_words_hvx random_words.py TIMEOUT 900
    ARGS --work "${HEXSIM_ISA_WORK}/random_words_hvx" --max-packet-words 1 --hvx
         --diffs "${HEXSIM_ISA_WORK}/random_words_hvx.diffs")
set_tests_properties(isa_random_words_hvx PROPERTIES ENVIRONMENT "HEXSIM_RANDOM_WORDS=300000")
hexsim_isa_test(isa_vmlinux elf_diff.py TIMEOUT 1200
    ARGS --optional --name isa_vmlinux
         --diffs "${HEXSIM_ISA_WORK}/vmlinux.diffs"
         "${_hexsim_vmlinux}")

set(HEXSIM_EXEC_CASES "8" CACHE STRING "Cases per ISA table row in the isa_exec test")
add_test(NAME isa_exec
    COMMAND "${Python3_EXECUTABLE}" "${HEXSIM_ISA_DIR}/exec_diff.py"
            --hexsim "$<TARGET_FILE:hexsim>" --isa-dir "${CMAKE_SOURCE_DIR}/src/cpu/isa"
            --cases "${HEXSIM_EXEC_CASES}" --work "${HEXSIM_ISA_WORK}/exec"
            --pending "${HEXSIM_ISA_DIR}/exec_pending.txt"
            --details "${HEXSIM_ISA_WORK}/exec.diffs")
set_tests_properties(isa_exec PROPERTIES LABELS isa TIMEOUT 900 SKIP_RETURN_CODE 77)

# HVX rows (hvx_exec.py), the one HVX row test: every HVX row qemu-hexagon 7.2 runs (-cpu v67),
# HEXSIM_HVX_CASES random cases each (vectors, some built lane by lane from edge values,
# predicates, scalars, a scratch buffer), under qemu-hexagon and hexsim --user, hexsim also
# with --no-jit and --jit-threshold 1 (same output required); rows qemu cannot run under hexsim
# against their model in hvx_models.py and the hand-computed values of
# tests/isa/hvx_known_values.txt (every such row with semantics must have one of them); rows
# without semantics are listed in tests/isa/hvx_pending.txt. The cases of 8 rows make one
# program (--batch: the process launches are most of the cost). One group:
#   tests/isa/hvx_exec.py --hexsim build/hexsim --group hvx_alu [--only REGEX] [--cases 50]
set(HEXSIM_HVX_CASES "4" CACHE STRING "Cases per HVX row in the isa_hvx_exec test")
add_test(NAME isa_hvx_exec
    COMMAND "${Python3_EXECUTABLE}" "${HEXSIM_ISA_DIR}/hvx_exec.py"
            --hexsim "$<TARGET_FILE:hexsim>" --isa-dir "${CMAKE_SOURCE_DIR}/src/cpu/isa"
            --cases "${HEXSIM_HVX_CASES}" --work "${HEXSIM_ISA_WORK}/hvx_exec"
            --pending "${HEXSIM_ISA_DIR}/hvx_pending.txt"
            --details "${HEXSIM_ISA_WORK}/hvx_exec.diffs")
set_tests_properties(isa_hvx_exec PROPERTIES LABELS isa TIMEOUT 1200 SKIP_RETURN_CODE 77)
# Random packets of 2-4 HVX instructions with semantics (hvx_exec.py --packets): packet
# semantics (staged writes, .cur/.tmp forwarding, new-value stores, a load and a store).
# Longer runs by hand: tests/isa/hvx_exec.py --hexsim build/hexsim --packets 100000 --seed 7
set(HEXSIM_HVX_PACKETS "1000" CACHE STRING "Random packets of the isa_hvx_packets test")
add_test(NAME isa_hvx_packets
    COMMAND "${Python3_EXECUTABLE}" "${HEXSIM_ISA_DIR}/hvx_exec.py"
            --hexsim "$<TARGET_FILE:hexsim>" --isa-dir "${CMAKE_SOURCE_DIR}/src/cpu/isa"
            --packets "${HEXSIM_HVX_PACKETS}" --work "${HEXSIM_ISA_WORK}/hvx_packets"
            --details "${HEXSIM_ISA_WORK}/hvx_packets.diffs")
set_tests_properties(isa_hvx_packets PROPERTIES LABELS isa TIMEOUT 900 SKIP_RETURN_CODE 77)
# HVX packet rules (hvx_packet_rules.py): the hand-written packets of hvx_packet_rules.txt
# against llvm-mc-16, hexsim-objdump and hexsim --user, and 20000 random packets with HVX
# instructions (legal and illegal) disassembled by llvm-objdump-16 and hexsim-objdump.
add_test(NAME isa_hvx_packet_rules
    COMMAND "${Python3_EXECUTABLE}" "${HEXSIM_ISA_DIR}/hvx_packet_rules.py"
            --hexsim "$<TARGET_FILE:hexsim>" --objdump "${HEXSIM_OBJDUMP}"
            --isa-dir "${CMAKE_SOURCE_DIR}/src/cpu/isa" --packets 20000
            --work "${HEXSIM_ISA_WORK}/hvx_packet_rules")
set_tests_properties(isa_hvx_packet_rules PROPERTIES LABELS isa TIMEOUT 600 SKIP_RETURN_CODE 77)

# Random packets: valid random packets of 1-4 instructions (tests/isa/rp_gen.py) run under
# qemu-hexagon and hexsim --user, all state compared. The regression cases committed in
# tests/isa/regress/ are replayed first; new mismatches are shrunk and written to
# <build>/tests/isa/random_packets/new-regress/ (copy the ones to keep into tests/isa/regress/;
# a run by hand writes there directly). HEXSIM_RANDOM_PACKETS packets (seed
# HEXSIM_RANDOM_PACKETS_SEED); longer runs by hand, e.g.
#   tests/isa/random_packets.py --hexsim build/hexsim --packets 10000000 --seed 7
set(HEXSIM_RANDOM_PACKETS "200000" CACHE STRING "Packets of the isa_random_packets test")
set(HEXSIM_RANDOM_PACKETS_SEED "1" CACHE STRING "Seed of the isa_random_packets test")
add_test(NAME isa_random_packets
    COMMAND "${Python3_EXECUTABLE}" "${HEXSIM_ISA_DIR}/random_packets.py"
            --hexsim "$<TARGET_FILE:hexsim>" --isa-dir "${CMAKE_SOURCE_DIR}/src/cpu/isa"
            --packets "${HEXSIM_RANDOM_PACKETS}" --seed "${HEXSIM_RANDOM_PACKETS_SEED}"
            --work "${HEXSIM_ISA_WORK}/random_packets" --regress "${HEXSIM_ISA_DIR}/regress"
            --write "${HEXSIM_ISA_WORK}/random_packets/new-regress")
set_tests_properties(isa_random_packets PROPERTIES LABELS isa TIMEOUT 900 SKIP_RETURN_CODE 77)
# Its classifier of known qemu deviations (a deviating row inside a hardware loop): about 1 s
add_test(NAME isa_rp_classify
    COMMAND "${Python3_EXECUTABLE}" "${HEXSIM_ISA_DIR}/rp_classify_test.py"
            --isa-dir "${CMAKE_SOURCE_DIR}/src/cpu/isa")
set_tests_properties(isa_rp_classify PROPERTIES LABELS isa TIMEOUT 120)

# Known values (known_values.py): a few seconds; runs without qemu-hexagon too.
add_test(NAME isa_known_values
    COMMAND "${Python3_EXECUTABLE}" "${HEXSIM_ISA_DIR}/known_values.py"
            --hexsim "$<TARGET_FILE:hexsim>" --work "${HEXSIM_ISA_WORK}/known_values")
set_tests_properties(isa_known_values PROPERTIES LABELS isa TIMEOUT 300 SKIP_RETURN_CODE 77)

# The instructions qemu-hexagon 7.2 cannot run (the "t" cores' audio extension, the V73
# additions), against new_cores.py's model of the manual's pseudo-code; a few seconds.
add_test(NAME isa_new_cores
    COMMAND "${Python3_EXECUTABLE}" "${HEXSIM_ISA_DIR}/new_cores.py"
            --hexsim "$<TARGET_FILE:hexsim>" --work "${HEXSIM_ISA_WORK}/new_cores")
set_tests_properties(isa_new_cores PROPERTIES LABELS isa TIMEOUT 300 SKIP_RETURN_CODE 77)
