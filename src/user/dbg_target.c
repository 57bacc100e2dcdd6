// SPDX-License-Identifier: MIT
// Linux user-mode debugger target: see dbg_target.h and src/debug/README.md. Packets run
// through hexsim_user_step (the run loop's own step, run.c) with the executor's write log
// switched on when a caller needs it (stepping, watchpoints).
#include "dbg_target.h"

#include <signal.h>
#include <stdio.h>
#include <string.h>

#include "debug/cpu_regs.h"

static const struct hexsim_dbg_reg_desc *ut_regs(void *t, unsigned *count)
{
    struct hexsim_user_dbg *d = t;
    const struct hexsim_dbg_reg_desc *r = hexsim_dbg_cpu_regs(count);
    if (!(d->u->arch & HEXSIM_ARCH_HVX))
        *count = HEXSIM_DBG_CPU_NREGS;   // (a core without HVX)
    return r;
}

static int ut_read_reg(void *t, unsigned thread, unsigned num, uint64_t *val)
{
    struct hexsim_user_dbg *d = t;
    if (thread != 1)
        return -1;
    return hexsim_dbg_cpu_read(&d->u->cpu, num, val);
}

static int ut_write_reg(void *t, unsigned thread, unsigned num, uint64_t val)
{
    struct hexsim_user_dbg *d = t;
    if (thread != 1)
        return -1;
    return hexsim_dbg_cpu_write(&d->u->cpu, num, val);
}

static int ut_read_wide(void *t, unsigned thread, unsigned num, void *buf)
{
    struct hexsim_user_dbg *d = t;
    if (thread != 1 || !(d->u->arch & HEXSIM_ARCH_HVX))
        return -1;
    return hexsim_dbg_cpu_read_wide(&d->u->cpu, num, buf);
}

static int ut_write_wide(void *t, unsigned thread, unsigned num, const void *buf)
{
    struct hexsim_user_dbg *d = t;
    if (thread != 1 || !(d->u->arch & HEXSIM_ARCH_HVX))
        return -1;
    return hexsim_dbg_cpu_write_wide(&d->u->cpu, num, buf);
}

// Page by page, so that a transfer stops short at the first unmapped byte. Any permission
// will do for a debugger read; writes ignore permissions (and drop cached code).
static size_t transfer(void *t, unsigned thread, uint64_t addr, void *rbuf, const void *wbuf,
                       size_t len, unsigned flags)
{
    struct hexsim_user_dbg *d = t;
    size_t done = 0;
    if (thread != 1 || (flags & HEXSIM_DBG_MEM_PHYS))
        return 0;
    while (done < len && addr + done <= 0xffffffffu) {
        uint32_t a = (uint32_t)(addr + done);
        size_t chunk = HEXSIM_PAGE_SIZE - (a & (HEXSIM_PAGE_SIZE - 1));
        if (chunk > len - done)
            chunk = len - done;
        if (wbuf ? hexsim_mem_copy_in(&d->u->mem, a, (const uint8_t *)wbuf + done, chunk, true,
                                      NULL)
                 : hexsim_mem_copy_out(&d->u->mem, a, (uint8_t *)rbuf + done, chunk,
                                       HEXSIM_PROT_R | HEXSIM_PROT_W | HEXSIM_PROT_X, NULL))
            break;
        done += chunk;
    }
    return done;
}

static size_t ut_read_mem(void *t, unsigned thread, uint64_t addr, void *buf, size_t len,
                          unsigned flags)
{
    return transfer(t, thread, addr, buf, NULL, len, flags);
}

static size_t ut_write_mem(void *t, unsigned thread, uint64_t addr, const void *buf,
                           size_t len, unsigned flags)
{
    return transfer(t, thread, addr, NULL, buf, len, flags);
}

static void stop_exit(struct hexsim_user_dbg *d, struct hexsim_dbg_stop *stop)
{
    stop->kind = HEXSIM_DBG_STOP_EXIT;
    stop->exit_status = d->exit_status;
    stop->signal = d->exit_signal;
    stop->pc = d->u->cpu.pc;
}

