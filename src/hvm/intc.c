// SPDX-License-Identifier: MIT
// The HVM's virtual interrupt controller behind vmintop (HVM specification sections 6.2-6.7
// and App. A VMINTOP; hexagon_vm.h VM_INT_OPS; Linux irq_cpu.c masks with locdis, unmasks
// with locen and ends an interrupt with globen, smp.c posts IPIs with vmintop post). 32 L1
// interrupts; a lower number has the higher priority (section 5.4). Each interrupt has a
// global enable and a local enable per vCPU; affinity locally enables the interrupt on the
// target vCPU and locally disables it on every other one (section 6.7). Delivering an
// interrupt (or taking it with get) clears its pending bit and disables it globally until
// globen (section 6.5). Answers: 0 for done, -1 for failure (a number outside 0..31, a vCPU
// that does not exist, an unknown operation); peek and get answer the interrupt number or
// -1, status the bits PENDING 0, LOCAL 1, GLOBAL 2. The spec says get "returns 0 if
// interrupt taken": hexsim answers the number taken, as H2 does, because a guest with several
// vCPUs cannot learn which interrupt it took otherwise (a peek before it may be stale), and
// a guest testing for -1 works with both. Device lines latch pending on a rising edge and
// again at globen while still high, so neither pulses nor held levels are lost (the VMM
// owns type and polarity, section 6.3).
#include <string.h>

#include "hexsim/hvm.h"

void hexsim_intc_reset(struct hexsim_intc *ic)
{
    bool *att = ic->attention;
    memset(ic, 0, sizeof(*ic));
    ic->attention = att;
    ic->genable = ~0u;            // enabled globally until first taken
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
    return ic->pending & ic->genable & ic->locen[vcpu];
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
        if (a2 >= nvcpus)
            return -1;
        for (unsigned i = 0; i < nvcpus; i++)
            ic->locen[i] = i == a2 ? ic->locen[i] | b : ic->locen[i] & ~b;
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
        return (int32_t)(((ic->pending & b) ? HVMI_STATUS_PENDING : 0) |
                         ((ic->locen[vcpu] & b) ? HVMI_STATUS_LOCAL : 0) |
                         ((ic->genable & b) ? HVMI_STATUS_GLOBAL : 0));
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
