# SPDX-License-Identifier: MIT
# `cmake --install BUILD [--prefix PREFIX]` (for a user: --prefix ~/.local): the programs
# hexsim and hexsim-objdump and the compiler wrapper hexagon-cc in PREFIX/bin, the man pages
# (made from the option tables, target hexsim-docs) in PREFIX/share/man/man1, the bash
# completion in PREFIX/share/bash-completion/completions (read there by bash-completion,
# one file per command name), and in PREFIX/share/hexsim the build's rootfs.cpio (target
# rootfs) and the kernel of HEXSIM_VMLINUX when they exist. An installed hexsim without
# KERNEL boots $HEXSIM_CACHE/linux/build/vmlinux (default ~/.cache/hexsim), else
# PREFIX/share/hexsim/vmlinux, with PREFIX/share/hexsim/rootfs.cpio (src/cli/data_paths.c);
# an installed hexagon-cc takes the musl sysroot from the same cache (tools/hexagon-cc).
include(GNUInstallDirs)
install(TARGETS hexsim hexsim-objdump RUNTIME DESTINATION "${CMAKE_INSTALL_BINDIR}")
install(PROGRAMS "${PROJECT_SOURCE_DIR}/tools/hexagon-cc" DESTINATION "${CMAKE_INSTALL_BINDIR}")
install(FILES "${HEXSIM_DOC_DIR}/hexsim.1" "${HEXSIM_DOC_DIR}/hexsim-objdump.1"
        DESTINATION "${CMAKE_INSTALL_MANDIR}/man1")
foreach(_cmd hexsim hexsim-objdump)
    install(FILES "${HEXSIM_DOC_DIR}/hexsim" RENAME "${_cmd}"
            DESTINATION "${CMAKE_INSTALL_DATADIR}/bash-completion/completions")
endforeach()
# (the share/hexsim path is the one data_paths.c derives from PREFIX/bin)
install(FILES "${PROJECT_BINARY_DIR}/rootfs.cpio" DESTINATION share/hexsim OPTIONAL)
if(HEXSIM_VMLINUX)
    install(FILES "${HEXSIM_VMLINUX}" RENAME vmlinux DESTINATION share/hexsim OPTIONAL)
endif()
