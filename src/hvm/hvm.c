// SPDX-License-Identifier: MIT
// HVM events and the trap1 virtual instructions (seed 002 hexagon_vm.h, vm_entry.S,
// vm_vectors.S, vm_ops.S; seed 004 vmstart; DESIGN.md "HVM ABI"). An event saves the event
// record in G0-G3 (GELR, GSR = EST, GOSP, GBADVA), swaps R29 with GOSP when it comes from
// user mode, enters guest mode with interrupts disabled and jumps to GEVB + 4 * slot.
// vmrte undoes that from the (possibly vmsetregs-modified) record. trap1 calls take their
// arguments in r0-r4 and answer in r0 (r0:r1 for 64-bit values); the executor has already
// committed the trap1 packet, so PC is the next packet. Numbers the VM does not define
// answer -1 (reported once).
#include <inttypes.h>

#include "hexsim/machine.h"

static const char *const call_names[23] = {
    "vmversion", "vmrte", "vmsetvec", "vmsetie", "vmgetie", "vmintop", NULL, NULL, NULL, NULL,
    "vmclrmap", "vmnewmap", NULL, "vmcache", "vmgettime", "vmsettime", "vmwait", "vmyield",
    "vmstart", "vmstop", "vmvpid", "vmsetregs", "vmgetregs",
};

const char *hexsim_hvm_call_name(uint32_t num)
{
    return num < 23 && call_names[num] ? call_names[num] : NULL;
}

static const char *event_name(unsigned ev)
{
    switch (ev) {
    case HVM_EV_RESET: return "reset";
    case HVM_EV_MACHCHECK: return "machine check";
    case HVM_EV_GENEX: return "general exception";
    case HVM_EV_TRAP0: return "trap0";
    case HVM_EV_INTR: return "interrupt";
    default: return "event";
    }
}

bool hexsim_hvm_event(struct hexsim_vcpu *v, unsigned ev, uint32_t cause, uint32_t elr,
                      uint32_t badva)
{
    struct hexsim_machine *m = v->m;
    struct hexsim_cpu *c = &v->cpu;
    m->counts.events[ev & 7]++;
    if (ev == HVM_EV_INTR && cause < HEXSIM_HVM_NINTS)
        m->counts.interrupts[cause]++;
    if (m->opts.trace_hvm)
        fprintf(m->err, "hvm: cpu%u %s cause 0x%x elr 0x%08x badva 0x%08x%s\n", v->id,
                event_name(ev), cause, elr, badva, v->user ? " (from user mode)" : "");
    if (!v->evb)
        return false;
    c->g[HVM_G_ELR] = elr;
    c->g[HVM_G_GSR] = (v->user ? HVM_GSR_UM : 0) | (v->ie ? HVM_GSR_IE : 0) |
                      (uint32_t)ev << HVM_GSR_EVENT_SHIFT | (cause & 0xffffu);
    if (ev == HVM_EV_GENEX)
        c->g[HVM_G_BADVA] = badva;
    if (v->user) {
        uint32_t sp = c->r[29];
        c->r[29] = c->g[HVM_G_OSP];
        c->g[HVM_G_OSP] = sp;
        hexsim_vcpu_set_user(v, false);
    }
    v->ie = false;
    c->reserved = false;
    c->pc = v->evb + 4 * ev;
    return true;
}

static void vmrte(struct hexsim_vcpu *v)
{
    struct hexsim_cpu *c = &v->cpu;
    uint32_t gsr = c->g[HVM_G_GSR];
    c->pc = c->g[HVM_G_ELR];
    v->ie = (gsr & HVM_GSR_IE) != 0;
    if (gsr & HVM_GSR_UM) {
        uint32_t sp = c->r[29];
        c->r[29] = c->g[HVM_G_OSP];
        c->g[HVM_G_OSP] = sp;
        hexsim_vcpu_set_user(v, true);
        v->m->user_seen = true;
    }
    c->reserved = false;
    v->m->attention = true;
}

static void flush_all_tlbs(struct hexsim_machine *m)
{
    for (unsigned i = 0; i < m->nvcpu; i++)
        hexsim_vcpu_flush_tlb(&m->vcpu[i]);
}

static int32_t vmstart(struct hexsim_vcpu *v, uint32_t pc, uint32_t sp)
{
    struct hexsim_machine *m = v->m;
    for (unsigned i = 0; i < m->nvcpu; i++) {
        struct hexsim_vcpu *n = &m->vcpu[i];
        if (n->state != HEXSIM_VCPU_OFF)
            continue;
        // a fresh vCPU in guest mode, interrupts off, sharing the caller's vectors and map
        struct hexsim_cpu saved_clock = { .pcycles = v->cpu.pcycles };
        n->cpu = saved_clock;
        n->cpu.pc = pc;
        n->cpu.r[29] = sp;
        n->ie = false;
        n->evb = v->evb;
        n->mmu_on = v->mmu_on;
        n->ptbase = v->ptbase;
        n->user = false;
        hexsim_vcpu_init_xlat(n);
        n->state = HEXSIM_VCPU_RUN;
        m->attention = true;
        return (int32_t)n->id;
    }
    return -1;
}

