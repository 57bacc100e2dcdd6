// SPDX-License-Identifier: MIT
// The thread, signal and timer state of a user-mode process (os.h) in a snapshot
// (src/snap/snap_user.c keeps the sections): struct hexsim_user_os with its thread-table
// pointer and directory descriptor cleared, and the thread table. Read back from a file,
// every value the code relies on is checked (counts, indices, wait states, signal
// numbers, timer kinds; booleans are rebuilt from their bytes), so a damaged snapshot is
// refused, never used. A process that changed its current directory cannot be saved: the
// snapshot could not reopen the host directory.
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "hexsim/dev.h"
#include "sys.h"

const char *hexsim_user_os_unsaved(const struct hexsim_user *u)
{
    if (u->proc)
        return "the process has made other processes (fork) or is one of them: a snapshot "
               "holds one process";
    if (u->evfd)
        for (unsigned i = 0; i < HX_MAX_EVFDS; i++)
            if (u->evfd[i].h)
                return "the process has a timerfd or signalfd (host descriptors a snapshot "
                       "does not hold)";
    if (u->os && u->os->cwd_fd >= 0)
        return "the process changed its current directory (a host directory the snapshot "
               "could not reopen)";
    return NULL;
}

// True when os holds nothing a fresh process would not (what a process that only slept or
// read the time made): then no sections are written, and a restore starts afresh.
static bool is_default(const struct hexsim_user_os *os)
{
    const struct hx_thread *t = &os->t[0];
    if (os->n != 1 || t->tid != 1 || os->next_tid != 2 || t->clear_tid || t->mask ||
        t->pending || os->pending || !(t->ss_flags & 2) || t->has_saved_mask ||
        t->wait != HX_RUNNING || os->umask != 022 || os->nice || os->vdso ||
        os->leader_exited || os->threads_made != 1 || os->switches || os->handled ||
        hx_timers_armed((struct hexsim_user_os *)os))
        return false;
    for (unsigned i = 0; i <= HX_NSIG; i++)
        if (os->act[i].handler || os->act[i].flags || os->act[i].mask)
            return false;
    for (unsigned i = 0; i < HX_MAX_TIMERS; i++)
        if (os->timers[i].used)
            return false;
    return true;
}

size_t hexsim_user_os_save(const struct hexsim_user *u, struct hexsim_user_os *hdr,
                           const void **threads)
{
    if (!u->os || is_default(u->os))
        return 0;
    *hdr = *u->os;
    hdr->t = NULL;
    hdr->cwd_fd = -1;
    *threads = u->os->t;
    return u->os->n * sizeof(struct hx_thread);
}

static bool bad_timer(const struct hx_timer *m, bool posix)
{
    if (!posix && m->next == HX_NO_TIME)
        return false;
    if (posix && !m->used)
        return false;
    if (m->clock > 11 || (m->notify != 0 && m->notify != 1 && m->notify != 4))
        return true;
    return m->notify != 1 && (m->signo < 1 || m->signo > HX_NSIG);
}

struct hexsim_user_os *hexsim_user_os_load(const void *hdr, size_t hlen, const void *thr,
                                           size_t tlen, const char **why)
{
    *why = "section os or threads: the wrong size";
    if (hlen != sizeof(struct hexsim_user_os))
        return NULL;
    struct hexsim_user_os *os = malloc(sizeof(*os));
    if (!os) {
        *why = "out of memory";
        return NULL;
    }
    memcpy(os, hdr, sizeof(*os));
    HEXSIM_RESTORE_BOOL(os, hdr, struct hexsim_user_os, leader_exited);
    os->t = NULL;
    os->cwd_fd = -1;
    if (os->n < 1 || os->n > HX_MAX_THREADS || os->cur >= os->n ||
        tlen != os->n * sizeof(struct hx_thread))
        goto bad;
    *why = "section os: impossible thread ids, priority or exit status";
    if (os->next_tid < 2 || os->next_tid > (1 << 30) || os->nice < -20 || os->nice > 19 ||
        os->exit_status_leader < 0 || os->exit_status_leader > 255)
        goto bad;
    *why = "section os: a timer with an impossible clock, kind or signal";
    for (unsigned i = 0; i < HX_MAX_TIMERS; i++) {
        const uint8_t *src = (const uint8_t *)hdr + offsetof(struct hexsim_user_os, timers) +
                             i * sizeof(struct hx_timer);
        HEXSIM_RESTORE_BOOL(&os->timers[i], src, struct hx_timer, used);
        if (bad_timer(&os->timers[i], true))
            goto bad;
    }
    for (unsigned i = 0; i < 3; i++)
        if (bad_timer(&os->itimer[i], false))
            goto bad;
    *why = "out of memory";
    os->t = malloc(tlen);
    if (!os->t)
        goto bad;
    memcpy(os->t, thr, tlen);
    *why = "section threads: a thread in an impossible state";
    for (unsigned i = 0; i < os->n; i++) {
        struct hx_thread *t = &os->t[i];
        const uint8_t *src = (const uint8_t *)thr + i * sizeof(struct hx_thread);
        HEXSIM_RESTORE_BOOL(t, src, struct hx_thread, interruptible);
        HEXSIM_RESTORE_BOOL(t, src, struct hx_thread, restart);
        HEXSIM_RESTORE_BOOL(t, src, struct hx_thread, has_saved_mask);
        HEXSIM_RESTORE_BOOL(t, src, struct hx_thread, rem_t64);
        // (between packets the thread on the vCPU runs; the others may wait)
        if (t->wait < HX_RUNNING || t->wait > HX_WAIT_RETRY || t->tid < 1 ||
            t->tid >= os->next_tid ||
            (i == os->cur && t->wait != HX_RUNNING))
            goto bad;
    }
    return os;
bad:
    free(os->t);
    free(os);
    return NULL;
}
