# SPDX-License-Identifier: MIT
# C programs built with tools/hexagon-cc against the musl sysroot (label "userland"),
# each registered twice: userland_NAME_qemu runs it under qemu-hexagon and compares with
# the same source built for the host; userland_NAME_hexsim runs it under hexsim --user and
# compares with qemu-hexagon (tests/userland/userland_test.py).
# tools/test.sh builds the sysroot (guest/musl/build.sh) and passes it here; without it
# tools/hexagon-cc finds or builds the one in $HEXSIM_CACHE/musl/sysroot.
set(HEXSIM_MUSL_SYSROOT "" CACHE PATH
    "musl sysroot for tests/userland (default: tools/hexagon-cc's, ~/.cache/hexsim/musl/sysroot)")
set(_userland_progs stdio malloc strings sort math builtins timeclock files getopt setjmp
    signals pthreads threadlife hvx net events)
set(_userland_sysroot_arg)
if(HEXSIM_MUSL_SYSROOT)
    set(_userland_sysroot_arg --sysroot "${HEXSIM_MUSL_SYSROOT}")
endif()
# C++ programs (tests/userland/cxx/*.cpp) built with tools/hexagon-c++ against libc++,
# libc++abi and libunwind (guest/libcxx/build.sh), compared the same two ways, with the
# host's g++ and libstdc++ as the native reference. tools/test.sh builds the runtime
# first and passes it here; without it tools/hexagon-c++ finds or builds the one in
# $HEXSIM_CACHE/libcxx/out (cold: tens of minutes, longer than these tests' timeout).
set(HEXSIM_LIBCXX "" CACHE PATH
    "libc++ for tests/userland's C++ programs (default: tools/hexagon-c++'s, ~/.cache/hexsim/libcxx/out)")
set(_userland_cxx_progs exceptions rtti iostreams threads filesystem chrono statics)
set(_userland_libcxx_arg)
if(HEXSIM_LIBCXX)
    set(_userland_libcxx_arg --libcxx "${HEXSIM_LIBCXX}")
endif()
set(_userland_all ${_userland_progs})
foreach(_p IN LISTS _userland_cxx_progs)
    list(APPEND _userland_all cxx_${_p})
endforeach()
foreach(_p IN LISTS _userland_all)
    add_test(NAME userland_${_p}_qemu
        COMMAND "${Python3_EXECUTABLE}" "${CMAKE_SOURCE_DIR}/tests/userland/userland_test.py"
                --prog ${_p} --mode qemu --work "${CMAKE_BINARY_DIR}/tests/userland"
                ${_userland_sysroot_arg} ${_userland_libcxx_arg})
    add_test(NAME userland_${_p}_hexsim
        COMMAND "${Python3_EXECUTABLE}" "${CMAKE_SOURCE_DIR}/tests/userland/userland_test.py"
                --prog ${_p} --mode hexsim --work "${CMAKE_BINARY_DIR}/tests/userland"
                --hexsim "$<TARGET_FILE:hexsim>" ${_userland_sysroot_arg} ${_userland_libcxx_arg})
    set(_labels userland)
    if(_p MATCHES "^cxx_")
        set(_labels "userland;cxx")
    endif()
    set_tests_properties(userland_${_p}_qemu userland_${_p}_hexsim
        PROPERTIES LABELS "${_labels}" TIMEOUT 900)
endforeach()
# Processes (fork, execve, wait, signals between processes): tests/userland/procs_test.py.
# With HEXSIM_USER_BUSYBOX (a Hexagon BusyBox, e.g. from guest/busybox/build.sh) also
# BusyBox sh pipelines and jobs under hexsim --user.
set(HEXSIM_USER_BUSYBOX "" CACHE FILEPATH
    "Hexagon BusyBox binary for userland_procs' shell checks (default: none, skipped)")
set(_procs_busybox_arg)
if(HEXSIM_USER_BUSYBOX)
    set(_procs_busybox_arg --busybox "${HEXSIM_USER_BUSYBOX}")
endif()
add_test(NAME userland_procs
    COMMAND "${Python3_EXECUTABLE}" "${CMAKE_SOURCE_DIR}/tests/userland/procs_test.py"
            --hexsim "$<TARGET_FILE:hexsim>" --work "${CMAKE_BINARY_DIR}/tests/userland_procs"
            ${_userland_sysroot_arg} ${_procs_busybox_arg})
set_tests_properties(userland_procs PROPERTIES LABELS "userland;user" TIMEOUT 900)
# The sysroot's redirected (time64) symbols, and dynamic linking (tests/userland/
# dynlink_test.py): every __REDIR of the installed headers links and runs; a dynamic program
# without its loader is refused; a program with a shared library and a dlopen'd plugin
# under -L DIR and QEMU_LD_PREFIX against qemu-hexagon -L, and the guest root's walls.
foreach(_c redir nointerp dynamic)
    add_test(NAME userland_dynlink_${_c}
        COMMAND "${Python3_EXECUTABLE}" "${CMAKE_SOURCE_DIR}/tests/userland/dynlink_test.py"
                --case ${_c} --hexsim "$<TARGET_FILE:hexsim>"
                --work "${CMAKE_BINARY_DIR}/tests/dynlink" ${_userland_sysroot_arg})
    set_tests_properties(userland_dynlink_${_c} PROPERTIES LABELS "userland;user" TIMEOUT 600)
endforeach()
# tools/hexsim-binfmt registering hexsim with the host's binfmt_misc and unregistering it
# (skipped, status 77, where binfmt_misc cannot be mounted or written).
add_test(NAME userland_binfmt
    COMMAND "${Python3_EXECUTABLE}" "${CMAKE_SOURCE_DIR}/tests/userland/binfmt_test.py"
            --hexsim "$<TARGET_FILE:hexsim>" --work "${CMAKE_BINARY_DIR}/tests/binfmt"
            ${_userland_sysroot_arg})
set_tests_properties(userland_binfmt PROPERTIES LABELS "userland;user" TIMEOUT 600
    SKIP_RETURN_CODE 77)
# The same programs inside the booted guest (tests/boot/guest_userland_test.py, label
# "guest_software"): each under hexsim --user first, then in the guest with --smp 1, 2
# and 4, and what each prints and its exit status must agree; with them the dynamically
# linked program of dynlink_test.py (--dynamic: libc.so as the loader). Needs the kernel.
# net is left out: the guest kernel has no IPv6 (net.c's ::1 exchange) and the root file
# system no /etc/services (getaddrinfo of "http"); everything else of it agrees.
set(_guest_progs ${_userland_all})
list(REMOVE_ITEM _guest_progs net)
if(EXISTS "${_hexsim_vmlinux}")
    foreach(_n 1 2 4)
        add_test(NAME guest_userland_smp${_n}
            COMMAND "${Python3_EXECUTABLE}" "${CMAKE_SOURCE_DIR}/tests/boot/guest_userland_test.py"
                    --hexsim "$<TARGET_FILE:hexsim>" --vmlinux "${_hexsim_vmlinux}"
                    --initrd "${CMAKE_BINARY_DIR}/rootfs.cpio" --smp ${_n}
                    --work "${CMAKE_BINARY_DIR}/tests/guest_userland_smp${_n}"
                    ${_userland_sysroot_arg} ${_userland_libcxx_arg} --dynamic ${_guest_progs})
        set_tests_properties(guest_userland_smp${_n} PROPERTIES
            LABELS "boot;guest_software" FIXTURES_REQUIRED rootfs TIMEOUT 1200)
    endforeach()
endif()
