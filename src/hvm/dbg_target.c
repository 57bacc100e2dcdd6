// SPDX-License-Identifier: MIT
// System-mode debugger target: see dbg_target.h and src/debug/README.md. Packets run in
// the machine's own run loop (run.c) with a per-packet hook installed for one step/run
// call: before a packet it checks breakpoints, the packet limit and the poll callback (and
// in a step lets only the chosen vCPU run); after it, the step's end and watchpoints
// through the executor's write log. Memory reads walk the guest page tables directly
// (hexsim_hvm_translate) so a debugger access never fills the vCPU's soft TLB or faults.
#include "dbg_target.h"

#include <string.h>

#include "hexsim/snapshot.h"
#include "prof_task.h"

#define REG_HTID 72
#define REG_G0 80

static struct hexsim_vcpu *vcpu_of(struct hexsim_sys_dbg *d, unsigned thread)
{
    if (thread < 1 || thread > d->m->nvcpu)
        return NULL;
    return &d->m->vcpu[thread - 1];
}

static const struct hexsim_dbg_reg_desc *st_regs(void *t, unsigned *count)
{
    struct hexsim_sys_dbg *d = t;
    *count = d->nregs;
    return d->regs;
}

static int st_read_reg(void *t, unsigned thread, unsigned num, uint64_t *val)
{
    struct hexsim_vcpu *v = vcpu_of(t, thread);
    if (!v)
        return -1;
    if (num < HEXSIM_DBG_CPU_NREGS)
        return hexsim_dbg_cpu_read(&v->cpu, num, val);
    if (num >= REG_G0 && num < REG_G0 + 4) {
        *val = v->cpu.g[num - REG_G0];
        return 0;
    }
    if (num == REG_HTID) {
        *val = v->id;
        return 0;
    }
    return -1;
}

static int st_write_reg(void *t, unsigned thread, unsigned num, uint64_t val)
{
    struct hexsim_vcpu *v = vcpu_of(t, thread);
    if (!v)
        return -1;
    if (num < HEXSIM_DBG_CPU_NREGS)
        return hexsim_dbg_cpu_write(&v->cpu, num, val);
    if (num >= REG_G0 && num < REG_G0 + 4) {
        v->cpu.g[num - REG_G0] = (uint32_t)val;
        return 0;
    }
    return -1;   // HTID is the vCPU's number
}

static int st_read_wide(void *t, unsigned thread, unsigned num, void *buf)
{
    struct hexsim_vcpu *v = vcpu_of(t, thread);
    if (!v || !(((struct hexsim_sys_dbg *)t)->m->arch & HEXSIM_ARCH_HVX))
        return -1;
    return hexsim_dbg_cpu_read_wide(&v->cpu, num, buf);
}

static int st_write_wide(void *t, unsigned thread, unsigned num, const void *buf)
{
    struct hexsim_vcpu *v = vcpu_of(t, thread);
    if (!v || !(((struct hexsim_sys_dbg *)t)->m->arch & HEXSIM_ARCH_HVX))
        return -1;
    return hexsim_dbg_cpu_write_wide(&v->cpu, num, buf);
}

// The RAM page at physical pa, NULL for device space and holes.
static struct hexsim_page *ram_page(struct hexsim_machine *m, uint32_t pa)
{
    if (pa - m->ram_base >= m->ram_size)
        return NULL;
    return hexsim_mem_page(&m->ram, pa);
}

// Virtual to physical as v sees it now; permissions are ignored (a debugger may read what
// the current mode could not).
static int va_to_pa(struct hexsim_vcpu *v, uint32_t va, uint32_t *pa)
{
    unsigned prot;
    return hexsim_hvm_translate(v, va, false, pa, &prot) ? -1 : 0;
}