// One packet; trace may be NULL. Leaves stop->kind STEP, FAULT or EXIT.
static void one_packet(struct hexsim_user_dbg *d, struct hexsim_exec_trace *trace,
                       struct hexsim_dbg_step_info *info, struct hexsim_dbg_stop *stop)
{
    struct hexsim_user *u = d->u;
    stop->pc = u->cpu.pc;
    if (d->dead) {
        stop_exit(d, stop);
        return;
    }
    if (d->faulted) {   // resuming after a fault: the handler runs, or the signal ends it
        d->faulted = false;
        if (hexsim_user_fault_signal(u, &d->fault_ev)) {
            stop->kind = HEXSIM_DBG_STOP_STEP;
            stop->pc = u->cpu.pc;
            return;
        }
        d->dead = true;
        d->exit_status = d->fault_status;
        d->exit_signal = d->fault_status - 128;
        stop_exit(d, stop);
        return;
    }
    struct hexsim_event_info ev;
    const struct hexsim_packet *pkt;
    uint32_t pc = u->cpu.pc;
    d->x.env.trace = trace;
    int r = hexsim_user_step(u, &d->x, &ev, &pkt);
    d->x.env.trace = NULL;
    stop->packets++;
    if (info) {
        info->pc = pc;
        info->decoded = pkt != NULL;
        if (pkt)
            info->pkt = *pkt;
        info->ev = ev;
    }
    if (r == HEXSIM_USER_STEP_OK) {
        stop->kind = HEXSIM_DBG_STOP_STEP;
        stop->pc = u->cpu.pc;
    } else if (r == HEXSIM_USER_STEP_EXIT) {
        d->dead = true;
        d->exit_status = u->exit_status;
        stop_exit(d, stop);
    } else {
        FILE *saved = u->err;
        FILE *m = fmemopen(stop->msg, sizeof(stop->msg), "w");
        if (m)
            u->err = m;
        d->fault_status = hexsim_user_fault_line(u, &ev);   // the debugger shows the rest
        if (m) {
            fclose(m);
            stop->msg[sizeof(stop->msg) - 1] = '\0';
        }
        u->err = saved;
        d->faulted = true;
        d->fault_ev = ev;
        stop->kind = HEXSIM_DBG_STOP_FAULT;
        stop->signal = d->fault_status - 128;
        stop->addr = ev.addr;
        stop->pc = u->cpu.pc;
    }
}

static void ut_step(void *t, unsigned thread, struct hexsim_dbg_step_info *info,
                    struct hexsim_dbg_stop *stop)
{
    struct hexsim_user_dbg *d = t;
    memset(stop, 0, sizeof(*stop));
    stop->thread = 1;
    (void)thread;
    memset(info, 0, sizeof(*info));
    if (!d->x.pcache) {   // a view (hexsim_user_dbg_view) runs nothing
        stop->kind = HEXSIM_DBG_STOP_EXIT;
        stop->exit_status = hexsim_user_dbg_status(d);
        return;
    }
    one_packet(d, &info->trace, info, stop);
}

