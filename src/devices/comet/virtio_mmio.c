// SPDX-License-Identifier: MIT
// The virtio-mmio transport, version 2, shared by the project's virtio devices (the
// entropy source and the block devices; include/hexsim/virtio.h has the board slots):
// the register file, feature negotiation, the split virtqueues (walking a descriptor chain,
// returning it in the used ring) and the interrupt line. A device model gives notify and
// its configuration space; everything it reads or writes in guest memory goes through the
// checked accessors here.
//
// Facts: the Virtual I/O Device (VIRTIO) specification 1.1, 4.2.2 "MMIO Device Register
// Layout" (offsets below; the configuration space from 0x100), 2.6 "Split Virtqueues"
// (descriptor table of 16-byte entries {addr, len, flags NEXT 1 / WRITE 2 / INDIRECT 4,
// next}; available ring {flags, idx, ring[]}; used ring {flags, idx, ring[] of {id, len}}),
// 2.6.4.2 (a device-readable buffer never follows a device-writable one in a chain).
// Indirect descriptors (VIRTIO_F_INDIRECT_DESC) are not offered. A malformed queue sets
// DEVICE_NEEDS_RESET and stops the device until the driver resets it.
#include <stddef.h>
#include <string.h>

#include "hexsim/mem.h"
#include "hexsim/virtio.h"

enum {
    R_MAGIC = 0x000, R_VERSION = 0x004, R_DEVICE_ID = 0x008, R_VENDOR_ID = 0x00c,
    R_DEV_FEATURES = 0x010, R_DEV_FEATURES_SEL = 0x014, R_DRV_FEATURES = 0x020,
    R_DRV_FEATURES_SEL = 0x024, R_QUEUE_SEL = 0x030, R_QUEUE_NUM_MAX = 0x034,
    R_QUEUE_NUM = 0x038, R_QUEUE_READY = 0x044, R_QUEUE_NOTIFY = 0x050,
    R_INT_STATUS = 0x060, R_INT_ACK = 0x064, R_STATUS = 0x070,
    R_DESC_LO = 0x080, R_DESC_HI = 0x084, R_AVAIL_LO = 0x090, R_AVAIL_HI = 0x094,
    R_USED_LO = 0x0a0, R_USED_HI = 0x0a4, R_CONFIG_GEN = 0x0fc, R_CONFIG = 0x100,
};

#define MAGIC 0x74726976u            // "virt"
#define VENDOR 0x4d535848u           // "HXSM"
#define DESC_NEXT 1u
#define DESC_WRITE 2u
#define DESC_INDIRECT 4u
#define STATUS_NEEDS_RESET 0x40u
#define INT_USED 1u
#define INT_CONFIG 2u
#define SAVED offsetof(struct hexsim_virtio_mmio, ops)

static void update_irq(struct hexsim_virtio_mmio *t)
{
    hexsim_irq_set(&t->bus_dev->irq, t->int_status != 0);
}

// Back to the reset state the driver asks for by writing 0 to Status.
static void transport_reset(struct hexsim_virtio_mmio *t)
{
    memset(t, 0, SAVED);
    if (t->ops->reset)
        t->ops->reset(t);
}

bool hexsim_virtio_load(struct hexsim_virtio_mmio *t, uint64_t pa, void *buf, size_t n)
{
    uint32_t fa;
    return pa + n <= 0x100000000ull && pa + n >= pa &&
           hexsim_mem_copy_out(t->ram, (uint32_t)pa, buf, n, HEXSIM_PROT_R, &fa) == 0;
}

bool hexsim_virtio_store(struct hexsim_virtio_mmio *t, uint64_t pa, const void *buf, size_t n)
{
    uint32_t fa;
    return pa + n <= 0x100000000ull && pa + n >= pa &&
           hexsim_mem_copy_in(t->ram, (uint32_t)pa, buf, n, false, &fa) == 0;
}

void hexsim_virtio_fail(struct hexsim_virtio_mmio *t)
{
    t->status |= STATUS_NEEDS_RESET;
    t->int_status |= INT_CONFIG;
    update_irq(t);
}

static bool queue_live(const struct hexsim_virtio_mmio *t, unsigned q)
{
    return q < HEXSIM_VIRTIO_MAX_QUEUES && t->q[q].ready && t->q[q].num &&
           !(t->status & STATUS_NEEDS_RESET);
}

