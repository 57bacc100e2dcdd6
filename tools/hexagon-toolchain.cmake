# SPDX-License-Identifier: MIT
# A CMake toolchain file for Hexagon Linux programs: tools/hexagon-cc and tools/hexagon-c++
# (musl sysroot, libc++; static by default) and LLVM 16's binutils. Cross builds of CMake
# projects take it as any toolchain file:
#
#   cmake -S SRC -B BUILD -DCMAKE_TOOLCHAIN_FILE=/path/to/hexsim/tools/hexagon-toolchain.cmake
#
# Test programs then run through hexsim --user (CMAKE_CROSSCOMPILING_EMULATOR, which ctest
# and try_run use): HEXSIM names the hexsim to use (a path; default: `hexsim` on PATH).
# The wrappers read HEXSIM_SYSROOT, HEXSIM_LIBCXX and HEXSIM_CACHE from the environment.
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR hexagon)
set(CMAKE_C_COMPILER "${CMAKE_CURRENT_LIST_DIR}/hexagon-cc")
set(CMAKE_CXX_COMPILER "${CMAKE_CURRENT_LIST_DIR}/hexagon-c++")
set(CMAKE_ASM_COMPILER "${CMAKE_CURRENT_LIST_DIR}/hexagon-cc")
find_program(HEXAGON_AR NAMES llvm-ar-16 REQUIRED)
find_program(HEXAGON_RANLIB NAMES llvm-ranlib-16 REQUIRED)
find_program(HEXAGON_NM NAMES llvm-nm-16 REQUIRED)
find_program(HEXAGON_STRIP NAMES llvm-strip-16 REQUIRED)
set(CMAKE_AR "${HEXAGON_AR}" CACHE FILEPATH "")
set(CMAKE_RANLIB "${HEXAGON_RANLIB}" CACHE FILEPATH "")
set(CMAKE_NM "${HEXAGON_NM}" CACHE FILEPATH "")
set(CMAKE_STRIP "${HEXAGON_STRIP}" CACHE FILEPATH "")
# Libraries and headers come from the sysroot the wrappers pass, never from the host.
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)
if(DEFINED ENV{HEXSIM})
    set(CMAKE_CROSSCOMPILING_EMULATOR "$ENV{HEXSIM};--user")
else()
    find_program(HEXAGON_HEXSIM NAMES hexsim)
    if(HEXAGON_HEXSIM)
        set(CMAKE_CROSSCOMPILING_EMULATOR "${HEXAGON_HEXSIM};--user")
    endif()
endif()
