// SPDX-License-Identifier: MIT
// execve and execveat of user mode: the process image is replaced in place (pid, open
// descriptors without FD_CLOEXEC, ignored signals, the mask, pending signals, interval
// timers, the current directory and umask stay; the other threads, handlers, the alternate
// stack, POSIX timers and the memory go). The new program is loaded with the ordinary
// loader into a scratch process first, so every error (ENOENT, EACCES, ENOEXEC, E2BIG,
// ELOOP, EFAULT) is returned to the caller with its image untouched. Scripts starting
// with "#!" run their interpreter as Linux's binfmt_script does (the rest of the line, if
// any, is one argument; then the script's path as given; at most 4 levels). Paths are host
// paths like every other path of user mode, relative ones from the guest's current
// directory; "/proc/self/exe" is the running program (the host's would be hexsim). An ELF
// file of another machine gives ENOEXEC with a note on stderr. Facts: Linux 6.1
// fs/exec.c (do_execveat_common, begin_new_exec: de_thread, flush_signal_handlers keeps
// SIG_IGN and clears flags and masks, exit_itimers, do_close_on_exec), fs/binfmt_script.c,
// include/uapi/linux/binfmts.h (MAX_ARG_STRLEN, BINPRM_BUF_SIZE 256).
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sys.h"

#define MAX_ARG_STRLEN (32u * HEXSIM_PAGE_SIZE)
#define ARG_BYTES_MAX (HEXSIM_USER_STACK_SIZE / 4)   // as the kernel's limit: a quarter
#define BINPRM_BUF 256
#define MAX_INTERP 4
#define AT_EMPTY_PATH_ 0x1000u

struct strv {
    char **v;      // NULL-terminated
    size_t n, cap, bytes;
};

static int strv_push(struct strv *s, const char *str)
{
    size_t len = strlen(str) + 1;
    if (s->bytes + len + 4 > ARG_BYTES_MAX)
        return -E2BIG;
    if (s->n + 2 > s->cap) {
        size_t cap = s->cap ? 2 * s->cap : 16;
        char **v = realloc(s->v, cap * sizeof(*v));
        if (!v)
            return -ENOMEM;
        s->v = v;
        s->cap = cap;
    }
    if (!(s->v[s->n] = strdup(str)))
        return -ENOMEM;
    s->v[++s->n] = NULL;
    s->bytes += len + 4;
    return 0;
}

static void strv_free(struct strv *s)
{
    for (size_t i = 0; i < s->n; i++)
        free(s->v[i]);
    free(s->v);
    memset(s, 0, sizeof(*s));
}

// A guest array of strings (NULL: none), as execve's argv and envp.
static int read_strv(struct hexsim_user *u, uint32_t addr, struct strv *s, char *buf)
{
    for (uint32_t i = 0; addr; i++) {
        uint32_t p;
        if (hx_get32(u, addr + 4 * i, &p))
            return -EFAULT;
        if (!p)
            break;
        int e = hx_copy_str(u, p, buf, MAX_ARG_STRLEN);
        if (e)
            return e == -ENAMETOOLONG ? -E2BIG : e;
        if ((e = strv_push(s, buf)))
            return e;
    }
    if (!s->v && !(s->v = calloc(1, sizeof(*s->v))))   // an empty list: just the NULL
        return -ENOMEM;
    s->cap = s->cap ? s->cap : 1;
    return 0;
}

// The host path of guest path p relative to host directory hd (AT_FDCWD: hexsim's).
static int host_path(struct hexsim_user *u, int hd, const char *p, char *out, size_t n)
{
    int k;
    if (strcmp(p, "/proc/self/exe") == 0)
        k = snprintf(out, n, "%s", u->path);
    else if (p[0] == '/' || hd == AT_FDCWD)
        k = snprintf(out, n, "%s", p);
    else {
        char link[64], dir[4096];
        snprintf(link, sizeof(link), "/proc/self/fd/%d", hd);
        ssize_t d = readlink(link, dir, sizeof(dir) - 1);
        if (d < 0)
            return -EBADF;
        dir[d] = 0;
        k = *p ? snprintf(out, n, "%s/%s", dir, p) : snprintf(out, n, "%s", dir);
    }
    return k < 0 || (size_t)k >= n ? -ENAMETOOLONG : 0;
}