static void ut_run(void *t, const struct hexsim_dbg_run *c, struct hexsim_dbg_stop *stop)
{
    struct hexsim_user_dbg *d = t;
    struct hexsim_exec_trace trace;
    memset(stop, 0, sizeof(*stop));
    stop->thread = 1;
    if (!d->x.pcache) {   // a view (hexsim_user_dbg_view) runs nothing
        stop->kind = HEXSIM_DBG_STOP_EXIT;
        stop->exit_status = hexsim_user_dbg_status(d);
        return;
    }
    for (uint64_t n = 0;; n++) {
        uint32_t pc = d->u->cpu.pc;
        if (!(n == 0 && c->step_over_bp) && !d->dead && !d->faulted)
            for (unsigned i = 0; i < c->nbp; i++)
                if (c->bp[i] == pc) {
                    stop->kind = HEXSIM_DBG_STOP_BREAK;
                    stop->index = (int)i;
                    stop->pc = pc;
                    return;
                }
        if (c->max_packets && n >= c->max_packets) {
            stop->kind = HEXSIM_DBG_STOP_LIMIT;
            stop->pc = pc;
            return;
        }
        if (c->poll && n && n % HEXSIM_DBG_POLL_PACKETS == 0 && c->poll(c->poll_ctx)) {
            stop->kind = HEXSIM_DBG_STOP_INTERRUPT;
            stop->pc = pc;
            return;
        }
        one_packet(d, c->nwp ? &trace : NULL, NULL, stop);
        if (stop->kind != HEXSIM_DBG_STOP_STEP)
            return;
        if (c->nwp && trace.committed) {
            int w = hexsim_dbg_watch_hit(c->wp, c->nwp, &trace, stop);
            if (w >= 0) {
                stop->kind = HEXSIM_DBG_STOP_WATCH;
                stop->index = w;
                return;
            }
        }
    }
}

static unsigned ut_threads(void *t, unsigned *ids, unsigned max)
{
    (void)t;
    if (max)
        ids[0] = 1;
    return 1;
}

static const struct hexsim_symtab *ut_symtab(void *t)
{
    struct hexsim_user_dbg *d = t;
    return &d->syms;
}

static unsigned ut_arch(void *t)
{
    struct hexsim_user_dbg *d = t;
    return d->u->arch;
}

static int ut_save(void *t, const char *path, char *msg, size_t msglen)
{
    struct hexsim_user_dbg *d = t;
    if (d->dead) {
        snprintf(msg, msglen, "the program has ended: there is no process to save");
        return -1;
    }
    return hexsim_user_snapshot_save(d->u, path, msg, msglen);
}

static int ut_load(void *t, const char *path, char *msg, size_t msglen)
{
    struct hexsim_user_dbg *d = t;
    if (hexsim_user_snapshot_restore(d->u, path, true, msg, msglen))
        return -1;
    d->faulted = false;                  // a pending signal belonged to the old state
    d->dead = d->u->exited;
    d->exit_status = d->u->exit_status;
    d->exit_signal = 0;
    return 0;
}

static const struct hexsim_dbg_target_ops user_target_ops = {
    .name = "user",
    .regs = ut_regs,
    .read_reg = ut_read_reg,
    .write_reg = ut_write_reg,
    .read_wide = ut_read_wide,
    .write_wide = ut_write_wide,
    .read_mem = ut_read_mem,
    .write_mem = ut_write_mem,
    .step = ut_step,
    .run = ut_run,
    .threads = ut_threads,
    .symtab = ut_symtab,
    .arch = ut_arch,
    .info = NULL,
    .save = ut_save,
    .load = ut_load,
    .restartable = true,
};

int hexsim_user_dbg_init(struct hexsim_user_dbg *d, struct hexsim_user *u,
                         struct hexsim_dbg_target *t)
{
    memset(d, 0, sizeof(*d));
    d->u = u;
    if (hexsim_user_exec_init(u, &d->x))
        return -1;
    hexsim_symtab_load(&d->syms, u->path);   // no symbols is not an error
    t->ops = &user_target_ops;
    t->ctx = d;
    return 0;
}

void hexsim_user_dbg_view(struct hexsim_user_dbg *d, struct hexsim_user *u,
                          struct hexsim_dbg_target *t)
{
    memset(d, 0, sizeof(*d));
    d->u = u;
    hexsim_symtab_load(&d->syms, u->path);   // no symbols is not an error
    t->ops = &user_target_ops;
    t->ctx = d;
}

void hexsim_user_dbg_free(struct hexsim_user_dbg *d)
{
    hexsim_user_exec_free(&d->x);
    hexsim_symtab_free(&d->syms);
}

int hexsim_user_dbg_status(const struct hexsim_user_dbg *d)
{
    if (d->dead)
        return d->exit_status;
    return d->faulted ? d->fault_status : 0;
}
