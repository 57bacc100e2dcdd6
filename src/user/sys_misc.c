// SPDX-License-Identifier: MIT
// Process and system information calls of user mode, and waiting for descriptors: umask,
// sysinfo, getrlimit/setrlimit/prlimit64, getrusage, times, clock_getres, madvise, mremap,
// membarrier, sched_getaffinity/setaffinity/getcpu, getpriority and the scheduling policy
// (nice 0, SCHED_OTHER), memfd_create, close_range, getresuid/getresgid/getgroups and the
// set*id calls (root, as in a container), prctl (names), ppoll/pselect6 (32- and 64-bit
// timeouts); process groups, sessions and wait4/waitid are in process.c. Layouts (32-bit
// asm-generic): struct rlimit (two longs), rlimit64, sysinfo (64 bytes), rusage (two old
// timevals and 14 longs), tms (four longs), pollfd, fd_set (bit n of byte n/8). CPU time
// is the simulated clock. Waiting for descriptors asks the host (poll); without
// descriptors it is a sleep on the simulated clock (pause is ppoll with nothing).
#define _GNU_SOURCE
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sys.h"
#include "sys_fs.h"

#define RLIM_NLIMITS 16
#define RLIMIT_STACK 3
#define RLIMIT_NOFILE 7

static uint64_t rlim_default(unsigned r, bool max)
{
    if (r == RLIMIT_STACK)
        return max ? UINT64_MAX : HEXSIM_USER_STACK_SIZE;
    if (r == RLIMIT_NOFILE)
        return HX_MAX_FDS;   // the guest descriptor table's size
    return UINT64_MAX;
}

int64_t sys_umask(struct hexsim_user *u, uint32_t mask)
{
    struct hexsim_user_os *os = hx_os(u);
    if (!os)
        return -ENOMEM;
    uint32_t old = os->umask;
    os->umask = mask & 0777;
    return old;
}

int64_t sys_prlimit64(struct hexsim_user *u, uint32_t pid, uint32_t res, uint32_t nl,
                      uint32_t ol)
{
    if (pid != 0 && (int32_t)pid != hx_getpid(u))
        return -ESRCH;
    if (res >= RLIM_NLIMITS)
        return -EINVAL;
    if (ol) {
        uint8_t b[16];
        hx_le64(b, rlim_default(res, false));
        hx_le64(b + 8, rlim_default(res, true));
        if (hx_put(u, ol, b, 16))
            return -EFAULT;
    }
    if (nl) {
        uint64_t cur, max;
        if (hx_get64(u, nl, &cur) || hx_get64(u, nl + 8, &max))
            return -EFAULT;
        if (cur > max)
            return -EINVAL;
        if (max > rlim_default(res, true))
            return -EPERM;
        // accepted; hexsim keeps its own limits (the stack and descriptor table are fixed)
    }
    return 0;
}

int64_t sys_getrlimit(struct hexsim_user *u, uint32_t res, uint32_t addr)
{
    if (res >= RLIM_NLIMITS)
        return -EINVAL;
    uint8_t b[8];
    uint64_t c = rlim_default(res, false), m = rlim_default(res, true);
    hx_le32(b, c > 0xffffffffu ? 0xffffffffu : (uint32_t)c);   // RLIM_INFINITY: ~0UL
    hx_le32(b + 4, m > 0xffffffffu ? 0xffffffffu : (uint32_t)m);
    return hx_put(u, addr, b, 8);
}

int64_t sys_setrlimit(struct hexsim_user *u, uint32_t res, uint32_t addr)
{
    if (res >= RLIM_NLIMITS)
        return -EINVAL;
    uint32_t c, m;
    if (hx_get32(u, addr, &c) || hx_get32(u, addr + 4, &m))
        return -EFAULT;
    return c > m ? -EINVAL : 0;
}

int64_t sys_sysinfo(struct hexsim_user *u, uint32_t addr)
{
    uint8_t b[64] = {0};
    hx_le32(b, (uint32_t)(hx_now_ns(u, 1) / 1000000000ull));   // uptime
    hx_le32(b + 16, 1u << 30);                                   // totalram: 1 GiB
    hx_le32(b + 20, 1u << 29);                                   // freeram
    b[40] = 1;                                                   // procs
    hx_le32(b + 52, 1);                                          // mem_unit
    return hx_put(u, addr, b, sizeof(b));
}

