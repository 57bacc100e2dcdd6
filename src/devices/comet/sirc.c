// SPDX-License-Identifier: MIT
// Comet SIRC: the Hexagon subsystem's second-level interrupt controller at 0xAB010000
// (seed 006 comet_iomap.h, board.c regs_table; DESIGN.md "Comet board"). Two groups of 32
// interrupt lines, group 0 at +0x000 and group 1 at +0x400, each with INT_ENABLE 0x00
// (read/write), INT_ENABLE_CLEAR 0x04 and INT_ENABLE_SET 0x08 (write 1s; read 0),
// INT_TYPE 0x0C (1 edge, 0 level), INT_POLARITY 0x10 (1 active low / falling, 0 active
// high / rising: seed 007 sirc_irq_set_type sets the bit for TRIGGER_LOW|FALLING), IRQ_STATUS 0x14 (pending
// and enabled), INT_CLEAR 0x18 (write 1s: forget caught edges and soft interrupts),
// SOFT_INT 0x1C (read/write; a 1 raises that interrupt from software) and IRQ_PENDING
// 0x20 (pending before the enable mask). A level interrupt is pending while its input is
// at the active level; an edge interrupt is caught on the active transition and stays
// pending until cleared. Group 0's output (any IRQ_STATUS bit) drives L1 interrupt 23,
// group 1's drives L1 24, as a level: the HVM controller re-pends it at the L1 eoi
// (vmintop globen) while it is still high. Other offsets of the page read as 0.
// Reset state (hexsim's choice; the seed does not say): everything disabled, all level
// type, all active high (POLARITY 0), so a line idling low is quiet until its driver sets the type;
// inputs no device drives are never active whatever their polarity.
#include <string.h>

#include "hexsim/comet.h"

enum {
    R_ENABLE = 0x00, R_ENABLE_CLEAR = 0x04, R_ENABLE_SET = 0x08, R_TYPE = 0x0C,
    R_POLARITY = 0x10, R_STATUS = 0x14, R_CLEAR = 0x18, R_SOFT = 0x1C, R_PENDING = 0x20,
};

static uint32_t active(const struct hexsim_sirc_group *g)
{
    return (g->input ^ g->polarity) & g->wired;    // input at its active level
}

static uint32_t pending(const struct hexsim_sirc_group *g)
{
    return (active(g) & ~g->type) | (g->latched & g->type) | g->soft;
}

static void update(struct hexsim_sirc *s, unsigned n)
{
    struct hexsim_sirc_group *g = &s->g[n];
    int lvl = (pending(g) & g->enable) != 0;
    if (lvl != g->out) {
        g->out = lvl;
        hexsim_irq_set(&s->out[n], lvl);
    }
}

void hexsim_sirc_set_line(void *ctx, unsigned line, int level)
{
    struct hexsim_sirc *s = ctx;
    unsigned n = line / 32;
    if (n >= HEXSIM_SIRC_GROUPS)
        return;
    struct hexsim_sirc_group *g = &s->g[n];
    uint32_t b = 1u << (line % 32);
    g->wired |= b;
    uint32_t was = active(g) & b;
    g->input = level ? g->input | b : g->input & ~b;
    if (!was && (active(g) & b))
        g->latched |= b;                     // the active edge
    update(s, n);
}

// A write to TYPE or POLARITY can itself make an input active: as in hardware, a change
// of polarity that moves an input to its active level counts as an edge.
static void set_config(struct hexsim_sirc_group *g, uint32_t *reg, uint32_t v)
{
    uint32_t before = active(g);
    *reg = v;
    g->latched |= active(g) & ~before;
}

static uint64_t sirc_read(struct hexsim_dev *d, uint32_t off, unsigned size)
{
    struct hexsim_sirc *s = d->state;
    unsigned n = off / 0x400;
    uint32_t r = off % 0x400;
    if (size != 4 || n >= HEXSIM_SIRC_GROUPS || r > R_PENDING) {
        hexsim_dev_undef(d, "read", off, size, 0);
        return 0;
    }
    const struct hexsim_sirc_group *g = &s->g[n];
    switch (r) {
    case R_ENABLE: return g->enable;
    case R_TYPE: return g->type;
    case R_POLARITY: return g->polarity;
    case R_STATUS: return pending(g) & g->enable;
    case R_SOFT: return g->soft;
    case R_PENDING: return pending(g);
    default: return 0;                        // the write-only registers read 0
    }
}

static void sirc_write(struct hexsim_dev *d, uint32_t off, unsigned size, uint64_t val)
{
    struct hexsim_sirc *s = d->state;
    unsigned n = off / 0x400;
    uint32_t r = off % 0x400, v = (uint32_t)val;
    if (size != 4 || n >= HEXSIM_SIRC_GROUPS || r > R_PENDING) {
        hexsim_dev_undef(d, "write", off, size, val);
        return;
    }
    struct hexsim_sirc_group *g = &s->g[n];
    switch (r) {
    case R_ENABLE: g->enable = v; break;
    case R_ENABLE_CLEAR: g->enable &= ~v; break;
    case R_ENABLE_SET: g->enable |= v; break;
    case R_TYPE: set_config(g, &g->type, v); break;
    case R_POLARITY: set_config(g, &g->polarity, v); break;
    case R_CLEAR:
        g->latched &= ~v;
        g->soft &= ~v;
        break;
    case R_SOFT: g->soft = v; break;
    default:
        hexsim_dev_undef(d, "write", off, size, val);   // STATUS, PENDING: read-only
        return;
    }
    update(s, n);
}

static void sirc_reset(struct hexsim_dev *d)
{
    struct hexsim_sirc *s = d->state;
    for (unsigned n = 0; n < HEXSIM_SIRC_GROUPS; n++) {
        struct hexsim_sirc_group *g = &s->g[n];
        uint32_t in = g->input, wired = g->wired;   // the wires keep their levels
        memset(g, 0, sizeof(*g));
        g->input = in;
        g->wired = wired;
        hexsim_irq_set(&s->out[n], 0);
    }
}

static size_t sirc_save(const struct hexsim_dev *d, void *buf, size_t len)
{
    const struct hexsim_sirc *s = d->state;
    if (len >= sizeof(s->g))
        memcpy(buf, s->g, sizeof(s->g));
    return sizeof(s->g);
}

static int sirc_restore(struct hexsim_dev *d, const void *buf, size_t len)
{
    struct hexsim_sirc *s = d->state;
    if (len != sizeof(s->g))
        return -1;
    memcpy(s->g, buf, len);
    return 0;
}

static const struct hexsim_dev_ops sirc_ops = {
    .name = "sirc",
    .read = sirc_read,
    .write = sirc_write,
    .reset = sirc_reset,
    .save = sirc_save,
    .restore = sirc_restore,
};

void hexsim_sirc_init(struct hexsim_dev *d, struct hexsim_sirc *s)
{
    memset(s, 0, sizeof(*s));
    for (unsigned n = 0; n < HEXSIM_SIRC_GROUPS; n++)
        s->g[n].polarity = ~0u;
    memset(d, 0, sizeof(*d));
    d->ops = &sirc_ops;
    d->base = HEXSIM_SIRC_BASE;
    d->size = 0x1000;
    d->state = s;
}
