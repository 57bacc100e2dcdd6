// SPDX-License-Identifier: MIT
// Block device: a virtio block device (device ID 2) on the virtio-mmio transport
// (virtio_mmio.c) in slot 1 + n for --drive n (include/hexsim/virtio.h), backed by a raw
// host image (virtio_blk_image.c). Not a Comet part; Linux 6.1's virtio_blk driver finds it
// as /dev/vda, vdb, ... Requests complete when the driver notifies (synchronous host I/O),
// so the guest sees the same completions at the same pcycles in every run: disk reads are
// input as deterministic as the image.
//
// Facts: the Virtual I/O Device (VIRTIO) specification 1.1, 5.2 "Block Device":
// configuration {le64 capacity (512-byte sectors) 0x00, le32 size_max 0x08, le32 seg_max
// 0x0c, geometry 0x10, le32 blk_size 0x14, topology 0x18, u8 writeback 0x20,
// le32 max_discard_sectors 0x24, le32 max_discard_seg 0x28, le32 discard_sector_alignment
// 0x2c, le32 max_write_zeroes_sectors 0x30, le32 max_write_zeroes_seg 0x34,
// u8 write_zeroes_may_unmap 0x38}; features SEG_MAX 2, RO 5, FLUSH 9, DISCARD 13,
// WRITE_ZEROES 14; a request is {le32 type, le32 reserved, le64 sector} in device-readable
// memory, then the data, then one status byte in device-writable memory (the driver may
// split or join these across buffers as it likes: VIRTIO_F_VERSION_1 implies any layout);
// types IN 0, OUT 1, FLUSH 4, GET_ID 8 (20 bytes), DISCARD 11, WRITE_ZEROES 13, each
// discard/write-zeroes range {le64 sector, le32 num_sectors, le32 flags}; status OK 0,
// IOERR 1, UNSUPP 2. IN and OUT data is a whole number of sectors (5.2.6.1).
// Data moves between the image and guest RAM without a bounce copy (preadv/pwritev on
// the host spans of the guest pages; what the JIT decoded from them goes stale).
// Flush makes every completed write durable (fdatasync); cache=writethrough does that
// after every write. A read-only drive offers RO and answers writes with IOERR. Discard
// punches a hole (reads zero afterwards, or the old data where the host cannot punch).
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>
#include <unistd.h>

#include "hexsim/mem.h"
#include "hexsim/virtio.h"

#define DEVICE_BLOCK 2u
#define F_SEG_MAX (1ull << 2)
#define F_RO (1ull << 5)
#define F_FLUSH (1ull << 9)
#define F_DISCARD (1ull << 13)
#define F_WRITE_ZEROES (1ull << 14)

enum { T_IN = 0, T_OUT = 1, T_FLUSH = 4, T_GET_ID = 8, T_DISCARD = 11, T_WRITE_ZEROES = 13 };
enum { S_OK = 0, S_IOERR = 1, S_UNSUPP = 2 };

#define HDR 16u
#define RANGE 16u
#define MAX_RANGE_SECTORS 0x400000u     // 2 GiB per discard/write-zeroes range

// A chain's readable bytes (header, then data for OUT) and writable bytes (data for IN,
// then the status byte), as byte streams over its buffers.
struct chain {
    const struct hexsim_virtq_seg *segs;
    int n;
    uint64_t out_len, in_len;
};

// Walks n bytes at offset off of the readable (write false) or writable (write true)
// stream: fn(b, guest address, length, bytes before this piece, ctx) for each piece of a
// buffer. Returns fn's first non-zero result, -1 when the stream is shorter, else 0.
typedef int piece_fn(struct hexsim_virtio_blk *b, uint64_t pa, uint64_t k, uint64_t done,
                     void *ctx);

static int stream_walk(struct hexsim_virtio_blk *b, const struct chain *c, bool write,
                       uint64_t off, uint64_t n, piece_fn *fn, void *ctx)
{
    uint64_t done = 0;
    for (int i = 0; i < c->n && n; i++) {
        const struct hexsim_virtq_seg *s = &c->segs[i];
        if (s->write != write)
            continue;
        if (off >= s->len) {
            off -= s->len;
            continue;
        }
        uint64_t k = s->len - off < n ? s->len - off : n;
        int rc = fn(b, s->addr + off, k, done, ctx);
        if (rc)
            return rc;
        done += k;
        n -= k;
        off = 0;
    }
    return n ? -1 : 0;
}

