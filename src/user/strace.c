// SPDX-License-Identifier: MIT
// --strace: each system call as strace prints it: the name, the arguments decoded by the
// kinds of the call table in syscall.c (descriptors in decimal, pointers in hex, strings
// quoted and escaped, at most 32 bytes of a buffer then "...", flags by name, small
// structures by field), the result with its errno name, output buffers as the call left
// them; "<unfinished ...>" and "<... NAME resumed>" around waits that other threads'
// lines interrupt, "[pid N]" while the process has more than one thread, signals as
// "--- SIGx {...} ---" and the end as "+++ exited with N +++" / "+++ killed by SIGx +++".
// Flag and structure values: Linux 6.1 include/uapi/asm-generic (fcntl.h, mman-common.h,
// mman.h, signal.h, siginfo.h, stat.h), include/uapi/linux (fcntl.h, sched.h, futex.h,
// time.h). Guest memory is read only through the checked accessors: an unreadable
// argument prints as its address.
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "sys.h"

#define STR_MAX 32       // bytes of a buffer shown (strace's default -s 32)
#define PATH_MAX_ 4096   // a path is shown whole, as strace does
#define IOV_MAX_SHOWN 16

struct line {
    char s[1024];
    size_t n;
};

static void out(struct line *l, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void out(struct line *l, const char *fmt, ...)
{
    if (l->n >= sizeof(l->s) - 1)
        return;
    va_list ap;
    va_start(ap, fmt);
    int k = vsnprintf(l->s + l->n, sizeof(l->s) - l->n, fmt, ap);
    va_end(ap);
    if (k > 0)
        l->n = l->n + (size_t)k < sizeof(l->s) ? l->n + (size_t)k : sizeof(l->s) - 1;
}

struct flag {
    uint32_t v;
    const char *name;
};
#define N(t) (sizeof(t) / sizeof((t)[0]))

// Names of the bits of v (an entry of several bits only when all are set), then what is
// left in hex; "0" when nothing is.
static void flags(struct line *l, uint32_t v, const struct flag *t, size_t n, bool first)
{
    for (size_t i = 0; i < n; i++)
        if ((v & t[i].v) == t[i].v && t[i].v) {
            out(l, "%s%s", first ? "" : "|", t[i].name);
            first = false;
            v &= ~t[i].v;
        }
    if (v || first)
        out(l, first ? "%#x" : "|%#x", v);
}

static const char *lookup(uint32_t v, const struct flag *t, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (t[i].v == v)
            return t[i].name;
    return NULL;
}

static const struct flag open_flags[] = {
    { 04010000, "O_SYNC" }, { 020200000, "O_TMPFILE" }, { 0100, "O_CREAT" },
    { 0200, "O_EXCL" }, { 0400, "O_NOCTTY" }, { 01000, "O_TRUNC" }, { 02000, "O_APPEND" },
    { 04000, "O_NONBLOCK" }, { 010000, "O_DSYNC" }, { 020000, "O_ASYNC" },
    { 040000, "O_DIRECT" }, { 0100000, "O_LARGEFILE" }, { 0200000, "O_DIRECTORY" },
    { 0400000, "O_NOFOLLOW" }, { 01000000, "O_NOATIME" }, { 02000000, "O_CLOEXEC" },
    { 010000000, "O_PATH" },
};
static const struct flag prot_flags[] = {
    { 1, "PROT_READ" }, { 2, "PROT_WRITE" }, { 4, "PROT_EXEC" }, { 8, "PROT_SEM" },
    { 0x01000000, "PROT_GROWSDOWN" }, { 0x02000000, "PROT_GROWSUP" },
};
static const struct flag map_flags[] = {
    { 0x10, "MAP_FIXED" }, { 0x20, "MAP_ANONYMOUS" }, { 0x100, "MAP_GROWSDOWN" },
    { 0x800, "MAP_DENYWRITE" }, { 0x1000, "MAP_EXECUTABLE" }, { 0x2000, "MAP_LOCKED" },
    { 0x4000, "MAP_NORESERVE" }, { 0x8000, "MAP_POPULATE" }, { 0x10000, "MAP_NONBLOCK" },
    { 0x20000, "MAP_STACK" }, { 0x40000, "MAP_HUGETLB" }, { 0x80000, "MAP_SYNC" },
    { 0x100000, "MAP_FIXED_NOREPLACE" }, { 0x4000000, "MAP_UNINITIALIZED" },
};
static const struct flag at_flags[] = {
    { 0x100, "AT_SYMLINK_NOFOLLOW" }, { 0x200, "AT_REMOVEDIR" }, { 0x400, "AT_SYMLINK_FOLLOW" },
    { 0x800, "AT_NO_AUTOMOUNT" }, { 0x1000, "AT_EMPTY_PATH" },
};
static const struct flag wait_flags[] = {   // include/uapi/linux/wait.h
    { 1, "WNOHANG" }, { 2, "WSTOPPED" }, { 4, "WEXITED" }, { 8, "WCONTINUED" },
    { 0x01000000, "WNOWAIT" }, { 0x20000000, "__WNOTHREAD" }, { 0x40000000, "__WALL" },
    { 0x80000000, "__WCLONE" },
};
static const struct flag clone_flags[] = {
    { 0x100, "CLONE_VM" }, { 0x200, "CLONE_FS" }, { 0x400, "CLONE_FILES" },
    { 0x800, "CLONE_SIGHAND" }, { 0x1000, "CLONE_PIDFD" }, { 0x2000, "CLONE_PTRACE" },
    { 0x4000, "CLONE_VFORK" }, { 0x8000, "CLONE_PARENT" }, { 0x10000, "CLONE_THREAD" },
    { 0x20000, "CLONE_NEWNS" }, { 0x40000, "CLONE_SYSVSEM" }, { 0x80000, "CLONE_SETTLS" },
    { 0x100000, "CLONE_PARENT_SETTID" }, { 0x200000, "CLONE_CHILD_CLEARTID" },
    { 0x400000, "CLONE_DETACHED" }, { 0x800000, "CLONE_UNTRACED" },
    { 0x1000000, "CLONE_CHILD_SETTID" }, { 0x2000000, "CLONE_NEWCGROUP" },
    { 0x4000000, "CLONE_NEWUTS" }, { 0x8000000, "CLONE_NEWIPC" },
    { 0x10000000, "CLONE_NEWUSER" }, { 0x20000000, "CLONE_NEWPID" },
    { 0x40000000, "CLONE_NEWNET" }, { 0x80000000, "CLONE_IO" },
};
static const struct flag sa_flags[] = {
    { 1, "SA_NOCLDSTOP" }, { 2, "SA_NOCLDWAIT" }, { 4, "SA_SIGINFO" },
    { 0x04000000, "SA_RESTORER" }, { 0x08000000, "SA_ONSTACK" }, { 0x10000000, "SA_RESTART" },
    { 0x40000000, "SA_NODEFER" }, { 0x80000000, "SA_RESETHAND" },
};
static const struct flag access_flags[] = { { 4, "R_OK" }, { 2, "W_OK" }, { 1, "X_OK" } };
static const struct flag futex_ops[] = {
    { 0, "FUTEX_WAIT" }, { 1, "FUTEX_WAKE" }, { 2, "FUTEX_FD" }, { 3, "FUTEX_REQUEUE" },
    { 4, "FUTEX_CMP_REQUEUE" }, { 5, "FUTEX_WAKE_OP" }, { 6, "FUTEX_LOCK_PI" },
    { 7, "FUTEX_UNLOCK_PI" }, { 8, "FUTEX_TRYLOCK_PI" }, { 9, "FUTEX_WAIT_BITSET" },
    { 10, "FUTEX_WAKE_BITSET" }, { 11, "FUTEX_WAIT_REQUEUE_PI" },
    { 12, "FUTEX_CMP_REQUEUE_PI" }, { 13, "FUTEX_LOCK_PI2" },
};
static const struct flag clocks[] = {
    { 0, "CLOCK_REALTIME" }, { 1, "CLOCK_MONOTONIC" }, { 2, "CLOCK_PROCESS_CPUTIME_ID" },
    { 3, "CLOCK_THREAD_CPUTIME_ID" }, { 4, "CLOCK_MONOTONIC_RAW" },
    { 5, "CLOCK_REALTIME_COARSE" }, { 6, "CLOCK_MONOTONIC_COARSE" }, { 7, "CLOCK_BOOTTIME" },
    { 8, "CLOCK_REALTIME_ALARM" }, { 9, "CLOCK_BOOTTIME_ALARM" }, { 11, "CLOCK_TAI" },
};
static const struct flag fcntl_cmds[] = {
    { 0, "F_DUPFD" }, { 1, "F_GETFD" }, { 2, "F_SETFD" }, { 3, "F_GETFL" }, { 4, "F_SETFL" },
    { 5, "F_GETLK" }, { 6, "F_SETLK" }, { 7, "F_SETLKW" }, { 8, "F_SETOWN" },
    { 9, "F_GETOWN" }, { 12, "F_GETLK64" }, { 13, "F_SETLK64" }, { 14, "F_SETLKW64" },
    { 1030, "F_DUPFD_CLOEXEC" }, { 1031, "F_SETPIPE_SZ" }, { 1032, "F_GETPIPE_SZ" },
};
static const struct flag ioctls[] = {   // asm-generic/ioctls.h
    { 0x5401, "TCGETS" }, { 0x5402, "TCSETS" }, { 0x5403, "TCSETSW" }, { 0x5404, "TCSETSF" },
    { 0x540f, "TIOCGPGRP" }, { 0x5410, "TIOCSPGRP" }, { 0x5413, "TIOCGWINSZ" },
    { 0x5414, "TIOCSWINSZ" }, { 0x541b, "FIONREAD" }, { 0x5421, "FIONBIO" },
};
static const struct flag hows[] = {
    { 0, "SIG_BLOCK" }, { 1, "SIG_UNBLOCK" }, { 2, "SIG_SETMASK" },
};
static const struct flag whences[] = {
    { 0, "SEEK_SET" }, { 1, "SEEK_CUR" }, { 2, "SEEK_END" }, { 3, "SEEK_DATA" }, { 4, "SEEK_HOLE" },
};

static void named(struct line *l, uint32_t v, const struct flag *t, size_t n, bool hex)
{
    const char *s = lookup(v, t, n);
    if (s)
        out(l, "%s", s);
    else
        out(l, hex ? "%#x" : "%d", v);
}

static void ptr(struct line *l, uint32_t p)
{
    out(l, p ? "%#x" : "NULL", p);
}

// A C string literal of b[0..n), "..." after it when there was more.
static void quoted(struct line *l, const uint8_t *b, size_t n, bool more)
{
    out(l, "\"");
    for (size_t i = 0; i < n; i++) {
        uint8_t c = b[i];
        const char *e = c == '\n' ? "\\n" : c == '\t' ? "\\t" : c == '\r' ? "\\r" : c == '\v'
                        ? "\\v" : c == '\f' ? "\\f" : c == '"' ? "\\\"" : c == '\\' ? "\\\\" : NULL;
        if (e)
            out(l, "%s", e);
        else if (c >= 0x20 && c < 0x7f)
            out(l, "%c", c);
        else if (i + 1 < n && b[i + 1] >= '0' && b[i + 1] <= '7')
            out(l, "\\%03o", c);   // the next character would continue a shorter escape
        else
            out(l, "\\%o", c);
    }
    out(l, more ? "\"..." : "\"");
}

// n bytes of guest memory at addr (at most STR_MAX shown), or the address
static void buffer(struct hexsim_user *u, struct line *l, uint32_t addr, uint32_t n)
{
    uint8_t b[STR_MAX];
    uint32_t k = n < STR_MAX ? n : STR_MAX;
    if (hx_get(u, addr, b, k))
        ptr(l, addr);
    else
        quoted(l, b, k, n > k);
}

static void path(struct hexsim_user *u, struct line *l, uint32_t addr)
{
    char b[PATH_MAX_];
    size_t n = 0;
    while (n < sizeof(b)) {
        if (hx_get(u, addr + (uint32_t)n, b + n, 1)) {
            ptr(l, addr);
            return;
        }
        if (!b[n])
            break;
        n++;
    }
    quoted(l, (const uint8_t *)b, n, n == sizeof(b));
}

static void sig_name(struct line *l, uint32_t sig, bool prefix)
{
    const char *s = hx_signal_name((int)sig);
    if (s)
        out(l, "%s", prefix ? s : s + 3);
    else if (sig == 32)
        out(l, "%sRTMIN", prefix ? "SIG" : "");
    else if (sig > 32 && sig <= HX_NSIG)
        out(l, "%sRT_%u", prefix ? "SIG" : "", sig - 32);
    else
        out(l, "%u", sig);
}

// a sigset (bit sig-1), "~[...]" for the signals not in it when most are
static void sigset(struct line *l, uint64_t set)
{
    bool inv = __builtin_popcountll(set) > 32;
    if (inv)
        set = ~set;
    out(l, inv ? "~[" : "[");
    for (int s = 1; s <= HX_NSIG; s++)
        if (set >> (s - 1) & 1) {
            sig_name(l, (uint32_t)s, false);
            if (s < 64 && set >> s)   // another signal follows (no shift by 64: UB)
                out(l, " ");
        }
    out(l, "]");
}

static void sigset_at(struct hexsim_user *u, struct line *l, uint32_t addr)
{
    uint64_t set;
    if (!addr || hx_get64(u, addr, &set))
        ptr(l, addr);
    else
        sigset(l, set);
}

static void sigaction_at(struct hexsim_user *u, struct line *l, uint32_t addr)
{
    uint32_t h, f;
    uint64_t mask;
    if (!addr || hx_get32(u, addr, &h) || hx_get32(u, addr + 4, &f) ||
        hx_get64(u, addr + 8, &mask)) {
        ptr(l, addr);
        return;
    }
    out(l, "{sa_handler=");
    out(l, h == 0 ? "SIG_DFL" : h == 1 ? "SIG_IGN" : "%#x", h);
    out(l, ", sa_mask=");
    sigset(l, mask);
    out(l, ", sa_flags=");
    flags(l, f, sa_flags, N(sa_flags), true);
    out(l, "}");
}

static void timespec_at(struct hexsim_user *u, struct line *l, uint32_t addr, bool t64)
{
    uint32_t s32, ns;
    uint64_t s64;
    if (!addr || (t64 ? hx_get64(u, addr, &s64) : hx_get32(u, addr, &s32)) ||
        hx_get32(u, addr + (t64 ? 8 : 4), &ns)) {
        ptr(l, addr);
        return;
    }
    out(l, "{tv_sec=%lld, tv_nsec=%d}", t64 ? (long long)(int64_t)s64 : (long long)(int32_t)s32,
        (int32_t)ns);
}

static void stat_at(struct hexsim_user *u, struct line *l, uint32_t addr)
{
    uint32_t mode;
    uint64_t size, rdev;
    // asm-generic stat64: st_mode at 16, st_rdev at 32, st_size at 48
    if (hx_get32(u, addr + 16, &mode) || hx_get64(u, addr + 32, &rdev) ||
        hx_get64(u, addr + 48, &size)) {
        ptr(l, addr);
        return;
    }
    static const struct flag types[] = {
        { 0140000, "S_IFSOCK" }, { 0120000, "S_IFLNK" }, { 0100000, "S_IFREG" },
        { 060000, "S_IFBLK" }, { 040000, "S_IFDIR" }, { 020000, "S_IFCHR" }, { 010000, "S_IFIFO" },
    };
    const char *t = lookup(mode & 0170000, types, N(types));
    out(l, "{st_mode=");
    if (t)
        out(l, "%s|%#o", t, mode & 07777);
    else
        out(l, "%#o", mode);
    uint32_t type = mode & 0170000;
    if (type == 020000 || type == 060000)   // new_encode_dev: major bits 8-19, minor the rest
        out(l, ", st_rdev=makedev(%#x, %#x), ...}", (uint32_t)(rdev >> 8 & 0xfff),
            (uint32_t)((rdev & 0xff) | (rdev >> 12 & 0xfff00)));
    else
        out(l, ", st_size=%lld, ...}", (long long)size);
}

// an iovec array; read: the first `left` bytes are shown (what the call filled)
static void iovec_at(struct hexsim_user *u, struct line *l, uint32_t addr, uint32_t cnt,
                     bool read, int64_t left)
{
    uint32_t w;
    if ((read && left < 0) || (cnt && hx_get32(u, addr, &w))) {
        ptr(l, addr);
        return;
    }
    out(l, "[");
    for (uint32_t i = 0; i < cnt; i++) {
        uint32_t base, len;
        if (i == IOV_MAX_SHOWN ||
            hx_get32(u, addr + 8 * i, &base) || hx_get32(u, addr + 8 * i + 4, &len)) {
            out(l, ", ...");
            break;
        }
        out(l, "%s{iov_base=", i ? ", " : "");
        uint32_t shown = read ? (left < len ? (uint32_t)left : len) : len;
        if (read && shown == 0 && len)
            ptr(l, base);
        else
            buffer(u, l, base, shown);
        left -= shown;
        out(l, ", iov_len=%u}", len);
    }
    out(l, "]");
}

// futex(uaddr, op, val, timeout|val2, uaddr2, val3): the arguments the operation uses
static void futex(struct hexsim_user *u, struct line *l, const uint32_t *a, bool t64)
{
    uint32_t cmd = a[1] & 127;
    out(l, "%#x, ", a[0]);
    named(l, cmd, futex_ops, N(futex_ops), true);
    if (a[1] & 128)
        out(l, "_PRIVATE");
    if (a[1] & 256)
        out(l, "|FUTEX_CLOCK_REALTIME");
    out(l, ", %u", a[2]);
    switch (cmd) {
    case 0:    // FUTEX_WAIT
        out(l, ", ");
        timespec_at(u, l, a[3], t64);
        break;
    case 1:    // FUTEX_WAKE
        break;
    case 3:    // FUTEX_REQUEUE
        out(l, ", %u, %#x", a[3], a[4]);
        break;
    case 4:    // FUTEX_CMP_REQUEUE
        out(l, ", %u, %#x, %u", a[3], a[4], a[5]);
        break;
    case 9:    // FUTEX_WAIT_BITSET
        out(l, ", ");
        timespec_at(u, l, a[3], t64);
        out(l, a[5] == ~0u ? ", FUTEX_BITSET_MATCH_ANY" : ", %#x", a[5]);
        break;
    case 10:   // FUTEX_WAKE_BITSET
        out(l, a[5] == ~0u ? ", FUTEX_BITSET_MATCH_ANY" : ", %#x", a[5]);
        break;
    default:
        out(l, ", %#x, %#x, %#x", a[3], a[4], a[5]);
        break;
    }
}

// execve's argv: the strings (at most 32 shown), then "..." when there are more
static void argv_at(struct hexsim_user *u, struct line *l, uint32_t addr)
{
    if (!addr) {
        out(l, "NULL");
        return;
    }
    out(l, "[");
    for (uint32_t i = 0;; i++) {
        uint32_t p;
        if (hx_get32(u, addr + 4 * i, &p)) {
            out(l, i ? ", ...]" : "%#x", addr);
            return;
        }
        if (!p)
            break;
        if (i == 32) {
            out(l, ", ...");
            break;
        }
        if (i)
            out(l, ", ");
        char b[STR_MAX + 1];
        size_t n = 0;
        while (n <= STR_MAX && !hx_get(u, p + (uint32_t)n, b + n, 1) && b[n])
            n++;
        quoted(l, (const uint8_t *)b, n < STR_MAX ? n : STR_MAX, n > STR_MAX);
    }
    out(l, "]");
}

// execve's envp as strace shows it: the address and how many strings
static void envp_at(struct hexsim_user *u, struct line *l, uint32_t addr)
{
    uint32_t n = 0, p = 1;
    while (addr && n < 100000 && !hx_get32(u, addr + 4 * n, &p) && p)
        n++;
    ptr(l, addr);
    if (addr)
        out(l, " /* %u var%s */", n, n == 1 ? "" : "s");
}

// a wait status the call wrote (wait4)
static void wait_status_at(struct hexsim_user *u, struct line *l, uint32_t addr)
{
    uint32_t s;
    if (!addr || hx_get32(u, addr, &s)) {
        ptr(l, addr);
        return;
    }
    if (s & 0x7f) {
        out(l, "[{WIFSIGNALED(s) && WTERMSIG(s) == ");
        sig_name(l, s & 0x7f, true);
        out(l, "}]");
    } else {
        out(l, "[{WIFEXITED(s) && WEXITSTATUS(s) == %u}]", (s >> 8) & 0xff);
    }
}

// clone(flags, newsp, parent_tid, child_tid, tls): Hexagon's argument order (kernel/fork.c)
static void clone_args(struct line *l, const uint32_t *a)
{
    out(l, "child_stack=");
    ptr(l, a[1]);
    out(l, ", flags=");
    if (a[0] & ~0xffu || !(a[0] & 0xff))
        flags(l, a[0] & ~0xffu, clone_flags, N(clone_flags), true);
    if (a[0] & 0xff) {
        out(l, a[0] & ~0xffu ? "|" : "");
        sig_name(l, a[0] & 0xff, true);
    }
    if (a[0] & 0x100000)
        out(l, ", parent_tid=%#x", a[2]);
    if (a[0] & 0x80000)
        out(l, ", tls=%#x", a[4]);
    if (a[0] & 0x1200000)
        out(l, ", child_tidptr=%#x", a[3]);
}

// the access mode, then the other O_* flags
static void open_mode_flags(struct line *l, uint32_t v)
{
    static const struct flag modes[] = { { 0, "O_RDONLY" }, { 1, "O_WRONLY" }, { 2, "O_RDWR" } };
    named(l, v & 3, modes, N(modes), true);
    if (v & ~3u)
        flags(l, v & ~3u, open_flags, N(open_flags), false);
}

static void fcntl_arg(struct line *l, uint32_t cmd, uint32_t v)
{
    switch (cmd) {
    case 1: case 3: case 9: case 1032:
        return;
    case 2:
        out(l, v == 1 ? ", FD_CLOEXEC" : ", %u", v);
        return;
    case 4:
        out(l, ", ");
        open_mode_flags(l, v);
        return;
    case 5: case 6: case 7: case 12: case 13: case 14:
        out(l, ", ");
        ptr(l, v);
        return;
    default:
        out(l, ", %d", (int32_t)v);
    }
}

// ---- sockets (Linux include/linux/socket.h, include/uapi/asm-generic/socket.h,
// include/uapi/linux/in.h, in6.h, un.h)

static const struct flag families[] = {
    { 0, "AF_UNSPEC" }, { 1, "AF_UNIX" }, { 2, "AF_INET" }, { 10, "AF_INET6" },
    { 16, "AF_NETLINK" }, { 17, "AF_PACKET" },
};
static const struct flag sock_types[] = {
    { 1, "SOCK_STREAM" }, { 2, "SOCK_DGRAM" }, { 3, "SOCK_RAW" }, { 4, "SOCK_RDM" },
    { 5, "SOCK_SEQPACKET" }, { 6, "SOCK_DCCP" }, { 10, "SOCK_PACKET" },
};
static const struct flag sock_flags[] = { { 02000000, "SOCK_CLOEXEC" }, { 04000, "SOCK_NONBLOCK" } };
static const struct flag msg_flags[] = {
    { 1, "MSG_OOB" }, { 2, "MSG_PEEK" }, { 4, "MSG_DONTROUTE" }, { 8, "MSG_CTRUNC" },
    { 0x10, "MSG_PROBE" }, { 0x20, "MSG_TRUNC" }, { 0x40, "MSG_DONTWAIT" }, { 0x80, "MSG_EOR" },
    { 0x100, "MSG_WAITALL" }, { 0x200, "MSG_FIN" }, { 0x400, "MSG_SYN" },
    { 0x800, "MSG_CONFIRM" }, { 0x1000, "MSG_RST" }, { 0x2000, "MSG_ERRQUEUE" },
    { 0x4000, "MSG_NOSIGNAL" }, { 0x8000, "MSG_MORE" }, { 0x10000, "MSG_WAITFORONE" },
    { 0x40000, "MSG_BATCH" }, { 0x4000000, "MSG_ZEROCOPY" }, { 0x20000000, "MSG_FASTOPEN" },
    { 0x40000000, "MSG_CMSG_CLOEXEC" },
};
static const struct flag sol_levels[] = {
    { 0, "SOL_IP" }, { 1, "SOL_SOCKET" }, { 6, "SOL_TCP" }, { 17, "SOL_UDP" },
    { 41, "SOL_IPV6" },
};
static const struct flag so_names[] = {
    { 1, "SO_DEBUG" }, { 2, "SO_REUSEADDR" }, { 3, "SO_TYPE" }, { 4, "SO_ERROR" },
    { 5, "SO_DONTROUTE" }, { 6, "SO_BROADCAST" }, { 7, "SO_SNDBUF" }, { 8, "SO_RCVBUF" },
    { 9, "SO_KEEPALIVE" }, { 10, "SO_OOBINLINE" }, { 12, "SO_PRIORITY" }, { 13, "SO_LINGER" },
    { 15, "SO_REUSEPORT" }, { 16, "SO_PASSCRED" }, { 17, "SO_PEERCRED" },
    { 18, "SO_RCVLOWAT" }, { 19, "SO_SNDLOWAT" }, { 20, "SO_RCVTIMEO_OLD" },
    { 21, "SO_SNDTIMEO_OLD" }, { 29, "SO_TIMESTAMP_OLD" }, { 30, "SO_ACCEPTCONN" },
    { 32, "SO_SNDBUFFORCE" }, { 33, "SO_RCVBUFFORCE" }, { 38, "SO_PROTOCOL" },
    { 39, "SO_DOMAIN" }, { 66, "SO_RCVTIMEO_NEW" }, { 67, "SO_SNDTIMEO_NEW" },
};
static const struct flag tcp_names[] = {
    { 1, "TCP_NODELAY" }, { 2, "TCP_MAXSEG" }, { 3, "TCP_CORK" }, { 4, "TCP_KEEPIDLE" },
    { 5, "TCP_KEEPINTVL" }, { 6, "TCP_KEEPCNT" },
};
static const struct flag ip_names[] = {
    { 1, "IP_TOS" }, { 2, "IP_TTL" }, { 8, "IP_PKTINFO" }, { 32, "IP_MULTICAST_IF" },
    { 33, "IP_MULTICAST_TTL" }, { 34, "IP_MULTICAST_LOOP" }, { 35, "IP_ADD_MEMBERSHIP" },
};
static const struct flag ipv6_names[] = {
    { 16, "IPV6_UNICAST_HOPS" }, { 26, "IPV6_V6ONLY" }, { 49, "IPV6_RECVPKTINFO" },
};

// a socket address of len bytes at addr, as strace shows it
static void sockaddr_at(struct hexsim_user *u, struct line *l, uint32_t addr, uint32_t len)
{
    uint8_t b[128];
    if (len > sizeof(b))
        len = sizeof(b);
    if (!addr || len < 2 || hx_get(u, addr, b, len)) {
        ptr(l, addr);
        return;
    }
    uint32_t fam = (uint32_t)(b[0] | b[1] << 8);
    out(l, "{sa_family=");
    named(l, fam, families, N(families), false);
    if (fam == 2 && len >= 8) {
        out(l, ", sin_port=htons(%u), sin_addr=inet_addr(\"%u.%u.%u.%u\")}",
            (unsigned)(b[2] << 8 | b[3]), b[4], b[5], b[6], b[7]);
    } else if (fam == 10 && len >= 24) {
        char a[48];
        size_t n = 0;
        // the shortest form: the longest run of zero groups becomes "::"
        unsigned g[8], best = 0, bl = 0;
        for (int i = 0; i < 8; i++)
            g[i] = (unsigned)(b[8 + 2 * i] << 8 | b[9 + 2 * i]);
        for (unsigned i = 0; i < 8;) {
            unsigned j = i;
            while (j < 8 && !g[j])
                j++;
            if (j - i > bl && j - i > 1) {
                best = i;
                bl = j - i;
            }
            i = j > i ? j : i + 1;
        }
        for (unsigned i = 0; i < 8; i++) {
            if (bl && i == best) {
                n += (size_t)snprintf(a + n, sizeof(a) - n, "::");
                i += bl - 1;
                continue;
            }
            n += (size_t)snprintf(a + n, sizeof(a) - n, "%s%x",
                                  n && a[n - 1] != ':' ? ":" : "", g[i]);
        }
        uint32_t flow = (uint32_t)b[4] << 24 | (uint32_t)b[5] << 16 | (uint32_t)b[6] << 8 | b[7];
        uint32_t scope = (uint32_t)b[24] | (uint32_t)b[25] << 8 | (uint32_t)b[26] << 16 |
                         (uint32_t)b[27] << 24;
        out(l, ", sin6_port=htons(%u), sin6_flowinfo=htonl(%u), inet_pton(AF_INET6, \"%s\", "
            "&sin6_addr)", (unsigned)(b[2] << 8 | b[3]), flow, a);
        if (len >= 28)
            out(l, ", sin6_scope_id=%u", scope);
        out(l, "}");
    } else if (fam == 1) {
        out(l, ", sun_path=");
        if (len > 2 && b[2] == 0) {
            out(l, "@");
            quoted(l, b + 3, len - 3, false);
        } else {
            size_t n = 0;
            while (2 + n < len && b[2 + n])
                n++;
            quoted(l, b + 2, n, false);
        }
        out(l, "}");
    } else {
        out(l, ", sa_data=");
        quoted(l, b + 2, len - 2, false);
        out(l, "}");
    }
}

static void sockopt_name(struct line *l, uint32_t level, uint32_t name)
{
    named(l, level, sol_levels, N(sol_levels), false);
    out(l, ", ");
    const struct flag *t = level == 1 ? so_names : level == 6 ? tcp_names
                           : level == 0 ? ip_names : level == 41 ? ipv6_names : NULL;
    size_t n = level == 1 ? N(so_names) : level == 6 ? N(tcp_names)
               : level == 0 ? N(ip_names) : level == 41 ? N(ipv6_names) : 0;
    named(l, name, t, n, false);
}

// an option's value: an int as [N], anything else as its bytes
static void sockopt_val(struct hexsim_user *u, struct line *l, uint32_t addr, uint32_t len)
{
    uint32_t v;
    if (len == 4 && !hx_get32(u, addr, &v))
        out(l, "[%d]", (int32_t)v);
    else
        buffer(u, l, addr, len);
}

// a struct msghdr of a 32-bit ABI (seven words); recv: as the call left it, the first ret
// bytes of its buffers shown
static void msghdr_at(struct hexsim_user *u, struct line *l, uint32_t addr, bool recv,
                      int64_t ret)
{
    uint32_t w[7];
    for (unsigned i = 0; i < 7; i++)
        if ((recv && ret < 0) || hx_get32(u, addr + 4 * i, &w[i])) {
            ptr(l, addr);
            return;
        }
    out(l, "{msg_name=");
    if (w[0])
        sockaddr_at(u, l, w[0], w[1]);
    else
        out(l, "NULL");
    out(l, ", msg_namelen=%u, msg_iov=", w[1]);
    iovec_at(u, l, w[2], w[3], recv, recv ? ret : 0);
    out(l, ", msg_iovlen=%u, msg_control=", w[3]);
    uint32_t clen, lvl, typ;
    if (w[4] && w[5] >= 12 && !hx_get32(u, w[4], &clen) && !hx_get32(u, w[4] + 4, &lvl) &&
        !hx_get32(u, w[4] + 8, &typ) && clen >= 12 && clen <= w[5]) {
        out(l, "[{cmsg_len=%u, cmsg_level=", clen);
        named(l, lvl, sol_levels, N(sol_levels), false);
        out(l, ", cmsg_type=");
        if (lvl == 1 && typ == 1) {
            out(l, "SCM_RIGHTS, cmsg_data=[");
            for (uint32_t i = 0; 12 + 4 * i + 4 <= clen; i++) {
                uint32_t fd = 0;
                hx_get32(u, w[4] + 12 + 4 * i, &fd);
                out(l, "%s%d", i ? ", " : "", (int32_t)fd);
            }
            out(l, "]}]");
        } else {
            out(l, lvl == 1 && typ == 2 ? "SCM_CREDENTIALS" : "%#x", typ);
            out(l, ", ...}]");
        }
    } else {
        ptr(l, w[4]);
    }
    out(l, ", msg_controllen=%u, msg_flags=", w[5]);
    flags(l, w[6], msg_flags, N(msg_flags), true);
    out(l, "}");
}

// ---- event descriptors (include/uapi/linux/eventpoll.h, inotify.h, timerfd.h)

// the NONBLOCK/CLOEXEC flags of eventfd2, timerfd_create, epoll_create1, signalfd4,
// inotify_init1 under the call's prefix (EFD_SEMAPHORE is eventfd's own)
static void fd_flags(struct line *l, uint32_t v, const char *prefix)
{
    bool first = true;
    static const struct flag f[] = { { 1, "SEMAPHORE" }, { 04000, "NONBLOCK" },
                                     { 02000000, "CLOEXEC" } };
    for (size_t i = 0; i < N(f); i++)
        if ((v & f[i].v) && (i || prefix[0] == 'E')) {
            out(l, "%s%s_%s", first ? "" : "|", prefix, f[i].name);
            first = false;
            v &= ~f[i].v;
        }
    if (v || first)
        out(l, first ? "%#x" : "|%#x", v);
}

static const struct flag epoll_events[] = {
    { 1, "EPOLLIN" }, { 2, "EPOLLPRI" }, { 4, "EPOLLOUT" }, { 8, "EPOLLERR" },
    { 0x10, "EPOLLHUP" }, { 0x20, "EPOLLNVAL" }, { 0x40, "EPOLLRDNORM" },
    { 0x80, "EPOLLRDBAND" }, { 0x100, "EPOLLWRNORM" }, { 0x200, "EPOLLWRBAND" },
    { 0x400, "EPOLLMSG" }, { 0x2000, "EPOLLRDHUP" }, { 1u << 28, "EPOLLEXCLUSIVE" },
    { 1u << 29, "EPOLLWAKEUP" }, { 1u << 30, "EPOLLONESHOT" }, { 1u << 31, "EPOLLET" },
};
static const struct flag inotify_masks[] = {
    { 1, "IN_ACCESS" }, { 2, "IN_MODIFY" }, { 4, "IN_ATTRIB" }, { 8, "IN_CLOSE_WRITE" },
    { 0x10, "IN_CLOSE_NOWRITE" }, { 0x20, "IN_OPEN" }, { 0x40, "IN_MOVED_FROM" },
    { 0x80, "IN_MOVED_TO" }, { 0x100, "IN_CREATE" }, { 0x200, "IN_DELETE" },
    { 0x400, "IN_DELETE_SELF" }, { 0x800, "IN_MOVE_SELF" }, { 0x1000000, "IN_ONLYDIR" },
    { 0x2000000, "IN_DONT_FOLLOW" }, { 0x4000000, "IN_EXCL_UNLINK" },
    { 0x10000000, "IN_MASK_CREATE" }, { 0x20000000, "IN_MASK_ADD" }, { 0x40000000, "IN_ISDIR" },
    { 0x80000000, "IN_ONESHOT" },
};

// one struct epoll_event (16 bytes on Hexagon: events, padding, 64-bit data)
static void epoll_event_at(struct hexsim_user *u, struct line *l, uint32_t addr)
{
    uint32_t ev;
    uint64_t data;
    if (!addr || hx_get32(u, addr, &ev) || hx_get64(u, addr + 8, &data)) {
        ptr(l, addr);
        return;
    }
    out(l, "{events=");
    flags(l, ev, epoll_events, N(epoll_events), true);
    out(l, ", data={u32=%u, u64=%llu}}", (uint32_t)data, (unsigned long long)data);
}

// a struct itimerspec (32- or 64-bit seconds): interval, then value
static void itimerspec_at(struct hexsim_user *u, struct line *l, uint32_t addr, bool t64)
{
    if (!addr) {
        out(l, "NULL");
        return;
    }
    out(l, "{it_interval=");
    timespec_at(u, l, addr, t64);
    out(l, ", it_value=");
    timespec_at(u, l, addr + (t64 ? 16 : 8), t64);
    out(l, "}");
}

static void result(struct line *l, char kind, int64_t ret)
{
    const char *text;
    const char *name = ret < 0 && ret >= -4095 ? hx_errno_name((int)-ret, &text) : NULL;
    if (name)
        out(l, " = -1 %s (%s)", name, text);
    else if (ret < 0 && ret >= -4095)
        out(l, " = -1 (errno %d)", (int)-ret);
    else if (kind == 'x')
        out(l, " = %#llx", (unsigned long long)(uint32_t)ret);
    else if (kind == 'o')
        out(l, " = %#llo", (unsigned long long)ret);
    else
        out(l, " = %lld", (long long)ret);
}

// The call's arguments by kind (the letters are listed at HEXSIM_SYSCALLS in syscall.c).
static void args(struct hexsim_user *u, struct line *l, const char *k, const uint32_t *a,
                 int64_t ret)
{
    bool failed = ret < 0;
    for (unsigned i = 0; *k && i < 6; k++, i++) {
        uint32_t v = a[i];
        if (*k == '_')
            continue;
        if (i && l->s[l->n - 1] != '(')
            out(l, ", ");
        switch (*k) {
        case 'd': case 'f': out(l, "%d", (int32_t)v); break;
        case 'u': out(l, "%u", v); break;
        case 'x': out(l, "%#x", v); break;
        case 'p': ptr(l, v); break;
        case 'D': out(l, (int32_t)v == HX_AT_FDCWD ? "AT_FDCWD" : "%d", (int32_t)v); break;
        case 's': path(u, l, v); break;
        case 'y': if (failed) ptr(l, v); else path(u, l, v); break;
        case 'w': buffer(u, l, v, i < 5 ? a[i + 1] : 0); break;
        case 'r': if (failed) ptr(l, v); else buffer(u, l, v, (uint32_t)ret); break;
        case 'O':
            open_mode_flags(l, v);
            if (k[1] == 'm' && !(v & 020000100))   // a mode only with O_CREAT or O_TMPFILE
                k++, i++;
            break;
        case 'E': flags(l, v, open_flags, N(open_flags), true); break;
        case 'm': out(l, "%#03o", v); break;
        case 'P':
            if (v)
                flags(l, v, prot_flags, N(prot_flags), true);
            else
                out(l, "PROT_NONE");
            break;
        case 'M':
            named(l, v & 0xf, (const struct flag[]){ { 1, "MAP_SHARED" }, { 2, "MAP_PRIVATE" },
                                                     { 3, "MAP_SHARED_VALIDATE" } }, 3, true);
            if (v & ~0xfu)
                flags(l, v & ~0xfu, map_flags, N(map_flags), false);
            break;
        case 'e': out(l, "%#llx", (unsigned long long)v * HEXSIM_PAGE_SIZE); break;
        case 'A': flags(l, v, at_flags, N(at_flags), true); break;
        case 'Q':
            if (v)
                flags(l, v, access_flags, N(access_flags), true);
            else
                out(l, "F_OK");
            break;
        case 'S': sig_name(l, v, true); break;
        case 'a': sigaction_at(u, l, v); break;
        case 'g': sigset_at(u, l, v); break;
        case 'h': named(l, v, hows, N(hows), false); break;
        case 'k': named(l, v, clocks, N(clocks), false); break;
        case 't': case 'T': timespec_at(u, l, v, *k == 'T'); break;
        case 'n': case 'N':
            if (failed)
                ptr(l, v);
            else
                timespec_at(u, l, v, *k == 'N');
            break;
        case 'K': if (failed) ptr(l, v); else stat_at(u, l, v); break;
        case 'v': case 'V':
            iovec_at(u, l, v, i < 5 ? a[i + 1] : 0, *k == 'V', ret);
            break;
        case 'q': {
            uint32_t f0, f1;
            if (failed || hx_get32(u, v, &f0) || hx_get32(u, v + 4, &f1))
                ptr(l, v);
            else
                out(l, "[%d, %d]", (int32_t)f0, (int32_t)f1);
            break;
        }
        case 'L':   // a 64-bit value in two registers, low word first
            out(l, "%lld", (long long)((uint64_t)(i < 5 ? a[i + 1] : 0) << 32 | v));
            i++;
            break;
        case 'H':   // ... high word first (_llseek)
            out(l, "%lld", (long long)((uint64_t)v << 32 | (i < 5 ? a[i + 1] : 0)));
            i++;
            break;
        case 'W': named(l, v, whences, N(whences), false); break;
        case 'i': named(l, v, ioctls, N(ioctls), true); break;
        case 'c':
            named(l, v, fcntl_cmds, N(fcntl_cmds), false);
            fcntl_arg(l, v, i < 5 ? a[i + 1] : 0);
            i++;
            break;
        case 'F': case 'G': futex(u, l, a, *k == 'G'); return;
        case 'C': clone_args(l, a); return;
        case 'X': argv_at(u, l, v); break;
        case 'Z': envp_at(u, l, v); break;
        case 'j': if (ret <= 0) ptr(l, v); else wait_status_at(u, l, v); break;
        case 'J': flags(l, v, wait_flags, N(wait_flags), true); break;
        case 'I': named(l, v, families, N(families), false); break;
        case 'Y':
            named(l, v & 0xf, sock_types, N(sock_types), true);
            if (v & ~0xfu)
                flags(l, v & ~0xfu, sock_flags, N(sock_flags), false);
            break;
        case 'B': sockaddr_at(u, l, v, i < 5 ? a[i + 1] : 0); break;
        case 'b': {   // an address the call wrote, its length at the next argument
            uint32_t len;
            if (failed || !v || hx_get32(u, a[i + 1], &len))
                ptr(l, v);
            else
                sockaddr_at(u, l, v, len);
            break;
        }
        case 'l': {
            uint32_t len;
            if (failed || !v || hx_get32(u, v, &len))
                ptr(l, v);
            else
                out(l, "[%u]", len);
            break;
        }
        case 'U': flags(l, v, msg_flags, N(msg_flags), true); break;
        case 'R':
            named(l, v, (const struct flag[]){ { 0, "SHUT_RD" }, { 1, "SHUT_WR" },
                                               { 2, "SHUT_RDWR" } }, 3, false);
            break;
        case 'z':   // setsockopt: level, name, value, length
            sockopt_name(l, v, a[i + 1]);
            out(l, ", ");
            sockopt_val(u, l, a[i + 2], a[i + 3]);
            out(l, ", %u", a[i + 3]);
            return;
        case '1': {   // getsockopt: level, name, value written, its length
            uint32_t len;
            sockopt_name(l, v, a[i + 1]);
            out(l, ", ");
            if (failed || hx_get32(u, a[i + 3], &len)) {
                ptr(l, a[i + 2]);
                out(l, ", ");
                ptr(l, a[i + 3]);
            } else {
                sockopt_val(u, l, a[i + 2], len);
                out(l, ", [%u]", len);
            }
            return;
        }
        case '3': fd_flags(l, v, "EFD"); break;
        case '4': fd_flags(l, v, "TFD"); break;
        case '5': fd_flags(l, v, "EPOLL"); break;
        case '6': fd_flags(l, v, "SFD"); break;
        case '7': fd_flags(l, v, "IN"); break;
        case '#':
            named(l, v, (const struct flag[]){ { 1, "EPOLL_CTL_ADD" }, { 2, "EPOLL_CTL_DEL" },
                                               { 3, "EPOLL_CTL_MOD" } }, 3, false);
            break;
        case '$': epoll_event_at(u, l, v); break;
        case '!':   // the events epoll_pwait wrote (as many as it returns)
            if (failed || ret == HX_SYS_NORET) {
                ptr(l, v);
                break;
            }
            out(l, "[");
            for (int64_t k = 0; k < ret && k < IOV_MAX_SHOWN; k++) {
                out(l, k ? ", " : "");
                epoll_event_at(u, l, v + 16 * (uint32_t)k);
            }
            out(l, ret > IOV_MAX_SHOWN ? ", ...]" : "]");
            break;
        case '%': flags(l, v, inotify_masks, N(inotify_masks), true); break;
        case '&':
            if (v)
                flags(l, v, (const struct flag[]){ { 1, "TFD_TIMER_ABSTIME" },
                                                   { 2, "TFD_TIMER_CANCEL_ON_SET" } }, 2, true);
            else
                out(l, "0");
            break;
        case '(': case '[': itimerspec_at(u, l, v, *k == '['); break;
        case ')': case ']':
            if (failed)
                ptr(l, v);
            else
                itimerspec_at(u, l, v, *k == ']');
            break;
        case 'o': msghdr_at(u, l, v, false, ret); break;
        case '2': msghdr_at(u, l, v, true, ret); break;
        default: out(l, "%#x", v); break;
        }
    }
}

static struct hx_thread *thread_of(struct hexsim_user *u, int32_t tid)
{
    struct hexsim_user_os *os = u->os;
    int i = os ? hx_thread_index(os, tid) : -1;
    return i < 0 ? NULL : &os->t[i];
}

// "[pid N] " while there is more than one thread, or other processes (as strace -f with
// several tracees)
static void leader(struct hexsim_user *u, struct line *l, int32_t tid)
{
    if ((u->os && u->os->n > 1) || u->proc)
        out(l, "[pid %d] ", tid);
}

// the same before the process's end: strace -f names every process but the first
static void end_leader(struct hexsim_user *u, struct line *l)
{
    if (u->proc && u->proc->forked)
        out(l, "[pid %d] ", hx_getpid(u));
}

// A waiting call's held line ends with "<unfinished ...>" when another line comes first.
static void flush_held(struct hexsim_user *u)
{
    if (u->strace_held.on) {
        fprintf(u->err, "%s <unfinished ...>\n", u->strace_held.text);
        u->strace_held.on = false;
    }
}

static void emit(struct hexsim_user *u, const struct line *l)
{
    flush_held(u);
    fprintf(u->err, "%.*s\n", (int)l->n, l->s);
}

static int32_t current_tid(struct hexsim_user *u)
{
    return u->os && u->os->n ? u->os->t[u->os->cur].tid : hx_getpid(u);
}

static void call_lines(struct hexsim_user *u, const struct hx_strace_entry *e, int64_t ret)
{
    const uint32_t nr = e->nr, *a = e->a;
    const int32_t tid = e->tid;
    const char *name = NULL, *kinds = NULL;
    hx_syscall_info(nr, &name, &kinds);
    struct line l = { .n = 0 };
    if (e->several)
        out(&l, "[pid %d] ", tid);
    if (name)
        out(&l, "%s(", name);
    else
        out(&l, "syscall_%u(", nr);
    const struct hx_thread *t = thread_of(u, tid);
    if (ret == HX_SYS_NORET && !u->exited && t && t->wait == HX_WAIT_RETRY)
        return;   // made again when the clock has moved on: that call has the line
    if (ret == HX_SYS_NORET && !u->exited && t && t->wait == HX_RUNNING) {
        // the thread goes on (another may have the vCPU now): the call is made again (a
        // read that would block while others can run), or its r0 holds the result
        bool cur = t == &u->os->t[u->os->cur];
        if ((cur ? u->cpu.pc : t->regs.pc) == e->pc - 4)
            return;
        ret = (int32_t)(cur ? u->cpu.r[0] : t->regs.r[0]);
    }
    if ((nr == 221 || nr == 281) && ret >= 0 && u->strace_held.pre[0]) {
        out(&l, "%s", u->strace_held.pre);   // (the arguments were in the replaced image)
    } else if (nr == 139 && t) {   // rt_sigreturn: the mask it restored
        out(&l, "{mask=");
        sigset(&l, t->mask);
        out(&l, "}");
    } else if (kinds) {
        args(u, &l, kinds + 1, a, ret);
    } else {
        out(&l, "%#x, %#x, %#x, %#x, %#x, %#x", a[0], a[1], a[2], a[3], a[4], a[5]);
    }
    if (ret != HX_SYS_NORET) {
        out(&l, ")");
        result(&l, kinds ? kinds[0] : 'd', ret);
        emit(u, &l);
        return;
    }
    if (t && t->wait > HX_RUNNING && !u->exited) {
        // a wait: the line ends when it does, or with <unfinished ...> if others print first
        flush_held(u);
        l.s[l.n] = 0;
        snprintf(u->strace_held.text, sizeof(u->strace_held.text), "%s", l.s);
        u->strace_held.on = true;
        u->strace_held.tid = tid;
        return;
    }
    out(&l, ") = ?");
    emit(u, &l);
    if ((nr == 93 || nr == 94) && (u->exited || !t || t->wait == HX_DEAD)) {
        struct line x = { .n = 0 };
        if (!u->exited)
            leader(u, &x, tid);
        else
            end_leader(u, &x);
        out(&x, "+++ exited with %d +++", u->exited ? u->exit_status : (int)(a[0] & 0xff));
        emit(u, &x);
    }
}

void hx_strace_pre(struct hexsim_user *u, const struct hx_strace_entry *e)
{
    const char *name, *kinds;
    struct line l = { .n = 0 };
    if (hx_syscall_info(e->nr, &name, &kinds))
        args(u, &l, kinds + 1, e->a, 0);
    snprintf(u->strace_held.pre, sizeof(u->strace_held.pre), "%.*s", (int)l.n, l.s);
}

void hx_strace_call(struct hexsim_user *u, const struct hx_strace_entry *e, int64_t ret)
{
    call_lines(u, e, ret);
    u->strace_held.pre[0] = 0;
    struct hexsim_user_strace_held *h = &u->strace_held;
    if (h->after_n) {   // the waits this call ended
        if (h->on)
            flush_held(u);
        fputs(h->after, u->err);
        h->after_n = 0;
    }
}

void hx_strace_resumed(struct hexsim_user *u, unsigned i, int32_t r)
{
    struct hexsim_user_os *os = u->os;
    const struct hx_thread *t = &os->t[i];
    uint32_t nr = i == os->cur ? u->cpu.r[6] : t->regs.r[6];
    const char *name, *kinds;
    if (!hx_syscall_info(nr, &name, &kinds))
        return;
    struct line l = { .n = 0 };
    if (u->strace_held.on && u->strace_held.tid == t->tid) {
        out(&l, "%s", u->strace_held.text);
        u->strace_held.on = false;
    } else {
        leader(u, &l, t->tid);
        out(&l, "<... %s resumed>", name);
    }
    out(&l, ")");
    result(&l, kinds[0], r);
    struct hexsim_user_strace_held *h = &u->strace_held;
    if (!h->in_call) {
        emit(u, &l);
        return;
    }
    // woken by the running thread's call: after that call's line, as strace sees it
    int k = snprintf(h->after + h->after_n, sizeof(h->after) - h->after_n, "%.*s\n",
                     (int)l.n, l.s);
    if (k > 0)
        h->after_n = h->after_n + (size_t)k < sizeof(h->after) ? h->after_n + (size_t)k
                                                               : sizeof(h->after) - 1;
}

void hx_strace_signal(struct hexsim_user *u, int sig, const struct hx_siginfo *info)
{
    struct line l = { .n = 0 };
    leader(u, &l, current_tid(u));
    out(&l, "--- ");
    sig_name(&l, (uint32_t)sig, true);
    out(&l, " {si_signo=");
    sig_name(&l, (uint32_t)sig, true);
    out(&l, ", si_code=");
    static const struct flag codes[] = {   // asm-generic/siginfo.h
        { 0, "SI_USER" }, { 0x80, "SI_KERNEL" }, { (uint32_t)-1, "SI_QUEUE" },
        { (uint32_t)-2, "SI_TIMER" }, { (uint32_t)-3, "SI_MESGQ" }, { (uint32_t)-4, "SI_ASYNCIO" },
        { (uint32_t)-5, "SI_SIGIO" }, { (uint32_t)-6, "SI_TKILL" },
    };
    int32_t c = info->code;
    const char *cn = lookup((uint32_t)c, codes, N(codes));
    bool fault = (sig == 11 || sig == 7 || sig == 4) && c > 0 && c < 0x80;
    bool chld = sig == 17 && c >= 1 && c <= 6;
    static const char *const cld[] = { "", "CLD_EXITED", "CLD_KILLED", "CLD_DUMPED",
                                       "CLD_TRAPPED", "CLD_STOPPED", "CLD_CONTINUED" };
    if (chld)
        out(&l, "%s", cld[c]);
    else if (fault && sig == 11)
        out(&l, "%s", c == 1 ? "SEGV_MAPERR" : c == 2 ? "SEGV_ACCERR" : "?");
    else if (fault && sig == 7)
        out(&l, "%s", c == 1 ? "BUS_ADRALN" : c == 2 ? "BUS_ADRERR" : "?");
    else if (fault)
        out(&l, "%s", c == 1 ? "ILL_ILLOPC" : c == 2 ? "ILL_ILLOPN" : "?");
    else if (cn)
        out(&l, "%s", cn);
    else
        out(&l, "%d", c);
    if (chld) {
        out(&l, ", si_pid=%d, si_uid=%u, si_status=", (int32_t)info->w[0], info->w[1]);
        if (c == 1)
            out(&l, "%d", (int32_t)info->w[2]);
        else
            sig_name(&l, info->w[2], true);
        out(&l, ", si_utime=0, si_stime=0");
    } else if (fault) {
        out(&l, ", si_addr=");
        ptr(&l, info->w[0]);
    } else if (c == 0 || c == -6) {
        out(&l, ", si_pid=%d, si_uid=%u", (int32_t)info->w[0], info->w[1]);
    } else if (c == -1) {
        out(&l, ", si_pid=%d, si_uid=%u, si_int=%d, si_ptr=%#x", (int32_t)info->w[0],
            info->w[1], (int32_t)info->w[2], info->w[2]);
    } else if (c == -2) {
        out(&l, ", si_timerid=%#x, si_overrun=%d, si_int=%d, si_ptr=%#x", info->w[0],
            (int32_t)info->w[1], (int32_t)info->w[2], info->w[2]);
    }
    out(&l, "} ---");
    emit(u, &l);
}

void hx_strace_killed(struct hexsim_user *u, int sig)
{
    struct line l = { .n = 0 };
    end_leader(u, &l);
    out(&l, "+++ killed by ");
    sig_name(&l, (uint32_t)sig, true);
    out(&l, " +++");
    emit(u, &l);
}
