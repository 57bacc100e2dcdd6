# SPDX-License-Identifier: MIT
# System mode: the HVM (trap1 calls, events, guest MMU, vmintop interrupt controller, angel
# calls, run loop, machine), the MMIO bus and devices, host backends, the kernel loader.
target_sources(hexsim_core PRIVATE
    ${CMAKE_CURRENT_LIST_DIR}/angel.c
    ${CMAKE_CURRENT_LIST_DIR}/dbg_info.c
    ${CMAKE_CURRENT_LIST_DIR}/dbg_target.c
    ${CMAKE_CURRENT_LIST_DIR}/hvm.c
    ${CMAKE_CURRENT_LIST_DIR}/intc.c
    ${CMAKE_CURRENT_LIST_DIR}/machine.c
    ${CMAKE_CURRENT_LIST_DIR}/mmu.c
    ${CMAKE_CURRENT_LIST_DIR}/prof_task.c
    ${CMAKE_CURRENT_LIST_DIR}/run.c
    ${CMAKE_CURRENT_LIST_DIR}/run_jit.c
    ${CMAKE_CURRENT_LIST_DIR}/stats.c
    ${CMAKE_CURRENT_SOURCE_DIR}/devices/bus.c
    ${CMAKE_CURRENT_SOURCE_DIR}/devices/comet/clk_ctl.c
    ${CMAKE_CURRENT_SOURCE_DIR}/devices/comet/msm_uart.c
    ${CMAKE_CURRENT_SOURCE_DIR}/devices/comet/rtos_timer.c
    ${CMAKE_CURRENT_SOURCE_DIR}/devices/comet/sirc.c
    ${CMAKE_CURRENT_SOURCE_DIR}/devices/comet/smsc911x.c
    ${CMAKE_CURRENT_SOURCE_DIR}/devices/comet/virtio_blk.c
    ${CMAKE_CURRENT_SOURCE_DIR}/devices/comet/virtio_blk_image.c
    ${CMAKE_CURRENT_SOURCE_DIR}/devices/comet/virtio_blk_opts.c
    ${CMAKE_CURRENT_SOURCE_DIR}/devices/comet/virtio_9p.c
    ${CMAKE_CURRENT_SOURCE_DIR}/devices/comet/virtio_9p_opts.c
    ${CMAKE_CURRENT_SOURCE_DIR}/devices/p9/p9_dir.c
    ${CMAKE_CURRENT_SOURCE_DIR}/devices/p9/p9_fid.c
    ${CMAKE_CURRENT_SOURCE_DIR}/devices/p9/p9_file.c
    ${CMAKE_CURRENT_SOURCE_DIR}/devices/p9/p9_server.c
    ${CMAKE_CURRENT_SOURCE_DIR}/devices/p9/p9_wire.c
    ${CMAKE_CURRENT_SOURCE_DIR}/devices/comet/virtio_mmio.c
    ${CMAKE_CURRENT_SOURCE_DIR}/devices/comet/virtio_rng.c
    ${CMAKE_CURRENT_SOURCE_DIR}/devices/host/console.c
    ${CMAKE_CURRENT_SOURCE_DIR}/devices/host/net.c
    ${CMAKE_CURRENT_SOURCE_DIR}/devices/host/record.c
    ${CMAKE_CURRENT_SOURCE_DIR}/devices/host/script.c
    ${CMAKE_CURRENT_SOURCE_DIR}/devices/host/terminal.c
    ${CMAKE_CURRENT_SOURCE_DIR}/loader/elf.c
    ${CMAKE_CURRENT_SOURCE_DIR}/loader/boot_env.c)
# --net user needs libslirp (Debian libslirp-dev); without it the option says so.
pkg_check_modules(SLIRP IMPORTED_TARGET slirp)
if(SLIRP_FOUND)
    target_sources(hexsim_core PRIVATE ${CMAKE_CURRENT_SOURCE_DIR}/devices/host/net_user.c)
    target_compile_definitions(hexsim_core PRIVATE HEXSIM_HAVE_SLIRP)
    target_link_libraries(hexsim_core PUBLIC PkgConfig::SLIRP)
else()
    message(STATUS "libslirp not found: hexsim --net user will be unavailable")
endif()
