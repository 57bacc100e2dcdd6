// SPDX-License-Identifier: MIT
// The machine's MMIO bus: a short list of devices, each on its own address range, looked up
// by physical address. Accesses no device claims go to the "unimplemented" handler: logged
// once per 4 KiB page, reads return 0, writes are ignored (DESIGN.md, STYLE.md).
#include "hexsim/dev.h"

#include <string.h>

void hexsim_bus_init(struct hexsim_bus *b, const uint64_t *now, FILE *log)
{
    memset(b, 0, sizeof(*b));
    b->now = now;
    b->log = log;
}

int hexsim_bus_add(struct hexsim_bus *b, struct hexsim_dev *d)
{
    if (b->ndev >= HEXSIM_BUS_MAX_DEVS || d->size == 0)
        return -1;
    uint64_t lo = d->base, hi = (uint64_t)d->base + d->size;
    for (unsigned i = 0; i < b->ndev; i++) {
        uint64_t l2 = b->dev[i]->base, h2 = l2 + b->dev[i]->size;
        if (lo < h2 && l2 < hi)
            return -1;
    }
    d->now = b->now;
    d->trace = b->trace;
    memset(d->undef_seen, 0, sizeof(d->undef_seen));
    b->dev[b->ndev++] = d;
    return 0;
}

struct hexsim_dev *hexsim_bus_find(const struct hexsim_bus *b, uint32_t pa)
{
    for (unsigned i = 0; i < b->ndev; i++)
        if (pa - b->dev[i]->base < b->dev[i]->size)
            return b->dev[i];
    return NULL;
}

static void refused(struct hexsim_bus *b, const char *what, uint32_t pa, unsigned size,
                    uint64_t val, const char *why)
{
    b->unmapped_accesses++;
    uint32_t page = pa >> 12;
    for (unsigned i = 0; i < b->nwarned; i++)
        if (b->warned[i] == page)
            return;
    if (b->nwarned < HEXSIM_BUS_MAX_WARN)
        b->warned[b->nwarned++] = page;
    if (b->log) {
        fprintf(b->log, "hexsim: %s MMIO %s of %u bytes at physical 0x%08x",
                why[0] == 'n' ? "unimplemented" : "refused", what, size, pa);
        if (what[0] == 'w')
            fprintf(b->log, " (value 0x%llx)", (unsigned long long)val);
        fprintf(b->log, ": %s; reads as 0, writes ignored (reported once per page)\n", why);
    }
}

static void unimplemented(struct hexsim_bus *b, const char *what, uint32_t pa, unsigned size,
                          uint64_t val)
{
    refused(b, what, pa, size, val, "no device there");
}

void hexsim_dev_undef(struct hexsim_dev *d, const char *what, uint32_t off, unsigned size,
                      uint64_t val)
{
    if (!d->trace)
        return;
    uint32_t w = (off >> 2) % (HEXSIM_DEV_UNDEF_WORDS * 32);
    uint32_t bit = 1u << (w & 31);
    if (d->undef_seen[w >> 5] & bit)
        return;
    d->undef_seen[w >> 5] |= bit;
    fprintf(d->trace, "hexsim: mmio: %s %s of %u bytes at offset 0x%03x (physical 0x%08x) "
            "hits no defined register", d->ops->name, what, size, off, d->base + off);
    if (what[0] == 'w')
        fprintf(d->trace, " (value 0x%llx)", (unsigned long long)val);
    fprintf(d->trace, "; answered as the hardware does (reported once)\n");
}

// A timed device whose event time has passed is brought up to date before it is accessed,
// so a register read never sees a state older than the clock.
static void catch_up(struct hexsim_dev *d)
{
    if (d->ops->next_event && d->ops->advance)
        for (unsigned i = 0; i < 64 && d->ops->next_event(d) <= *d->now; i++)
            d->ops->advance(d);
}

// Devices see sizes 1, 2 and 4, naturally aligned: an 8-byte access (memd) is two word
// accesses, the low word first; anything else is refused (reads as 0, writes ignored) and
// counted with the unclaimed accesses.
static bool bad_size(uint32_t pa, unsigned size)
{
    return (size != 1 && size != 2 && size != 4) || (pa & (size - 1));
}

uint64_t hexsim_bus_read(struct hexsim_bus *b, uint32_t pa, unsigned size)
{
    if (size == 8 && !(pa & 7))
        return hexsim_bus_read(b, pa, 4) | hexsim_bus_read(b, pa + 4, 4) << 32;
    if (bad_size(pa, size)) {
        refused(b, "read", pa, size, 0, "misaligned or of an odd size");
        return 0;
    }
    struct hexsim_dev *d = hexsim_bus_find(b, pa);
    if (!d || !d->ops->read) {
        unimplemented(b, "read", pa, size, 0);
        return 0;
    }
    catch_up(d);
    uint64_t v = d->ops->read(d, pa - d->base, size);
    if (b->trace_all)
        fprintf(b->trace_all, "mmio: %llu %s read%u +0x%03x -> 0x%llx\n",
                (unsigned long long)*b->now, d->ops->name, size * 8, pa - d->base,
                (unsigned long long)v);
    return v;
}

void hexsim_bus_write(struct hexsim_bus *b, uint32_t pa, unsigned size, uint64_t val)
{
    if (size == 8 && !(pa & 7)) {
        hexsim_bus_write(b, pa, 4, (uint32_t)val);
        hexsim_bus_write(b, pa + 4, 4, val >> 32);
        return;
    }
    if (bad_size(pa, size)) {
        refused(b, "write", pa, size, val, "misaligned or of an odd size");
        return;
    }
    struct hexsim_dev *d = hexsim_bus_find(b, pa);
    if (!d || !d->ops->write) {
        unimplemented(b, "write", pa, size, val);
        return;
    }
    catch_up(d);
    if (b->trace_all)
        fprintf(b->trace_all, "mmio: %llu %s write%u +0x%03x <- 0x%llx\n",
                (unsigned long long)*b->now, d->ops->name, size * 8, pa - d->base,
                (unsigned long long)val);
    d->ops->write(d, pa - d->base, size, val);
}

void hexsim_bus_reset(struct hexsim_bus *b)
{
    for (unsigned i = 0; i < b->ndev; i++)
        if (b->dev[i]->ops->reset)
            b->dev[i]->ops->reset(b->dev[i]);
}

uint64_t hexsim_bus_next_event(const struct hexsim_bus *b)
{
    uint64_t t = HEXSIM_TIME_NEVER;
    for (unsigned i = 0; i < b->ndev; i++) {
        const struct hexsim_dev *d = b->dev[i];
        if (d->ops->next_event) {
            uint64_t e = d->ops->next_event(d);
            if (e < t)
                t = e;
        }
    }
    return t;
}

void hexsim_bus_advance(struct hexsim_bus *b)
{
    for (unsigned i = 0; i < b->ndev; i++) {
        struct hexsim_dev *d = b->dev[i];
        catch_up(d);
    }
}
