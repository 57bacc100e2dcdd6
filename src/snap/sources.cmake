# SPDX-License-Identifier: MIT
# Snapshots of system-mode machines: the container (zlib, CRC32) and the machine sections.
find_package(ZLIB REQUIRED)
target_sources(hexsim_core PRIVATE
    ${CMAKE_CURRENT_LIST_DIR}/snap_file.c
    ${CMAKE_CURRENT_LIST_DIR}/snap_machine.c
    ${CMAKE_CURRENT_LIST_DIR}/snap_timing.c)
target_link_libraries(hexsim_core PUBLIC ZLIB::ZLIB)