int64_t sys_getrusage(struct hexsim_user *u, uint32_t who, uint32_t addr)
{
    if (who != 0 && who != (uint32_t)-1 && who != 1)   // SELF, CHILDREN, THREAD
        return -EINVAL;
    uint8_t b[72] = {0};
    if (who != (uint32_t)-1) {
        uint64_t ns = hx_now_ns(u, 2);
        hx_le32(b, (uint32_t)(ns / 1000000000ull));
        hx_le32(b + 4, (uint32_t)(ns % 1000000000ull / 1000));
        hx_le32(b + 16, (uint32_t)(u->mem.mapped_pages * (HEXSIM_PAGE_SIZE / 1024)));   // maxrss KB
    }
    return hx_put(u, addr, b, sizeof(b));
}

int64_t sys_times(struct hexsim_user *u, uint32_t addr)
{
    uint32_t ticks = (uint32_t)(hx_now_ns(u, 1) / 10000000ull);   // USER_HZ 100
    if (addr) {
        uint8_t b[16] = {0};
        hx_le32(b, (uint32_t)(hx_now_ns(u, 2) / 10000000ull));
        if (hx_put(u, addr, b, sizeof(b)))
            return -EFAULT;
    }
    return ticks;
}

int64_t sys_clock_getres(struct hexsim_user *u, uint32_t clk, uint32_t addr, bool t64)
{
    if (clk > 11 || clk == 10)
        return -EINVAL;
    if (!addr)
        return 0;
    return hx_write_timespec(u, addr, t64, clk == 5 || clk == 6 ? 4000000 : 1);
}

int64_t sys_madvise(struct hexsim_user *u, uint32_t addr, uint32_t len, uint32_t advice)
{
    (void)len;
    if (addr & (HEXSIM_PAGE_SIZE - 1))
        return -EINVAL;
    if (advice == 4) {   // MADV_DONTNEED: private anonymous pages read as zero again
        uint32_t n = (len + HEXSIM_PAGE_SIZE - 1) & ~(HEXSIM_PAGE_SIZE - 1);
        static const uint8_t zero[256];
        for (uint32_t a = addr; a - addr < n; a += HEXSIM_PAGE_SIZE) {
            const struct hexsim_page *p = hexsim_mem_page(&u->mem, a);
            if (!p)
                return -ENOMEM;
            if (p->prot & HEXSIM_PROT_W)
                for (uint32_t o = 0; o < HEXSIM_PAGE_SIZE; o += sizeof(zero))
                    hexsim_mem_copy_in(&u->mem, a + o, zero, sizeof(zero), true, NULL);
        }
    }
    return 0;
}

int64_t sys_membarrier(struct hexsim_user *u, uint32_t cmd, uint32_t flags)
{
    (void)u;
    if (flags)
        return -EINVAL;
    // one vCPU: every barrier is already there; QUERY lists the commands that do nothing
    if (cmd == 0)
        return 1 | 8 | 16;   // GLOBAL, PRIVATE_EXPEDITED, REGISTER_PRIVATE_EXPEDITED
    return cmd == 1 || cmd == 8 || cmd == 16 ? 0 : -EINVAL;
}

// pid names the process or one of its threads
static bool is_self(struct hexsim_user *u, uint32_t pid)
{
    return (int32_t)pid == hx_getpid(u) || (u->os && hx_thread_index(u->os, (int32_t)pid) >= 0);
}

int64_t sys_sched_getaffinity(struct hexsim_user *u, uint32_t pid, uint32_t len, uint32_t addr)
{
    if (pid && !is_self(u, pid))
        return -ESRCH;
    if (len < 4 || (len & 3))
        return -EINVAL;
    return hx_put32(u, addr, 1) ? -EFAULT : 4;   // one CPU; the kernel's cpumask is 4 bytes
}

int64_t sys_getcpu(struct hexsim_user *u, uint32_t cpu, uint32_t node)
{
    if ((cpu && hx_put32(u, cpu, 0)) || (node && hx_put32(u, node, 0)))
        return -EFAULT;
    return 0;
}

int64_t sys_getresid(struct hexsim_user *u, uint32_t a, uint32_t b, uint32_t c)
{
    if (hx_put32(u, a, 0) || hx_put32(u, b, 0) || hx_put32(u, c, 0))
        return -EFAULT;
    return 0;
}

int64_t sys_prctl(struct hexsim_user *u, uint32_t op, uint32_t arg)
{
    if (op == 15)   // PR_SET_NAME: accepted (the name is not kept)
        return 0;
    if (op == 16) { // PR_GET_NAME
        char name[16] = {0};   // the program's name, cut to 15 bytes as the kernel's comm
        const char *b = strrchr(u->path, '/');
        b = b ? b + 1 : u->path;
        memcpy(name, b, strnlen(b, sizeof(name) - 1));
        return hx_put(u, arg, name, sizeof(name));
    }
    return -EINVAL;
}

