# SPDX-License-Identifier: MIT
# Linux user mode (hexsim --user): ELF loader (libelf), initial stack, system calls, run loop,
# threads, signals and timers, processes (fork, execve, wait), debugger target.
target_sources(hexsim_core PRIVATE
    ${CMAKE_CURRENT_LIST_DIR}/elf_load.c
    ${CMAKE_CURRENT_LIST_DIR}/interp.c
    ${CMAKE_CURRENT_LIST_DIR}/stack.c
    ${CMAKE_CURRENT_LIST_DIR}/syscall.c
    ${CMAKE_CURRENT_LIST_DIR}/guest_io.c
    ${CMAKE_CURRENT_LIST_DIR}/sys_fs.c
    ${CMAKE_CURRENT_LIST_DIR}/sys_misc.c
    ${CMAKE_CURRENT_LIST_DIR}/sys_socket.c
    ${CMAKE_CURRENT_LIST_DIR}/sys_event.c
    ${CMAKE_CURRENT_LIST_DIR}/thread.c
    ${CMAKE_CURRENT_LIST_DIR}/process.c
    ${CMAKE_CURRENT_LIST_DIR}/exec.c
    ${CMAKE_CURRENT_LIST_DIR}/signal.c
    ${CMAKE_CURRENT_LIST_DIR}/timer.c
    ${CMAKE_CURRENT_LIST_DIR}/sysnames.c
    ${CMAKE_CURRENT_LIST_DIR}/strace.c
    ${CMAKE_CURRENT_LIST_DIR}/strace_errno.c
    ${CMAKE_CURRENT_LIST_DIR}/os_snap.c
    ${CMAKE_CURRENT_LIST_DIR}/run.c
    ${CMAKE_CURRENT_LIST_DIR}/fault_report.c
    ${CMAKE_CURRENT_LIST_DIR}/dbg_target.c)
