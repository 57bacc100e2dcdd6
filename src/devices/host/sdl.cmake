# SPDX-License-Identifier: MIT
# The SDL2 console window (`--console sdl`): library hexsim_sdl, linked into the hexsim
# program only, so the rest of the tree never needs SDL2. SDL2 is found through
# pkg-config (module sdl2, Debian libsdl2-dev); without it, or with -DHEXSIM_SDL=OFF, the
# library holds sdl_console_none.c and `--console sdl` says hexsim was built without SDL2.
# The terminal grid, font and rasterizer it draws with are in hexsim_core (no SDL).
# hexsim_sdl takes SDL2's headers only and loads the library when a window opens
# (sdl_console.c): hexsim's start-up does not pay for SDL2's shared libraries.
option(HEXSIM_SDL "Build the SDL2 console window (--console sdl) when SDL2 is found" ON)
set(HEXSIM_HAVE_SDL2 OFF CACHE INTERNAL "hexsim_sdl has the SDL2 window")
if(HEXSIM_SDL)
    pkg_check_modules(SDL2 IMPORTED_TARGET sdl2)
    if(SDL2_FOUND)
        set(HEXSIM_HAVE_SDL2 ON CACHE INTERNAL "hexsim_sdl has the SDL2 window")
    else()
        message(STATUS "SDL2 (pkg-config sdl2) not found: --console sdl is not available")
    endif()
endif()
if(HEXSIM_HAVE_SDL2)
    add_library(hexsim_sdl STATIC ${CMAKE_CURRENT_LIST_DIR}/sdl_console.c)
    target_include_directories(hexsim_sdl PRIVATE ${SDL2_INCLUDE_DIRS})
    target_compile_options(hexsim_sdl PRIVATE ${SDL2_CFLAGS_OTHER})
    target_link_libraries(hexsim_sdl PUBLIC hexsim_core ${CMAKE_DL_LIBS})
else()
    add_library(hexsim_sdl STATIC ${CMAKE_CURRENT_LIST_DIR}/sdl_console_none.c)
    target_link_libraries(hexsim_sdl PUBLIC hexsim_core)
endif()
target_link_libraries(hexsim PRIVATE hexsim_sdl)