static const char *machine_name(unsigned m)
{
    switch (m) {
    case 3: return "i386";
    case 40: return "ARM";
    case 62: return "x86-64";
    case 183: return "AArch64";
    case 243: return "RISC-V";
    default: return "another machine";
    }
}

// The image is replaced: t (loaded and checked) becomes the process's.
static void commit(struct hexsim_user *u, struct hexsim_user *t)
{
    uint64_t gen = u->mem.code_gen;
    size_t max_pages = u->mem.max_pages;
    hexsim_mem_free(&u->mem);
    u->mem = t->mem;
    u->mem.code_gen = gen + 1;   // every cached decode of the old image is stale
    u->mem.max_pages = max_pages;
    u->arch = t->arch;
    u->entry = t->entry;
    memcpy(u->interp, t->interp, sizeof(u->interp));
    u->interp_base = t->interp_base;
    u->interp_entry = t->interp_entry;
    u->phdr_addr = t->phdr_addr;
    u->phnum = t->phnum;
    u->brk_start = t->brk_start;
    u->brk_cur = t->brk_cur;
    u->mmap_next = HEXSIM_USER_MMAP_BASE;
    u->execfn = t->execfn;
    memcpy(u->path, t->path, sizeof(u->path));
    // registers as a new program has them; the clock and the counters go on
    memcpy(u->cpu.r, t->cpu.r, sizeof(u->cpu.r));
    memcpy(u->cpu.c, t->cpu.c, sizeof(u->cpu.c));
    memcpy(u->cpu.p, t->cpu.p, sizeof(u->cpu.p));
    u->cpu.pc = u->interp_entry ? u->interp_entry : u->entry;
    u->cpu.reserved = false;
    struct hexsim_user_os *os = u->os;
    if (os) {
        os->t[0] = os->t[os->cur];   // de_thread: the caller alone, with the process's pid
        os->n = 1;
        os->cur = 0;
        struct hx_thread *th = &os->t[0];
        th->tid = hx_getpid(u);
        th->clear_tid = 0;
        th->ss_sp = th->ss_size = 0;
        th->ss_flags = 2;   // SS_DISABLE
        th->has_saved_mask = false;
        for (unsigned i = 1; i <= HX_NSIG; i++) {
            if (os->act[i].handler != 1)   // SIG_IGN stays
                os->act[i].handler = 0;
            os->act[i].flags = 0;
            os->act[i].mask = 0;
        }
        os->vdso = 0;
        memset(os->timers, 0, sizeof(os->timers));
        os->leader_exited = false;
    }
    for (unsigned i = 0; i < HX_MAX_FDS; i++) {
        int h = u->guest_fd_map[i];
        if (h < 0)
            continue;
        int fl = fcntl(h, F_GETFD);
        if (fl >= 0 && (fl & FD_CLOEXEC)) {
            u->guest_fd_map[i] = -1;
            hx_evfd_closed(u, h);
            if (h > 2)
                close(h);
        }
    }
    u->strace_held.on = false;
    hx_proc_release_vfork(u);
    u->image++;
    u->os_resched = true;   // the run loop ends its span and takes the new image
}