int64_t sys_mremap(struct hexsim_user *u, uint32_t old, uint32_t olen, uint32_t nlen,
                   uint32_t flags, uint32_t naddr)
{
    (void)naddr;
    const uint32_t pg = HEXSIM_PAGE_SIZE - 1;
    if ((old & pg) || !nlen || (flags & ~1u))   // MREMAP_MAYMOVE only
        return -EINVAL;
    olen = (olen + pg) & ~pg;
    nlen = (nlen + pg) & ~pg;
    for (uint32_t a = old; a - old < olen; a += HEXSIM_PAGE_SIZE)
        if (!hexsim_mem_is_mapped(&u->mem, a))
            return -EFAULT;
    if (nlen <= olen) {
        if (nlen < olen)
            hexsim_mem_unmap(&u->mem, old + nlen, olen - nlen);
        return old;
    }
    const struct hexsim_page *p = hexsim_mem_page(&u->mem, old);
    unsigned prot = p ? p->prot : HEXSIM_PROT_R | HEXSIM_PROT_W;
    bool room = (uint64_t)old + nlen <= HEXSIM_USER_STACK_TOP - HEXSIM_USER_STACK_SIZE;
    for (uint32_t a = old + olen; room && a - old < nlen; a += HEXSIM_PAGE_SIZE)
        room = !hexsim_mem_is_mapped(&u->mem, a);
    if (room) {   // grows in place
        if (hexsim_mem_map(&u->mem, old + olen, nlen - olen, prot))
            return -ENOMEM;
        return old;
    }
    if (!(flags & 1))
        return -ENOMEM;
    int64_t at = sys_mmap_anon(u, nlen, prot);
    if (at < 0)
        return at;
    for (uint32_t o = 0; o < olen; o += HEXSIM_PAGE_SIZE) {
        const struct hexsim_page *sp = hexsim_mem_page(&u->mem, old + o);
        hexsim_mem_copy_in(&u->mem, (uint32_t)at + o, sp->data, HEXSIM_PAGE_SIZE, true, NULL);
    }
    hexsim_mem_unmap(&u->mem, old, olen);
    return at;
}

int64_t sys_getpriority(struct hexsim_user *u, uint32_t which, uint32_t who)
{
    if (which > 2)
        return -EINVAL;
    if (who != 0 && (int32_t)who != hx_getpid(u))
        return -ESRCH;
    return 20 - (u->os ? u->os->nice : 0);   // the kernel's 20 - nice
}

int64_t sys_setpriority(struct hexsim_user *u, uint32_t which, uint32_t who, uint32_t nice)
{
    struct hexsim_user_os *os = hx_os(u);
    if (!os)
        return -ENOMEM;
    if (which > 2)
        return -EINVAL;
    if (who != 0 && (int32_t)who != hx_getpid(u))
        return -ESRCH;
    int32_t n = (int32_t)nice;
    os->nice = n < -20 ? -20 : n > 19 ? 19 : n;   // (root may lower it; nothing runs faster)
    return 0;
}

int64_t sys_sched_param(struct hexsim_user *u, uint32_t pid, uint32_t param)
{
    if (pid && !is_self(u, pid))
        return -ESRCH;
    if (param && hx_put32(u, param, 0))   // sched_getparam: priority 0
        return -EFAULT;
    return 0;                             // sched_getscheduler: SCHED_OTHER
}

int64_t sys_sched_priority(uint32_t policy, bool max)
{
    if (policy > 6 || policy == 4)
        return -EINVAL;
    if (policy == 1 || policy == 2)   // SCHED_FIFO, SCHED_RR: 1..99
        return max ? 99 : 1;
    return 0;
}

int64_t sys_memfd_create(struct hexsim_user *u, uint32_t name, uint32_t flags)
{
    char n[256];
    int e = hx_copy_str(u, name, n, sizeof(n));
    if (e)
        return e == -ENAMETOOLONG ? -EINVAL : e;
    if (flags & ~7u)   // MFD_CLOEXEC, MFD_ALLOW_SEALING, MFD_HUGETLB
        return -EINVAL;
    int h = memfd_create(n, flags & 3u);
    return h < 0 ? -errno : hx_new_guest_fd(u, h, 0);
}

