// SPDX-License-Identifier: MIT
// The virtio-mmio transport (src/devices/comet/virtio_mmio.c) the project's virtio devices
// share, and those devices: the entropy source (virtio_rng.c), block devices
// (virtio_blk.c, virtio_blk_image.c, virtio_blk_opts.c) and shared directories (virtio_9p.c,
// on the 9P server of include/hexsim/p9.h). None is a Comet part; Linux finds
// them through virtio_mmio.device=SIZE@BASE:IRQ on its command line (src/loader/elf.c).
// Facts: the Virtual I/O Device (VIRTIO) specification 1.1, 4.2.2 "MMIO Device Register
// Layout", 2.6 "Split Virtqueues", 5.2 "Block Device", 5.4 "Entropy Device"; 9P: the
// virtio 9P transport as Linux 6.1 net/9p/trans_virtio.c drives it (device ID 9).
//
// Board map (DESIGN.md "Comet board" leaves 0xAB100000 up and SIRC0 bits 20 up unused):
//   0xAB100000 + 0x200 * n   virtio-mmio slot n (0x200 bytes each, one 4 KiB page for 8)
//   SIRC0 bit 20 + n         its interrupt line (level, active high; Linux IRQ 32 + 20 + n)
//   slot 0: the entropy device; slots 1..ndrives: --drive 0, 1, ...; then --share 0, 1, ...
#ifndef HEXSIM_VIRTIO_H
#define HEXSIM_VIRTIO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "hexsim/dev.h"
#include "hexsim/p9.h"

struct hexsim_mem;

#define HEXSIM_VIRTIO_BASE 0xAB100000u
#define HEXSIM_VIRTIO_SLOT_SIZE 0x200u
#define HEXSIM_VIRTIO_SIRC0_FIRST 20u           // SIRC group 0 bit of slot 0
#define HEXSIM_VIRTIO_SLOT_BASE(n) (HEXSIM_VIRTIO_BASE + HEXSIM_VIRTIO_SLOT_SIZE * (n))
#define HEXSIM_VIRTIO_SLOT_SIRC(n) (HEXSIM_VIRTIO_SIRC0_FIRST + (n))
#define HEXSIM_VIRTIO_SLOT_LINUX_IRQ(n) (32u + HEXSIM_VIRTIO_SLOT_SIRC(n))
#define HEXSIM_VIRTIO_MAX_QUEUES 1              // every device here has one queue

// ---- transport
struct hexsim_virtq {
    uint32_t num, ready;
    uint64_t desc, avail, used;        // guest physical addresses of the queue's parts
    uint16_t last_avail, used_idx;
    uint32_t pad;
};

struct hexsim_virtio_mmio;

// What a device model gives the transport. notify: the driver offered buffers on queue q.
// config_read/config_write: the device-specific configuration (offset from 0x100; size 1,
// 2 or 4); NULL: none (reads 0). reset: the driver wrote 0 to Status (may be NULL).
// save/restore: the device's own state after the transport's in snapshots (NULL: none;
// save returns the size, called with len 0 to ask; restore returns 0 or -1).
struct hexsim_virtio_ops {
    void (*notify)(struct hexsim_virtio_mmio *t, unsigned q);
    uint32_t (*config_read)(struct hexsim_virtio_mmio *t, uint32_t off, unsigned size);
    void (*config_write)(struct hexsim_virtio_mmio *t, uint32_t off, unsigned size, uint32_t v);
    void (*reset)(struct hexsim_virtio_mmio *t);
    size_t (*save)(const struct hexsim_virtio_mmio *t, void *buf, size_t len);
    int (*restore)(struct hexsim_virtio_mmio *t, const void *buf, size_t len);
};

struct hexsim_virtio_mmio {
    // guest-visible state (saved in snapshots)
    uint32_t dev_features_sel, drv_features_sel, drv_features[2];
    uint32_t queue_sel, int_status, status, pad;
    struct hexsim_virtq q[HEXSIM_VIRTIO_MAX_QUEUES];
    // fixed at init (not saved)
    const struct hexsim_virtio_ops *ops;
    void *dev;                         // the device model's state
    struct hexsim_dev *bus_dev;        // for the interrupt line
    struct hexsim_mem *ram;
    uint64_t features;                 // offered (VIRTIO_F_VERSION_1 always)
    uint32_t device_id, queue_max;
};

