// SPDX-License-Identifier: MIT
// Debugger register access for struct hexsim_cpu: see cpu_regs.h. P3:0, PC, UPCYCLE,
// PKTCOUNT and UTIMER are not kept in c[] (cpu.h); they are composed here the way the
// executor composes them (exec.c hx_cr), and a debugger write sets what they come from.
#include "cpu_regs.h"

static const struct hexsim_dbg_reg_desc cpu_regs[HEXSIM_DBG_CPU_NREGS] = {
    { "r0", NULL, 0, 32, 0 }, { "r1", NULL, 1, 32, 0 }, { "r2", NULL, 2, 32, 0 },
    { "r3", NULL, 3, 32, 0 }, { "r4", NULL, 4, 32, 0 }, { "r5", NULL, 5, 32, 0 },
    { "r6", NULL, 6, 32, 0 }, { "r7", NULL, 7, 32, 0 }, { "r8", NULL, 8, 32, 0 },
    { "r9", NULL, 9, 32, 0 }, { "r10", NULL, 10, 32, 0 }, { "r11", NULL, 11, 32, 0 },
    { "r12", NULL, 12, 32, 0 }, { "r13", NULL, 13, 32, 0 }, { "r14", NULL, 14, 32, 0 },
    { "r15", NULL, 15, 32, 0 }, { "r16", NULL, 16, 32, 0 }, { "r17", NULL, 17, 32, 0 },
    { "r18", NULL, 18, 32, 0 }, { "r19", NULL, 19, 32, 0 }, { "r20", NULL, 20, 32, 0 },
    { "r21", NULL, 21, 32, 0 }, { "r22", NULL, 22, 32, 0 }, { "r23", NULL, 23, 32, 0 },
    { "r24", NULL, 24, 32, 0 }, { "r25", NULL, 25, 32, 0 }, { "r26", NULL, 26, 32, 0 },
    { "r27", NULL, 27, 32, 0 }, { "r28", NULL, 28, 32, 0 }, { "r29", "sp", 29, 32, 0 },
    { "r30", "fp", 30, 32, 0 }, { "r31", "lr", 31, 32, 0 },
    { "sa0", "c0", 32, 32, 1 }, { "lc0", "c1", 33, 32, 1 }, { "sa1", "c2", 34, 32, 1 },
    { "lc1", "c3", 35, 32, 1 }, { "p3_0", "c4", 36, 32, 1 }, { "c5", NULL, 37, 32, 1 },
    { "m0", "c6", 38, 32, 1 }, { "m1", "c7", 39, 32, 1 }, { "usr", "c8", 40, 32, 1 },
    { "pc", "c9", 41, 32, 1 }, { "ugp", "c10", 42, 32, 1 }, { "gp", "c11", 43, 32, 1 },
    { "cs0", "c12", 44, 32, 1 }, { "cs1", "c13", 45, 32, 1 },
    { "upcyclelo", "c14", 46, 32, 1 }, { "upcyclehi", "c15", 47, 32, 1 },
    { "framelimit", "c16", 48, 32, 1 }, { "framekey", "c17", 49, 32, 1 },
    { "pktcountlo", "c18", 50, 32, 1 }, { "pktcounthi", "c19", 51, 32, 1 },
    { "c20", NULL, 52, 32, 1 }, { "c21", NULL, 53, 32, 1 }, { "c22", NULL, 54, 32, 1 },
    { "c23", NULL, 55, 32, 1 }, { "c24", NULL, 56, 32, 1 }, { "c25", NULL, 57, 32, 1 },
    { "c26", NULL, 58, 32, 1 }, { "c27", NULL, 59, 32, 1 }, { "c28", NULL, 60, 32, 1 },
    { "c29", NULL, 61, 32, 1 }, { "utimerlo", "c30", 62, 32, 1 },
    { "utimerhi", "c31", 63, 32, 1 },
};

const struct hexsim_dbg_reg_desc *hexsim_dbg_cpu_regs(unsigned *count)
{
    *count = HEXSIM_DBG_CPU_NREGS;
    return cpu_regs;
}

int hexsim_dbg_cpu_read(const struct hexsim_cpu *c, unsigned num, uint64_t *val)
{
    if (num < 32) {
        *val = c->r[num];
        return 0;
    }
    if (num >= HEXSIM_DBG_CPU_NREGS)
        return -1;
    unsigned n = num - 32;
    switch (n) {
    case HX_P3_0:
        *val = (uint32_t)c->p[0] | (uint32_t)c->p[1] << 8 | (uint32_t)c->p[2] << 16 |
               (uint32_t)c->p[3] << 24;
        break;
    case HX_PC: *val = c->pc; break;
    case HX_UPCYCLELO: case HX_UTIMERLO: *val = (uint32_t)c->pcycles; break;
    case HX_UPCYCLEHI: case HX_UTIMERHI: *val = (uint32_t)(c->pcycles >> 32); break;
    case HX_PKTCOUNTLO: *val = (uint32_t)c->packets; break;
    case HX_PKTCOUNTHI: *val = (uint32_t)(c->packets >> 32); break;
    default: *val = c->c[n]; break;
    }
    return 0;
}

static uint64_t set_half(uint64_t v, bool hi, uint32_t x)
{
    return hi ? (v & 0xffffffffull) | (uint64_t)x << 32 : (v & ~0xffffffffull) | x;
}

int hexsim_dbg_cpu_write(struct hexsim_cpu *c, unsigned num, uint64_t val)
{
    uint32_t v = (uint32_t)val;
    if (num < 32) {
        c->r[num] = v;
        return 0;
    }
    if (num >= HEXSIM_DBG_CPU_NREGS)
        return -1;
    unsigned n = num - 32;
    switch (n) {
    case HX_P3_0:
        for (unsigned i = 0; i < 4; i++)
            c->p[i] = (uint8_t)(v >> (8 * i));
        break;
    case HX_PC: c->pc = v; break;
    case HX_UPCYCLELO: case HX_UTIMERLO: c->pcycles = set_half(c->pcycles, false, v); break;
    case HX_UPCYCLEHI: case HX_UTIMERHI: c->pcycles = set_half(c->pcycles, true, v); break;
    case HX_PKTCOUNTLO: c->packets = set_half(c->packets, false, v); break;
    case HX_PKTCOUNTHI: c->packets = set_half(c->packets, true, v); break;
    default: c->c[n] = v; break;
    }
    return 0;
}