// Page by page; returns the bytes moved (short at the first unreachable byte).
static size_t xfer(struct hexsim_sys_dbg *d, unsigned thread, uint64_t addr, uint8_t *rbuf,
                   const uint8_t *wbuf, size_t len, unsigned flags)
{
    struct hexsim_vcpu *v = vcpu_of(d, thread);
    size_t done = 0;
    if (!v)
        return 0;
    while (done < len && addr + done <= 0xffffffffu) {
        uint32_t a = (uint32_t)(addr + done), pa = a;
        if (!(flags & HEXSIM_DBG_MEM_PHYS) && va_to_pa(v, a, &pa))
            break;
        struct hexsim_page *pg = ram_page(d->m, pa);
        if (!pg)
            break;
        uint32_t off = pa & (HEXSIM_PAGE_SIZE - 1);
        size_t chunk = HEXSIM_PAGE_SIZE - off;
        if (chunk > len - done)
            chunk = len - done;
        if (rbuf) {
            memcpy(rbuf + done, pg->data + off, chunk);
        } else {
            for (size_t i = 0; i < chunk; i++)   // hexsim_page_store drops decoded code
                hexsim_page_store(&d->m->ram, pg, off + (uint32_t)i, 1, wbuf[done + i]);
        }
        done += chunk;
    }
    return done;
}

static size_t st_read_mem(void *t, unsigned thread, uint64_t addr, void *buf, size_t len,
                          unsigned flags)
{
    return xfer(t, thread, addr, buf, NULL, len, flags);
}

static size_t st_write_mem(void *t, unsigned thread, uint64_t addr, const void *buf,
                           size_t len, unsigned flags)
{
    return xfer(t, thread, addr, NULL, buf, len, flags);
}

static int hook_before(void *ctx, struct hexsim_vcpu *v)
{
    struct hexsim_sys_dbg *d = ctx;
    struct hexsim_dbg_stop *stop = d->stop;
    if (!d->cond) {                      // step: only step_vcpu, unless it waits
        if (v != d->step_vcpu)
            return d->step_vcpu->state == HEXSIM_VCPU_RUN ? HEXSIM_DBG_HOOK_SKIP
                                                         : HEXSIM_DBG_HOOK_RUN;
        if (d->step_done)
            return HEXSIM_DBG_HOOK_STOP;
        d->info->pc = v->cpu.pc;
        v->env.trace = &d->info->trace;
        return HEXSIM_DBG_HOOK_RUN;
    }
    const struct hexsim_dbg_run *c = d->cond;
    uint32_t pc = v->cpu.pc;
    if (!(d->skip_bp & (1u << v->id)))
        for (unsigned i = 0; i < c->nbp; i++)
            if (c->bp[i] == pc) {
                stop->kind = HEXSIM_DBG_STOP_BREAK;
                stop->index = (int)i;
                goto stopped;
            }
    if (c->max_packets && stop->packets >= c->max_packets) {
        stop->kind = HEXSIM_DBG_STOP_LIMIT;
        goto stopped;
    }
    if (d->interrupt || (c->poll && stop->packets &&
                         stop->packets % HEXSIM_DBG_POLL_PACKETS == 0 && c->poll(c->poll_ctx))) {
        d->interrupt = false;
        stop->kind = HEXSIM_DBG_STOP_INTERRUPT;
        goto stopped;
    }
    if (c->nwp)
        v->env.trace = &d->trace;
    return HEXSIM_DBG_HOOK_RUN;
stopped:
    stop->thread = v->id + 1;
    stop->pc = pc;
    return HEXSIM_DBG_HOOK_STOP;
}

static bool hook_after(void *ctx, struct hexsim_vcpu *v, uint32_t pc, int event)
{
    struct hexsim_sys_dbg *d = ctx;
    struct hexsim_dbg_stop *stop = d->stop;
    struct hexsim_exec_trace *tr = v->env.trace;
    v->env.trace = NULL;
    stop->packets++;
    (void)pc;
    if (!d->cond) {
        if (v != d->step_vcpu)
            return false;
        d->step_done = true;
        if (event < 0 && tr)             // fetch fault: the executor did not run
            memset(tr, 0, sizeof(*tr));
        return true;
    }
    d->skip_bp &= (uint8_t)~(1u << v->id);
    if (tr && event >= 0 && tr->committed) {
        int w = hexsim_dbg_watch_hit(d->cond->wp, d->cond->nwp, tr, stop);
        if (w >= 0) {
            stop->kind = HEXSIM_DBG_STOP_WATCH;
            stop->index = w;
            stop->thread = v->id + 1;
            stop->pc = v->cpu.pc;
            return true;
        }
    }
    return false;
}