#define HEXSIM_VIRTIO_F_VERSION_1 (1ull << 32)

// Fills d for slot `slot` with the transport on top of dev_ops (whose read, write, reset,
// save and restore must be the hexsim_virtio_mmio_* functions below; name its own).
void hexsim_virtio_mmio_init(struct hexsim_dev *d, struct hexsim_virtio_mmio *t,
                             const struct hexsim_dev_ops *dev_ops, unsigned slot,
                             struct hexsim_mem *ram, uint32_t device_id, uint64_t features,
                             uint32_t queue_max, const struct hexsim_virtio_ops *ops, void *dev);
uint64_t hexsim_virtio_mmio_read(struct hexsim_dev *d, uint32_t off, unsigned size);
void hexsim_virtio_mmio_write(struct hexsim_dev *d, uint32_t off, unsigned size, uint64_t val);
void hexsim_virtio_mmio_reset(struct hexsim_dev *d);
size_t hexsim_virtio_mmio_save(const struct hexsim_dev *d, void *buf, size_t len);
int hexsim_virtio_mmio_restore(struct hexsim_dev *d, const void *buf, size_t len);

// One buffer of a descriptor chain: guest physical address, length, device-writable.
struct hexsim_virtq_seg {
    uint64_t addr;
    uint32_t len;
    bool write;
};

// Takes the next chain the driver offered on queue q: its head index in *head and up to
// max buffers in segs. Returns the number of buffers, 0 when none is waiting, -1 when the
// queue is malformed (a part outside RAM, a loop, more than max buffers, an indirect
// descriptor, a readable buffer after a writable one): the device then needs a reset.
int hexsim_virtq_pop(struct hexsim_virtio_mmio *t, unsigned q, uint16_t *head,
                     struct hexsim_virtq_seg *segs, unsigned max);
// Returns the chain to the driver with `len` bytes written; raises the used-buffer
// interrupt. 0, or -1 (the used ring outside RAM: the device then needs a reset).
int hexsim_virtq_push(struct hexsim_virtio_mmio *t, unsigned q, uint16_t head, uint32_t len);
// Marks the device DEVICE_NEEDS_RESET and tells the driver (configuration interrupt).
void hexsim_virtio_fail(struct hexsim_virtio_mmio *t);
// Guest physical memory, checked: true when all n bytes could be copied.
bool hexsim_virtio_load(struct hexsim_virtio_mmio *t, uint64_t pa, void *buf, size_t n);
bool hexsim_virtio_store(struct hexsim_virtio_mmio *t, uint64_t pa, const void *buf, size_t n);

// ---- entropy device (virtio_rng.c)
#define HEXSIM_VIRTIO_RNG_BASE HEXSIM_VIRTIO_SLOT_BASE(0)
#define HEXSIM_VIRTIO_RNG_SIZE HEXSIM_VIRTIO_SLOT_SIZE
#define HEXSIM_VIRTIO_RNG_SIRC HEXSIM_VIRTIO_SLOT_SIRC(0)
#define HEXSIM_VIRTIO_RNG_LINUX_IRQ HEXSIM_VIRTIO_SLOT_LINUX_IRQ(0)
#define HEXSIM_VIRTIO_RNG_QUEUE 64              // QueueNumMax

struct hexsim_virtio_rng {
    struct hexsim_virtio_mmio t;
    uint64_t bytes;                    // random bytes given so far (saved)
    uint64_t stream;                   // the stream's position (saved)
    uint64_t seed;                     // configuration (not saved)
};

void hexsim_virtio_rng_init(struct hexsim_dev *d, struct hexsim_virtio_rng *r,
                            struct hexsim_mem *ram, uint64_t seed);

// ---- block device (virtio_blk.c; the host image: virtio_blk_image.c)
#define HEXSIM_VIRTIO_BLK_MAX 4                 // --drive at most this many times
#define HEXSIM_VIRTIO_BLK_QUEUE 256             // QueueNumMax
#define HEXSIM_VIRTIO_BLK_SEG_MAX 254           // data buffers per request (seg_max)
#define HEXSIM_VIRTIO_BLK_DISCARD_SEG 32        // ranges per discard request
#define HEXSIM_SECTOR 512u

