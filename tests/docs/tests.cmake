# SPDX-License-Identifier: MIT
# The examples of README.md and docs/ (tests/docs/docs_examples.py): each fenced command
# marked <!-- test --> runs against this build's hexsim, hexsim-objdump, hexagon-cc
# (with HEXSIM_MUSL_SYSROOT) and hexagon-c++ (with HEXSIM_LIBCXX) and its output is compared with the one the page shows.
# Examples that boot Linux need HEXSIM_VMLINUX (and the rootfs fixture); without it they
# are skipped. Label "docs".
set(_docs_args --hexsim "$<TARGET_FILE:hexsim>" --objdump "$<TARGET_FILE:hexsim-objdump>"
    --cc "${CMAKE_SOURCE_DIR}/tools/hexagon-cc")
if(HEXSIM_MUSL_SYSROOT)
    list(APPEND _docs_args --sysroot "${HEXSIM_MUSL_SYSROOT}")
endif()
if(HEXSIM_LIBCXX)
    list(APPEND _docs_args --libcxx "${HEXSIM_LIBCXX}")
endif()
set(_docs_fixture "")
if(HEXSIM_VMLINUX AND EXISTS "${HEXSIM_VMLINUX}")
    list(APPEND _docs_args --vmlinux "${HEXSIM_VMLINUX}" --initrd "${CMAKE_BINARY_DIR}/rootfs.cpio")
    set(_docs_fixture rootfs)
endif()
add_test(NAME docs_examples
    COMMAND "${Python3_EXECUTABLE}" "${CMAKE_SOURCE_DIR}/tests/docs/docs_examples.py"
            ${_docs_args} "${CMAKE_SOURCE_DIR}/README.md" "${CMAKE_SOURCE_DIR}/docs")
set_tests_properties(docs_examples PROPERTIES LABELS docs TIMEOUT 300)
if(_docs_fixture)
    set_tests_properties(docs_examples PROPERTIES FIXTURES_REQUIRED ${_docs_fixture})
endif()
