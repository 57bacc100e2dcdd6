// SPDX-License-Identifier: MIT
// The default kernel and root file system (data_paths.h). The cache layout is that of
// guest/linux/build.sh ($HEXSIM_CACHE/linux/build/vmlinux); `cmake --install` copies the
// kernel and rootfs.cpio, when they were built, to PREFIX/share/hexsim (src/CMakeLists.txt),
// found here from the program's own path (/proc/self/exe), so an install can be moved.
// HEXSIM_DEFAULT_ROOTFS is the build tree's rootfs.cpio, compiled in.
#include "cli/data_paths.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

// PREFIX/share/hexsim/name for the PREFIX/bin the program runs from; false if unknown.
static bool share_path(char *buf, size_t len, const char *name)
{
    char exe[4096];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n <= 0)
        return false;
    exe[n] = '\0';
    char *slash = strrchr(exe, '/');          // PREFIX/bin/hexsim -> PREFIX/bin
    if (!slash)
        return false;
    *slash = '\0';
    slash = strrchr(exe, '/');                // -> PREFIX
    if (!slash)
        return false;
    *slash = '\0';
    return snprintf(buf, len, "%s/share/hexsim/%s", exe, name) < (int)len;
}

int cli_find_kernel(char *buf, size_t len, char *tried, size_t tried_len)
{
    const char *cache = getenv("HEXSIM_CACHE");
    const char *home = getenv("HOME");
    if (cache && *cache)
        snprintf(buf, len, "%s/linux/build/vmlinux", cache);
    else
        snprintf(buf, len, "%s/.cache/hexsim/linux/build/vmlinux", home ? home : "");
    if (access(buf, R_OK) == 0)
        return 0;
    snprintf(tried, tried_len, "%s", buf);
    char share[4096];
    if (share_path(share, sizeof share, "vmlinux")) {
        if (access(share, R_OK) == 0) {
            snprintf(buf, len, "%s", share);
            return 0;
        }
        size_t k = strlen(tried);
        snprintf(tried + k, tried_len - k, " or %s", share);
    }
    return -1;
}

void cli_find_rootfs(char *buf, size_t len)
{
    if (share_path(buf, len, "rootfs.cpio") && access(buf, R_OK) == 0)
        return;
    snprintf(buf, len, "%s", HEXSIM_DEFAULT_ROOTFS);
}