static int copy_in_piece(struct hexsim_virtio_blk *b, uint64_t pa, uint64_t k, uint64_t done,
                         void *buf)
{
    return hexsim_virtio_store(&b->t, pa, (uint8_t *)buf + done, k) ? 0 : -1;
}

static int copy_out_piece(struct hexsim_virtio_blk *b, uint64_t pa, uint64_t k, uint64_t done,
                          void *buf)
{
    return hexsim_virtio_load(&b->t, pa, (uint8_t *)buf + done, k) ? 0 : -1;
}

// Copies n bytes at offset off of a stream from guest memory (to_guest false) or into it;
// false when memory is unreachable.
static bool stream_copy(struct hexsim_virtio_blk *b, const struct chain *c, bool write,
                        uint64_t off, uint8_t *buf, uint64_t n, bool to_guest)
{
    return stream_walk(b, c, write, off, n, to_guest ? copy_in_piece : copy_out_piece,
                       buf) == 0;
}

static bool sectors_ok(const struct hexsim_virtio_blk *b, uint64_t sector, uint64_t count)
{
    return sector <= b->img->sectors && count <= b->img->sectors - sector;
}

// Moves k bytes between the image at file offset `at` and guest memory at pa, straight
// into or out of RAM (host spans of the guest pages, preadv/pwritev: no bounce copy).
// 0, -1 when the guest range is not all RAM, -2 on a host I/O error.
static int piece_io(struct hexsim_virtio_blk *b, uint64_t pa, uint64_t k, uint64_t at,
                    bool to_guest)
{
    while (k) {
        struct iovec iov[16];
        size_t got;
        int fault;
        if (pa >= 0x100000000ull || k > 0x100000000ull - pa)
            return -1;
        size_t n = hexsim_mem_spans(b->t.ram, (uint32_t)pa, (size_t)k, 0, iov, 16, &got,
                                    &fault);
        if (n == 0)
            return -1;
        ssize_t r = to_guest ? preadv(b->img->fd, iov, (int)n, (off_t)at)
                             : pwritev(b->img->fd, iov, (int)n, (off_t)at);
        if (to_guest && r > 0)
            hexsim_mem_spans_written(b->t.ram, (uint32_t)pa, (size_t)r);
        if (r != (ssize_t)got)
            return -2;
        pa += got;
        k -= got;
        at += got;
    }
    return 0;
}

static int io_piece(struct hexsim_virtio_blk *b, uint64_t pa, uint64_t k, uint64_t done,
                    void *ctx)
{
    const uint64_t *at = ctx;          // {file offset, to_guest}
    return piece_io(b, pa, k, at[0] + done, at[1] != 0);
}

// n bytes at offset off of the chain's writable (IN) or readable (OUT) stream to or from
// the image at file offset `at`: 0, -1 (guest memory), -2 (host I/O).
static int stream_io(struct hexsim_virtio_blk *b, const struct chain *c, bool write,
                     uint64_t off, uint64_t n, uint64_t at)
{
    uint64_t ctx[2] = { at, write };
    return stream_walk(b, c, write, off, n, io_piece, ctx);
}

// IN: the image's sectors into the writable stream (all but its last byte). A status.
static int do_read(struct hexsim_virtio_blk *b, const struct chain *c, uint64_t sector,
                   bool *guest_ok)
{
    uint64_t len = c->in_len - 1;
    if (len % HEXSIM_SECTOR || !sectors_ok(b, sector, len / HEXSIM_SECTOR))
        return S_IOERR;
    int rc = stream_io(b, c, true, 0, len, sector * HEXSIM_SECTOR);
    if (rc == -1)
        *guest_ok = false;
    if (rc)
        return S_IOERR;
    b->reads++;
    b->bytes_read += len;
    return S_OK;
}

static int sync_if_writethrough(struct hexsim_virtio_blk *b)
{
    return b->img->writethrough && fdatasync(b->img->fd) ? S_IOERR : S_OK;
}

// OUT: the readable stream after the header into the image's sectors.
static int do_write(struct hexsim_virtio_blk *b, const struct chain *c, uint64_t sector,
                    bool *guest_ok)
{
    uint64_t len = c->out_len - HDR;
    if (b->img->readonly || len % HEXSIM_SECTOR || !sectors_ok(b, sector, len / HEXSIM_SECTOR))
        return S_IOERR;
    int rc = stream_io(b, c, false, HDR, len, sector * HEXSIM_SECTOR);
    if (rc == -1)
        *guest_ok = false;
    if (rc)
        return S_IOERR;
    b->writes++;
    b->bytes_written += len;
    return sync_if_writethrough(b);
}

