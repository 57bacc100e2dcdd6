# SPDX-License-Identifier: MIT
# Fuzz targets (tests/fuzz/README.md). Every build: fuzz_replay_<target>, the target linked to
# a small main that runs it on files, and a ctest fuzz_corpus_<target> (label "unit") that
# replays the seed corpus and regression inputs of tests/fuzz/corpus/<target>/. With
# HEXSIM_FUZZ=ON (clang): the libFuzzer executables fuzz_<target> (all of them: the target
# fuzz_targets) and a ctest fuzz_smoke_<target> (label "fuzz", HEXSIM_FUZZ_SMOKE_SECONDS each,
# serial, nice 19) that fuzzes from that corpus into a scratch directory in the build tree.
set(HEXSIM_FUZZ_TARGETS decode elf exec syscall devices system snapshot virtio_blk virtio_9p)
set(HEXSIM_FUZZ_DIR "${CMAKE_CURRENT_LIST_DIR}")
set(HEXSIM_FUZZ_SMOKE_SECONDS 20 CACHE STRING "Seconds each fuzz target runs in the fuzz ctest label")

foreach(t IN LISTS HEXSIM_FUZZ_TARGETS)
    add_executable(fuzz_replay_${t} "${HEXSIM_FUZZ_DIR}/fuzz_${t}.c" "${HEXSIM_FUZZ_DIR}/replay.c")
    target_link_libraries(fuzz_replay_${t} PRIVATE hexsim_core)
    add_test(NAME fuzz_corpus_${t}
        COMMAND fuzz_replay_${t} "${HEXSIM_FUZZ_DIR}/corpus/${t}")
    set_tests_properties(fuzz_corpus_${t} PROPERTIES LABELS unit TIMEOUT 300)
endforeach()

if(HEXSIM_FUZZ)
    find_program(HEXSIM_NICE nice)
    add_custom_target(fuzz_targets)   # builds every fuzz_<target> (tools/test.sh)
    foreach(t IN LISTS HEXSIM_FUZZ_TARGETS)
        add_executable(fuzz_${t} "${HEXSIM_FUZZ_DIR}/fuzz_${t}.c")
        add_dependencies(fuzz_targets fuzz_${t})
        target_link_libraries(fuzz_${t} PRIVATE hexsim_core)
        target_link_options(fuzz_${t} PRIVATE -fsanitize=fuzzer)
        set(work "${CMAKE_BINARY_DIR}/fuzz-smoke/${t}")
        add_test(NAME fuzz_smoke_${t}
            COMMAND sh -c "rm -rf \"$1\" && mkdir -p \"$1\" && cd \"$1\" && exec ${HEXSIM_NICE} -n 19 \"$2\" -seed=1 -max_total_time=$3 -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \"$1\" \"$4\""
                    fuzz_smoke "${work}" "$<TARGET_FILE:fuzz_${t}>" "${HEXSIM_FUZZ_SMOKE_SECONDS}"
                    "${HEXSIM_FUZZ_DIR}/corpus/${t}")
        math(EXPR timeout "${HEXSIM_FUZZ_SMOKE_SECONDS} * 3 + 60")
        set_tests_properties(fuzz_smoke_${t} PROPERTIES LABELS fuzz RUN_SERIAL TRUE
                             TIMEOUT ${timeout})
    endforeach()
endif()