static uint64_t vm_time(const struct hexsim_vcpu *v)
{
    return v->cpu.pcycles + (uint64_t)v->m->time_offset;
}

void hexsim_hvm_trap1(struct hexsim_vcpu *v, uint32_t num, uint32_t pc)
{
    struct hexsim_machine *m = v->m;
    struct hexsim_cpu *c = &v->cpu;
    uint32_t *r = c->r;
    uint32_t a0 = r[0], a1 = r[1], a2 = r[2], a3 = r[3];
    int64_t ret = 0;            // r0 unless noted
    bool set_r0 = true;
    if (num < HEXSIM_HVM_COUNTED_CALLS)
        m->counts.calls[num]++;
    switch (num) {
    case HVM_VMVERSION:
        ret = HEXSIM_HVM_VERSION;
        break;
    case HVM_VMRTE:
        vmrte(v);
        set_r0 = false;
        break;
    case HVM_VMSETVEC:
        v->evb = a0;
        break;
    case HVM_VMSETIE:
        ret = v->ie;
        v->ie = a0 & 1;
        m->attention = true;
        break;
    case HVM_VMGETIE:
        ret = v->ie;
        break;
    case HVM_VMINTOP:
        ret = hexsim_intc_op(&m->intc, v->id, m->nvcpu, a0, a1, a2);
        break;
    case HVM_VMCLRMAP:
        flush_all_tlbs(m);     // r0 = start, r1 = length; every vCPU may cache the range
        break;
    case HVM_VMNEWMAP:
        if (a1 != 1) {         // only VM_NEWMAP_TYPE_PGTABLES
            ret = -1;
            break;
        }
        v->ptbase = a0;
        v->mmu_on = true;
        hexsim_vcpu_flush_tlb(v);
        break;
    case HVM_VMCACHE:
        // caches are not modelled; decoded packets follow stores on their own
        ret = a0 <= HVMC_FETCH_CFG ? 0 : -1;
        break;
    case HVM_VMGETTIME: {
        uint64_t t = vm_time(v);
        r[0] = (uint32_t)t;
        r[1] = (uint32_t)(t >> 32);
        set_r0 = false;
        break;
    }
    case HVM_VMSETTIME:
        m->time_offset = (int64_t)(((uint64_t)a1 << 32 | a0) - v->cpu.pcycles);
        break;
    case HVM_VMWAIT:
        // resumes (in the run loop) when an interrupt is pending for this vCPU; r0 then
        // holds its number
        v->state = HEXSIM_VCPU_WAIT;
        v->yield = true;
        m->attention = true;
        set_r0 = false;
        break;
    case HVM_VMYIELD:
        v->yield = true;
        break;
    case HVM_VMSTART:
        ret = vmstart(v, a0, a1);
        break;
    case HVM_VMSTOP:
        v->state = HEXSIM_VCPU_OFF;
        v->yield = true;
        m->attention = true;
        set_r0 = false;
        break;
    case HVM_VMVPID:
        ret = v->id;
        break;
    case HVM_VMSETREGS:
        c->g[HVM_G_ELR] = a0;
        c->g[HVM_G_GSR] = a1;
        c->g[HVM_G_OSP] = a2;
        c->g[HVM_G_BADVA] = a3;
        break;
    case HVM_VMGETREGS:
        r[0] = c->g[HVM_G_ELR];
        r[1] = c->g[HVM_G_GSR];
        r[2] = c->g[HVM_G_OSP];
        r[3] = c->g[HVM_G_BADVA];
        set_r0 = false;
        break;
    default:
        ret = -1;
        if (num < 64 && !(m->warned_trap1[num / 32] >> (num % 32) & 1)) {
            m->warned_trap1[num / 32] |= 1u << (num % 32);
            fprintf(m->err, "hexsim: trap1(#%u) at PC 0x%08x is not an HVM call; r0 = -1 "
                    "(reported once)\n", num, pc);
        }
        break;
    }
    if (set_r0)
        r[0] = (uint32_t)ret;
    if (m->opts.trace_hvm) {
        const char *name = hexsim_hvm_call_name(num);
        fprintf(m->err, "hvm: cpu%u pc 0x%08x %s%s(0x%x, 0x%x, 0x%x, 0x%x)", v->id, pc,
                name ? name : "trap1#", name ? "" : "?", a0, a1, a2, a3);
        if (num == HVM_VMRTE)
            fprintf(m->err, " -> pc 0x%08x%s\n", c->pc, v->user ? " user" : "");
        else if (num == HVM_VMGETTIME || num == HVM_VMGETREGS)
            fprintf(m->err, " -> 0x%x 0x%x\n", r[0], r[1]);
        else if (set_r0)
            fprintf(m->err, " -> %" PRId32 "\n", (int32_t)r[0]);
        else
            fputc('\n', m->err);
    }
}
