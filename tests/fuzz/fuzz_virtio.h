// SPDX-License-Identifier: MIT
// What the virtio fuzz targets (fuzz_virtio_blk.c, fuzz_virtio_9p.c) share: a device on
// the virtio-mmio transport brought up as Linux's virtio_mmio driver does it (status
// ACKNOWLEDGE and DRIVER, VIRTIO_F_VERSION_1, FEATURES_OK, queue 0 with its parts at fixed
// places of a small guest RAM, DRIVER_OK), notified, reset by the driver, brought up and
// notified again. Facts: the VIRTIO 1.1 specification, 4.2.2 (register offsets) and 3.1
// (the driver's initialization steps).
#ifndef HEXSIM_FUZZ_VIRTIO_H
#define HEXSIM_FUZZ_VIRTIO_H

#include <stdint.h>
#include <stdlib.h>

#include "hexsim/mem.h"
#include "hexsim/virtio.h"

#define CHECK(c) do { if (!(c)) abort(); } while (0)
#define RAM 0xC000u                    // descriptor table 0, available ring 0x1000, used 0x2000

static void irq_set(void *ctx, unsigned line, int level)
{
    (void)ctx;
    (void)line;
    CHECK(level == 0 || level == 1);
}

static void wr(struct hexsim_dev *d, uint32_t off, uint32_t v)
{
    d->ops->write(d, off, 4, v);
}

static void bring_up(struct hexsim_dev *d, uint32_t qnum)
{
    wr(d, 0x070, 1 | 2);
    wr(d, 0x024, 1);
    wr(d, 0x020, 1);
    wr(d, 0x070, 1 | 2 | 8);
    wr(d, 0x030, 0);
    wr(d, 0x038, qnum);
    wr(d, 0x080, 0);
    wr(d, 0x090, 0x1000);
    wr(d, 0x0a0, 0x2000);
    wr(d, 0x044, 1);
    wr(d, 0x070, 1 | 2 | 8 | 4);
}

static uint16_t used_idx(struct hexsim_mem *ram)
{
    uint16_t v = 0;
    hexsim_mem_copy_out(ram, 0x2002, &v, 2, HEXSIM_PROT_R, NULL);
    return v;
}

// Two rounds of bring-up, notify and driver reset on device d with queue size qnum.
static void fuzz_virtio_rounds(struct hexsim_dev *d, struct hexsim_mem *ram, uint8_t qnum)
{
    uint64_t now = 0;
    d->now = &now;
    d->irq = (struct hexsim_irq){ irq_set, NULL, 0 };
    d->ops->reset(d);
    for (int round = 0; round < 2; round++) {
        bring_up(d, qnum);
        uint16_t before = used_idx(ram), avail = 0;
        hexsim_mem_copy_out(ram, 0x1002, &avail, 2, HEXSIM_PROT_R, NULL);
        wr(d, 0x050, 0);
        uint16_t after = used_idx(ram);
        // the device's used index counts from 0 after the reset: at most what was offered,
        // which at most fills the queue (the ring memory keeps the input's value otherwise)
        CHECK(after == before || (after <= avail && after <= qnum));
        wr(d, 0x064, 3);
        wr(d, 0x070, 0);               // the driver's reset
        CHECK(d->ops->read(d, 0x070, 4) == 0);
    }
    d->now = NULL;
}

#endif
