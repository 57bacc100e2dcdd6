// SPDX-License-Identifier: MIT
// Comet clock controller at 0xA8600000 (seed 006 comet_iomap.h CLK_CTL_PHYS, board.c and
// board.h: comet_init writes UART_NS_REG__UART3_CLK_BRANCH_ENA 0x00020000 to offset 0xC0,
// the UART3 NS register, whose other fields are the root enable 0x00010000 and the source
// select at bit 12). hexsim models the page as 1024 read/write 32-bit registers (the
// controller's NS/MD registers hold what was written; there are no PLLs to lock) and
// derives one clock gate from them: the UART3 core clock runs while the branch enable of
// 0xC0 is set; it starts stopped, so UART3 is dead until the board code turns it on.
// Accesses to registers other than 0xC0 are reported once with --trace-mmio (their
// meaning is not modelled, only their storage).
#include <string.h>

#include "hexsim/comet.h"

static void update(struct hexsim_clk_ctl *c)
{
    int lvl[HEXSIM_CLK_NOUT];
    lvl[HEXSIM_CLK_UART3] =
        (c->reg[HEXSIM_CLK_UART3_NS / 4] & HEXSIM_CLK_UART3_BRANCH_ENA) != 0;
    for (unsigned i = 0; i < HEXSIM_CLK_NOUT; i++)
        if (lvl[i] != c->level[i]) {
            c->level[i] = lvl[i];
            hexsim_irq_set(&c->out[i], lvl[i]);
        }
}

static uint64_t clk_read(struct hexsim_dev *d, uint32_t off, unsigned size)
{
    struct hexsim_clk_ctl *c = d->state;
    if (size != 4 || off != HEXSIM_CLK_UART3_NS)
        hexsim_dev_undef(d, "read", off, size, 0);
    uint32_t w = c->reg[(off / 4) % HEXSIM_CLK_NREGS];
    return size == 4 ? w : (w >> (8 * (off & 3))) & ((1ull << (8 * size)) - 1);
}

static void clk_write(struct hexsim_dev *d, uint32_t off, unsigned size, uint64_t val)
{
    struct hexsim_clk_ctl *c = d->state;
    if (size != 4 || off != HEXSIM_CLK_UART3_NS)
        hexsim_dev_undef(d, "write", off, size, val);
    if (size > 4)
        return;
    uint32_t *r = &c->reg[(off / 4) % HEXSIM_CLK_NREGS];
    uint32_t sh = 8 * (off & 3);
    uint32_t mask = (size == 4 ? ~0u : ((1u << (8 * size)) - 1)) << sh;
    *r = (*r & ~mask) | (((uint32_t)val << sh) & mask);
    update(c);
}

static void clk_reset(struct hexsim_dev *d)
{
    struct hexsim_clk_ctl *c = d->state;
    memset(c->reg, 0, sizeof(c->reg));
    update(c);
}

static size_t clk_save(const struct hexsim_dev *d, void *buf, size_t len)
{
    const struct hexsim_clk_ctl *c = d->state;
    if (len >= sizeof(c->reg))
        memcpy(buf, c->reg, sizeof(c->reg));
    return sizeof(c->reg);
}

static int clk_restore(struct hexsim_dev *d, const void *buf, size_t len)
{
    struct hexsim_clk_ctl *c = d->state;
    if (len != sizeof(c->reg))
        return -1;
    memcpy(c->reg, buf, len);
    update(c);
    return 0;
}

static const struct hexsim_dev_ops clk_ops = {
    .name = "clk_ctl",
    .read = clk_read,
    .write = clk_write,
    .reset = clk_reset,
    .save = clk_save,
    .restore = clk_restore,
};

void hexsim_clk_ctl_init(struct hexsim_dev *d, struct hexsim_clk_ctl *c)
{
    memset(c, 0, sizeof(*c));
    memset(d, 0, sizeof(*d));
    d->ops = &clk_ops;
    d->base = HEXSIM_CLK_CTL_BASE;
    d->size = 0x1000;
    d->state = c;
}
