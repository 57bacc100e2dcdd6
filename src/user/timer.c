// SPDX-License-Identifier: MIT
// Timers of a user-mode process on the simulated (pcycle) clock: setitimer/getitimer
// (ITIMER_REAL, _VIRTUAL, _PROF sending SIGALRM, SIGVTALRM, SIGPROF with SI_KERNEL; the
// process's only time is the one it runs, so all three count the same clock; struct
// itimerval of 32-bit timevals, kernel/time/itimer.c), and POSIX timers timer_create,
// timer_settime/_gettime (32- and 64-bit itimerspec), timer_getoverrun, timer_delete
// (SIGEV_SIGNAL, SIGEV_NONE, SIGEV_THREAD_ID; the signal carries SI_TIMER, the timer id,
// the overrun count and sigev_value: kernel/time/posix-timers.c). A timer fires when the
// clock has reached it at a turn of the scheduler (every HX_OS_QUANTUM packets, or at once
// when every thread waits), so when it fires depends only on the program.
#include <string.h>

#include "sys.h"

#define SIGEV_SIGNAL 0
#define SIGEV_NONE 1
#define SIGEV_THREAD_ID 4
#define SI_TIMER (-2)
#define SI_KERNEL 0x80

bool hx_timers_armed(struct hexsim_user_os *os)
{
    for (unsigned i = 0; i < 3; i++)
        if (os->itimer[i].next != HX_NO_TIME)
            return true;
    for (unsigned i = 0; i < HX_MAX_TIMERS; i++)
        if (os->timers[i].used && os->timers[i].next != HX_NO_TIME)
            return true;
    return false;
}

uint64_t hx_timer_due(uint64_t *next, uint64_t interval, uint64_t now)
{
    if (*next == HX_NO_TIME || now < *next)
        return 0;
    uint64_t periods = 1;
    if (interval) {
        periods += (now - *next) / interval;
        *next += periods * interval;
    } else {
        *next = HX_NO_TIME;
    }
    return periods;
}

// Fires timer m if due: one signal however many periods passed (the rest are overruns).
static void fire(struct hexsim_user *u, struct hx_timer *m, int id)
{
    uint64_t periods = hx_timer_due(&m->next, m->interval, u->cpu.pcycles);
    if (!periods)
        return;
    if (m->notify == SIGEV_NONE)
        return;
    struct hx_siginfo info = { SI_KERNEL, { 0, 0, 0 } };
    if (id >= 0) {
        m->overrun = (uint32_t)(periods - 1);
        info.code = SI_TIMER;
        info.w[0] = (uint32_t)id;
        info.w[1] = m->overrun;
        info.w[2] = m->value;
    }
    int target = -1;
    if (m->notify == SIGEV_THREAD_ID)
        target = hx_thread_index(u->os, m->tid);
    if (m->notify == SIGEV_THREAD_ID && target < 0)
        return;
    hx_signal(u, target, m->signo, &info);
}

uint64_t hx_timers_run(struct hexsim_user *u)
{
    struct hexsim_user_os *os = u->os;
    uint64_t next = HX_NO_TIME;
    for (unsigned i = 0; i < 3; i++) {
        fire(u, &os->itimer[i], -1);
        if (os->itimer[i].next < next)
            next = os->itimer[i].next;
    }
    for (unsigned i = 0; i < HX_MAX_TIMERS; i++) {
        if (!os->timers[i].used)
            continue;
        fire(u, &os->timers[i], (int)i);
        if (os->timers[i].next < next)
            next = os->timers[i].next;
    }
    uint64_t fd_next = hx_timerfds_run(u);
    return fd_next < next ? fd_next : next;
}

// ---- setitimer / getitimer (struct itimerval: interval, value; each {sec, usec} 32-bit)

static int put_itimerval(struct hexsim_user *u, uint32_t addr, const struct hx_timer *m)
{
    uint64_t left = m->next == HX_NO_TIME ? 0 : hx_pcycles_to_ns(m->next - u->cpu.pcycles);
    if (m->next != HX_NO_TIME && left < 1000)
        left = 1000;   // an armed timer reads at least 1 us (kernel: itimer_get_remtime)
    uint64_t iv = hx_pcycles_to_ns(m->interval);
    uint8_t b[16];
    hx_le32(b, (uint32_t)(iv / 1000000000ull));
    hx_le32(b + 4, (uint32_t)(iv % 1000000000ull / 1000));
    hx_le32(b + 8, (uint32_t)(left / 1000000000ull));
    hx_le32(b + 12, (uint32_t)(left % 1000000000ull / 1000));
    return hx_put(u, addr, b, 16);
}

static int get_timeval(struct hexsim_user *u, uint32_t addr, uint64_t *ns)
{
    uint32_t s, us;
    if (hx_get32(u, addr, &s) || hx_get32(u, addr + 4, &us))
        return -EFAULT;
    if ((int32_t)s < 0 || us >= 1000000)
        return -EINVAL;
    *ns = (uint64_t)s * 1000000000ull + (uint64_t)us * 1000;
    return 0;
}