int hexsim_virtq_pop(struct hexsim_virtio_mmio *t, unsigned q, uint16_t *head,
                     struct hexsim_virtq_seg *segs, unsigned max)
{
    if (!queue_live(t, q))
        return 0;
    struct hexsim_virtq *vq = &t->q[q];
    uint16_t avail_idx;
    if (!hexsim_virtio_load(t, vq->avail + 2, &avail_idx, 2))
        return -1;
    if (avail_idx == vq->last_avail)
        return 0;
    if ((uint16_t)(avail_idx - vq->last_avail) > vq->num)
        return -1;                     // more offered than the queue holds
    if (!hexsim_virtio_load(t, vq->avail + 4 + 2ull * (vq->last_avail % vq->num), head, 2))
        return -1;
    unsigned n = 0;
    bool writing = false;
    for (uint16_t i = *head;; n++) {
        uint8_t desc[16];
        if (n >= vq->num || n >= max || i >= vq->num ||
            !hexsim_virtio_load(t, vq->desc + 16ull * i, desc, sizeof desc))
            return -1;
        uint16_t flags, next;
        memcpy(&segs[n].addr, desc, 8);
        memcpy(&segs[n].len, desc + 8, 4);
        memcpy(&flags, desc + 12, 2);
        memcpy(&next, desc + 14, 2);
        segs[n].write = (flags & DESC_WRITE) != 0;
        if ((flags & DESC_INDIRECT) || (writing && !segs[n].write))
            return -1;
        writing = segs[n].write;
        if (!(flags & DESC_NEXT))
            break;
        i = next;
    }
    vq->last_avail++;
    return (int)n + 1;
}

int hexsim_virtq_push(struct hexsim_virtio_mmio *t, unsigned q, uint16_t head, uint32_t len)
{
    struct hexsim_virtq *vq = &t->q[q];
    uint32_t elem[2] = { head, len };
    if (!hexsim_virtio_store(t, vq->used + 4 + 8ull * (vq->used_idx % vq->num), elem,
                             sizeof elem))
        return -1;
    vq->used_idx++;
    if (!hexsim_virtio_store(t, vq->used + 2, &vq->used_idx, 2))
        return -1;
    t->int_status |= INT_USED;
    update_irq(t);
    return 0;
}

uint64_t hexsim_virtio_mmio_read(struct hexsim_dev *d, uint32_t off, unsigned size)
{
    struct hexsim_virtio_mmio *t = d->state;
    if (off >= R_CONFIG) {
        if (!t->ops->config_read || off + size > d->size) {
            hexsim_dev_undef(d, "read", off, size, 0);
            return 0;
        }
        return t->ops->config_read(t, off - R_CONFIG, size);
    }
    if (size != 4 || (off & 3)) {
        hexsim_dev_undef(d, "read", off, size, 0);
        return 0;
    }
    unsigned qs = t->queue_sel;
    bool qok = qs < HEXSIM_VIRTIO_MAX_QUEUES;
    switch (off) {
    case R_MAGIC: return MAGIC;
    case R_VERSION: return 2;
    case R_DEVICE_ID: return t->device_id;
    case R_VENDOR_ID: return VENDOR;
    case R_DEV_FEATURES:
        return t->dev_features_sel < 2 ? (uint32_t)(t->features >> (32 * t->dev_features_sel))
                                       : 0;
    case R_QUEUE_NUM_MAX: return qok ? t->queue_max : 0;
    case R_QUEUE_READY: return qok ? t->q[qs].ready : 0;
    case R_INT_STATUS: return t->int_status;
    case R_STATUS: return t->status;
    case R_CONFIG_GEN: return 0;       // the configuration never changes
    default:
        hexsim_dev_undef(d, "read", off, size, 0);
        return 0;
    }
}

static void set_half(uint64_t *v, bool hi, uint32_t val)
{
    *v = hi ? (*v & 0xffffffffull) | (uint64_t)val << 32 : (*v & ~0xffffffffull) | val;
}

