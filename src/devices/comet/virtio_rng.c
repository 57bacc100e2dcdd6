// SPDX-License-Identifier: MIT
// Entropy source: a virtio entropy device (device ID 4) on the virtio-mmio transport,
// version 2, at HEXSIM_VIRTIO_RNG_BASE on SIRC0 line HEXSIM_VIRTIO_RNG_SIRC. It is not
// part of the 2011 Comet board, which has no entropy source at all; without one, Linux
// 6.1's first read of /dev/random waits until its jitter entropy is credited (hundreds of
// millions of packets). Linux finds the device through its own command-line mechanism
// (CONFIG_VIRTIO_MMIO_CMDLINE_DEVICES: virtio_mmio.device=SIZE@BASE:IRQ, which the loader
// adds), and virtio-rng feeds the hwrng core, which credits its bytes (quality 1000) and
// seeds the kernel's RNG at boot. The bytes come from a SplitMix64 stream from a seed
// (--rng-seed; 0 by default), so a run is as reproducible as without the device.
//
// Facts: the Virtual I/O Device (VIRTIO) specification 1.1, 4.2.2 "MMIO Device Register
// Layout" (offsets below), 2.6 "Split Virtqueues" (descriptor table of 16-byte entries
// {addr, len, flags NEXT 1 / WRITE 2 / INDIRECT 4, next}; available ring {flags, idx,
// ring[]}; used ring {flags, idx, ring[] of {id, len}}), 5.4 "Entropy Device" (one
// queue, no configuration, the device fills the driver's write-only buffers).
// Offered features: VIRTIO_F_VERSION_1 (bit 32) only, which a version-2 transport needs.
// The device answers a notification at once (it has its bytes ready), so the guest sees a
// buffer used in the same pcycle it was offered. A malformed queue (a buffer outside RAM,
// a descriptor chain longer than the queue) sets DEVICE_NEEDS_RESET and stops the queue.
#include <stddef.h>
#include <string.h>

#include "hexsim/comet.h"
#include "hexsim/mem.h"

enum {
    R_MAGIC = 0x000, R_VERSION = 0x004, R_DEVICE_ID = 0x008, R_VENDOR_ID = 0x00c,
    R_DEV_FEATURES = 0x010, R_DEV_FEATURES_SEL = 0x014, R_DRV_FEATURES = 0x020,
    R_DRV_FEATURES_SEL = 0x024, R_QUEUE_SEL = 0x030, R_QUEUE_NUM_MAX = 0x034,
    R_QUEUE_NUM = 0x038, R_QUEUE_READY = 0x044, R_QUEUE_NOTIFY = 0x050,
    R_INT_STATUS = 0x060, R_INT_ACK = 0x064, R_STATUS = 0x070,
    R_DESC_LO = 0x080, R_DESC_HI = 0x084, R_AVAIL_LO = 0x090, R_AVAIL_HI = 0x094,
    R_USED_LO = 0x0a0, R_USED_HI = 0x0a4, R_CONFIG_GEN = 0x0fc,
};

#define MAGIC 0x74726976u            // "virt"
#define VENDOR 0x4d535848u           // "HXSM"
#define DEVICE_ENTROPY 4u
#define QUEUE_MAX HEXSIM_VIRTIO_RNG_QUEUE
#define F_VERSION_1_HI 1u            // feature bit 32: bit 0 of the second word
#define DESC_NEXT 1u
#define DESC_WRITE 2u
#define DESC_INDIRECT 4u
#define STATUS_NEEDS_RESET 0x40u
#define INT_USED 1u
#define INT_CONFIG 2u

