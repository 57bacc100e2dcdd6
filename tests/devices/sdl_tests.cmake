# SPDX-License-Identifier: MIT
# The SDL console (label "devices"): when libvterm is found, test_vt_term (the terminal
# over libvterm and the rasterizer; no SDL) and test_psf_font (the PSF reader: PSF1 and
# PSF2 images made here, gzip'd or not, bad ones refused, Debian's console font); and when
# hexsim is built with SDL2 and libvterm: test_sdl_console (a window on SDL's headless
# "offscreen" driver: pixels of drawn glyphs against the font, keyboard events to bytes,
# window close, the typing and dump hooks), sdl_cli (bad --console values, no video
# device, a missing font: exit status 2) and sdl_boot (Linux booted with --console sdl
# to a shell, commands typed through the window's key events, the final screen checked).
# Under ASan, LSan finds no leaks in SDL 2.26 with the offscreen driver, so no
# suppressions are used.
find_package(PkgConfig REQUIRED)
pkg_check_modules(VT_CHECK REQUIRED IMPORTED_TARGET check)
if(HEXSIM_HAVE_VTERM)
    foreach(_t test_vt_term test_psf_font)
        add_executable(${_t} "${CMAKE_SOURCE_DIR}/tests/devices/${_t}.c")
        target_link_libraries(${_t} PRIVATE hexsim_vt PkgConfig::VT_CHECK)
        add_test(NAME ${_t} COMMAND ${_t})
        set_tests_properties(${_t} PROPERTIES LABELS "devices;unit")
    endforeach()
endif()

set(_sdl_env "SDL_VIDEODRIVER=offscreen")
if(HEXSIM_HAVE_SDL2)
    # the test calls SDL itself (hexsim_sdl loads it at run time: the same library)
    pkg_check_modules(SDL2_TEST REQUIRED IMPORTED_TARGET sdl2)
    add_executable(test_sdl_console "${CMAKE_SOURCE_DIR}/tests/devices/test_sdl_console.c")
    target_link_libraries(test_sdl_console PRIVATE hexsim_sdl PkgConfig::SDL2_TEST
                          PkgConfig::VT_CHECK)
    add_test(NAME test_sdl_console COMMAND test_sdl_console)
    set_tests_properties(test_sdl_console PROPERTIES LABELS "devices;unit"
                         ENVIRONMENT "${_sdl_env}")
    if(EXISTS "${_hexsim_vmlinux}")
        add_test(NAME sdl_boot
            COMMAND "${Python3_EXECUTABLE}" "${CMAKE_SOURCE_DIR}/tests/devices/sdl_boot_test.py"
                    boot --hexsim "$<TARGET_FILE:hexsim>" --vmlinux "${_hexsim_vmlinux}"
                    --initrd "${CMAKE_BINARY_DIR}/rootfs.cpio"
                    --work "${CMAKE_BINARY_DIR}/tests/sdl")
        set_tests_properties(sdl_boot PROPERTIES LABELS "devices;boot" FIXTURES_REQUIRED rootfs
                             ENVIRONMENT "${_sdl_env}" TIMEOUT 600)
    endif()
    add_test(NAME sdl_cli
        COMMAND "${Python3_EXECUTABLE}" "${CMAKE_SOURCE_DIR}/tests/devices/sdl_boot_test.py"
                cli --hexsim "$<TARGET_FILE:hexsim>")
    set_tests_properties(sdl_cli PROPERTIES LABELS "devices;unit" ENVIRONMENT "${_sdl_env}")
endif()
# Without SDL2 (or with it: the fallback is compiled on its own here) the console
# says how to get it.
add_executable(test_sdl_none "${CMAKE_SOURCE_DIR}/tests/devices/test_sdl_none.c"
               "${CMAKE_SOURCE_DIR}/src/devices/host/sdl_console_none.c")
target_link_libraries(test_sdl_none PRIVATE hexsim_core)
add_test(NAME test_sdl_none COMMAND test_sdl_none)
set_tests_properties(test_sdl_none PROPERTIES LABELS "devices;unit")
# The SDL and terminal libraries, like hexsim_core, hold no writable globals.
add_test(NAME no_writable_globals_sdl
    COMMAND "${Python3_EXECUTABLE}" "${CMAKE_SOURCE_DIR}/tests/unit/check_no_globals.py"
            "${CMAKE_READELF}" "$<TARGET_FILE:hexsim_sdl>")
set_tests_properties(no_writable_globals_sdl PROPERTIES LABELS unit)
if(HEXSIM_HAVE_VTERM)
    add_test(NAME no_writable_globals_vt
        COMMAND "${Python3_EXECUTABLE}" "${CMAKE_SOURCE_DIR}/tests/unit/check_no_globals.py"
                "${CMAKE_READELF}" "$<TARGET_FILE:hexsim_vt>")
    set_tests_properties(no_writable_globals_vt PROPERTIES LABELS unit)
endif()