// Zeroes (punches) count sectors from sector; falls back to writing zeros for
// write-zeroes when the host file system cannot punch holes.
static int zero_range(struct hexsim_virtio_blk *b, uint64_t sector, uint64_t count,
                      bool must_zero)
{
    off_t off = (off_t)(sector * HEXSIM_SECTOR), len = (off_t)(count * HEXSIM_SECTOR);
    if (fallocate(b->img->fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, off, len) == 0)
        return S_OK;
    if (!must_zero)
        return S_OK;                   // discard is a hint: the data may stay
    memset(b->buf, 0, HEXSIM_VIRTIO_BLK_CHUNK);
    for (off_t done = 0; done < len;) {
        off_t k = len - done < (off_t)HEXSIM_VIRTIO_BLK_CHUNK ? len - done
                                                               : (off_t)HEXSIM_VIRTIO_BLK_CHUNK;
        if (pwrite(b->img->fd, b->buf, (size_t)k, off + done) != (ssize_t)k)
            return S_IOERR;
        done += k;
    }
    return S_OK;
}

// DISCARD and WRITE_ZEROES: ranges of 16 bytes in the readable stream after the header.
static int do_ranges(struct hexsim_virtio_blk *b, const struct chain *c, bool zeroes,
                     bool *guest_ok)
{
    uint64_t len = c->out_len - HDR;
    if (b->img->readonly || len == 0 || len % RANGE ||
        len / RANGE > HEXSIM_VIRTIO_BLK_DISCARD_SEG)
        return S_IOERR;
    for (uint64_t off = 0; off < len; off += RANGE) {
        uint8_t r[RANGE];
        if (!stream_copy(b, c, false, HDR + off, r, RANGE, false)) {
            *guest_ok = false;
            return S_IOERR;
        }
        uint64_t sector;
        uint32_t count, flags;
        memcpy(&sector, r, 8);
        memcpy(&count, r + 8, 4);
        memcpy(&flags, r + 12, 4);
        if ((flags & ~1u) || count > MAX_RANGE_SECTORS || !sectors_ok(b, sector, count))
            return S_IOERR;    // 5.2.6.2: unknown flags (only unmap, bit 0, is defined)
        if (count && zero_range(b, sector, count, zeroes) != S_OK)
            return S_IOERR;
    }
    b->discards++;
    return sync_if_writethrough(b);
}

// One request: returns the bytes written into the chain's writable buffers (the used
// length), or -1 when the chain reaches outside guest memory (the device then fails).
static int64_t request(struct hexsim_virtio_blk *b, const struct hexsim_virtq_seg *segs, int n)
{
    struct chain c = { segs, n, 0, 0 };
    for (int i = 0; i < n; i++)
        *(segs[i].write ? &c.in_len : &c.out_len) += segs[i].len;
    if (c.in_len == 0)
        return 0;                      // nowhere to put a status: the request is dropped
    uint8_t hdr[HDR];
    uint32_t type;
    uint64_t sector;
    int st;
    bool guest_ok = true;
    int64_t used = 1;
    if (c.out_len < HDR) {
        st = S_IOERR;
    } else if (!stream_copy(b, &c, false, 0, hdr, HDR, false)) {
        return -1;
    } else {
        memcpy(&type, hdr, 4);
        memcpy(&sector, hdr + 8, 8);
        switch (type) {
        case T_IN:
            st = do_read(b, &c, sector, &guest_ok);
            if (st == S_OK)
                used = (int64_t)c.in_len;
            break;
        case T_OUT:
            st = c.in_len == 1 ? do_write(b, &c, sector, &guest_ok) : S_IOERR;
            break;
        case T_FLUSH:
            b->flushes++;
            st = !b->img->readonly && fdatasync(b->img->fd) ? S_IOERR : S_OK;
            break;
        case T_GET_ID: {
            uint8_t id[20] = { 0 };
            uint64_t k = c.in_len - 1 < sizeof id ? c.in_len - 1 : sizeof id;
            memcpy(id, b->serial, sizeof id);
            if (!stream_copy(b, &c, true, 0, id, k, true))
                return -1;
            used += (int64_t)k;
            st = S_OK;
            break;
        }
        case T_DISCARD:
        case T_WRITE_ZEROES:
            st = do_ranges(b, &c, type == T_WRITE_ZEROES, &guest_ok);
            break;
        default:
            st = S_UNSUPP;
            break;
        }
    }
    if (!guest_ok)
        return -1;
    if (st != S_OK) {
        b->errors++;
        used = 1;
    }
    uint8_t status = (uint8_t)st;
    if (!stream_copy(b, &c, true, c.in_len - 1, &status, 1, true))
        return -1;
    return used;
}

