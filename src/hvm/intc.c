// SPDX-License-Identifier: MIT
// The HVM interrupt controller behind vmintop (hexagon_vm.h VM_INT_OPS; Linux irq_cpu.c
// masks with locdis, unmasks with locen and ends an interrupt with globen, smp.c posts IPIs
// with vmintop post). 32 L1 interrupts; a lower number has the higher priority. Delivering
// an interrupt (or taking it with get) clears its pending bit and disables it globally
// until globen, which is what a fasteoi flow expects. Device lines latch pending on a rising
// edge and again at globen while still high, so neither pulses nor held levels are lost.
#include <string.h>

#include "hexsim/hvm.h"

void hexsim_intc_reset(struct hexsim_intc *ic)
{
    bool *att = ic->attention;
    memset(ic, 0, sizeof(*ic));
    ic->attention = att;
    ic->genable = ~0u;            // enabled globally until first taken
    for (unsigned i = 0; i < HEXSIM_HVM_NINTS; i++)
        ic->affinity[i] = -1;
}

static void poke(struct hexsim_intc *ic)
{
    if (ic->attention)
        *ic->attention = true;
}

void hexsim_intc_set_line(void *ctx, unsigned line, int level)
{
    struct hexsim_intc *ic = ctx;
    if (line >= HEXSIM_HVM_NINTS)
        return;
    uint32_t b = 1u << line;
    if (level && !(ic->level & b)) {
        ic->pending |= b;
        poke(ic);
    }
    ic->level = level ? ic->level | b : ic->level & ~b;
}

uint32_t hexsim_intc_deliverable(const struct hexsim_intc *ic, unsigned vcpu)
{
    uint32_t m = ic->pending & ic->genable & ic->locen[vcpu];
    for (uint32_t t = m; t; t &= t - 1) {
        unsigned n = (unsigned)__builtin_ctz(t);
        if (ic->affinity[n] >= 0 && (unsigned)ic->affinity[n] != vcpu)
            m &= ~(1u << n);
    }
    return m;
}

void hexsim_intc_accept(struct hexsim_intc *ic, unsigned n)
{
    ic->pending &= ~(1u << n);
    ic->genable &= ~(1u << n);
}

int32_t hexsim_intc_op(struct hexsim_intc *ic, unsigned vcpu, unsigned nvcpus, uint32_t op,
                       uint32_t a1, uint32_t a2)
{
    uint32_t b = a1 < HEXSIM_HVM_NINTS ? 1u << a1 : 0;
    bool needs_int = op == HVMI_GLOBEN || op == HVMI_GLOBDIS || op == HVMI_LOCEN ||
                     op == HVMI_LOCDIS || op == HVMI_AFFINITY || op == HVMI_STATUS ||
                     op == HVMI_POST || op == HVMI_CLEAR;
    if (needs_int && !b)
        return -1;
    switch (op) {
    case HVMI_NOP:
        return 0;
    case HVMI_GLOBEN:
        ic->genable |= b;
        if (ic->level & b)
            ic->pending |= b;
        poke(ic);
        return 0;
    case HVMI_GLOBDIS:
        ic->genable &= ~b;
        return 0;
    case HVMI_LOCEN:
        ic->locen[vcpu] |= b;
        poke(ic);
        return 0;
    case HVMI_LOCDIS:
        ic->locen[vcpu] &= ~b;
        return 0;
    case HVMI_AFFINITY:
        if (a2 >= nvcpus && a2 != 0xffffffffu)
            return -1;
        ic->affinity[a1] = a2 == 0xffffffffu ? -1 : (int8_t)a2;
        poke(ic);
        return 0;
    case HVMI_GET:
    case HVMI_PEEK: {
        uint32_t m = hexsim_intc_deliverable(ic, vcpu);
        if (!m)
            return -1;
        unsigned n = (unsigned)__builtin_ctz(m);
        if (op == HVMI_GET)
            hexsim_intc_accept(ic, n);
        return (int32_t)n;
    }
    case HVMI_STATUS:
        return (int32_t)(((ic->genable & b) ? HVMI_STATUS_GLOBAL : 0) |
                         ((ic->pending & b) ? HVMI_STATUS_PENDING : 0) |
                         ((ic->locen[vcpu] & b) ? HVMI_STATUS_LOCAL : 0));
    case HVMI_POST:
        ic->pending |= b;
        poke(ic);
        return 0;
    case HVMI_CLEAR:
        ic->pending &= ~b;
        return 0;
    default:
        return -1;
    }
}