int64_t sys_close_range(struct hexsim_user *u, uint32_t first, uint32_t last, uint32_t flags)
{
    if (first > last || (flags & ~6u))   // CLOSE_RANGE_UNSHARE, _CLOEXEC
        return -EINVAL;
    for (uint32_t fd = first; fd < HX_MAX_FDS && fd <= last; fd++) {
        int h = u->guest_fd_map[fd];
        if (h < 0)
            continue;
        if (flags & 4) {   // CLOSE_RANGE_CLOEXEC: nothing is executed: only the flag
            fcntl(h, F_SETFD, FD_CLOEXEC);
            continue;
        }
        u->guest_fd_map[fd] = -1;
        hx_evfd_closed(u, h);
        if (h > 2)
            close(h);
    }
    return 0;
}

// ---- ppoll / pselect6

// Host poll over the guest's descriptors (translated). A poll without descriptors (or
// only negative ones) sleeps on the simulated clock (the thread waits); one with
// descriptors waits for the host (they are real files, pipes and terminals), and for
// signals from other processes once there are several. fds has room for one more entry.
static int64_t do_poll(struct hexsim_user *u, struct pollfd *fds, unsigned n, uint32_t tsp,
                       bool t64, uint32_t sigmask)
{
    uint64_t ns = UINT64_MAX;
    if (tsp) {
        int e = hx_read_timespec(u, tsp, t64, &ns);
        if (e)
            return e;
    }
    unsigned valid = 0;
    for (unsigned i = 0; i < n; i++)
        valid += fds[i].fd >= 0;
    if (ns && valid) {   // other threads, timers and timerfds go first (thread.c)
        int64_t y = hx_wait_host(u, fds, n, &ns);
        if (y)
            return y;
    }
    return hx_poll_wait(u, fds, n, ns, sigmask);
}

int64_t hx_poll_wait(struct hexsim_user *u, struct pollfd *fds, unsigned n, uint64_t ns,
                     uint32_t sigmask)
{
    hx_signalfd_sync(u);
    unsigned valid = 0;
    for (unsigned i = 0; i < n; i++)
        valid += fds[i].fd >= 0;
    if (valid == 0) {   // nothing to wait for: a sleep (or pause) on the simulated clock
        struct hexsim_user_os *os = hx_os(u);
        if (!os)
            return -ENOMEM;
        struct hx_thread *t = &os->t[os->cur];
        if (sigmask) {
            uint64_t m;
            if (hx_get64(u, sigmask, &m))
                return -EFAULT;
            t->saved_mask = t->mask;
            t->has_saved_mask = true;
            t->mask = m & ~(1ull << 8 | 1ull << 18);
        }
        if (ns == 0)
            return 0;
        t->rem_addr = 0;
        t->sigwait = 0;
        hx_wait(u, ns == UINT64_MAX ? HX_WAIT_SIGNAL : HX_WAIT_SLEEP,
                ns == UINT64_MAX ? HX_NO_TIME : u->cpu.pcycles + hx_ns_to_pcycles(ns), true,
                false);
        return HX_SYS_NORET;
    }
    int ms = ns == UINT64_MAX ? -1 : (int)(ns / 1000000u > 0x7fffffff ? 0x7fffffff : ns / 1000000u);
    if (!u->proc || u->proc->sigfd < 0) {
        int r = poll(fds, n, ms);
        return r < 0 ? -errno : r;
    }
    // other processes may signal meanwhile: their signals' descriptor joins the poll (fds
    // has room for it), with the call's mask in force while it waits; a signal the thread
    // takes ends the call with -EINTR and its handler runs with that mask
    struct hexsim_user_os *os = hx_os(u);
    if (!os)
        return -ENOMEM;
    struct hx_thread *t = &os->t[os->cur];
    uint64_t old = t->mask;
    if (sigmask) {
        uint64_t m;
        if (hx_get64(u, sigmask, &m))
            return -EFAULT;
        t->mask = m & ~(1ull << 8 | 1ull << 18);
    }
    fds[n] = (struct pollfd){ u->proc->sigfd, POLLIN, 0 };
    for (;;) {
        int r = poll(fds, n + 1, ms);
        if (r < 0 && errno == EINTR)
            continue;
        bool sig = r > 0 && fds[n].revents;
        if (sig) {
            r--;
            fds[n].revents = 0;
            hx_proc_signals(u, 0);
            hx_signalfd_sync(u);   // a signalfd may be readable now: poll again
            if (r == 0 && !hx_signal_ready(u) && poll(fds, n, 0) > 0)
                continue;
        }
        if (sig && r == 0 && hx_signal_ready(u)) {
            if (sigmask) {
                t->saved_mask = old;
                t->has_saved_mask = true;
            }
            return -EINTR;
        }
        if (r != 0 || !sig) {
            t->mask = old;
            return r < 0 ? -errno : r;
        }
    }
}

