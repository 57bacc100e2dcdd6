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

#include "fuzz_virtio.h"

#define SECTORS 64u

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
    fuzz_virtio_rounds(&d, &ram, data[1]);
    struct stat st;
    CHECK(fstat(fd, &st) == 0 && st.st_size == SECTORS * HEXSIM_SECTOR);
    hexsim_virtio_blk_free(b);
    free(b);
    hexsim_mem_free(&ram);
    CHECK(hexsim_blk_image_close(&img) == 0);
    close(fd);
    return 0;
}
