# SPDX-License-Identifier: MIT
# The SDL2 console window (`--console sdl`): library hexsim_sdl, linked into the hexsim
# program only, so the rest of the tree never needs SDL2. It needs SDL2 (pkg-config sdl2,
# Debian libsdl2-dev) and libvterm (pkg-config vterm, Debian libvterm-dev); without either,
# or with -DHEXSIM_SDL=OFF, the library holds sdl_console_none.c and `--console sdl` says
# which package to install. The terminal (libvterm), the PSF font reader (zlib) and the
# rasterizer are library hexsim_vt (no SDL; built whenever libvterm is found), with
# libvterm linked statically where Debian ships its archive: one shared library fewer to
# load at every start. hexsim_sdl takes SDL2's headers only and loads the library when a
# window opens (sdl_console.c): hexsim's start-up does not pay for SDL2's shared libraries.
option(HEXSIM_SDL "Build the SDL2 console window (--console sdl) when SDL2 is found" ON)
set(HEXSIM_HAVE_SDL2 OFF CACHE INTERNAL "hexsim_sdl has the SDL2 window")
set(HEXSIM_HAVE_VTERM OFF CACHE INTERNAL "hexsim_vt (libvterm) is built")
set(_sdl_missing "")
if(HEXSIM_SDL)
    pkg_check_modules(SDL2 IMPORTED_TARGET sdl2)
    pkg_check_modules(VTERM IMPORTED_TARGET vterm)
    if(NOT SDL2_FOUND)
        list(APPEND _sdl_missing libsdl2-dev)
    endif()
    if(VTERM_FOUND)
        set(HEXSIM_HAVE_VTERM ON CACHE INTERNAL "hexsim_vt (libvterm) is built")
    else()
        list(APPEND _sdl_missing libvterm-dev)
    endif()
    if(SDL2_FOUND AND VTERM_FOUND)
        set(HEXSIM_HAVE_SDL2 ON CACHE INTERNAL "hexsim_sdl has the SDL2 window")
    else()
        message(STATUS "SDL2 (pkg-config sdl2) or libvterm (pkg-config vterm) not found: "
                       "--console sdl is not available")
    endif()
endif()
if(HEXSIM_HAVE_VTERM)
    add_library(hexsim_vt STATIC ${CMAKE_CURRENT_LIST_DIR}/vt_term.c
                ${CMAKE_CURRENT_LIST_DIR}/vt_render.c ${CMAKE_CURRENT_LIST_DIR}/psf_font.c)
    find_library(HEXSIM_VTERM_ARCHIVE libvterm.a HINTS ${VTERM_LIBRARY_DIRS} NO_DEFAULT_PATH)
    target_include_directories(hexsim_vt PRIVATE ${VTERM_INCLUDE_DIRS})
    if(HEXSIM_VTERM_ARCHIVE)
        target_link_libraries(hexsim_vt PUBLIC hexsim_core ${HEXSIM_VTERM_ARCHIVE})
    else()
        target_link_libraries(hexsim_vt PUBLIC hexsim_core PkgConfig::VTERM)
    endif()
endif()
if(HEXSIM_HAVE_SDL2)
    add_library(hexsim_sdl STATIC ${CMAKE_CURRENT_LIST_DIR}/sdl_console.c)
    target_include_directories(hexsim_sdl PRIVATE ${SDL2_INCLUDE_DIRS})
    target_compile_options(hexsim_sdl PRIVATE ${SDL2_CFLAGS_OTHER})
    target_link_libraries(hexsim_sdl PUBLIC hexsim_vt ${CMAKE_DL_LIBS})
else()
    add_library(hexsim_sdl STATIC ${CMAKE_CURRENT_LIST_DIR}/sdl_console_none.c)
    list(JOIN _sdl_missing " and " _sdl_missing)
    if(_sdl_missing)
        target_compile_definitions(hexsim_sdl PRIVATE HEXSIM_SDL_MISSING="${_sdl_missing}")
    endif()
    target_link_libraries(hexsim_sdl PUBLIC hexsim_core)
endif()
target_link_libraries(hexsim PRIVATE hexsim_sdl)
