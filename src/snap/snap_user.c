// SPDX-License-Identifier: MIT
// Snapshots of a Linux user-mode process (struct hexsim_user, src/user/user.h) in the
// container of snap_file.c. Sections:
//   config   kind (user), core version, packets run
//   process  the system call count, the getrandom state, the program
//            path, entry and auxv facts, brk and mmap state, exit flag and status, the
//            once-only syscall warnings, and the descriptor map: each guest descriptor is
//            closed or one of the host's standard input, output and error
//   cpu      struct hexsim_cpu (registers, pcycles, PKTCOUNT, LL/SC reservation)
//   maps     every mapped page: u32 page number, u32 protection (ascending)
//   mem      every mapped page that is not all zero: u32 page number, 4096 bytes
//   timing   (and caches in cache mode) the timing model's options and cache tags
//            (snap_timing.c)
//   os, threads  (once the process has used them) the threads, signal actions, masks and
//            pending signals, timers, umask (src/user/os_snap.c checks them on restore)
// Not saved, because it is rebuilt or belongs to the run: decoded packets (dropped on
// restore), the options (limits, --strace, --stats, --host-time), the host descriptors
// themselves. A process with another host file open cannot be saved: hexsim does not track
// which file a descriptor names, so the snapshot could not reopen it (the save says so).
// Nor can one that changed its current directory (a host directory, too).
// The same hexsim build must read what it wrote: a section whose size differs from this
// build's structures is refused.
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "hexsim/dev.h"
#include "snap_file.h"
#include "snap_timing.h"
#include "user/os.h"
#include "user/user.h"

struct snap_uconfig {
    uint32_t kind;            // SNAP_KIND_USER
    uint32_t arch;
    uint64_t packets;
};

struct snap_proc {
    uint64_t syscalls, rng;
    uint64_t warned_syscalls[8];
    uint32_t entry, phdr_addr, phnum, brk_start, brk_cur, mmap_next, execfn;
    int32_t exit_status;
    int8_t fd[64];            // guest descriptor -> -1 closed, 0..2 the host's stdio
    uint8_t exited, pad[7];
    char path[sizeof(((struct hexsim_user *)0)->path)];
};

// The fields that go from struct hexsim_user to struct snap_proc and back unchanged.
#define FIELD(f) { offsetof(struct hexsim_user, f), offsetof(struct snap_proc, f), \
                   sizeof(((struct snap_proc *)0)->f) }
static const struct { size_t user, snap, len; } proc_fields[] = {
    FIELD(syscalls), FIELD(rng), FIELD(warned_syscalls), FIELD(entry),
    FIELD(phdr_addr), FIELD(phnum), FIELD(brk_start), FIELD(brk_cur), FIELD(mmap_next),
    FIELD(execfn), FIELD(exit_status), FIELD(path),
};
_Static_assert(sizeof(((struct hexsim_user *)0)->exit_status) == sizeof(int32_t) &&
               sizeof(((struct hexsim_user *)0)->warned_syscalls) ==
               sizeof(((struct snap_proc *)0)->warned_syscalls), "snap_proc matches hexsim_user");
#define NFIELDS (sizeof(proc_fields) / sizeof(proc_fields[0]))

#define NFD (sizeof(((struct hexsim_user *)0)->guest_fd_map) / sizeof(int))
#define PAGE_REC (4 + HEXSIM_PAGE_SIZE)

// A growing byte buffer; on allocation failure ok turns false and stays so.
struct grow {
    uint8_t *b;
    size_t n, cap;
    bool ok;
};

static void grow_put(struct grow *g, const void *p, size_t n)
{
    if (!g->ok)
        return;
    if (g->n + n > g->cap) {
        size_t cap = g->cap ? g->cap : 1u << 16;
        while (cap < g->n + n)
            cap *= 2;
        uint8_t *nb = realloc(g->b, cap);
        if (!nb) {
            g->ok = false;
            return;
        }
        g->b = nb;
        g->cap = cap;
    }
    memcpy(g->b + g->n, p, n);
    g->n += n;
}

