// SPDX-License-Identifier: MIT
// HVM events and the trap1 virtual instructions (HVM specification VM_Spec.adoc Rev A,
// chapters 5, 7, 10 and App. A, section numbers its own; seed 002 hexagon_vm.h, vm_entry.S,
// vm_ops.S; seed 004 vmstart; DESIGN.md "HVM ABI"). An event saves the event record in
// G0-G3 (GELR, GSR = UM | IE | cause, GOSP, GBADVA for memory events), swaps R29 with GOSP
// when it comes from user mode, enters guest mode with interrupts disabled and jumps to
// GEVB + 4 * event number (5.2-5.5). An event before vmsetvec terminates that vCPU (5.2).
// vmrte undoes that from the (possibly vmsetregs-modified) record. trap1 calls take their
// arguments in r0-r4 and answer in r0 (r0:r1 for 64-bit values); calls the spec gives no
// output (vmrte, vmsettime, vmyield, vmstop, vmsetregs) change no register. The executor has
// already committed the trap1 packet, so PC is the next packet. Numbers the VM does not
// define answer -1 (reported once). Where the spec is silent hexsim follows H2: vmstart's
// vCPU shares the caller's event vectors as well as its map (Linux's start_secondary never
// calls vmsetvec).
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
    if (!v->vec_set) {
        fprintf(m->err, "hexsim: cpu%u: %s (cause 0x%x, address 0x%08x) at PC 0x%08x in %s "
                "mode before the guest set its event vectors (vmsetvec): the vCPU is "
                "terminated%s\n", v->id, event_name(ev), cause, badva, elr,
                v->user ? "user" : "guest", v->user ? "" : "; if KERNEL is a Linux program "
                "rather than a kernel, run it with hexsim --user PROG");
        v->state = HEXSIM_VCPU_OFF;
        v->yield = true;
        m->vcpu_lost = true;
        m->attention = true;
        return false;
    }
    c->g[HVM_G_ELR] = elr;
    c->g[HVM_G_GSR] = (v->user ? HVM_GSR_UM : 0) | (v->ie ? HVM_GSR_IE : 0) |
                      (cause & HVM_GSR_CAUSE);
    if (ev == HVM_EV_GENEX || ev == HVM_EV_MACHCHECK)
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
        n->vec_set = v->vec_set;
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

// vmnewmap (App. A VMNEWMAP, section 9.5): only page tables (type 1) are supported (the
// linear list's entry layout is not in the published text); an L1 table that is not
// word-aligned or not wholly in RAM is refused. A refused map changes nothing.
static int32_t vmnewmap(struct hexsim_vcpu *v, uint32_t table, uint32_t type)
{
    struct hexsim_machine *m = v->m;
    uint32_t l1_bytes = (HEXSIM_HVM_RESERVED_VA >> 22) * 4;
    if (type != 1 || (table & 3) || table - m->ram_base >= m->ram_size ||
        m->ram_size - (table - m->ram_base) < l1_bytes)
        return -1;
    v->ptbase = table;
    v->mmu_on = true;
    hexsim_vcpu_flush_tlb(v);
    return 0;
}

// vmcache (App. A VMCACHE, section 8.2). Caches are not modelled (decoded packets follow
// stores on their own), but the range operations check their range: a page in it without
// write permission raises a store protection violation at that address, with GELR at the
// vmcache. Reserved operations are no-ops answering -1 (as H2 does). Returns false when it
// raised an event (r0 is then left alone).
static bool vmcache(struct hexsim_vcpu *v, uint32_t op, uint32_t start, uint32_t len,
                    uint32_t pc, int64_t *ret)
{
    *ret = op < HVMC_NOPS ? 0 : -1;
    if (op != HVMC_DCCLEANINVA && op != HVMC_ICINVA && op != HVMC_IDSYNC)
        return true;
    uint64_t end = (uint64_t)start + len;
    for (uint64_t a = start; a < end;) {
        unsigned prot = 0;
        uint32_t last;
        uint32_t va = (uint32_t)a;     // a range past the top meets the reserved 16 MiB first
        if (hexsim_hvm_guest_mapping(v, va, &prot, &last) || !(prot & HEXSIM_PROT_W)) {
            hexsim_hvm_event(v, HVM_EV_GENEX, HVM_GE_WPROT, pc, va);
            return false;
        }
        a = (uint64_t)last + 1;
    }
    return true;
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
        // every event lands at GEVB + 4 * number: a misaligned table could take none
        if (a0 & 3) {
            ret = -1;
            break;
        }
        v->evb = a0;
        v->vec_set = true;
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
        // r0 = start, r1 = length; every vCPU may cache the range. A range running past
        // the end of the address space is refused.
        if ((uint64_t)a0 + a1 > 0x100000000ull) {
            ret = -1;
            break;
        }
        flush_all_tlbs(m);
        break;
    case HVM_VMNEWMAP:
        ret = vmnewmap(v, a0, a1);
        break;
    case HVM_VMCACHE:
        set_r0 = vmcache(v, a0, a1, a2, pc, &ret);
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
        set_r0 = false;
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
        set_r0 = false;
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
        set_r0 = false;
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