int64_t sys_setitimer(struct hexsim_user *u, uint32_t which, uint32_t nv, uint32_t ov)
{
    struct hexsim_user_os *os = hx_os(u);
    if (!os)
        return -ENOMEM;
    if (which > 2)
        return -EINVAL;
    struct hx_timer *m = &os->itimer[which];
    uint64_t iv = 0, val = 0;
    if (nv) {
        int e = get_timeval(u, nv, &iv);
        if (!e)
            e = get_timeval(u, nv + 8, &val);
        if (e)
            return e;
    }
    if (ov && put_itimerval(u, ov, m))
        return -EFAULT;
    static const int signo[3] = { 14, 26, 27 };   // SIGALRM, SIGVTALRM, SIGPROF
    m->signo = signo[which];
    m->notify = SIGEV_SIGNAL;
    m->interval = hx_ns_to_pcycles(iv);
    m->next = val ? u->cpu.pcycles + hx_ns_to_pcycles(val) : HX_NO_TIME;
    if (val)
        hx_want_turns(u);
    return 0;
}

int64_t sys_getitimer(struct hexsim_user *u, uint32_t which, uint32_t cv)
{
    struct hexsim_user_os *os = hx_os(u);
    if (!os)
        return -ENOMEM;
    if (which > 2)
        return -EINVAL;
    return put_itimerval(u, cv, &os->itimer[which]);
}

// ---- POSIX timers

int64_t sys_timer_create(struct hexsim_user *u, uint32_t clk, uint32_t sev, uint32_t idp)
{
    struct hexsim_user_os *os = hx_os(u);
    if (!os)
        return -ENOMEM;
    if (clk > 11 || clk == 4 || clk == 6 || clk == 10)   // RAW, COARSE clocks, TAI: no timers
        return -EINVAL;
    struct hx_timer m = { .used = true, .clock = clk, .notify = SIGEV_SIGNAL, .signo = 14,
                          .next = HX_NO_TIME };
    int id = -1;
    for (unsigned i = 0; i < HX_MAX_TIMERS && id < 0; i++)
        if (!os->timers[i].used)
            id = (int)i;
    if (id < 0)
        return -EAGAIN;
    m.value = (uint32_t)id;
    if (sev) {
        uint32_t w[4];
        for (unsigned i = 0; i < 4; i++)
            if (hx_get32(u, sev + 4 * i, &w[i]))
                return -EFAULT;
        m.value = w[0];
        m.signo = (int)w[1];
        m.notify = (int)w[2];
        m.tid = (int32_t)w[3];
        if (m.notify != SIGEV_SIGNAL && m.notify != SIGEV_NONE && m.notify != SIGEV_THREAD_ID)
            return -EINVAL;
        if (m.notify != SIGEV_NONE && (m.signo < 1 || m.signo > HX_NSIG))
            return -EINVAL;
        if (m.notify == SIGEV_THREAD_ID && hx_thread_index(os, m.tid) < 0)
            return -EINVAL;
    }
    if (hx_put32(u, idp, (uint32_t)id))
        return -EFAULT;
    os->timers[id] = m;
    return 0;
}

static struct hx_timer *timer_of(struct hexsim_user *u, uint32_t id)
{
    struct hexsim_user_os *os = hx_os(u);
    if (!os || id >= HX_MAX_TIMERS || !os->timers[id].used)
        return NULL;
    return &os->timers[id];
}

int hx_put_itimerspec(struct hexsim_user *u, uint32_t addr, uint64_t next, uint64_t interval,
                      bool t64)
{
    uint64_t left = next == HX_NO_TIME ? 0 : hx_pcycles_to_ns(next - u->cpu.pcycles);
    if (next != HX_NO_TIME && left == 0)
        left = 1;
    int sz = t64 ? 16 : 8;
    if (hx_write_timespec(u, addr, t64, hx_pcycles_to_ns(interval)) ||
        hx_write_timespec(u, addr + (uint32_t)sz, t64, left))
        return -EFAULT;
    return 0;
}

int64_t sys_timer_settime(struct hexsim_user *u, uint32_t id, uint32_t flags, uint32_t nv,
                          uint32_t ov, bool t64)
{
    struct hx_timer *m = timer_of(u, id);
    if (!m)
        return -EINVAL;
    uint64_t iv, val;
    int sz = t64 ? 16 : 8;
    int e = hx_read_timespec(u, nv, t64, &iv);
    if (!e)
        e = hx_read_timespec(u, nv + (uint32_t)sz, t64, &val);
    if (e)
        return e;
    if (ov && hx_put_itimerspec(u, ov, m->next, m->interval, t64))
        return -EFAULT;
    if (val && (flags & 1)) {   // TIMER_ABSTIME
        uint64_t now = hx_now_ns(u, m->clock);
        val = val > now ? val - now : 0;
        if (!val)
            val = 1;
    }
    m->interval = hx_ns_to_pcycles(iv);
    m->next = val ? u->cpu.pcycles + hx_ns_to_pcycles(val) : HX_NO_TIME;
    m->overrun = 0;
    if (val)
        hx_want_turns(u);
    return 0;
}

int64_t sys_timer_gettime(struct hexsim_user *u, uint32_t id, uint32_t cv, bool t64)
{
    struct hx_timer *m = timer_of(u, id);
    if (!m)
        return -EINVAL;
    return hx_put_itimerspec(u, cv, m->next, m->interval, t64);
}

int64_t sys_timer_getoverrun(struct hexsim_user *u, uint32_t id)
{
    struct hx_timer *m = timer_of(u, id);
    return m ? (int64_t)m->overrun : -EINVAL;
}

int64_t sys_timer_delete(struct hexsim_user *u, uint32_t id)
{
    struct hx_timer *m = timer_of(u, id);
    if (!m)
        return -EINVAL;
    memset(m, 0, sizeof(*m));
    m->next = HX_NO_TIME;
    return 0;
}
