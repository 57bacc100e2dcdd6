// SPDX-License-Identifier: MIT
// Fuzz target: the snapshot loaders (src/snap/), then the machine or process they restore.
// Bit 1 of the first byte picks the kind:
//   0: a fresh Comet machine (16 MiB) is saved; the input damages that snapshot, which is
//      restored into a second fresh machine (hexsim_snapshot_restore), and a machine
//      restored without complaint runs up to MAX_PACKETS packets.
//   1: a small user-mode process (code, data, brk, a stack, stdio descriptors, a second
//      thread, a signal action, a blocked signal, a running timer) is saved; the
//      damaged snapshot is restored into a fresh process and, as the debugger's loadvm does,
//      into the saved process itself (hexsim_user_snapshot_restore); both must agree, and the
//      restored process runs up to MAX_PACKETS packets with its stdio led to /dev/null.
// Two ways to damage it, by bit 0 of the first byte:
//   even: the sections' contents, checksums recomputed (snap_write), so what the device
//         restore functions and the machine accept is what is tested: records of 4 bytes
//         (section index, offset low, offset high, XOR value; XOR 0 cuts the section
//         there; offsets modulo the section's length)
//   odd:  the file's bytes (records of 3 bytes: offset low, offset high + bits 16-23 of
//         the offset in the next byte, XOR value; modulo the file's size), so the checks of
//         the container are tested
// Checks: no crash or sanitizer report; a refused snapshot comes with a message; a run
// ends with a documented exit status (at the latest after 2 s of host time: a guest idling
// forever on a timer it never takes runs no packets, as a hung guest would).
#define _DEFAULT_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fuzz_machine.h"
#include "fuzz_user.h"
#include "hexsim/snapshot.h"
#include "snap/snap_file.h"

#define CHECK(c) do { if (!(c)) abort(); } while (0)
#define MAX_PACKETS 2000

static void temp_path(char *buf, size_t n, const char *what)
{
    snprintf(buf, n, "/tmp/hexsim-fuzz-snap-%d-%s", (int)getpid(), what);
}

static void damage_sections(struct snap_image *im, const uint8_t *d, size_t size)
{
    for (size_t i = 1; i + 4 <= size; i += 4) {
        struct snap_section *s = &im->sec[d[i] % im->n];
        if (!s->len)
            continue;
        size_t off = (size_t)(d[i + 1] | d[i + 2] << 8) % s->len;
        if (d[i + 3])
            s->data[off] ^= d[i + 3];
        else
            s->len = off;
    }
}

static int damage_file(const char *path, const uint8_t *d, size_t size)
{
    FILE *f = fopen(path, "r+b");
    if (!f)
        return -1;
    fseek(f, 0, SEEK_END);
    long len = ftell(f);
    for (size_t i = 1; len > 0 && i + 3 <= size; i += 3) {
        long off = (long)((uint32_t)d[i] | (uint32_t)d[i + 1] << 8 |
                          (uint32_t)(i + 3 < size ? d[i + 3] : 0) << 16) % len;
        fseek(f, off, SEEK_SET);
        int c = fgetc(f);
        fseek(f, off, SEEK_SET);
        fputc((c ^ d[i + 2]) & 0xFF, f);
    }
    fclose(f);
    return 0;
}

// good -> bad, damaged as the first byte says.
static void damage(const char *good, const char *bad, const uint8_t *data, size_t size)
{
    char msg[512];
    if (size && (data[0] & 1)) {
        rename(good, bad);
        CHECK(damage_file(bad, data, size) == 0);
    } else {
        struct snap_image im;
        CHECK(snap_read(&im, good, msg, sizeof(msg)) == 0);
        damage_sections(&im, data, size);
        CHECK(snap_write(&im, bad, msg, sizeof(msg)) == 0);
        snap_free(&im);
        unlink(good);
    }
}