void hexsim_virtio_mmio_write(struct hexsim_dev *d, uint32_t off, unsigned size, uint64_t val)
{
    struct hexsim_virtio_mmio *t = d->state;
    uint32_t v = (uint32_t)val;
    if (off >= R_CONFIG) {
        if (!t->ops->config_write || off + size > d->size)
            hexsim_dev_undef(d, "write", off, size, val);
        else
            t->ops->config_write(t, off - R_CONFIG, size, v);
        return;
    }
    if (size != 4 || (off & 3)) {
        hexsim_dev_undef(d, "write", off, size, val);
        return;
    }
    unsigned qs = t->queue_sel;
    struct hexsim_virtq *vq = qs < HEXSIM_VIRTIO_MAX_QUEUES ? &t->q[qs] : NULL;
    switch (off) {
    case R_DEV_FEATURES_SEL: t->dev_features_sel = v; break;
    case R_DRV_FEATURES:
        if (t->drv_features_sel < 2)
            t->drv_features[t->drv_features_sel] = v;
        break;
    case R_DRV_FEATURES_SEL: t->drv_features_sel = v; break;
    case R_QUEUE_SEL: t->queue_sel = v; break;
    case R_QUEUE_NUM:
        if (vq && v <= t->queue_max)
            vq->num = v;
        break;
    case R_QUEUE_READY:
        if (vq)
            vq->ready = v & 1;
        break;
    case R_QUEUE_NOTIFY:
        if (queue_live(t, v))
            t->ops->notify(t, v);
        break;
    case R_INT_ACK:
        t->int_status &= ~v;
        update_irq(t);
        break;
    case R_STATUS:
        if (v == 0) {
            transport_reset(t);
            update_irq(t);
        } else {
            t->status = (t->status & STATUS_NEEDS_RESET) | (v & 0xff);
        }
        break;
    case R_DESC_LO: case R_DESC_HI:
        if (vq)
            set_half(&vq->desc, off == R_DESC_HI, v);
        break;
    case R_AVAIL_LO: case R_AVAIL_HI:
        if (vq)
            set_half(&vq->avail, off == R_AVAIL_HI, v);
        break;
    case R_USED_LO: case R_USED_HI:
        if (vq)
            set_half(&vq->used, off == R_USED_HI, v);
        break;
    default:
        hexsim_dev_undef(d, "write", off, size, val);
        break;
    }
}

void hexsim_virtio_mmio_reset(struct hexsim_dev *d)
{
    struct hexsim_virtio_mmio *t = d->state;
    transport_reset(t);
    hexsim_irq_set(&d->irq, 0);
}

// The transport's guest-visible state, then the device's own.
size_t hexsim_virtio_mmio_save(const struct hexsim_dev *d, void *buf, size_t len)
{
    const struct hexsim_virtio_mmio *t = d->state;
    size_t extra = t->ops->save ? t->ops->save(t, NULL, 0) : 0;
    if (len >= SAVED + extra) {
        memcpy(buf, t, SAVED);
        if (extra)
            t->ops->save(t, (uint8_t *)buf + SAVED, extra);
    }
    return SAVED + extra;
}

int hexsim_virtio_mmio_restore(struct hexsim_dev *d, const void *buf, size_t len)
{
    struct hexsim_virtio_mmio *t = d->state;
    size_t extra = t->ops->save ? t->ops->save(t, NULL, 0) : 0;
    if (len != SAVED + extra)
        return -1;
    if (extra && t->ops->restore(t, (const uint8_t *)buf + SAVED, extra))
        return -1;
    memcpy(t, buf, SAVED);
    for (unsigned i = 0; i < HEXSIM_VIRTIO_MAX_QUEUES; i++) {
        if (t->q[i].num > t->queue_max)
            t->q[i].num = t->queue_max;
        t->q[i].ready &= 1;
    }
    update_irq(t);
    return 0;
}

void hexsim_virtio_mmio_init(struct hexsim_dev *d, struct hexsim_virtio_mmio *t,
                             const struct hexsim_dev_ops *dev_ops, unsigned slot,
                             struct hexsim_mem *ram, uint32_t device_id, uint64_t features,
                             uint32_t queue_max, const struct hexsim_virtio_ops *ops, void *dev)
{
    memset(t, 0, sizeof(*t));
    memset(d, 0, sizeof(*d));
    t->ops = ops;
    t->dev = dev;
    t->bus_dev = d;
    t->ram = ram;
    t->device_id = device_id;
    t->features = features | HEXSIM_VIRTIO_F_VERSION_1;
    t->queue_max = queue_max;
    d->ops = dev_ops;
    d->base = HEXSIM_VIRTIO_SLOT_BASE(slot);
    d->size = HEXSIM_VIRTIO_SLOT_SIZE;
    d->state = t;
}