int hexsim_user_snapshot_save(const struct hexsim_user *u, const char *path, char *msg,
                              size_t msglen)
{
    struct snap_proc pr;
    memset(&pr, 0, sizeof(pr));
    const char *why = hexsim_user_os_unsaved(u);
    if (why) {
        snprintf(msg, msglen, "snapshot %s: not written: %s", path, why);
        return -1;
    }
    for (unsigned i = 0; i < NFD; i++) {
        int h = u->guest_fd_map[i];
        if (h > 2) {
            snprintf(msg, msglen, "snapshot %s: not written: the program has a host file open "
                     "(guest descriptor %u); a snapshot keeps only standard input, output "
                     "and error, since hexsim cannot reopen other files", path, i);
            return -1;
        }
        pr.fd[i] = (int8_t)(h < 0 ? -1 : h);
    }
    for (unsigned i = 0; i < NFIELDS; i++)
        memcpy((char *)&pr + proc_fields[i].snap, (const char *)u + proc_fields[i].user,
               proc_fields[i].len);
    pr.exited = u->exited;
    struct snap_uconfig cfg = { SNAP_KIND_USER, u->arch, u->cpu.packets };
    struct grow maps = { .ok = true }, mem = { .ok = true };
    for (uint64_t a = 0; a <= 0xffffffffu; a += HEXSIM_PAGE_SIZE) {
        if (!u->mem.l1[a >> 22]) {
            a |= (1u << 22) - HEXSIM_PAGE_SIZE;   // no table: skip its 4 MiB
            continue;
        }
        const struct hexsim_page *p = hexsim_mem_page(&u->mem, (uint32_t)a);
        if (!p)
            continue;
        uint32_t rec[2] = { (uint32_t)(a >> HEXSIM_PAGE_SHIFT), p->prot };
        grow_put(&maps, rec, sizeof(rec));
        if (!snap_page_zero(p->data)) {
            grow_put(&mem, rec, 4);
            grow_put(&mem, p->data, HEXSIM_PAGE_SIZE);
        }
    }
    struct snap_image im = { 0 };
    bool ok = maps.ok && mem.ok;
    ok = ok && snap_add(&im, "config", &cfg, sizeof(cfg)) == 0;
    ok = ok && snap_add(&im, "process", &pr, sizeof(pr)) == 0;
    ok = ok && snap_add(&im, "cpu", &u->cpu, sizeof(u->cpu)) == 0;
    ok = ok && snap_add(&im, "maps", maps.b, maps.n) == 0;
    ok = ok && snap_add(&im, "mem", mem.b, mem.n) == 0;
    struct snap_timing_view tv;
    snap_timing_of_user(&tv, u);
    ok = ok && snap_timing_save(&im, &tv) == 0;
    struct hexsim_user_os os;
    const void *threads;
    size_t tlen = hexsim_user_os_save(u, &os, &threads);
    ok = ok && (!tlen || (snap_add(&im, "os", &os, sizeof(os)) == 0 &&
                          snap_add(&im, "threads", threads, tlen) == 0));
    free(maps.b);
    free(mem.b);
    return snap_finish(&im, ok, path, msg, msglen);
}

static uint32_t rd32(const uint8_t *p)
{
    uint32_t v;
    memcpy(&v, p, 4);
    return v;
}

// The same program: the same file (or, when either cannot be found now, the same name).
static bool same_file(const char *a, const char *b)
{
    struct stat sa, sb;
    if (stat(a, &sa) == 0 && stat(b, &sb) == 0)
        return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
    return strcmp(a, b) == 0;
}

// Checks the process, maps and mem sections against each other; 0 or -1 with a message.
static int check(const char *path, const struct snap_proc *pr, const struct snap_section *sm,
                 const struct snap_section *sd, char *msg, size_t msglen)
{
    const char *why = NULL;
    for (unsigned i = 0; i < NFD && !why; i++)
        if (pr->fd[i] < -1 || pr->fd[i] > 2)
            why = "section process: a descriptor that is not standard input, output or error";
    if (!why && (pr->exit_status < 0 || pr->exit_status > 255 || pr->exited > 1))
        why = "section process: impossible exit state";
    if (!why && memchr(pr->path, 0, sizeof(pr->path)) == NULL)
        why = "section process: the program path is not terminated";
    if (!why && (sm->len % 8 || sd->len % PAGE_REC))
        why = "section maps or mem: not whole records";
    // both lists ascending without repeats, and every saved page mapped
    size_t j = 0;
    for (size_t i = 0; !why && i < sm->len; i += 8) {
        uint32_t pn = rd32(sm->data + i), prot = rd32(sm->data + i + 4);
        if (pn > 0xfffff || prot > 7 || (i && pn <= rd32(sm->data + i - 8)))
            why = "section maps: a page out of order, outside 4 GiB or with bad protection";
        else if (j < sd->len && rd32(sd->data + j) == pn)
            j += PAGE_REC;
        else if (j < sd->len && rd32(sd->data + j) < pn)
            why = "section mem: a page that is not mapped, or out of order";
    }
    if (!why && j != sd->len)
        why = "section mem: a page that is not mapped, or out of order";
    if (why) {
        snprintf(msg, msglen, "snapshot %s: %s", path, why);
        return -1;
    }
    return 0;
}

