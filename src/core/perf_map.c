// SPDX-License-Identifier: MIT
// --perf-map (perf_map.h): /tmp/perf-PID.map lines for compiled blocks, named from the
// guest program's ELF symbols (debug/symtab.h, as --profile names functions).
#include <fcntl.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/perf_map.h"
#include "debug/symtab.h"

struct hexsim_perf_map {
    struct hexsim_symtab st;
    bool have_syms;
    char dir[256];
    int fd;          // the map of host process pid, or -1: not made yet
    pid_t pid;
    bool failed;     // it could not be written (said once)
};

struct hexsim_perf_map *hexsim_perf_map_new(const char *elf, const char *dir)
{
    struct hexsim_perf_map *pm = calloc(1, sizeof(*pm));
    if (!pm)
        return NULL;
    pm->have_syms = elf && hexsim_symtab_load(&pm->st, elf) == 0 && pm->st.n > 0;
    snprintf(pm->dir, sizeof pm->dir, "%s", dir ? dir : "/tmp");
    pm->fd = -1;
    return pm;
}

void hexsim_perf_map_free(struct hexsim_perf_map *pm)
{
    if (!pm)
        return;
    if (pm->fd >= 0)
        close(pm->fd);
    hexsim_symtab_free(&pm->st);
    free(pm);
}

// The map of this host process, made (emptied) on its first block: a forked child, which
// has the parent's descriptor, makes its own.
static int map_fd(struct hexsim_perf_map *pm)
{
    pid_t me = getpid();
    if (pm->fd >= 0 && pm->pid == me)
        return pm->fd;
    if (pm->fd >= 0)
        close(pm->fd);
    char path[300];
    snprintf(path, sizeof path, "%s/perf-%d.map", pm->dir, (int)me);
    pm->fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_APPEND | O_CLOEXEC, 0644);
    pm->pid = me;
    if (pm->fd < 0 && !pm->failed) {
        fprintf(stderr, "hexsim: --perf-map: cannot write %s\n", path);
        pm->failed = true;
    }
    return pm->fd;
}

void hexsim_perf_map_block(void *ctx, uint32_t addr, const void *code, size_t size)
{
    struct hexsim_perf_map *pm = ctx;
    if (pm->failed || !size)
        return;
    int fd = map_fd(pm);
    if (fd < 0)
        return;
    const struct hexsim_sym *s = pm->have_syms ? hexsim_symtab_lookup(&pm->st, addr) : NULL;
    char line[512];
    int n;
    if (s)
        n = snprintf(line, sizeof line, "%" PRIxPTR " %zx %s+0x%" PRIx32 " [0x%08" PRIx32 "]\n",
                     (uintptr_t)code, size, s->name, addr - s->addr, addr);
    else
        n = snprintf(line, sizeof line, "%" PRIxPTR " %zx [0x%08" PRIx32 "]\n", (uintptr_t)code,
                     size, addr);
    if (n < 0)
        return;
    if (n > (int)sizeof line - 1) {   // a very long name: cut, the line still ends
        n = (int)sizeof line - 1;
        line[n - 1] = '\n';
    }
    // one write per line (O_APPEND): the map is whole whenever the process ends
    if (write(fd, line, (size_t)n) != n && !pm->failed) {
        fprintf(stderr, "hexsim: --perf-map: cannot write the map\n");
        pm->failed = true;
    }
}