// Loads file (host path; `name` as the guest gave it) with argv and envp, following "#!"
// lines; replaces the image (0) or leaves it as it was (-errno).
static int try_exec(struct hexsim_user *u, const char *name, const char *file, struct strv *argv,
                    struct strv *envp, int depth)
{
    int fd = open(file, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return -errno;
    struct stat st;
    char buf[BINPRM_BUF + 1];
    ssize_t n = 0;
    int e = fstat(fd, &st) ? -errno : !S_ISREG(st.st_mode) ? -EACCES : 0;
    if (!e && faccessat(AT_FDCWD, file, X_OK, 0))
        e = -errno;
    if (!e && (n = pread(fd, buf, BINPRM_BUF, 0)) < 0)
        e = -errno;
    close(fd);
    if (e)
        return e;
    buf[n > 0 ? n : 0] = 0;
    if (n >= 2 && buf[0] == '#' && buf[1] == '!') {
        if (depth >= MAX_INTERP)
            return -ELOOP;
        char *line = buf + 2, *nl = strchr(line, '\n');
        if (nl)
            *nl = 0;
        line += strspn(line, " \t");
        char *interp = line, *arg = line + strcspn(line, " \t");
        if (!nl && !*arg && n == BINPRM_BUF)
            return -ENOEXEC;   // the interpreter's name does not fit in the buffer
        if (*arg) {
            *arg++ = 0;
            arg += strspn(arg, " \t");
            for (size_t k = strlen(arg); k && (arg[k - 1] == ' ' || arg[k - 1] == '\t'); k--)
                arg[k - 1] = 0;
        }
        if (!*interp)
            return -ENOEXEC;
        struct strv nv = { 0 };
        e = strv_push(&nv, interp);
        if (!e && *arg)
            e = strv_push(&nv, arg);
        if (!e)
            e = strv_push(&nv, name);
        for (size_t i = 1; !e && i < argv->n; i++)
            e = strv_push(&nv, argv->v[i]);
        char ipath[4096], iname[4096];
        int hd = u->os && u->os->cwd_fd >= 0 ? u->os->cwd_fd : AT_FDCWD;
        snprintf(iname, sizeof(iname), "%s", interp);
        if (!e)   // (-L DIR: inside it first)
            e = hexsim_user_root_redirect(u, iname, sizeof(iname));
        if (!e)
            e = host_path(u, hd, iname, ipath, sizeof(ipath));
        if (!e)
            e = try_exec(u, interp, ipath, &nv, envp, depth + 1);
        strv_free(&nv);
        return e;
    }
    if (n < 20 || memcmp(buf, "\177ELF", 4) != 0)
        return -ENOEXEC;
    unsigned machine = (unsigned char)buf[18] | (unsigned char)buf[19] << 8;
    if (machine != 164) {
        fprintf(u->err, "hexsim: execve %s: an ELF program for %s (machine %u), not for "
                "Hexagon: hexsim --user runs Hexagon Linux programs only (ENOEXEC)\n", name,
                machine_name(machine), machine);
        return -ENOEXEC;
    }
    struct hexsim_user *t = calloc(1, sizeof(*t));
    if (!t)
        return -ENOMEM;
    t->opts = u->opts;
    t->err = u->err;
    hexsim_mem_init(&t->mem);
    t->mem.max_pages = u->mem.max_pages;
    snprintf(t->path, sizeof(t->path), "%s", file);
    char err[768];
    int rc = hexsim_user_load_elf(t, file, err, sizeof(err));
    if (rc == HEXSIM_USER_NO_INTERP) {   // as Linux: a missing interpreter is ENOENT
        fprintf(u->err, "hexsim: execve: %s (ENOENT)\n", err);
        e = -ENOENT;
    } else if (rc) {
        fprintf(u->err, "hexsim: execve: %s (ENOEXEC)\n", err);
        e = -ENOEXEC;
    } else if (hexsim_user_setup_stack(t, (int)argv->n, argv->v, envp->v, err, sizeof(err))) {
        e = -E2BIG;
    } else {
        commit(u, t);
        free(t);
        return 0;
    }
    hexsim_mem_free(&t->mem);
    free(t);
    return e;
}

int64_t sys_execve(struct hexsim_user *u, uint32_t dirfd, uint32_t path, uint32_t argv,
                   uint32_t envp, uint32_t flags)
{
    if (flags & ~(AT_EMPTY_PATH_ | 0x100u))   // AT_SYMLINK_NOFOLLOW
        return -EINVAL;
    char p[4096], file[4096];
    int hd;
    int e = hx_resolve_at(u, dirfd, path, p, sizeof(p), &hd);
    if (e)
        return e;
    if (!p[0] && !(flags & AT_EMPTY_PATH_))
        return -ENOENT;
    if ((e = host_path(u, hd, p, file, sizeof(file))))
        return e;
    struct strv av = { 0 }, ev = { 0 };
    char *buf = malloc(MAX_ARG_STRLEN);
    e = buf ? read_strv(u, argv, &av, buf) : -ENOMEM;
    if (!e)
        e = read_strv(u, envp, &ev, buf);
    free(buf);
    if (!e)
        e = try_exec(u, p[0] ? p : file, file, &av, &ev, 0);
    strv_free(&av);
    strv_free(&ev);
    return e ? e : HX_SYS_NORET;   // (the new program's registers are set)
}
