// SPDX-License-Identifier: MIT
// Entropy source: a virtio entropy device (device ID 4) in virtio-mmio slot 0
// (include/hexsim/virtio.h: 0xAB100000, SIRC0 line 20; the transport is virtio_mmio.c). It
// is not part of the 2011 Comet board, which has no entropy source at all; without one,
// Linux 6.1's first read of /dev/random waits until its jitter entropy is credited
// (hundreds of millions of packets). Linux finds the device through its own command-line
// mechanism (CONFIG_VIRTIO_MMIO_CMDLINE_DEVICES: virtio_mmio.device=SIZE@BASE:IRQ, which the
// loader adds), and virtio-rng feeds the hwrng core, which credits its bytes (quality 1000)
// and seeds the kernel's RNG at boot. The bytes come from a SplitMix64 stream from a seed
// (--rng-seed; 0 by default), so a run is as reproducible as without the device.
//
// Facts: the Virtual I/O Device (VIRTIO) specification 1.1, 5.4 "Entropy Device" (one
// queue, no configuration, the device fills the driver's write-only buffers). Offered
// features: VIRTIO_F_VERSION_1 only. The device answers a notification at once (it has its
// bytes ready), so the guest sees a buffer used in the same pcycle it was offered.
#include <string.h>

#include "hexsim/comet.h"
#include "hexsim/virtio.h"

#define DEVICE_ENTROPY 4u

static uint64_t splitmix64(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

// Fills a chain's write-only buffers; returns the bytes written, or -1.
static int64_t fill(struct hexsim_virtio_rng *r, const struct hexsim_virtq_seg *segs, int n)
{
    int64_t total = 0;
    for (int s = 0; s < n; s++) {
        if (!segs[s].write)
            continue;
        uint8_t chunk[256];
        for (uint32_t off = 0; off < segs[s].len;) {
            uint32_t len = segs[s].len - off;
            uint32_t c = len < sizeof chunk ? len : (uint32_t)sizeof chunk;
            for (uint32_t k = 0; k < c; k += 8) {
                uint64_t v = splitmix64(&r->stream);
                memcpy(chunk + k, &v, c - k < 8 ? c - k : 8);
            }
            if (!hexsim_virtio_store(&r->t, segs[s].addr + off, chunk, c))
                return -1;
            off += c;
        }
        total += segs[s].len;
    }
    return total;
}

// The driver offered buffers: use every available one.
static void rng_notify(struct hexsim_virtio_mmio *t, unsigned q)
{
    struct hexsim_virtio_rng *r = t->dev;
    struct hexsim_virtq_seg segs[HEXSIM_VIRTIO_RNG_QUEUE];
    for (;;) {
        uint16_t head;
        int n = hexsim_virtq_pop(t, q, &head, segs, HEXSIM_VIRTIO_RNG_QUEUE);
        if (n == 0)
            return;
        int64_t len = n < 0 ? -1 : fill(r, segs, n);
        if (len < 0 || len > UINT32_MAX || hexsim_virtq_push(t, q, head, (uint32_t)len)) {
            hexsim_virtio_fail(t);
            return;
        }
        r->bytes += (uint64_t)len;
    }
}

// The bus reset starts the stream again (a driver reset does not: the bytes go on).
static void rng_bus_reset(struct hexsim_dev *d)
{
    struct hexsim_virtio_mmio *t = d->state;
    struct hexsim_virtio_rng *r = t->dev;
    hexsim_virtio_mmio_reset(d);
    r->stream = r->seed;
}

// After the transport: the count and the stream's position; the seed is this machine's.
static size_t rng_save(const struct hexsim_virtio_mmio *t, void *buf, size_t len)
{
    const struct hexsim_virtio_rng *r = t->dev;
    if (len >= 16) {
        memcpy(buf, &r->bytes, 8);
        memcpy((uint8_t *)buf + 8, &r->stream, 8);
    }
    return 16;
}

static int rng_restore(struct hexsim_virtio_mmio *t, const void *buf, size_t len)
{
    struct hexsim_virtio_rng *r = t->dev;
    if (len != 16)
        return -1;
    memcpy(&r->bytes, buf, 8);
    memcpy(&r->stream, (const uint8_t *)buf + 8, 8);
    return 0;
}

static const struct hexsim_virtio_ops rng_virtio_ops = {
    .notify = rng_notify,
    .save = rng_save,
    .restore = rng_restore,
};

static const struct hexsim_dev_ops rng_ops = {
    .name = "virtio_rng",
    .read = hexsim_virtio_mmio_read,
    .write = hexsim_virtio_mmio_write,
    .reset = rng_bus_reset,
    .save = hexsim_virtio_mmio_save,
    .restore = hexsim_virtio_mmio_restore,
};

void hexsim_virtio_rng_init(struct hexsim_dev *d, struct hexsim_virtio_rng *r,
                            struct hexsim_mem *ram, uint64_t seed)
{
    memset(r, 0, sizeof(*r));
    hexsim_virtio_mmio_init(d, &r->t, &rng_ops, 0, ram, DEVICE_ENTROPY, 0,
                            HEXSIM_VIRTIO_RNG_QUEUE, &rng_virtio_ops, r);
    r->seed = r->stream = seed;
}
