# SPDX-License-Identifier: MIT
# HVM system-mode tests (label "hvm"): freestanding test kernels from tests/hvm/guest, built
# with clang-16 and run by hexsim; plus the Check suite of the MMU walker and vmintop. The
# spec_* kernels are the conformance suite (HVM specification Rev A; label "hvm_spec").
foreach(case basic mmu hvx_region smc smc_jit jit jit_nojit user timer intop smp par par_threads novec limit
             cmdline cmdline_linux)
    add_test(NAME hvm_${case}
        COMMAND "${Python3_EXECUTABLE}" "${CMAKE_SOURCE_DIR}/tests/hvm/hvm_test.py"
                --hexsim "$<TARGET_FILE:hexsim>" --work "${CMAKE_BINARY_DIR}/tests/hvm" ${case})
    set_tests_properties(hvm_${case} PROPERTIES LABELS hvm TIMEOUT 300)
endforeach()
foreach(case spec_calls spec_calls_smp3 spec_events spec_events_smp3 spec_events_vec0
             spec_mmu spec_mmu_smp3 spec_vcpu spec_novec)
    add_test(NAME hvm_${case}
        COMMAND "${Python3_EXECUTABLE}" "${CMAKE_SOURCE_DIR}/tests/hvm/hvm_test.py"
                --hexsim "$<TARGET_FILE:hexsim>" --work "${CMAKE_BINARY_DIR}/tests/hvm" ${case})
    set_tests_properties(hvm_${case} PROPERTIES LABELS "hvm;hvm_spec" TIMEOUT 300)
endforeach()
find_package(PkgConfig REQUIRED)
pkg_check_modules(HVM_CHECK REQUIRED IMPORTED_TARGET check)
add_executable(test_hvm "${CMAKE_SOURCE_DIR}/tests/hvm/test_hvm.c")
target_link_libraries(test_hvm PRIVATE hexsim_core PkgConfig::HVM_CHECK)
add_test(NAME test_hvm COMMAND test_hvm)
set_tests_properties(test_hvm PROPERTIES LABELS "hvm;unit")
