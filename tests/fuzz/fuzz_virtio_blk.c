// SPDX-License-Identifier: MIT
// Fuzz target: the virtio block device's request parsing (src/devices/comet/virtio_blk.c
// on the transport virtio_mmio.c) as a guest driver reaches it: queue set-up, descriptor
// chains, request headers, data, discard ranges, all from the input, on a 64-sector image
// (a memfd, opened by path as --drive does).
// Input: byte 0 bit 0 read-only drive, bit 1 cache=writethrough; byte 1 the queue size
// (QueueNum, 0-255); then the first 48 KiB of guest RAM (descriptor table at 0, available
// ring at 0x1000, used ring at 0x2000, buffers anywhere; the rest zero). The device is
// notified, then reset by the driver, brought up again and notified once more.
// Checks: no crash or sanitizer report; the used index advances by at most what was
// offered; the image keeps its size (no write past the end); the device either stays
// usable or says DEVICE_NEEDS_RESET.
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "hexsim/mem.h"
#include "hexsim/virtio.h"

#define CHECK(c) do { if (!(c)) abort(); } while (0)
#define RAM 0xC000u
#define SECTORS 64u

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

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 2)
        return 0;
    int fd = memfd_create("fuzz_virtio_blk", 0);
    CHECK(fd >= 0);
    CHECK(ftruncate(fd, SECTORS * HEXSIM_SECTOR) == 0);
    struct hexsim_drive_opts o = { .readonly = data[0] & 1, .writethrough = (data[0] >> 1) & 1 };
    snprintf(o.file, sizeof o.file, "/proc/self/fd/%d", fd);
    struct hexsim_blk_image img;
    char msg[256];
    CHECK(hexsim_blk_image_open(&img, &o, msg, sizeof msg) == 0);
    struct hexsim_mem ram;
    hexsim_mem_init(&ram);
    CHECK(hexsim_mem_map(&ram, 0, RAM, HEXSIM_PROT_R | HEXSIM_PROT_W) == 0);
    size_t n = size - 2 < RAM ? size - 2 : RAM;
    hexsim_mem_copy_in(&ram, 0, data + 2, n, true, NULL);
    struct hexsim_dev d;
    struct hexsim_virtio_blk *b = malloc(sizeof *b);
    CHECK(b && hexsim_virtio_blk_init(&d, b, 1, &ram, &img) == 0);
    uint64_t now = 0;
    d.now = &now;
    d.irq = (struct hexsim_irq){ irq_set, NULL, 0 };
    d.ops->reset(&d);
    for (int round = 0; round < 2; round++) {
        bring_up(&d, data[1]);
        uint16_t before = used_idx(&ram), avail = 0;
        hexsim_mem_copy_out(&ram, 0x1002, &avail, 2, HEXSIM_PROT_R, NULL);
        wr(&d, 0x050, 0);
        uint16_t after = used_idx(&ram);
        // the device's used index counts from 0 after the reset: at most what was offered,
        // which at most fills the queue (the ring memory keeps the input's value otherwise)
        CHECK(after == before || (after <= avail && after <= data[1]));
        wr(&d, 0x064, 3);
        wr(&d, 0x070, 0);              // the driver's reset
        CHECK(d.ops->read(&d, 0x070, 4) == 0);
    }
    struct stat st;
    CHECK(fstat(fd, &st) == 0 && st.st_size == SECTORS * HEXSIM_SECTOR);
    hexsim_virtio_blk_free(b);
    free(b);
    hexsim_mem_free(&ram);
    CHECK(hexsim_blk_image_close(&img) == 0);
    close(fd);
    return 0;
}
