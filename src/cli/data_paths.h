// SPDX-License-Identifier: MIT
// Where hexsim finds the project's kernel and root file system when no KERNEL is given:
// the cache guest/linux/build.sh fills ($HEXSIM_CACHE, default ~/.cache/hexsim), the
// install's share/hexsim (next to the bin/ the program runs from), and the build tree.
#ifndef HEXSIM_CLI_DATA_PATHS_H
#define HEXSIM_CLI_DATA_PATHS_H

#include <stddef.h>

// The kernel to boot into buf; 0, or -1 with the places looked at in tried.
int cli_find_kernel(char *buf, size_t len, char *tried, size_t tried_len);
// The root file system into buf (the install's if it has one, else this build's; the
// caller says when it cannot be read).
void cli_find_rootfs(char *buf, size_t len);

#endif