int64_t sys_ppoll(struct hexsim_user *u, uint32_t addr, uint32_t n, uint32_t tsp,
                  uint32_t sigmask, bool t64)
{
    if (n > HX_MAX_FDS * 4)
        return -EINVAL;
    struct pollfd fds[HX_MAX_FDS * 4 + 1];   // (+1: do_poll's own)
    for (uint32_t i = 0; i < n; i++) {
        uint8_t b[8];
        if (hx_get(u, addr + 8 * i, b, 8))
            return -EFAULT;
        int32_t gfd = (int32_t)(b[0] | b[1] << 8 | b[2] << 16 | (uint32_t)b[3] << 24);
        int h = gfd < 0 ? -1 : hx_host_fd(u, (uint32_t)gfd);
        fds[i].fd = h;
        fds[i].events = (short)(b[4] | b[5] << 8);
        fds[i].revents = 0;
        if (gfd >= 0 && h < 0) {
            fds[i].fd = -1;
            fds[i].revents = POLLNVAL;
        }
    }
    int nval = 0;
    for (uint32_t i = 0; i < n; i++)
        nval += fds[i].revents == POLLNVAL;
    int64_t r = nval ? 0 : do_poll(u, fds, n, tsp, t64, sigmask);
    if (r < 0 || r == HX_SYS_NORET)
        return r;
    int ready = 0;
    for (uint32_t i = 0; i < n; i++) {
        uint8_t b[2] = { (uint8_t)fds[i].revents, (uint8_t)(fds[i].revents >> 8) };
        ready += fds[i].revents != 0;
        if (hx_put(u, addr + 8 * i + 6, b, 2))
            return -EFAULT;
    }
    return ready;
}

int64_t sys_pselect6(struct hexsim_user *u, uint32_t n, uint32_t rd, uint32_t wr, uint32_t ex,
                     uint32_t tsp, uint32_t sig, bool t64)
{
    if ((int32_t)n < 0 || n > 1024)
        return -EINVAL;
    if (n > HX_MAX_FDS)
        n = HX_MAX_FDS;
    uint8_t sets[3][8] = {{0}};
    uint32_t addr[3] = { rd, wr, ex };
    uint32_t bytes = (n + 31) / 32 * 4;
    for (int s = 0; s < 3; s++)
        if (addr[s] && bytes && hx_get(u, addr[s], sets[s], bytes))
            return -EFAULT;
    struct pollfd fds[HX_MAX_FDS + 1];   // (+1: do_poll's own)
    uint32_t gfd[HX_MAX_FDS];
    unsigned k = 0;
    for (uint32_t fd = 0; fd < n; fd++) {
        short ev = 0;
        for (int s = 0; s < 3; s++)
            if (sets[s][fd / 8] >> (fd % 8) & 1)
                ev |= s == 0 ? POLLIN : s == 1 ? POLLOUT : POLLPRI;
        if (!ev)
            continue;
        int h = hx_host_fd(u, fd);
        if (h < 0)
            return -EBADF;
        fds[k] = (struct pollfd){ h, ev, 0 };
        gfd[k++] = fd;
    }
    uint32_t sigmask = 0;
    if (sig) {   // { const sigset_t *ss; size_t ss_len }
        uint32_t len;
        if (hx_get32(u, sig, &sigmask) || hx_get32(u, sig + 4, &len))
            return -EFAULT;
        if (sigmask && len != 8)
            return -EINVAL;
    }
    int64_t r = do_poll(u, fds, k, tsp, t64, sigmask);
    if (r < 0 || r == HX_SYS_NORET)
        return r;
    memset(sets, 0, sizeof(sets));
    int count = 0;
    for (unsigned i = 0; i < k; i++) {
        short re = fds[i].revents;
        uint32_t fd = gfd[i];
        bool hit[3] = { (re & (POLLIN | POLLHUP | POLLERR)) && (fds[i].events & POLLIN),
                        (re & (POLLOUT | POLLERR)) && (fds[i].events & POLLOUT),
                        (re & POLLPRI) && (fds[i].events & POLLPRI) };
        for (int s = 0; s < 3; s++)
            if (hit[s]) {
                sets[s][fd / 8] |= (uint8_t)(1u << (fd % 8));
                count++;
            }
    }
    for (int s = 0; s < 3; s++)
        if (addr[s] && bytes && hx_put(u, addr[s], sets[s], bytes))
            return -EFAULT;
    return count;
}