// --drive file=IMG[,format=raw][,readonly=on|off][,cache=writeback|writethrough]
struct hexsim_drive_opts {
    char file[4096];
    bool readonly;
    bool writethrough;                 // cache=writethrough: fdatasync after every write
};

// Parses a --drive value into *o; 0, or -1 with a message.
int hexsim_drive_parse(const char *spec, struct hexsim_drive_opts *o, char *msg,
                       size_t msglen);

// Copies the next item of an option value *p (up to an unescaped comma; ",," is one comma)
// into out and moves *p past it. Returns false when it does not fit (--drive, --share).
bool hexsim_virtio_opt_item(const char **p, char *out, size_t cap);

// An open disk image (virtio_blk_image.c).
struct hexsim_blk_image {
    int fd;                            // -1: none
    uint64_t sectors;                  // capacity in 512-byte sectors
    bool readonly, writethrough;
    const char *path;
};

// Opens, checks and locks the image (an OFD lock: shared for readonly, exclusive for
// writing, so a second hexsim cannot write an image another one uses). 0, or -1 with a
// message naming the file and the reason (unreadable, empty, not whole sectors, an ext2/3/4
// file system longer than the file, a qcow2 image, in use by another process).
int hexsim_blk_image_open(struct hexsim_blk_image *img, const struct hexsim_drive_opts *o,
                          char *msg, size_t msglen);
// Writes what is pending to the file (fdatasync) and closes it; 0 or -1.
int hexsim_blk_image_close(struct hexsim_blk_image *img);

struct hexsim_virtio_blk {
    struct hexsim_virtio_mmio t;
    struct hexsim_blk_image *img;      // host side (not saved)
    uint8_t *buf;                      // bounce buffer (HEXSIM_VIRTIO_BLK_CHUNK bytes)
    char serial[20];                   // GET_ID answer
    // counters (not saved)
    uint64_t reads, writes, flushes, discards, errors, bytes_read, bytes_written;
    struct hexsim_virtq_seg segs[HEXSIM_VIRTIO_BLK_QUEUE];
};

#define HEXSIM_VIRTIO_BLK_CHUNK (64u << 10)

// Fills d for virtio-mmio slot `slot` on top of the open image; returns 0, or -1 (out of
// memory). hexsim_virtio_blk_free releases the buffer (not the image).
int hexsim_virtio_blk_init(struct hexsim_dev *d, struct hexsim_virtio_blk *b, unsigned slot,
                           struct hexsim_mem *ram, struct hexsim_blk_image *img);
void hexsim_virtio_blk_free(struct hexsim_virtio_blk *b);

// ---- shared directory (virtio_9p.c; the 9P server: include/hexsim/p9.h)
#define HEXSIM_VIRTIO_9P_MAX 2                  // --share at most this many times
#define HEXSIM_VIRTIO_9P_QUEUE 256              // QueueNumMax (a zero-copy request of
                                                // Linux takes up to 128 descriptors)

struct hexsim_virtio_9p {
    struct hexsim_virtio_mmio t;
    struct hexsim_p9 srv;              // host side (not saved: snapshots are refused)
    char tag[HEXSIM_P9_TAG_MAX + 1];   // the mount tag (configuration space)
    uint8_t *req, *resp;               // HEXSIM_P9_MSIZE_MAX bytes each
    struct hexsim_virtq_seg segs[HEXSIM_VIRTIO_9P_QUEUE];
};

// Opens the share's directory and fills d for virtio-mmio slot `slot`: 0, or -1 with a
// message. hexsim_virtio_9p_free closes it.
int hexsim_virtio_9p_init(struct hexsim_dev *d, struct hexsim_virtio_9p *p, unsigned slot,
                          struct hexsim_mem *ram, const struct hexsim_share_opts *o,
                          char *msg, size_t msglen);
void hexsim_virtio_9p_free(struct hexsim_virtio_9p *p);

#endif