#define CODE 0x10000u
#define DATA 0x20000u
#define NOP_PACKET 0x7f00c000u   // nop, end of packet

// A process with a page of nops (then a fetch fault), a data page, a brk area and a stack.
static void user_process(struct hexsim_user *u)
{
    memset(u, 0, sizeof(*u));
    hexsim_mem_init(&u->mem);
    u->mem.max_pages = FUZZ_MAX_PAGES;
    u->err = fuzz_sb.devnull;
    u->opts.no_host_paths = true;
    u->arch = 68;
    snprintf(u->path, sizeof(u->path), "fuzz");
    for (unsigned i = 0; i < 64; i++)
        u->guest_fd_map[i] = i < 3 ? (int)i : -1;
    CHECK(hexsim_mem_map(&u->mem, CODE, HEXSIM_PAGE_SIZE, HEXSIM_PROT_R | HEXSIM_PROT_X) == 0);
    CHECK(hexsim_mem_map(&u->mem, DATA, 3 * HEXSIM_PAGE_SIZE, HEXSIM_PROT_R | HEXSIM_PROT_W)
          == 0);
    CHECK(hexsim_mem_map(&u->mem, HEXSIM_USER_STACK_TOP - HEXSIM_PAGE_SIZE, HEXSIM_PAGE_SIZE,
                         HEXSIM_PROT_R | HEXSIM_PROT_W) == 0);
    for (uint32_t a = 0; a < HEXSIM_PAGE_SIZE; a += 4) {
        uint32_t w = NOP_PACKET, v = a * 2654435761u;
        CHECK(hexsim_mem_copy_in(&u->mem, CODE + a, &w, 4, true, NULL) == 0);
        CHECK(hexsim_mem_copy_in(&u->mem, DATA + a, &v, 4, true, NULL) == 0);
    }
    u->cpu.pc = u->entry = CODE;
    u->cpu.r[29] = HEXSIM_USER_STACK_TOP - 16;
    u->brk_start = DATA + HEXSIM_PAGE_SIZE;
    u->brk_cur = DATA + 3 * HEXSIM_PAGE_SIZE;
    u->mmap_next = HEXSIM_USER_MMAP_BASE;
    u->rng = 12345;
    // a second thread, a signal action, a blocked signal and a running timer, so that the
    // sections os and threads are saved (and damaged) too
    const uint32_t act = DATA + 3 * HEXSIM_PAGE_SIZE - 64, tv = act + 16, set = tv + 16;
    const uint32_t w[] = { CODE, 4, 0x800, 0,   // handler, SA_SIGINFO, mask: SIGUSR2
                           0, 1000, 0, 1000,    // itimerval: 1 ms, every 1 ms
                           0x800, 0 };          // sigset: SIGUSR2
    CHECK(hexsim_mem_copy_in(&u->mem, act, w, sizeof(w), true, NULL) == 0);
    const uint32_t calls[][5] = {
        { 134, 10, act, 0, 8 },                                   // rt_sigaction(SIGUSR1)
        { 135, 0, set, 0, 8 },                                    // rt_sigprocmask(BLOCK)
        { 220, 0x90f00, HEXSIM_USER_STACK_TOP - 256, 0, 0 },      // clone: a thread
        { 103, 0, tv, 0, 0 },                                     // setitimer(ITIMER_REAL)
    };
    for (unsigned i = 0; i < sizeof(calls) / sizeof(calls[0]); i++) {
        u->cpu.r[6] = calls[i][0];
        for (unsigned k = 0; k < 4; k++)
            u->cpu.r[k] = calls[i][k + 1];
        hexsim_user_syscall(u);
        CHECK((int32_t)u->cpu.r[0] >= 0);
    }
    u->cpu.pc = CODE;
    u->cpu.r[29] = HEXSIM_USER_STACK_TOP - 16;
}

