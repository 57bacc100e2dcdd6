# SPDX-License-Identifier: MIT
# Boot tests (label "boot"): the guest kernel (HEXSIM_VMLINUX, see tests/CMakeLists.txt) with
# the root file system of the rootfs_build fixture, booted in hexsim to a shell. Without a
# kernel they are not registered and boot_kernel_missing says so and fails: CI builds one
# (tools/test.sh), and a tree that cannot boot must not look green.
if(EXISTS "${_hexsim_vmlinux}")
    foreach(case shell panic script net net_speed)
        add_test(NAME boot_${case}
            COMMAND "${Python3_EXECUTABLE}" "${CMAKE_SOURCE_DIR}/tests/boot/boot_test.py" ${case}
                    --hexsim "$<TARGET_FILE:hexsim>" --vmlinux "${_hexsim_vmlinux}"
                    --initrd "${CMAKE_BINARY_DIR}/rootfs.cpio")
        set_tests_properties(boot_${case} PROPERTIES LABELS boot FIXTURES_REQUIRED rootfs
                             TIMEOUT 600 SKIP_RETURN_CODE 77)
    endforeach()
    # SMP (smp_test.py): --smp 6 and --smp 2 boot with 6 and 2 CPUs (count, /proc/cpuinfo,
    # nproc, taskset, IPIs, a clean boot log, no ticks on idle CPUs); --smp 4 with four
    # CPU-bound pipelines (2.5 times sooner in guest time than on one CPU), run twice (same
    # output, packets and pcycles) and restored from a snapshot in the middle of the workload
    foreach(case "count;6" "count;2" "smp4")
        set(name boot_smp4)
        if(case MATCHES "^count;")
            string(REPLACE "count;" "boot_smp" name "${case}")
        endif()
        add_test(NAME ${name}
            COMMAND "${Python3_EXECUTABLE}" "${CMAKE_SOURCE_DIR}/tests/boot/smp_test.py" ${case}
                    --hexsim "$<TARGET_FILE:hexsim>" --vmlinux "${_hexsim_vmlinux}"
                    --initrd "${CMAKE_BINARY_DIR}/rootfs.cpio")
        set_tests_properties(${name} PROPERTIES LABELS "boot;smp"
                             FIXTURES_REQUIRED rootfs TIMEOUT 1500)
    endforeach()
    # the debugger in system mode: a -x session over the boot (debug_system_test.py), and
    # (boot_debug_snap) savevm/loadvm in it and --restore FILE KERNEL --debug, and
    # (boot_debug_smp) a vCPU the guest never starts
    foreach(case uni smp snap)
        set(name boot_debug_${case})
        if(case STREQUAL "uni")
            set(name boot_debug)
        endif()
        add_test(NAME ${name}
            COMMAND "${Python3_EXECUTABLE}" "${CMAKE_SOURCE_DIR}/tests/boot/debug_system_test.py"
                    ${case} --hexsim "$<TARGET_FILE:hexsim>" --vmlinux "${_hexsim_vmlinux}"
                    --initrd "${CMAKE_BINARY_DIR}/rootfs.cpio")
        set_tests_properties(${name} PROPERTIES LABELS "boot;debug" FIXTURES_REQUIRED rootfs
                             TIMEOUT 600)
    endforeach()
    add_test(NAME boot_debug_lldb
        COMMAND "${Python3_EXECUTABLE}" "${CMAKE_SOURCE_DIR}/tests/boot/lldb_system_test.py"
                --hexsim "$<TARGET_FILE:hexsim>" --vmlinux "${_hexsim_vmlinux}"
                --initrd "${CMAKE_BINARY_DIR}/rootfs.cpio")
    set_tests_properties(boot_debug_lldb PROPERTIES LABELS "boot;debug" FIXTURES_REQUIRED rootfs
                         TIMEOUT 900 SKIP_RETURN_CODE 77)
    # issue 38: the wall clock on a terminal, the end of piped input, the entropy device,
    # refusals that need a kernel; issue 48: the guest's date and terminal size, a quiet
    # end (tests/boot/usability_test.py)
    foreach(case wall eof rng refuse snapkey dbgquit clock)
        add_test(NAME boot_usability_${case}
            COMMAND "${Python3_EXECUTABLE}" "${CMAKE_SOURCE_DIR}/tests/boot/usability_test.py"
                    ${case} --hexsim "$<TARGET_FILE:hexsim>" --vmlinux "${_hexsim_vmlinux}"
                    --initrd "${CMAKE_BINARY_DIR}/rootfs.cpio"
                    --user-prog "${CMAKE_BINARY_DIR}/rootfs/bin/busybox")
        set_tests_properties(boot_usability_${case} PROPERTIES LABELS boot
                             FIXTURES_REQUIRED rootfs TIMEOUT 600)
    endforeach()
    # issue 34: system-mode blocks give what the packet interpreter gives (workloads from
    # the shell under --no-jit, the default and --jit-threshold 1; tools/hexagon-cc)
    add_test(NAME boot_jit_equiv
        COMMAND "${Python3_EXECUTABLE}" "${CMAKE_SOURCE_DIR}/tests/boot/jit_equiv_test.py"
                --hexsim "$<TARGET_FILE:hexsim>" --vmlinux "${_hexsim_vmlinux}"
                --initrd "${CMAKE_BINARY_DIR}/rootfs.cpio")
    set_tests_properties(boot_jit_equiv PROPERTIES LABELS boot FIXTURES_REQUIRED rootfs
                         TIMEOUT 900)
    # issue 48: system-mode --profile names a guest program's code by its symbols
    # (--profile-symbols), sums pcycles per task, and --profile-range limits it
    # (profile_test.py; one boot, and a 1.5M-packet part of one)
    foreach(case symbols range)
        add_test(NAME boot_profile_${case}
            COMMAND "${Python3_EXECUTABLE}" "${CMAKE_SOURCE_DIR}/tests/boot/profile_test.py"
                    ${case} --hexsim "$<TARGET_FILE:hexsim>" --vmlinux "${_hexsim_vmlinux}"
                    --initrd "${CMAKE_BINARY_DIR}/rootfs.cpio")
        set_tests_properties(boot_profile_${case} PROPERTIES LABELS boot
                             FIXTURES_REQUIRED rootfs TIMEOUT 600)
    endforeach()
    # BusyBox's ash and vi in the guest (ash_test.py): a scripted session compared with
    # bash's output, and line editing, Ctrl-C, job control and vi on a pseudo-terminal
    foreach(case session tty)
        add_test(NAME boot_ash_${case}
            COMMAND "${Python3_EXECUTABLE}" "${CMAKE_SOURCE_DIR}/tests/boot/ash_test.py"
                    ${case} --hexsim "$<TARGET_FILE:hexsim>" --vmlinux "${_hexsim_vmlinux}"
                    --initrd "${CMAKE_BINARY_DIR}/rootfs.cpio")
        set_tests_properties(boot_ash_${case} PROPERTIES LABELS boot FIXTURES_REQUIRED rootfs
                             TIMEOUT 600)
    endforeach()
    # BusyBox's own test suite in the guest (busybox_testsuite.py; known failures with
    # their reasons in guest/busybox/testsuite-known.txt): the tests of the text, archive
    # and file tools, about 450 cases; `busybox_testsuite.py` with no applet names runs
    # them all (about 740: about 5 minutes of CPU time with a RelWithDebInfo hexsim, over
    # 10 with the sanitizer build CI uses; md5sum's and sha*sum's alone start some 2000
    # processes each).
    add_test(NAME busybox_testsuite
        COMMAND "${Python3_EXECUTABLE}" "${CMAKE_SOURCE_DIR}/tests/boot/busybox_testsuite.py"
                --hexsim "$<TARGET_FILE:hexsim>" --vmlinux "${_hexsim_vmlinux}"
                --initrd "${CMAKE_BINARY_DIR}/rootfs.cpio"
                sed grep tar cpio gzip gunzip bzcat bunzip2 find xargs diff patch sort uniq
                cut tr printf test seq od hexdump cat date cp mv tail hostname taskset)
    set_tests_properties(busybox_testsuite PROPERTIES LABELS "boot;busybox_testsuite"
                         FIXTURES_REQUIRED rootfs TIMEOUT 1800)
    # virtio disks (disk_test.py): root=/dev/vda, data kept after poweroff,
    # Ctrl-A x, --max-seconds and SIGKILL after sync, read-only drives, image locks and
    # refusals, snapshots with a disk, record/replay with a disk, dd speed (printed)
    foreach(case root ctrlax maxsec kill readonly lock snapshot replay speed)
        add_test(NAME boot_disk_${case}
            COMMAND "${Python3_EXECUTABLE}" "${CMAKE_SOURCE_DIR}/tests/boot/disk_test.py"
                    ${case} --hexsim "$<TARGET_FILE:hexsim>" --vmlinux "${_hexsim_vmlinux}"
                    --initrd "${CMAKE_BINARY_DIR}/rootfs.cpio")
        set_tests_properties(boot_disk_${case} PROPERTIES LABELS "boot;disk"
                             FIXTURES_REQUIRED rootfs TIMEOUT 600 SKIP_RETURN_CODE 77)
    endforeach()
    # shared directories (share_test.py): --share over virtio-9p: read/write/create/rename/
    # unlink/mkdir/readdir/stat/symlinks/a large file/a host-compiled program, escape
    # attempts, a read-only share, and the throughput (printed)
    foreach(case rw escape readonly speed)
        add_test(NAME boot_share_${case}
            COMMAND "${Python3_EXECUTABLE}" "${CMAKE_SOURCE_DIR}/tests/boot/share_test.py"
                    ${case} --hexsim "$<TARGET_FILE:hexsim>" --vmlinux "${_hexsim_vmlinux}"
                    --initrd "${CMAKE_BINARY_DIR}/rootfs.cpio")
        set_tests_properties(boot_share_${case} PROPERTIES LABELS "boot;share"
                             FIXTURES_REQUIRED rootfs TIMEOUT 600)
    endforeach()
    add_test(NAME boot_debug_tty
        COMMAND "${Python3_EXECUTABLE}" "${CMAKE_SOURCE_DIR}/tests/boot/debug_tty_test.py"
                --hexsim "$<TARGET_FILE:hexsim>" --vmlinux "${_hexsim_vmlinux}"
                --initrd "${CMAKE_BINARY_DIR}/rootfs.cpio")
    set_tests_properties(boot_debug_tty PROPERTIES LABELS "boot;debug" FIXTURES_REQUIRED rootfs
                         TIMEOUT 600)
