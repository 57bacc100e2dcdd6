# SPDX-License-Identifier: MIT
# Guest packages (label "guest_software"; guest/packages, tests/packages/pkgtest.py):
# packages_build builds the packages of HEXSIM_GUEST_PACKAGES (a fixture the others need;
# cached in $HEXSIM_CACHE/packages, so only a cold cache pays for the builds), then each
# package's short test subset (--quick) runs under hexsim --user and qemu-hexagon, and all
# of them in one booted guest with --smp 2.
# Default: bzip2 and lua5.4, chosen on CPU time (user + sys) measured with the sanitizer
# build (the machine was loaded 15-fold, so wall times there were 5-15 times the CPU
# time and meaningless; on CI's 2 idle cores wall time is about the CPU time):
#   cold builds (empty packages cache, debsrc cache warm): bzip2 8.6 s, lua5.4 53 s
#   quick subsets: --user 17 s, qemu-hexagon 10 s, one guest boot running both 37 s
# so about 2 minutes cold (seconds warm: the builds are cached). The other packages' cold
# builds took 30-45 min of wall time each on that machine, i.e. several minutes of CPU
# (xz-utils: configure's hundreds of clang-16 probes and libtool; sqlite3: the 8 MB
# amalgamation in one compile; libzstd: its library compiled again for each test
# program); measured cold in CPU time (user + sys, Release tools, load 7): the three
# together 8.3 min, sqlite3 alone with fuzzcheck 4.5 min, so none of them fits the minute
# a CI addition may cost. Opt in with
# -DHEXSIM_GUEST_PACKAGES="bzip2;lua5.4;xz-utils;sqlite3;libzstd" (full suites and costs in
# guest/packages/README.md). stress-ng is not built (its source files 404 on the mirror: see there).
set(HEXSIM_GUEST_PACKAGES "bzip2;lua5.4" CACHE STRING
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