// The restored process's stdio leads to /dev/null (never the fuzzer's own terminal).
static void sandbox_stdio(struct hexsim_user *u)
{
    for (unsigned i = 0; i < 64; i++)
        if (u->guest_fd_map[i] >= 0 && u->guest_fd_map[i] <= 2)
            u->guest_fd_map[i] = dup(u->guest_fd_map[i] ? fuzz_sb.null_wr : fuzz_sb.null_rd);
}

static void user_case(const uint8_t *data, size_t size, const char *good, const char *bad)
{
    char msg[512];
    fuzz_sandbox_init();
    struct hexsim_user *u = malloc(sizeof(*u)), *v = malloc(sizeof(*v));
    CHECK(u && v);
    user_process(u);
    CHECK(hexsim_user_snapshot_save(u, good, msg, sizeof(msg)) == 0);
    damage(good, bad, data, size);
    memset(v, 0, sizeof(*v));
    hexsim_mem_init(&v->mem);
    v->mem.max_pages = FUZZ_MAX_PAGES;
    v->err = fuzz_sb.devnull;
    v->opts.no_host_paths = true;
    msg[0] = 0;
    int fresh = hexsim_user_snapshot_restore(v, bad, false, msg, sizeof(msg));
    CHECK(fresh == 0 || msg[0]);
    msg[0] = 0;
    int loaded = hexsim_user_snapshot_restore(u, bad, true, msg, sizeof(msg));
    CHECK(loaded == 0 || msg[0]);
    if (fresh == 0 && loaded == 0)     // the same file gives the same process both ways
        CHECK(memcmp(&u->cpu, &v->cpu, sizeof(u->cpu)) == 0 && u->brk_cur == v->brk_cur &&
              u->mem.mapped_pages == v->mem.mapped_pages);
    if (fresh == 0) {
        sandbox_stdio(v);
        struct hexsim_user_exec *x = fuzz_user_exec(v);
        struct hexsim_event_info ev;
        const struct hexsim_packet *pkt;
        for (unsigned i = 0; i < MAX_PACKETS && !v->exited; i++)
            if (hexsim_user_step(v, x, &ev, &pkt) != HEXSIM_USER_STEP_OK)
                break;
    }
    fuzz_user_free(v);
    hexsim_user_free(u);
    free(u);
    free(v);
    unlink(bad);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char good[128], bad[128], msg[512];
    temp_path(good, sizeof(good), "good");
    temp_path(bad, sizeof(bad), "bad");
    if (size && (data[0] & 2)) {
        user_case(data, size, good, bad);
        return 0;
    }
    struct hexsim_chardev chr = { .write = fuzz_discard };
    struct hexsim_console con;
    struct hexsim_machine_opts o = { .serial = &chr };
    FILE *devnull;
    struct hexsim_machine *m = fuzz_machine_new(&o, &con, &devnull);
    CHECK(hexsim_snapshot_save(m, good, msg, sizeof(msg)) == 0);
    fuzz_machine_free(m, devnull);
    damage(good, bad, data, size);
    // A guest that waits forever while a timer it never takes keeps firing runs no packets:
    // like a hung guest in a real run, it is ended by host time (--max-seconds).
    o = (struct hexsim_machine_opts){ .serial = &chr, .max_packets = MAX_PACKETS,
                                      .max_seconds = 2 };
    m = fuzz_machine_new(&o, &con, &devnull);
    msg[0] = 0;
    if (hexsim_snapshot_restore(m, bad, msg, sizeof(msg)) == 0) {
        m->opts.max_packets = m->packets + MAX_PACKETS;
        int st = hexsim_machine_run(m);
        CHECK(st == HEXSIM_SYS_EXIT_OK || st == HEXSIM_SYS_EXIT_ERROR ||
              st == HEXSIM_SYS_EXIT_GUEST_FAIL || st == HEXSIM_SYS_EXIT_LIMIT);
    } else {
        CHECK(msg[0]);
    }
    fuzz_machine_free(m, devnull);
    unlink(bad);
    return 0;
}
