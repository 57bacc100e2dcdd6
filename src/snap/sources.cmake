# SPDX-License-Identifier: MIT
# Snapshots: the container (zlib, CRC32), the sections of a system-mode machine and those
# of a user-mode process, and
# the run loop that takes snapshots along the way (--snapshot-at).
find_package(ZLIB REQUIRED)
target_sources(hexsim_core PRIVATE
    ${CMAKE_CURRENT_LIST_DIR}/snap_file.c
    ${CMAKE_CURRENT_LIST_DIR}/snap_machine.c
    ${CMAKE_CURRENT_LIST_DIR}/snap_timing.c
    ${CMAKE_CURRENT_LIST_DIR}/snap_user.c
    ${CMAKE_CURRENT_LIST_DIR}/snap_run.c)
target_link_libraries(hexsim_core PUBLIC ZLIB::ZLIB)
