// SPDX-License-Identifier: MIT
// Shared pieces of the user-mode fuzz targets: a fresh process without an ELF and the
// sandbox its system calls run in. The sandbox: path system calls are refused
// (opts.no_host_paths), and the guest's descriptors 0-4 lead only to /dev/null (0 reads,
// 1 and 2 write), a scratch file (3) and the scratch directory holding it (4), both made
// by mkdtemp at start-up and removed at exit. The scratch file is reset for every input, so
// runs are reproducible; a guest close() closes only these duplicates.
#ifndef HEXSIM_FUZZ_USER_H
#define HEXSIM_FUZZ_USER_H

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "user/user.h"

// Guest memory per input, in pages: mapping is most of an input's cost, so targets cap it
// low (4 MiB; the ELF target needs 8 MiB more for the Linux stack), far below the RSS limit.
#define FUZZ_MAX_PAGES 1024u

struct fuzz_sandbox {
    FILE *devnull;            // diagnostics go here
    int null_rd, null_wr, file, dir;
    char dir_path[64], file_path[96];
};

static struct fuzz_sandbox fuzz_sb;   // fuzz harness state, not library state

static inline void fuzz_sandbox_cleanup(void)
{
    if (fuzz_sb.file_path[0])
        unlink(fuzz_sb.file_path);
    if (fuzz_sb.dir_path[0])
        rmdir(fuzz_sb.dir_path);
}

static inline void fuzz_sandbox_init(void)
{
    if (fuzz_sb.devnull)
        return;
    const char *tmp = getenv("TMPDIR");
    snprintf(fuzz_sb.dir_path, sizeof fuzz_sb.dir_path, "%s/hexsim-fuzz-XXXXXX",
             tmp && *tmp && strlen(tmp) < 40 ? tmp : "/tmp");
    if (!mkdtemp(fuzz_sb.dir_path)) {
        perror("fuzz: mkdtemp");
        abort();
    }
    snprintf(fuzz_sb.file_path, sizeof fuzz_sb.file_path, "%s/scratch", fuzz_sb.dir_path);
    atexit(fuzz_sandbox_cleanup);
    fuzz_sb.devnull = fopen("/dev/null", "w");
    fuzz_sb.null_rd = open("/dev/null", O_RDONLY);
    fuzz_sb.null_wr = open("/dev/null", O_WRONLY);
    fuzz_sb.file = open(fuzz_sb.file_path, O_RDWR | O_CREAT | O_TRUNC, 0600);
    fuzz_sb.dir = open(fuzz_sb.dir_path, O_RDONLY | O_DIRECTORY);
    if (!fuzz_sb.devnull || fuzz_sb.null_rd < 0 || fuzz_sb.null_wr < 0 || fuzz_sb.file < 0 ||
        fuzz_sb.dir < 0) {
        perror("fuzz: sandbox");
        abort();
    }
}

// A fresh process: empty memory (capped at max_pages), zero registers, sandboxed
// descriptors, diagnostics to /dev/null. The caller maps memory and sets u->arch.
static inline void fuzz_user_init(struct hexsim_user *u, size_t max_pages)
{
    fuzz_sandbox_init();
    memset(u, 0, sizeof *u);
    hexsim_mem_init(&u->mem);
    u->mem.max_pages = max_pages;
    u->err = fuzz_sb.devnull;
    u->opts.no_host_paths = true;
    u->arch = 68;
    u->mmap_next = HEXSIM_USER_MMAP_BASE;
    snprintf(u->path, sizeof u->path, "fuzz");
    static const char seed[] = "hexsim fuzz scratch file\n";
    if (ftruncate(fuzz_sb.file, 0) || pwrite(fuzz_sb.file, seed, sizeof seed - 1, 0) < 0)
        abort();
    for (unsigned i = 0; i < 64; i++)
        u->guest_fd_map[i] = -1;
    u->guest_fd_map[0] = dup(fuzz_sb.null_rd);
    u->guest_fd_map[1] = dup(fuzz_sb.null_wr);
    u->guest_fd_map[2] = dup(fuzz_sb.null_wr);
    u->guest_fd_map[3] = dup(fuzz_sb.file);   // shares the offset: reset it
    u->guest_fd_map[4] = dup(fuzz_sb.dir);
    lseek(fuzz_sb.file, 0, SEEK_SET);
    lseek(fuzz_sb.dir, 0, SEEK_SET);   // the directory's read position too
}

// The run-loop state for u, allocated once and reused (its decoded-packet cache is 1.4 MiB:
// allocating it per input would cost more than running the input). Each input starts with
// a code generation no earlier input had, so none of their cached packets survive.
static inline struct hexsim_user_exec *fuzz_user_exec(struct hexsim_user *u)
{
    static struct hexsim_user_exec x;
    static bool ready;
    static uint64_t inputs;
    if (!ready) {
        if (hexsim_user_exec_init(u, &x))
            abort();
        ready = true;
    }
    u->mem.code_gen = ++inputs << 32;   // fewer than 2^32 code writes per input
    x.env.cpu = &u->cpu;
    x.env.mem = &u->mem;
    x.env.arch = u->arch;
    x.env.user_mode = 1;
    x.env.trace = NULL;
    return &x;
}

static inline void fuzz_user_free(struct hexsim_user *u)
{
    for (unsigned i = 0; i < 64; i++)
        if (u->guest_fd_map[i] > 2)
            close(u->guest_fd_map[i]);
    hexsim_user_free(u);
}

#endif