// The address space of the sections in mem (fresh; its limit max_pages): runs of pages
// with the same protection are mapped at once, then the saved pages copied in.
static int build_mem(struct hexsim_mem *mem, const struct snap_section *sm,
                     const struct snap_section *sd)
{
    for (size_t i = 0; i < sm->len;) {
        uint32_t pn = rd32(sm->data + i), prot = rd32(sm->data + i + 4);
        size_t k = i + 8;
        while (k < sm->len && rd32(sm->data + k) == pn + (k - i) / 8 &&
               rd32(sm->data + k + 4) == prot)
            k += 8;
        if (hexsim_mem_map(mem, pn << HEXSIM_PAGE_SHIFT, (uint64_t)(k - i) / 8 *
                           HEXSIM_PAGE_SIZE, prot))
            return -1;
        i = k;
    }
    for (size_t j = 0; j < sd->len; j += PAGE_REC)
        if (hexsim_mem_copy_in(mem, rd32(sd->data + j) << HEXSIM_PAGE_SHIFT, sd->data + j + 4,
                               HEXSIM_PAGE_SIZE, true, NULL))
            return -1;
    return 0;
}

int hexsim_user_snapshot_restore(struct hexsim_user *u, const char *path, bool same_program,
                                 char *msg, size_t msglen)
{
    struct snap_image im;
    if (snap_read(&im, path, msg, msglen))
        return -1;
    int rc = -1;
    struct snap_uconfig cfg;
    struct snap_proc pr;
    struct hexsim_mem mem;
    hexsim_mem_init(&mem);
    mem.max_pages = u->mem.max_pages;
    if (snap_config(&im, path, SNAP_KIND_USER, &cfg, sizeof(cfg), msg, msglen))
        goto out;
    const struct snap_section *sp = snap_need(&im, path, "process", sizeof(pr), msg, msglen);
    const struct snap_section *sc = sp ? snap_need(&im, path, "cpu", sizeof(u->cpu), msg,
                                                   msglen) : NULL;
    const struct snap_section *sm = sc ? snap_need(&im, path, "maps", 0, msg, msglen) : NULL;
    const struct snap_section *sd = sm ? snap_need(&im, path, "mem", 0, msg, msglen) : NULL;
    if (!sd)
        goto out;
    if (hexsim_user_make_caches(u)) {
        snprintf(msg, msglen, "snapshot %s: out of memory for the caches", path);
        goto out;
    }
    struct snap_timing_view tv;
    snap_timing_of_user(&tv, u);
    if (snap_timing_check(&im, &tv, path, msg, msglen))
        goto out;
    const struct snap_section *so = snap_get(&im, "os"), *st = snap_get(&im, "threads");
    unsigned nsec = 5 + snap_timing_sections(&tv) + (so ? 1 : 0) + (st ? 1 : 0);
    if (im.n != nsec) {
        snprintf(msg, msglen, "snapshot %s: %u sections, this user-mode snapshot should have "
                 "%u", path, im.n, nsec);
        goto out;
    }
    memcpy(&pr, sp->data, sizeof(pr));
    if (check(path, &pr, sm, sd, msg, msglen))
        goto out;
    if (same_program && (cfg.arch != u->arch || !same_file(pr.path, u->path))) {
        snprintf(msg, msglen, "snapshot %s: taken of %s (v%u), this process runs %s (v%u): "
                 "not loaded", path, pr.path, cfg.arch, u->path, u->arch);
        goto out;
    }
    struct hexsim_user_os *os = NULL;
    if (so || st) {
        const char *why = "section os or threads missing";
        if (!so || !st || !(os = hexsim_user_os_load(so->data, so->len, st->data, st->len,
                                                      &why))) {
            snprintf(msg, msglen, "snapshot %s: %s", path, why);
            goto out;
        }
    }
    if (build_mem(&mem, sm, sd)) {
        hexsim_user_os_free_state(os);
        snprintf(msg, msglen, "snapshot %s: out of memory for its %zu pages", path,
                 sm->len / 8);
        goto out;
    }
    // Everything checked and built: replace the process.
    hexsim_user_os_free(u);
    u->os = os;
    mem.code_gen = u->mem.code_gen + 1;     // decoded packets of the old image are stale
    hexsim_mem_free(&u->mem);
    u->mem = mem;
    hexsim_mem_init(&mem);
    memcpy(&u->cpu, sc->data, sizeof(u->cpu));
    HEXSIM_RESTORE_BOOL(&u->cpu, sc->data, struct hexsim_cpu, reserved);
    hexsim_timing_state_check(&u->cpu.tm);
    snap_timing_apply(&im, &tv);
    u->arch = cfg.arch;
    for (unsigned i = 0; i < NFIELDS; i++)
        memcpy((char *)u + proc_fields[i].user, (const char *)&pr + proc_fields[i].snap,
               proc_fields[i].len);
    u->exited = pr.exited;
    for (unsigned i = 0; i < NFD; i++) {
        if (u->guest_fd_map[i] > 2)         // loadvm: the old process's own host files
            close(u->guest_fd_map[i]);
        u->guest_fd_map[i] = pr.fd[i];
    }
    if (!u->err)
        u->err = stderr;
    rc = 0;
out:
    hexsim_mem_free(&mem);
    snap_free(&im);
    return rc;
}