// The machine has ended: an error end is a FAULT first, then EXIT.
static void report_end(struct hexsim_sys_dbg *d, struct hexsim_dbg_stop *stop)
{
    struct hexsim_vcpu *v = vcpu_of(d, stop->thread ? stop->thread : 1);
    stop->pc = v->cpu.pc;
    if (d->status == HEXSIM_SYS_EXIT_ERROR && !d->fault_reported) {
        d->fault_reported = true;
        stop->kind = HEXSIM_DBG_STOP_FAULT;
        snprintf(stop->msg, sizeof(stop->msg), "hexsim: the machine stopped with an error "
                 "(exit status %d; see the message above)\n", d->status);
        return;
    }
    stop->kind = HEXSIM_DBG_STOP_EXIT;
    stop->exit_status = d->status;
}

// Runs the machine with the hook installed; true when it is still alive afterwards.
static bool run_hooked(struct hexsim_sys_dbg *d)
{
    struct hexsim_machine *m = d->m;
    if (d->ended)
        return false;
    m->hook = &d->hook;
    int r = hexsim_machine_run(m);
    m->hook = NULL;
    if (r != HEXSIM_MACHINE_STOPPED) {
        d->ended = true;
        d->status = r;
        return false;
    }
    return true;
}

static void st_step(void *t, unsigned thread, struct hexsim_dbg_step_info *info,
                    struct hexsim_dbg_stop *stop)
{
    struct hexsim_sys_dbg *d = t;
    struct hexsim_vcpu *v = vcpu_of(d, thread);
    memset(stop, 0, sizeof(*stop));
    memset(info, 0, sizeof(*info));
    if (!v)
        v = &d->m->vcpu[0];
    stop->thread = v->id + 1;
    stop->pc = info->pc = v->cpu.pc;
    if (v->state == HEXSIM_VCPU_OFF && !d->ended) {
        stop->kind = HEXSIM_DBG_STOP_STEP;   // a stopped vCPU runs nothing
        return;
    }
    uint32_t words[HX_PACKET_MAX_WORDS];
    size_t n = xfer(d, v->id + 1, v->cpu.pc, (uint8_t *)words, NULL, sizeof(words), 0) / 4;
    if (n) {
        hexsim_decode_packet(words, n, v->cpu.pc, d->m->arch, &info->pkt);
        info->decoded = true;
    }
    d->cond = NULL;
    d->stop = stop;
    d->info = info;
    d->step_vcpu = v;
    d->step_done = false;
    if (run_hooked(d)) {
        stop->kind = HEXSIM_DBG_STOP_STEP;
        stop->pc = v->cpu.pc;
    } else {
        report_end(d, stop);
    }
}

static void st_run(void *t, const struct hexsim_dbg_run *c, struct hexsim_dbg_stop *stop)
{
    struct hexsim_sys_dbg *d = t;
    memset(stop, 0, sizeof(*stop));
    stop->thread = 1;
    d->cond = c;
    d->stop = stop;
    // stepping over a breakpoint: the vCPUs that stand on one now; not a vCPU the guest
    // starts later at a breakpoint's address (vmstart's PC), which must stop there
    d->skip_bp = 0;
    for (unsigned i = 0; c->step_over_bp && i < d->m->nvcpu; i++)
        for (unsigned b = 0; b < c->nbp; b++)
            if (d->m->vcpu[i].state != HEXSIM_VCPU_OFF && d->m->vcpu[i].cpu.pc == c->bp[b])
                d->skip_bp |= (uint8_t)(1u << i);
    if (run_hooked(d)) {
        if (stop->kind == HEXSIM_DBG_STOP_NONE)   // cannot happen: the hook names the stop
            stop->kind = HEXSIM_DBG_STOP_INTERRUPT;
    } else {
        report_end(d, stop);
    }
}

static unsigned st_threads(void *t, unsigned *ids, unsigned max)
{
    struct hexsim_sys_dbg *d = t;
    for (unsigned i = 0; i < d->m->nvcpu && i < max; i++)
        ids[i] = i + 1;
    return d->m->nvcpu;
}

static const char *st_thread_state(void *t, unsigned thread)
{
    struct hexsim_vcpu *v = vcpu_of(t, thread);
    if (v && v->state == HEXSIM_VCPU_OFF)
        return "stopped (the guest has not started this vCPU, or stopped it with vmstop)";
    return NULL;
}

static const struct hexsim_symtab *st_symtab(void *t)
{
    struct hexsim_sys_dbg *d = t;
    return &d->syms;
}

static unsigned st_arch(void *t)
{
    struct hexsim_sys_dbg *d = t;
    return d->m->arch;
}