static uint64_t splitmix64(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

static void update_irq(struct hexsim_dev *d)
{
    struct hexsim_virtio_rng *r = d->state;
    hexsim_irq_set(&d->irq, r->int_status != 0);
}

static void reset(struct hexsim_virtio_rng *r)
{
    uint64_t seed = r->seed, stream = r->stream;
    struct hexsim_mem *ram = r->ram;
    memset(r, 0, offsetof(struct hexsim_virtio_rng, seed));
    r->seed = seed;
    r->stream = stream;
    r->ram = ram;
}

static bool load(struct hexsim_virtio_rng *r, uint64_t pa, void *buf, size_t n)
{
    uint32_t fa;
    return pa + n <= 0x100000000ull &&
           hexsim_mem_copy_out(r->ram, (uint32_t)pa, buf, n, HEXSIM_PROT_R, &fa) == 0;
}

static bool store(struct hexsim_virtio_rng *r, uint64_t pa, const void *buf, size_t n)
{
    uint32_t fa;
    return pa + n <= 0x100000000ull &&
           hexsim_mem_copy_in(r->ram, (uint32_t)pa, buf, n, false, &fa) == 0;
}

// Fills one descriptor chain's write-only buffers; returns the bytes written, or -1.
static int64_t fill_chain(struct hexsim_virtio_rng *r, uint16_t head)
{
    int64_t total = 0;
    uint16_t i = head;
    for (unsigned steps = 0;; steps++) {
        uint8_t desc[16];
        if (steps >= r->queue_num || i >= r->queue_num ||
            !load(r, r->desc + 16ull * i, desc, sizeof desc))
            return -1;
        uint64_t addr;
        uint32_t len;
        uint16_t flags, next;
        memcpy(&addr, desc, 8);
        memcpy(&len, desc + 8, 4);
        memcpy(&flags, desc + 12, 2);
        memcpy(&next, desc + 14, 2);
        if (flags & DESC_INDIRECT)
            return -1;                  // not offered (VIRTIO_F_INDIRECT_DESC)
        if (flags & DESC_WRITE) {
            uint8_t chunk[256];
            for (uint32_t off = 0; off < len;) {
                uint32_t n = len - off < sizeof chunk ? len - off : (uint32_t)sizeof chunk;
                for (uint32_t k = 0; k < n; k += 8) {
                    uint64_t v = splitmix64(&r->stream);
                    memcpy(chunk + k, &v, n - k < 8 ? n - k : 8);
                }
                if (!store(r, addr + off, chunk, n))
                    return -1;
                off += n;
            }
            total += len;
        }
        if (!(flags & DESC_NEXT))
            return total;
        i = next;
    }
}

// The driver offered buffers: use every available one.
static void process(struct hexsim_dev *d)
{
    struct hexsim_virtio_rng *r = d->state;
    if (!r->queue_ready || !r->queue_num || (r->status & STATUS_NEEDS_RESET))
        return;
    uint16_t avail_idx;
    if (!load(r, r->avail + 2, &avail_idx, 2))
        goto bad;
    for (unsigned n = 0; r->last_avail != avail_idx && n < 65536; n++) {
        uint16_t head;
        if (!load(r, r->avail + 4 + 2ull * (r->last_avail % r->queue_num), &head, 2))
            goto bad;
        int64_t len = fill_chain(r, head);
        if (len < 0 || len > UINT32_MAX)
            goto bad;
        uint32_t elem[2] = { head, (uint32_t)len };
        if (!store(r, r->used + 4 + 8ull * (r->used_idx % r->queue_num), elem, sizeof elem))
            goto bad;
        r->used_idx++;
        r->last_avail++;
        if (!store(r, r->used + 2, &r->used_idx, 2))
            goto bad;
        r->bytes += (uint64_t)len;
        r->int_status |= INT_USED;
    }
    update_irq(d);
    return;
bad:
    r->status |= STATUS_NEEDS_RESET;
    r->int_status |= INT_CONFIG;
    update_irq(d);
}

static uint64_t rng_read(struct hexsim_dev *d, uint32_t off, unsigned size)
{
    struct hexsim_virtio_rng *r = d->state;
    if (size != 4 || (off & 3)) {
        hexsim_dev_undef(d, "read", off, size, 0);
        return 0;
    }
    switch (off) {
    case R_MAGIC: return MAGIC;
    case R_VERSION: return 2;
    case R_DEVICE_ID: return DEVICE_ENTROPY;
    case R_VENDOR_ID: return VENDOR;
    case R_DEV_FEATURES: return r->dev_features_sel == 1 ? F_VERSION_1_HI : 0;
    case R_QUEUE_NUM_MAX: return r->queue_sel == 0 ? QUEUE_MAX : 0;
    case R_QUEUE_READY: return r->queue_sel == 0 ? r->queue_ready : 0;
    case R_INT_STATUS: return r->int_status;
    case R_STATUS: return r->status;
    case R_CONFIG_GEN: return 0;
    default:
        hexsim_dev_undef(d, "read", off, size, 0);
        return 0;
    }
}

static void set_half(uint64_t *v, bool hi, uint32_t val)
{
    *v = hi ? (*v & 0xffffffffull) | (uint64_t)val << 32 : (*v & ~0xffffffffull) | val;
}

static void rng_write(struct hexsim_dev *d, uint32_t off, unsigned size, uint64_t val)
{
    struct hexsim_virtio_rng *r = d->state;
    uint32_t v = (uint32_t)val;
    if (size != 4 || (off & 3)) {
        hexsim_dev_undef(d, "write", off, size, val);
        return;
    }
    bool q0 = r->queue_sel == 0;
    switch (off) {
    case R_DEV_FEATURES_SEL: r->dev_features_sel = v; break;
    case R_DRV_FEATURES:
        if (r->drv_features_sel < 2)
            r->drv_features[r->drv_features_sel] = v;
        break;
    case R_DRV_FEATURES_SEL: r->drv_features_sel = v; break;
    case R_QUEUE_SEL: r->queue_sel = v; break;
    case R_QUEUE_NUM:
        if (q0 && v <= QUEUE_MAX)
            r->queue_num = v;
        break;
    case R_QUEUE_READY:
        if (q0)
            r->queue_ready = v & 1;
        break;
    case R_QUEUE_NOTIFY:
        if (v == 0)
            process(d);
        break;
    case R_INT_ACK:
        r->int_status &= ~v;
        update_irq(d);
        break;
    case R_STATUS:
        if (v == 0) {
            reset(r);
            update_irq(d);
        } else {
            r->status = v & 0xff;
        }
        break;
    case R_DESC_LO: case R_DESC_HI:
        if (q0)
            set_half(&r->desc, off == R_DESC_HI, v);
        break;
    case R_AVAIL_LO: case R_AVAIL_HI:
        if (q0)
            set_half(&r->avail, off == R_AVAIL_HI, v);
        break;
    case R_USED_LO: case R_USED_HI:
        if (q0)
            set_half(&r->used, off == R_USED_HI, v);
        break;
    default:
        hexsim_dev_undef(d, "write", off, size, val);
        break;
    }
}

static void rng_reset(struct hexsim_dev *d)
{
    struct hexsim_virtio_rng *r = d->state;
    reset(r);
    r->stream = r->seed;
    hexsim_irq_set(&d->irq, 0);
}

// The guest-visible state and the stream position; the seed and RAM are this machine's.
static size_t rng_save(const struct hexsim_dev *d, void *buf, size_t len)
{
    const struct hexsim_virtio_rng *r = d->state;
    size_t n = offsetof(struct hexsim_virtio_rng, seed);
    if (len >= n + 8) {
        memcpy(buf, r, n);
        memcpy((uint8_t *)buf + n, &r->stream, 8);
    }
    return n + 8;
}

static int rng_restore(struct hexsim_dev *d, const void *buf, size_t len)
{
    struct hexsim_virtio_rng *r = d->state;
    size_t n = offsetof(struct hexsim_virtio_rng, seed);
    if (len != n + 8)
        return -1;
    memcpy(r, buf, n);
    memcpy(&r->stream, (const uint8_t *)buf + n, 8);
    if (r->queue_num > QUEUE_MAX)
        r->queue_num = QUEUE_MAX;
    r->queue_ready &= 1;
    update_irq(d);
    return 0;
}

static const struct hexsim_dev_ops rng_ops = {
    .name = "virtio_rng",
    .read = rng_read,
    .write = rng_write,
    .reset = rng_reset,
    .save = rng_save,
    .restore = rng_restore,
};

void hexsim_virtio_rng_init(struct hexsim_dev *d, struct hexsim_virtio_rng *r,
                            struct hexsim_mem *ram, uint64_t seed)
{
    memset(r, 0, sizeof(*r));
    memset(d, 0, sizeof(*d));
    r->ram = ram;
    r->seed = r->stream = seed;
    d->ops = &rng_ops;
    d->base = HEXSIM_VIRTIO_RNG_BASE;
    d->size = HEXSIM_VIRTIO_RNG_SIZE;
    d->state = r;
}