endif()
# Kernel-aware debugging with the debug-info kernel (kdebug_test.py): a breakpoint on a
# function inlined in the kernel, reached from a user program's open (a condition picks
# that program), bt across the event entry into user space, the task at the stop, ps,
# dmesg, vtop (boot_kdebug_syscall); and that kernel boots with the default one's console
# output and packet count (boot_kdebug_same). Skipped (exit 77, with a message) unless
# HEXSIM_VMLINUX_DEBUG names that kernel (tools/test.sh builds it: see
# docs/guide/kernel-debugging.md for the cost).
# The rootfs's BusyBox with its symbols (guest/busybox/build.sh keeps it beside out/) names
# the user frames.
get_filename_component(_kdebug_bb "${HEXSIM_USER_BUSYBOX}" DIRECTORY)
set(_kdebug_bb "${_kdebug_bb}/../build/busybox_unstripped")
foreach(case syscall same)
    add_test(NAME boot_kdebug_${case}
        COMMAND "${Python3_EXECUTABLE}" "${CMAKE_SOURCE_DIR}/tests/boot/kdebug_test.py" ${case}
                --hexsim "$<TARGET_FILE:hexsim>" --vmlinux "${HEXSIM_VMLINUX_DEBUG}"
                --vmlinux-default "${_hexsim_vmlinux}" --initrd "${CMAKE_BINARY_DIR}/rootfs.cpio"
                --user-symbols "${_kdebug_bb}")
    set_tests_properties(boot_kdebug_${case} PROPERTIES LABELS "boot;debug;kdebug"
                         TIMEOUT 900 SKIP_RETURN_CODE 77)
    if(HEXSIM_VMLINUX_DEBUG)
        set_tests_properties(boot_kdebug_${case} PROPERTIES FIXTURES_REQUIRED rootfs)
    endif()
endforeach()
if(NOT EXISTS "${_hexsim_vmlinux}")
    add_test(NAME boot_kernel_missing
        COMMAND "${CMAKE_COMMAND}" -E echo
                "no guest kernel at ${_hexsim_vmlinux}: run guest/linux/build.sh and configure with -DHEXSIM_VMLINUX=PATH (tools/test.sh does both)")
    set_tests_properties(boot_kernel_missing PROPERTIES LABELS boot WILL_FAIL TRUE)
endif()
