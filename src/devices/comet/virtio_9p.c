// SPDX-License-Identifier: MIT
// Shared directory: a virtio 9P transport device (device ID 9) on the virtio-mmio transport
// (virtio_mmio.c), in the slot after the disks for each --share (include/hexsim/virtio.h),
// carrying 9P2000.L messages to the server for one host directory (src/devices/p9/).
// Not a Comet part; Linux 6.1's 9pnet_virtio finds it by its mount tag, and
// `mount -t 9p -o trans=virtio TAG /mnt` mounts it. Each request is one descriptor chain:
// the T-message in the device-readable buffers, room for the R-message in the writable
// ones (Linux's zero-copy requests put a read's data or a write's payload in further
// buffers of the same chain; as a byte stream over the chain the message is the same).
// Requests are answered when the driver notifies (synchronous host I/O), so a run is as
// deterministic as the shared directory.
//
// Facts: the Virtual I/O Device (VIRTIO) specification 1.1, 5.1 lists device ID 9 "9P
// transport"; Linux 6.1 include/uapi/linux/virtio_9p.h (feature VIRTIO_9P_MOUNT_TAG, bit
// 0; configuration {le16 tag_len; u8 tag[tag_len]}) and net/9p/trans_virtio.c (one
// queue "requests"; out buffers then in buffers per request; the used length is the
// R-message's).
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hexsim/virtio.h"

#define DEVICE_9P 9u
#define F_MOUNT_TAG (1ull << 0)

// Copies the chain's readable (write false) or writable stream to or from buf: up to
// `len` bytes. Returns the bytes moved, or -1 when a buffer is outside guest memory.
static int64_t stream(struct hexsim_virtio_9p *p, int n, bool write, uint8_t *buf, size_t len)
{
    size_t done = 0;
    for (int i = 0; i < n && done < len; i++) {
        const struct hexsim_virtq_seg *s = &p->segs[i];
        if (s->write != write)
            continue;
        size_t k = s->len < len - done ? s->len : len - done;
        bool ok = write ? hexsim_virtio_store(&p->t, s->addr, buf + done, k)
                        : hexsim_virtio_load(&p->t, s->addr, buf + done, k);
        if (!ok)
            return -1;
        done += k;
    }
    return (int64_t)done;
}

static uint64_t writable(const struct hexsim_virtio_9p *p, int n)
{
    uint64_t total = 0;
    for (int i = 0; i < n; i++)
        total += p->segs[i].write ? p->segs[i].len : 0;
    return total;
}

static void p9_notify(struct hexsim_virtio_mmio *t, unsigned q)
{
    struct hexsim_virtio_9p *p = t->dev;
    for (;;) {
        uint16_t head;
        int n = hexsim_virtq_pop(t, q, &head, p->segs, HEXSIM_VIRTIO_9P_QUEUE);
        if (n == 0)
            return;
        int64_t got = n < 0 ? -1 : stream(p, n, false, p->req, HEXSIM_P9_MSIZE_MAX);
        int64_t used = -1;
        if (got >= 0) {
            uint64_t room = writable(p, n);
            size_t cap = room < HEXSIM_P9_MSIZE_MAX ? (size_t)room : HEXSIM_P9_MSIZE_MAX;
            size_t len = hexsim_p9_handle(&p->srv, p->req, (size_t)got, p->resp, cap);
            used = stream(p, n, true, p->resp, len);
        }
        if (used < 0 || hexsim_virtq_push(t, q, head, (uint32_t)used)) {
            hexsim_virtio_fail(t);
            return;
        }
    }
}

static uint32_t p9_config_read(struct hexsim_virtio_mmio *t, uint32_t off, unsigned size)
{
    const struct hexsim_virtio_9p *p = t->dev;
    uint8_t cfg[2 + HEXSIM_P9_TAG_MAX] = { 0 };
    size_t n = strlen(p->tag);
    cfg[0] = (uint8_t)n;
    memcpy(cfg + 2, p->tag, n);
    if (off + size > 2 + n)
        return 0;
    uint32_t v = 0;
    memcpy(&v, cfg + off, size);
    return v;
}

// The driver reset the device: the 9P session ends (every fid is forgotten).
static void p9_reset(struct hexsim_virtio_mmio *t)
{
    struct hexsim_virtio_9p *p = t->dev;
    hexsim_p9_reset(&p->srv);
}

static const struct hexsim_virtio_ops p9_virtio_ops = {
    .notify = p9_notify,
    .config_read = p9_config_read,
    .reset = p9_reset,
};

static const struct hexsim_dev_ops p9_ops = {
    .name = "virtio_9p",
    .read = hexsim_virtio_mmio_read,
    .write = hexsim_virtio_mmio_write,
    .reset = hexsim_virtio_mmio_reset,
    .save = hexsim_virtio_mmio_save,
    .restore = hexsim_virtio_mmio_restore,
};

int hexsim_virtio_9p_init(struct hexsim_dev *d, struct hexsim_virtio_9p *p, unsigned slot,
                          struct hexsim_mem *ram, const struct hexsim_share_opts *o,
                          char *msg, size_t msglen)
{
    memset(p, 0, sizeof(*p));
    p->srv.root = -1;
    if (hexsim_p9_open(&p->srv, o->dir, o->readonly, msg, msglen))
        return -1;
    p->req = malloc(HEXSIM_P9_MSIZE_MAX);
    p->resp = malloc(HEXSIM_P9_MSIZE_MAX);
    if (!p->req || !p->resp) {
        hexsim_virtio_9p_free(p);
        snprintf(msg, msglen, "out of memory (--share)");
        return -1;
    }
    snprintf(p->tag, sizeof p->tag, "%s", o->tag);
    hexsim_virtio_mmio_init(d, &p->t, &p9_ops, slot, ram, DEVICE_9P, F_MOUNT_TAG,
                            HEXSIM_VIRTIO_9P_QUEUE, &p9_virtio_ops, p);
    return 0;
}

void hexsim_virtio_9p_free(struct hexsim_virtio_9p *p)
{
    hexsim_p9_close(&p->srv);
    free(p->req);
    free(p->resp);
    p->req = p->resp = NULL;
}
