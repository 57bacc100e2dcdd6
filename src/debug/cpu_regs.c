// SPDX-License-Identifier: MIT
// Debugger register access for struct hexsim_cpu: see cpu_regs.h. P3:0, PC, UPCYCLE,
// PKTCOUNT and UTIMER are not kept in c[] (cpu.h); they are composed here the way the
// executor composes them (exec.c hx_cr), and a debugger write sets what they come from.
// The HVX registers (cpu/hvx.h) follow: V0-V31 and Q0-Q3, read and written whole.
#include "cpu_regs.h"

#include <string.h>

#define V(n) { "v" #n, NULL, HEXSIM_DBG_REG_V0 + n, 1024, HEXSIM_DBG_GRP_VECTOR }
#define Q(n) { "q" #n, NULL, HEXSIM_DBG_REG_Q0 + n, 128, HEXSIM_DBG_GRP_VECTOR }

static const struct hexsim_dbg_reg_desc cpu_regs[HEXSIM_DBG_CPU_NREGS + HEXSIM_DBG_HVX_NREGS] = {
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
    V(0), V(1), V(2), V(3), V(4), V(5), V(6), V(7), V(8), V(9), V(10), V(11), V(12), V(13),
    V(14), V(15), V(16), V(17), V(18), V(19), V(20), V(21), V(22), V(23), V(24), V(25),
    V(26), V(27), V(28), V(29), V(30), V(31), Q(0), Q(1), Q(2), Q(3),
};

const struct hexsim_dbg_reg_desc *hexsim_dbg_cpu_regs(unsigned *count)
{
    *count = HEXSIM_DBG_CPU_NREGS + HEXSIM_DBG_HVX_NREGS;
    return cpu_regs;
}

// The bytes of HVX register num in c (NULL: not one).
static void *hvx_reg(const struct hexsim_cpu *c, unsigned num, size_t *len)
{
    struct hexsim_hvx *h = (struct hexsim_hvx *)&c->hvx;
    if (num >= HEXSIM_DBG_REG_V0 && num < HEXSIM_DBG_REG_V0 + 32) {
        *len = sizeof(h->v[0]);
        return &h->v[num - HEXSIM_DBG_REG_V0];
    }
    if (num >= HEXSIM_DBG_REG_Q0 && num < HEXSIM_DBG_REG_Q0 + 4) {
        *len = sizeof(h->q[0]);
        return &h->q[num - HEXSIM_DBG_REG_Q0];
    }
    return NULL;
}

int hexsim_dbg_cpu_read_wide(const struct hexsim_cpu *c, unsigned num, void *buf)
{
    size_t len;
    const void *r = hvx_reg(c, num, &len);
    if (!r)
        return -1;
    memcpy(buf, r, len);
    return 0;
}

int hexsim_dbg_cpu_write_wide(struct hexsim_cpu *c, unsigned num, const void *buf)
{
    size_t len;
    void *r = hvx_reg(c, num, &len);
    if (!r)
        return -1;
    memcpy(r, buf, len);
    return 0;
}

// Where a scalar register lives in struct hexsim_cpu: a 32-bit word, or a 64-bit counter
// whose high or low half it is; neither for P3:0 (c->p[0..3] packed).
struct where {
    uint32_t *word;
    uint64_t *counter;
    bool hi;
};

// Where scalar register num lives in c (false: not a scalar register).
static bool scalar_reg(const struct hexsim_cpu *c, unsigned num, struct where *w)
{
    struct hexsim_cpu *m = (struct hexsim_cpu *)c;
    *w = (struct where){ NULL, NULL, false };
    if (num >= HEXSIM_DBG_CPU_NREGS)
        return false;
    if (num < 32) {
        w->word = &m->r[num];
        return true;
    }
    unsigned n = num - 32;
    w->hi = n == HX_UPCYCLEHI || n == HX_UTIMERHI || n == HX_PKTCOUNTHI;
    switch (n) {
    case HX_P3_0: break;
    case HX_PC: w->word = &m->pc; break;
    case HX_UPCYCLELO: case HX_UTIMERLO: case HX_UPCYCLEHI: case HX_UTIMERHI:
        w->counter = &m->pcycles;
        break;
    case HX_PKTCOUNTLO: case HX_PKTCOUNTHI: w->counter = &m->packets; break;
    default: w->word = &m->c[n]; break;
    }
    return true;
}

int hexsim_dbg_cpu_read(const struct hexsim_cpu *c, unsigned num, uint64_t *val)
{
    struct where w;
    if (!scalar_reg(c, num, &w))
        return -1;
    if (w.word)
        *val = *w.word;
    else if (w.counter)
        *val = (uint32_t)(w.hi ? *w.counter >> 32 : *w.counter);
    else
        *val = (uint32_t)c->p[0] | (uint32_t)c->p[1] << 8 | (uint32_t)c->p[2] << 16 |
               (uint32_t)c->p[3] << 24;
    return 0;
}

static uint64_t set_half(uint64_t v, bool hi, uint32_t x)
{
    return hi ? (v & 0xffffffffull) | (uint64_t)x << 32 : (v & ~0xffffffffull) | x;
}

int hexsim_dbg_cpu_write(struct hexsim_cpu *c, unsigned num, uint64_t val)
{
    struct where w;
    uint32_t v = (uint32_t)val;
    if (!scalar_reg(c, num, &w))
        return -1;
    if (w.word)
        *w.word = v;
    else if (w.counter)
        *w.counter = set_half(*w.counter, w.hi, v);
    else
        for (unsigned i = 0; i < 4; i++)
            c->p[i] = (uint8_t)(v >> (8 * i));
    return 0;
}
