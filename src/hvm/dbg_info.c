// SPDX-License-Identifier: MIT
// The system-mode debugger's "info" pages: the vCPUs' MMU and soft TLBs, the HVM interrupt
// controller and the SIRC, the bus devices, and each vCPU's HVM state. Everything is read
// from the machine's structures (hexsim/machine.h, hvm.h, comet.h); nothing is changed.
#include <string.h>

#include "dbg_target.h"

static const char *state_name(int s)
{
    return s == HEXSIM_VCPU_RUN ? "running" : s == HEXSIM_VCPU_WAIT ? "waiting (vmwait)"
                                                                   : "stopped";
}

static void prot_str(unsigned p, char s[4])
{
    s[0] = (p & HEXSIM_PROT_R) ? 'r' : '-';
    s[1] = (p & HEXSIM_PROT_W) ? 'w' : '-';
    s[2] = (p & HEXSIM_PROT_X) ? 'x' : '-';
    s[3] = '\0';
}

#define TLB_SHOW 16

static void info_tlb(struct hexsim_machine *m, FILE *out)
{
    static const char *const mode[2] = { "guest", "user" };
    for (unsigned i = 0; i < m->nvcpu; i++) {
        struct hexsim_vcpu *v = &m->vcpu[i];
        if (v->mmu_on)
            fprintf(out, "cpu%u: MMU on, page table at physical 0x%08x, %s mode\n", v->id,
                    v->ptbase, v->user ? "user" : "guest");
        else
            fprintf(out, "cpu%u: boot map (RAM at virtual = physical), %s mode\n", v->id,
                    v->user ? "user" : "guest");
        for (unsigned t = 0; t < 2; t++) {
            unsigned valid = 0, shown = 0;
            for (unsigned k = 0; k < HEXSIM_TLB_SIZE; k++)
                valid += v->tlb[t].e[k].vpage != ~0u;
            fprintf(out, "  %s soft TLB: %u of %u entries valid\n", mode[t], valid,
                    HEXSIM_TLB_SIZE);
            for (unsigned k = 0; k < HEXSIM_TLB_SIZE && shown < TLB_SHOW; k++) {
                const struct hexsim_tlb_entry *e = &v->tlb[t].e[k];
                if (e->vpage == ~0u)
                    continue;
                uint32_t va = e->vpage << 12, pa = va;
                unsigned wp = 0;
                char p[4], w[4];
                prot_str(e->prot, p);
                int f = v->mmu_on ? hexsim_hvm_walk(&m->ram, v->ptbase, va, t == 1, &pa, &wp) : 0;
                if (!v->mmu_on)
                    wp = e->prot;
                prot_str(wp, w);
                if (f)
                    fprintf(out, "    va 0x%08x %s (the page table no longer maps it)\n", va, p);
                else
                    fprintf(out, "    va 0x%08x -> pa 0x%08x %s (walk: %s)\n", va, pa, p, w);
                shown++;
            }
            if (valid > shown)
                fprintf(out, "    ... %u more\n", valid - shown);
        }
    }
}

static void info_irq(struct hexsim_machine *m, FILE *out)
{
    const struct hexsim_intc *ic = &m->intc;
    fprintf(out, "HVM interrupt controller (vmintop): pending 0x%08x  enabled 0x%08x  "
            "line high 0x%08x\n", ic->pending, ic->genable, ic->level);
    for (unsigned i = 0; i < m->nvcpu; i++)
        fprintf(out, "  cpu%u: local enable 0x%08x  deliverable 0x%08x  ie %d\n", i,
                ic->locen[i], hexsim_intc_deliverable(ic, i), m->vcpu[i].ie);
    for (unsigned g = 0; g < HEXSIM_SIRC_GROUPS; g++) {
        const struct hexsim_sirc_group *s = &m->sirc.g[g];
        fprintf(out, "SIRC%u (L1 %u): enable 0x%08x  type 0x%08x  polarity 0x%08x  soft 0x%08x\n"
                "       input 0x%08x  latched 0x%08x  output %d\n", g,
                g ? HEXSIM_SIRC1_L1 : HEXSIM_SIRC0_L1, s->enable, s->type, s->polarity, s->soft,
                s->input, s->latched, s->out);
    }
}

static void info_devices(struct hexsim_machine *m, FILE *out)
{
    fprintf(out, "0x%08x-0x%08x  RAM (%u MiB)\n", m->ram_base, m->ram_base + m->ram_size - 1,
            m->ram_size >> 20);
    for (unsigned i = 0; i < m->bus.ndev; i++) {
        const struct hexsim_dev *d = m->bus.dev[i];
        fprintf(out, "0x%08x-0x%08x  %s\n", d->base, d->base + d->size - 1,
                d->ops && d->ops->name ? d->ops->name : "?");
    }
}

static void info_hvm(struct hexsim_machine *m, FILE *out)
{
    fprintf(out, "HVM: %u vCPU%s, pcycle %llu, %llu packets\n", m->nvcpu, m->nvcpu == 1 ? "" : "s",
            (unsigned long long)m->now, (unsigned long long)m->packets);
    for (unsigned i = 0; i < m->nvcpu; i++) {
        const struct hexsim_vcpu *v = &m->vcpu[i];
        uint32_t gsr = v->cpu.g[HVM_G_GSR];
        fprintf(out, "cpu%u: %s, %s mode, interrupts %s, event vectors at 0x%08x%s, PC 0x%08x\n"
                "      GELR 0x%08x  GSR 0x%08x (UM %u IE %u cause 0x%02x)  GOSP 0x%08x  "
                "GBADVA 0x%08x\n", v->id, state_name(v->state), v->user ? "user" : "guest",
                v->ie ? "enabled" : "disabled", v->evb, v->vec_set ? "" : " (not set)", v->cpu.pc,
                v->cpu.g[HVM_G_ELR], gsr, gsr >> 31, (gsr >> 30) & 1,
                gsr & HVM_GSR_CAUSE, v->cpu.g[HVM_G_OSP],
                v->cpu.g[HVM_G_BADVA]);
    }
}

int hexsim_sys_dbg_info(struct hexsim_machine *m, const char *what, FILE *out)
{
    if (strcmp(what, "tlb") == 0)
        info_tlb(m, out);
    else if (strcmp(what, "irq") == 0)
        info_irq(m, out);
    else if (strcmp(what, "devices") == 0)
        info_devices(m, out);
    else if (strcmp(what, "hvm") == 0)
        info_hvm(m, out);
    else
        return -1;
    return 0;
}