static int st_info(void *t, const char *what, FILE *out)
{
    struct hexsim_sys_dbg *d = t;
    return hexsim_sys_dbg_info(d->m, what, out);
}

static int st_save(void *t, const char *path, char *msg, size_t msglen)
{
    struct hexsim_sys_dbg *d = t;
    if (d->ended) {
        snprintf(msg, msglen, "the machine has stopped: there is no machine to save");
        return -1;
    }
    return hexsim_snapshot_save(d->m, path, msg, msglen);
}

static int st_load(void *t, const char *path, char *msg, size_t msglen)
{
    struct hexsim_sys_dbg *d = t;
    if (hexsim_snapshot_reload(d->m, path, msg, msglen))
        return -1;
    d->ended = false;                    // the loaded machine runs (again)
    d->fault_reported = false;
    d->status = 0;
    return 0;
}

static int st_current_task(void *t, unsigned thread, uint32_t *task, char *comm, size_t len)
{
    struct hexsim_vcpu *v = vcpu_of(t, thread);
    return v ? hexsim_hvm_current_task(v, task, comm, len) : -1;
}

static int st_walk(void *t, uint32_t ptbase, uint32_t va, uint32_t *pa)
{
    struct hexsim_sys_dbg *d = t;
    unsigned prot;
    return hexsim_hvm_walk(&d->m->ram, ptbase, va, false, pa, &prot) ? -1 : 0;
}

static const struct hexsim_dbg_target_ops system_target_ops = {
    .name = "system",
    .regs = st_regs,
    .read_reg = st_read_reg,
    .write_reg = st_write_reg,
    .read_wide = st_read_wide,
    .write_wide = st_write_wide,
    .read_mem = st_read_mem,
    .write_mem = st_write_mem,
    .step = st_step,
    .run = st_run,
    .threads = st_threads,
    .thread_state = st_thread_state,
    .symtab = st_symtab,
    .arch = st_arch,
    .info = st_info,
    .save = st_save,
    .load = st_load,
    .current_task = st_current_task,
    .walk = st_walk,
};

void hexsim_sys_dbg_init(struct hexsim_sys_dbg *d, struct hexsim_machine *m, const char *path,
                         struct hexsim_dbg_target *t)
{
    static const char *const gnames[4] = { "g0", "g1", "g2", "g3" };
    static const char *const galts[4] = { "gelr", "gsr", "gosp", "gbadva" };
    unsigned n;
    memset(d, 0, sizeof(*d));
    d->m = m;
    const struct hexsim_dbg_reg_desc *cpu = hexsim_dbg_cpu_regs(&n);
    memcpy(d->regs, cpu, HEXSIM_DBG_CPU_NREGS * sizeof(*cpu));
    unsigned k = HEXSIM_DBG_CPU_NREGS;
    d->regs[k++] = (struct hexsim_dbg_reg_desc){ "htid", NULL, REG_HTID, 32,
                                                 HEXSIM_DBG_GRP_SYSTEM };
    for (unsigned i = 0; i < 4; i++)
        d->regs[k++] = (struct hexsim_dbg_reg_desc){ gnames[i], galts[i], (uint16_t)(REG_G0 + i),
                                                     32, HEXSIM_DBG_GRP_SYSTEM };
    if (m->arch & HEXSIM_ARCH_HVX) {   // the HVX registers last (by number, after G3)
        memcpy(d->regs + k, cpu + HEXSIM_DBG_CPU_NREGS, HEXSIM_DBG_HVX_NREGS * sizeof(*cpu));
        k += HEXSIM_DBG_HVX_NREGS;
    }
    d->nregs = k;
    d->hook.before = hook_before;
    d->hook.after = hook_after;
    d->hook.ctx = d;
    if (path)
        hexsim_symtab_load(&d->syms, path);   // no symbols is not an error
    t->ops = &system_target_ops;
    t->ctx = d;
}

void hexsim_sys_dbg_interrupt(struct hexsim_machine *m)
{
    if (m->hook && m->hook->before == hook_before) {   // our hook: its ctx is the target
        struct hexsim_sys_dbg *d = m->hook->ctx;
        d->interrupt = true;
    }
}

void hexsim_sys_dbg_free(struct hexsim_sys_dbg *d)
{
    hexsim_symtab_free(&d->syms);
}
