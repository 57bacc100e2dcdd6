// SPDX-License-Identifier: MIT
// Comet RTOS timer at 0xAB000000 (DESIGN.md "Linux 6.1 guest facts", arch/hexagon time.c):
// a 32-bit count at the 32 kHz sleep clock, registers match 0x0, count 0x4, enable 0x8
// (bit 0 EN, bit 1 clear-on-match), clear 0xC (writing 1 resets the count). When the count
// reaches match the IRQ line (L1 interrupt 3) goes high; it stays high until the timer is
// disabled, cleared or given a new match, except with clear-on-match, where the count
// restarts from 0 and the line pulses at every match. The count is computed from the
// machine's pcycle clock, so the timer costs nothing between events.
#include <string.h>

#include "hexsim/dev.h"

#define EN 1u
#define CLR_ON_MATCH 2u

static uint32_t count_now(const struct hexsim_rtos_timer *t, uint64_t now)
{
    if (t->clear)
        return 0;                // held in reset while clear reads 1
    if (!(t->enable & EN) || now < t->t0)
        return t->count0;
    return t->count0 + (uint32_t)((now - t->t0) / t->period);
}

static void set_line(struct hexsim_dev *d, struct hexsim_rtos_timer *t, int level)
{
    if (t->line != level) {
        t->line = level;
        hexsim_irq_set(&d->irq, level);
    }
}

// Restarts counting at value c from now.
static void rebase(struct hexsim_rtos_timer *t, uint32_t c, uint64_t now)
{
    t->count0 = c;
    t->t0 = now;
}

static uint64_t timer_read(struct hexsim_dev *d, uint32_t off, unsigned size)
{
    struct hexsim_rtos_timer *t = d->state;
    (void)size;
    switch (off) {
    case 0x0: return t->match;
    case 0x4: return count_now(t, *d->now);
    case 0x8: return t->enable;
    case 0xC: return t->clear;
    default: return 0;
    }
}

static void timer_write(struct hexsim_dev *d, uint32_t off, unsigned size, uint64_t val)
{
    struct hexsim_rtos_timer *t = d->state;
    uint64_t now = *d->now;
    uint32_t v = (uint32_t)val;
    (void)size;
    switch (off) {
    case 0x0:
        rebase(t, count_now(t, now), now);
        t->match = v;
        set_line(d, t, 0);
        break;
    case 0x8:
        rebase(t, count_now(t, now), now);
        t->enable = v & (EN | CLR_ON_MATCH);
        if (!(t->enable & EN))
            set_line(d, t, 0);
        break;
    case 0xC:
        if ((v & 1) || t->clear)
            rebase(t, 0, now);   // counting restarts from 0 when clear is released
        if (v & 1)
            set_line(d, t, 0);
        t->clear = v & 1;
        break;
    default:
        break;
    }
}

static void timer_reset(struct hexsim_dev *d)
{
    struct hexsim_rtos_timer *t = d->state;
    uint64_t period = t->period;
    memset(t, 0, sizeof(*t));
    t->period = period;
    hexsim_irq_set(&d->irq, 0);
}

// The pcycle time the count reaches match (the line is low and the timer counting).
static uint64_t timer_next(const struct hexsim_dev *d)
{
    const struct hexsim_rtos_timer *t = d->state;
    if (!(t->enable & EN) || t->clear || t->line)
        return HEXSIM_TIME_NEVER;
    if (t->match < t->count0)
        return HEXSIM_TIME_NEVER;   // would need the count to wrap: 36 hours at 32 kHz
    return t->t0 + (uint64_t)(t->match - t->count0) * t->period;
}

static void timer_advance(struct hexsim_dev *d)
{
    struct hexsim_rtos_timer *t = d->state;
    uint64_t when = timer_next(d);
    if (when == HEXSIM_TIME_NEVER || when > *d->now)
        return;
    if (t->enable & CLR_ON_MATCH) {
        // the count restarts from 0; with match 0 it matches again one tick later, not at
        // once (that would be an endless run of events at one instant)
        rebase(t, 0, t->match ? when : when + t->period);
        set_line(d, t, 1);     // a pulse: the receiver latches the rising edge
        set_line(d, t, 0);
    } else {
        rebase(t, t->match, when);
        set_line(d, t, 1);
    }
}

static size_t timer_save(const struct hexsim_dev *d, void *buf, size_t len)
{
    if (len >= sizeof(struct hexsim_rtos_timer))
        memcpy(buf, d->state, sizeof(struct hexsim_rtos_timer));
    return sizeof(struct hexsim_rtos_timer);
}

static int timer_restore(struct hexsim_dev *d, const void *buf, size_t len)
{
    struct hexsim_rtos_timer *t = d->state;
    if (len != sizeof(*t))
        return -1;
    uint64_t period = t->period;        // the clock ratio is this machine's, not the file's
    memcpy(t, buf, len);
    t->period = period;
    return 0;
}

static const struct hexsim_dev_ops rtos_timer_ops = {
    .name = "rtos_timer",
    .read = timer_read,
    .write = timer_write,
    .reset = timer_reset,
    .save = timer_save,
    .restore = timer_restore,
    .next_event = timer_next,
    .advance = timer_advance,
};

void hexsim_rtos_timer_init(struct hexsim_dev *d, struct hexsim_rtos_timer *t,
                            uint64_t pcycles_per_tick)
{
    memset(t, 0, sizeof(*t));
    t->period = pcycles_per_tick ? pcycles_per_tick : 1;
    d->ops = &rtos_timer_ops;
    d->base = HEXSIM_RTOS_TIMER_BASE;
    d->size = 0x1000;
    d->state = t;
}
