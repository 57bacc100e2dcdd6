# SPDX-License-Identifier: MIT
# Guest packages (label "guest_software"; guest/packages, tests/packages/pkgtest.py):
# packages_build builds the packages of HEXSIM_GUEST_PACKAGES (a fixture the others need;
# cached in $HEXSIM_CACHE/packages, so only a cold cache pays for the builds), then each
# package's short test subset (--quick) runs under hexsim --user and qemu-hexagon, and all
# of them in one booted guest with --smp 2. Opt-in for now (default: none, so CI does not
# pay the packages' cold builds): -DHEXSIM_GUEST_PACKAGES="bzip2;lua5.4;xz-utils" or with
# libzstd and sqlite3 too (their cold builds and the full suites' costs are in
# guest/packages/README.md).
set(HEXSIM_GUEST_PACKAGES "" CACHE STRING
    "Guest packages (guest/packages/NAME.recipe) that the guest_software tests build and test")
set(PKGTEST "${CMAKE_SOURCE_DIR}/tests/packages/pkgtest.py")
if(HEXSIM_GUEST_PACKAGES)
    add_test(NAME packages_build
        COMMAND "${CMAKE_SOURCE_DIR}/guest/packages/build.sh" ${HEXSIM_GUEST_PACKAGES})
    set_tests_properties(packages_build PROPERTIES LABELS guest_software
                         FIXTURES_SETUP packages TIMEOUT 2400)
    foreach(pkg ${HEXSIM_GUEST_PACKAGES})
        add_test(NAME pkg_user_${pkg}
            COMMAND "${Python3_EXECUTABLE}" "${PKGTEST}" --mode user --quick
                    --hexsim "$<TARGET_FILE:hexsim>" ${pkg})
        add_test(NAME pkg_qemu_${pkg}
            COMMAND "${Python3_EXECUTABLE}" "${PKGTEST}" --mode qemu --quick ${pkg})
        set_tests_properties(pkg_user_${pkg} pkg_qemu_${pkg} PROPERTIES LABELS guest_software
                             FIXTURES_REQUIRED packages TIMEOUT 600)
    endforeach()
    # tools/bench/packages.py on tiny inputs (not timing: its workloads run and hexsim's
    # outputs, compiled and --no-jit, are qemu-hexagon's); it needs all five packages
    set(_bench_pkgs sqlite3 libzstd xz-utils bzip2 lua5.4)
    set(_bench_all TRUE)
    foreach(pkg ${_bench_pkgs})
        if(NOT pkg IN_LIST HEXSIM_GUEST_PACKAGES)
            set(_bench_all FALSE)
        endif()
    endforeach()
    if(_bench_all)
        add_test(NAME bench_packages
            COMMAND "${Python3_EXECUTABLE}" "${CMAKE_SOURCE_DIR}/tools/bench/packages.py"
                    --size tiny --no-native --hexsim "$<TARGET_FILE:hexsim>")
        set_tests_properties(bench_packages PROPERTIES LABELS guest_software
                             FIXTURES_REQUIRED packages TIMEOUT 300)
    endif()
    if(EXISTS "${_hexsim_vmlinux}")
        add_test(NAME pkg_guest
            COMMAND "${Python3_EXECUTABLE}" "${PKGTEST}" --mode guest --quick
                    --hexsim "$<TARGET_FILE:hexsim>" --vmlinux "${_hexsim_vmlinux}"
                    --initrd "${CMAKE_BINARY_DIR}/rootfs.cpio" ${HEXSIM_GUEST_PACKAGES})
        set_tests_properties(pkg_guest PROPERTIES LABELS "guest_software;boot"
                             FIXTURES_REQUIRED "packages;rootfs" TIMEOUT 900)
    endif()
endif()