static void blk_notify(struct hexsim_virtio_mmio *t, unsigned q)
{
    struct hexsim_virtio_blk *b = t->dev;
    for (;;) {
        uint16_t head;
        int n = hexsim_virtq_pop(t, q, &head, b->segs, HEXSIM_VIRTIO_BLK_QUEUE);
        if (n == 0)
            return;
        int64_t used = n < 0 ? -1 : request(b, b->segs, n);
        if (used < 0 || hexsim_virtq_push(t, q, head, (uint32_t)used)) {
            hexsim_virtio_fail(t);
            return;
        }
    }
}

static uint32_t blk_config_read(struct hexsim_virtio_mmio *t, uint32_t off, unsigned size)
{
    const struct hexsim_virtio_blk *b = t->dev;
    uint8_t cfg[0x3c] = { 0 };
    uint32_t v;
    memcpy(cfg + 0x00, &b->img->sectors, 8);
    v = HEXSIM_VIRTIO_BLK_SEG_MAX;
    memcpy(cfg + 0x0c, &v, 4);
    v = HEXSIM_SECTOR;
    memcpy(cfg + 0x14, &v, 4);
    cfg[0x20] = b->img->writethrough ? 0 : 1;
    v = MAX_RANGE_SECTORS;
    memcpy(cfg + 0x24, &v, 4);
    memcpy(cfg + 0x30, &v, 4);
    v = HEXSIM_VIRTIO_BLK_DISCARD_SEG;
    memcpy(cfg + 0x28, &v, 4);
    memcpy(cfg + 0x34, &v, 4);
    v = 1;
    memcpy(cfg + 0x2c, &v, 4);
    cfg[0x38] = 1;
    if (off + size > sizeof cfg)
        return 0;
    v = 0;
    memcpy(&v, cfg + off, size);
    return v;
}

// After the transport: the capacity, so a restore onto another image is refused.
static size_t blk_save(const struct hexsim_virtio_mmio *t, void *buf, size_t len)
{
    const struct hexsim_virtio_blk *b = t->dev;
    if (len >= 8)
        memcpy(buf, &b->img->sectors, 8);
    return 8;
}

static int blk_restore(struct hexsim_virtio_mmio *t, const void *buf, size_t len)
{
    const struct hexsim_virtio_blk *b = t->dev;
    uint64_t sectors;
    if (len != 8)
        return -1;
    memcpy(&sectors, buf, 8);
    return sectors == b->img->sectors ? 0 : -1;
}

static const struct hexsim_virtio_ops blk_virtio_ops = {
    .notify = blk_notify,
    .config_read = blk_config_read,
    .save = blk_save,
    .restore = blk_restore,
};

static const struct hexsim_dev_ops blk_ops = {
    .name = "virtio_blk",
    .read = hexsim_virtio_mmio_read,
    .write = hexsim_virtio_mmio_write,
    .reset = hexsim_virtio_mmio_reset,
    .save = hexsim_virtio_mmio_save,
    .restore = hexsim_virtio_mmio_restore,
};

int hexsim_virtio_blk_init(struct hexsim_dev *d, struct hexsim_virtio_blk *b, unsigned slot,
                           struct hexsim_mem *ram, struct hexsim_blk_image *img)
{
    memset(b, 0, sizeof(*b));
    b->buf = malloc(HEXSIM_VIRTIO_BLK_CHUNK);
    if (!b->buf)
        return -1;
    b->img = img;
    snprintf(b->serial, sizeof b->serial, "hexsim-disk%u", slot - 1);
    uint64_t features = F_SEG_MAX | F_FLUSH;
    features |= img->readonly ? F_RO : F_DISCARD | F_WRITE_ZEROES;
    hexsim_virtio_mmio_init(d, &b->t, &blk_ops, slot, ram, DEVICE_BLOCK, features,
                            HEXSIM_VIRTIO_BLK_QUEUE, &blk_virtio_ops, b);
    return 0;
}

void hexsim_virtio_blk_free(struct hexsim_virtio_blk *b)
{
    free(b->buf);
    b->buf = NULL;
}
