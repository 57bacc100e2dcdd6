// SPDX-License-Identifier: MIT
// Check suite of the virtio block device (src/devices/comet/virtio_blk.c on the transport
// virtio_mmio.c), its host image (virtio_blk_image.c) and the --drive parser
// (virtio_blk_opts.c): the device brought up as Linux's virtio_mmio and virtio_blk do it,
// then requests built by hand in a small guest RAM: reads and writes checked against the
// host file, requests past the end, bad sector numbers, zero-length and non-sector-sized
// data, buffers at odd addresses with the header and status split or joined in any way,
// read-only drives, flush, discard and write-zeroes, GET_ID, unknown types, malformed
// queues, snapshot state; the image checks (empty, partial sector, qcow2, truncated ext4) and the locks.
#include "../check_main.h"
#include <check.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "hexsim/mem.h"
#include "hexsim/virtio.h"

#define SECTORS 64u
#define VQ_DESC 0x1000u
#define VQ_AVAIL 0x3000u
#define VQ_USED 0x4000u
#define QN 16u

enum { T_IN = 0, T_OUT = 1, T_FLUSH = 4, T_GET_ID = 8, T_DISCARD = 11, T_WRITE_ZEROES = 13 };

struct rig {
    char path[64];
    struct hexsim_mem ram;
    struct hexsim_drive_opts o;
    struct hexsim_blk_image img;
    struct hexsim_dev d;
    struct hexsim_virtio_blk b;
    int level;                         // interrupt line
    uint64_t now;
    uint16_t avail;
};

static void line_set(void *ctx, unsigned n, int level)
{
    (void)n;
    *(int *)ctx = level;
}

static uint32_t rd(struct rig *r, uint32_t off, unsigned size)
{
    return (uint32_t)r->d.ops->read(&r->d, off, size);
}

static void wr(struct rig *r, uint32_t off, uint32_t v) { r->d.ops->write(&r->d, off, 4, v); }

// A 64-sector image whose sector i holds the byte i everywhere.
static void make_image(char *path)
{
    strcpy(path, "/tmp/hexsim_blk_XXXXXX");
    int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    uint8_t s[HEXSIM_SECTOR];
    for (unsigned i = 0; i < SECTORS; i++) {
        memset(s, (int)i, sizeof s);
        ck_assert_int_eq(write(fd, s, sizeof s), sizeof s);
    }
    close(fd);
}

static void rig_up(struct rig *r, bool readonly)
{
    memset(r, 0, sizeof(*r));
    make_image(r->path);
    hexsim_mem_init(&r->ram);
    ck_assert_int_eq(hexsim_mem_map(&r->ram, 0, 0x20000, HEXSIM_PROT_R | HEXSIM_PROT_W), 0);
    snprintf(r->o.file, sizeof r->o.file, "%s", r->path);
    r->o.readonly = readonly;
    char msg[256];
    ck_assert_msg(hexsim_blk_image_open(&r->img, &r->o, msg, sizeof msg) == 0, "%s", msg);
    ck_assert_int_eq(hexsim_virtio_blk_init(&r->d, &r->b, 1, &r->ram, &r->img), 0);
    r->d.now = &r->now;
    r->d.irq = (struct hexsim_irq){ line_set, &r->level, 0 };
    r->d.ops->reset(&r->d);
    ck_assert_uint_eq(r->d.base, HEXSIM_VIRTIO_SLOT_BASE(1));
    ck_assert_uint_eq(rd(r, 0x000, 4), 0x74726976u);
    ck_assert_uint_eq(rd(r, 0x008, 4), 2);             // block device
    wr(r, 0x070, 1 | 2);
    wr(r, 0x014, 1);
    ck_assert_uint_eq(rd(r, 0x010, 4), 1);             // VIRTIO_F_VERSION_1
    wr(r, 0x014, 0);
    uint32_t f = rd(r, 0x010, 4);
    ck_assert_uint_eq(f & (1u << 9), 1u << 9);         // FLUSH
    ck_assert_uint_eq(!!(f & (1u << 5)), readonly);    // RO
    ck_assert_uint_eq(!!(f & (1u << 13)), !readonly);  // DISCARD
    wr(r, 0x024, 0);
    wr(r, 0x020, f);
    wr(r, 0x024, 1);
    wr(r, 0x020, 1);
    wr(r, 0x070, 1 | 2 | 8);
    wr(r, 0x030, 0);
    ck_assert_uint_eq(rd(r, 0x034, 4), HEXSIM_VIRTIO_BLK_QUEUE);
    wr(r, 0x038, QN);
    wr(r, 0x080, VQ_DESC);
    wr(r, 0x090, VQ_AVAIL);
    wr(r, 0x0a0, VQ_USED);
    wr(r, 0x044, 1);
    wr(r, 0x070, 1 | 2 | 8 | 4);
}

static void rig_down(struct rig *r)
{
    hexsim_virtio_blk_free(&r->b);
    ck_assert_int_eq(hexsim_blk_image_close(&r->img), 0);
    hexsim_mem_free(&r->ram);
    unlink(r->path);
}

static void put(struct rig *r, uint32_t pa, const void *p, size_t n)
{
    ck_assert_int_eq(hexsim_mem_copy_in(&r->ram, pa, p, n, true, NULL), 0);
}

static void get(struct rig *r, uint32_t pa, void *p, size_t n)
{
    ck_assert_int_eq(hexsim_mem_copy_out(&r->ram, pa, p, n, HEXSIM_PROT_R, NULL), 0);
}

// Offers one chain of n buffers {addr, len, writable} and notifies; returns the used length
// (-1: the request was not returned).
struct buf { uint64_t addr; uint32_t len; bool w; };

static int64_t submit(struct rig *r, const struct buf *b, unsigned n)
{
    for (unsigned i = 0; i < n; i++) {
        uint16_t flags = (uint16_t)((i + 1 < n ? 1 : 0) | (b[i].w ? 2 : 0));
        uint16_t next = (uint16_t)(i + 1);
        uint32_t at = VQ_DESC + 16 * i;
        put(r, at, &b[i].addr, 8);
        put(r, at + 8, &b[i].len, 4);
        put(r, at + 12, &flags, 2);
        put(r, at + 14, &next, 2);
    }
    uint16_t head = 0, old_used;
    get(r, VQ_USED + 2, &old_used, 2);
    put(r, VQ_AVAIL + 4 + 2u * (r->avail % QN), &head, 2);
    r->avail++;
    put(r, VQ_AVAIL + 2, &r->avail, 2);
    wr(r, 0x050, 0);
    uint16_t used;
    get(r, VQ_USED + 2, &used, 2);
    if (used == old_used)
        return -1;
    uint32_t elem[2];
    get(r, VQ_USED + 4 + 8u * (old_used % QN), elem, 8);
    ck_assert_uint_eq(elem[0], 0);
    ck_assert_int_eq(r->level, 1);
    wr(r, 0x064, rd(r, 0x060, 4));
    return elem[1];
}

static void header(struct rig *r, uint32_t pa, uint32_t type, uint64_t sector)
{
    uint8_t h[16] = { 0 };
    memcpy(h, &type, 4);
    memcpy(h + 8, &sector, 8);
    put(r, pa, h, 16);
}

static uint8_t status_at(struct rig *r, uint32_t pa)
{
    uint8_t s;
    get(r, pa, &s, 1);
    return s;
}

// The usual three-buffer request: header at 0x5000, data at 0x6000 (len), status 0x5800.
static int simple(struct rig *r, uint32_t type, uint64_t sector, uint32_t len)
{
    header(r, 0x5000, type, sector);
    put(r, 0x5800, "\xee", 1);
    bool w = type == T_IN || type == T_GET_ID;
    struct buf b[3] = { { 0x5000, 16, false }, { 0x6000, len, w },
                        { 0x5800, 1, true } };
    int64_t used = len ? submit(r, b, 3) : submit(r, (struct buf[]){ b[0], b[2] }, 2);
    ck_assert_int_ge(used, 1);
    return status_at(r, 0x5800);
}

START_TEST(blk_config_space)
{
    struct rig r;
    rig_up(&r, false);
    uint64_t cap = rd(&r, 0x100, 4) | (uint64_t)rd(&r, 0x104, 4) << 32;
    ck_assert_uint_eq(cap, SECTORS);
    ck_assert_uint_eq(rd(&r, 0x100, 1), SECTORS);      // byte access, as virtio_cread8
    ck_assert_uint_eq(rd(&r, 0x10c, 4), HEXSIM_VIRTIO_BLK_SEG_MAX);
    ck_assert_uint_eq(rd(&r, 0x120, 1), 1);            // writeback
    ck_assert_uint_eq(rd(&r, 0x128, 4), HEXSIM_VIRTIO_BLK_DISCARD_SEG);
    ck_assert_uint_eq(rd(&r, 0x1fc, 4), 0);            // past the configuration
    rig_down(&r);
}
END_TEST

START_TEST(blk_read_write)
{
    struct rig r;
    rig_up(&r, false);
    uint8_t data[1024], want[1024];
    ck_assert_int_eq(simple(&r, T_IN, 5, 1024), 0);
    get(&r, 0x6000, data, sizeof data);
    memset(want, 5, 512);
    memset(want + 512, 6, 512);
    ck_assert_mem_eq(data, want, sizeof data);
    for (unsigned i = 0; i < sizeof data; i++)
        data[i] = (uint8_t)(i * 7 + 3);
    put(&r, 0x6000, data, sizeof data);
    ck_assert_int_eq(simple(&r, T_OUT, 62, 1024), 0);  // the last two sectors
    uint8_t host[1024];
    ck_assert_int_eq(pread(r.img.fd, host, sizeof host, 62 * 512), sizeof host);
    ck_assert_mem_eq(host, data, sizeof data);
    memset(&data, 0, sizeof data);
    put(&r, 0x6000, data, sizeof data);
    ck_assert_int_eq(simple(&r, T_IN, 62, 1024), 0);
    get(&r, 0x6000, data, sizeof data);
    ck_assert_mem_eq(host, data, sizeof data);
    ck_assert_uint_eq(r.b.reads, 2);
    ck_assert_uint_eq(r.b.writes, 1);
    rig_down(&r);
}
END_TEST

START_TEST(blk_bad_sectors_and_lengths)
{
    struct rig r;
    rig_up(&r, false);
    ck_assert_int_eq(simple(&r, T_IN, 63, 1024), 1);   // one sector past the end
    ck_assert_int_eq(simple(&r, T_OUT, 63, 1024), 1);
    ck_assert_int_eq(simple(&r, T_IN, 64, 512), 1);
    ck_assert_int_eq(simple(&r, T_IN, UINT64_MAX, 512), 1);   // no wrap-around
    ck_assert_int_eq(simple(&r, T_OUT, UINT64_MAX / 512 + 1, 512), 1);
    ck_assert_int_eq(simple(&r, T_IN, 63, 512), 0);    // the last sector
    ck_assert_int_eq(simple(&r, T_IN, 64, 0), 0);      // zero-length at the end
    ck_assert_int_eq(simple(&r, T_IN, 65, 0), 1);      // zero-length past it
    ck_assert_int_eq(simple(&r, T_IN, 0, 100), 1);     // not whole sectors
    ck_assert_int_eq(simple(&r, T_OUT, 0, 513), 1);
    // the file is untouched by the refused writes
    uint8_t s[512], want[512];
    memset(want, 0, sizeof want);
    ck_assert_int_eq(pread(r.img.fd, s, 512, 0), 512);
    ck_assert_mem_eq(s, want, 512);
    // a header shorter than 16 bytes
    struct buf b[2] = { { 0x5000, 8, false }, { 0x5800, 1, true } };
    put(&r, 0x5800, "\xee", 1);
    ck_assert_int_eq(submit(&r, b, 2), 1);
    ck_assert_int_eq(status_at(&r, 0x5800), 1);
    // no writable byte for the status: returned with nothing written
    struct buf c[1] = { { 0x5000, 16, false } };
    ck_assert_int_eq(submit(&r, c, 1), 0);
    ck_assert_uint_eq(rd(&r, 0x070, 4) & 0x40, 0);     // the device still works
    rig_down(&r);
}
END_TEST

// The header split 7 + 9, data at odd addresses in three pieces, the status byte in the
// same buffer as the data's last bytes.
START_TEST(blk_unaligned_buffers)
{
    struct rig r;
    rig_up(&r, false);
    uint8_t h[16] = { 0 };
    uint64_t sector = 3;
    memcpy(h + 8, &sector, 8);                         // T_IN
    put(&r, 0x5001, h, 7);
    put(&r, 0x7003, h + 7, 9);
    struct buf b[5] = { { 0x5001, 7, false }, { 0x7003, 9, false }, { 0x8005, 100, true },
                        { 0x9007, 300, true }, { 0xa00b, 625, true } };
    ck_assert_int_eq(submit(&r, b, 5), 1025);
    uint8_t p[625];
    get(&r, 0x8005, p, 100);
    for (unsigned i = 0; i < 100; i++)
        ck_assert_uint_eq(p[i], 3);
    get(&r, 0xa00b, p, 625);
    ck_assert_uint_eq(p[111], 3);                      // byte 511 of sector 3
    ck_assert_uint_eq(p[112], 4);                      // sector 4 starts
    ck_assert_uint_eq(p[623], 4);
    ck_assert_uint_eq(p[624], 0);                      // status OK
    // a write from odd addresses, header and data in one buffer
    uint8_t w[16 + 512];
    uint32_t type = T_OUT;
    memset(w, 0, 16);
    memcpy(w, &type, 4);
    sector = 9;
    memcpy(w + 8, &sector, 8);
    for (unsigned i = 0; i < 512; i++)
        w[16 + i] = (uint8_t)(i ^ 0x5a);
    put(&r, 0xc001, w, sizeof w);
    struct buf c[2] = { { 0xc001, sizeof w, false }, { 0xe00f, 1, true } };
    ck_assert_int_eq(submit(&r, c, 2), 1);
    ck_assert_int_eq(status_at(&r, 0xe00f), 0);
    uint8_t host[512];
    ck_assert_int_eq(pread(r.img.fd, host, 512, 9 * 512), 512);
    ck_assert_mem_eq(host, w + 16, 512);
    rig_down(&r);
}
END_TEST

START_TEST(blk_readonly)
{
    struct rig r;
    rig_up(&r, true);
    uint8_t data[512];
    memset(data, 0xab, sizeof data);
    put(&r, 0x6000, data, sizeof data);
    ck_assert_int_eq(simple(&r, T_OUT, 1, 512), 1);
    uint8_t range[16] = { 1 };
    uint32_t one = 1;
    memcpy(range + 8, &one, 4);
    put(&r, 0x6000, range, 16);
    ck_assert_int_eq(simple(&r, T_DISCARD, 0, 16), 1);
    ck_assert_int_eq(simple(&r, T_WRITE_ZEROES, 0, 16), 1);
    ck_assert_int_eq(simple(&r, T_FLUSH, 0, 0), 0);
    ck_assert_int_eq(simple(&r, T_IN, 1, 512), 0);
    get(&r, 0x6000, data, sizeof data);
    ck_assert_uint_eq(data[0], 1);
    ck_assert_uint_eq(data[511], 1);
    rig_down(&r);
}
END_TEST

START_TEST(blk_flush_discard_zeroes_id)
{
    struct rig r;
    rig_up(&r, false);
    ck_assert_int_eq(simple(&r, T_FLUSH, 0, 0), 0);
    ck_assert_uint_eq(r.b.flushes, 1);
    // write-zeroes of sectors 10-12 and 20: they read as zeros, 13 and 19 do not
    uint8_t ranges[32] = { 0 };
    uint64_t s = 10;
    uint32_t n = 3;
    memcpy(ranges, &s, 8);
    memcpy(ranges + 8, &n, 4);
    s = 20;
    n = 1;
    memcpy(ranges + 16, &s, 8);
    memcpy(ranges + 24, &n, 4);
    put(&r, 0x6000, ranges, 32);
    ck_assert_int_eq(simple(&r, T_WRITE_ZEROES, 0, 32), 0);
    uint8_t host[512];
    for (unsigned sec = 9; sec <= 21; sec++) {
        ck_assert_int_eq(pread(r.img.fd, host, 512, sec * 512), 512);
        bool zero = (sec >= 10 && sec <= 12) || sec == 20;
        ck_assert_uint_eq(host[0], zero ? 0 : sec);
        ck_assert_uint_eq(host[511], zero ? 0 : sec);
    }
    // discard: accepted in range, refused past the end or with unknown flags
    s = 30;
    n = 2;
    memcpy(ranges, &s, 8);
    memcpy(ranges + 8, &n, 4);
    put(&r, 0x6000, ranges, 16);
    ck_assert_int_eq(simple(&r, T_DISCARD, 0, 16), 0);
    s = 63;
    memcpy(ranges, &s, 8);
    put(&r, 0x6000, ranges, 16);
    ck_assert_int_eq(simple(&r, T_DISCARD, 0, 16), 1);
    s = 30;
    uint32_t flags = 2;
    memcpy(ranges, &s, 8);
    memcpy(ranges + 12, &flags, 4);
    put(&r, 0x6000, ranges, 16);
    ck_assert_int_eq(simple(&r, T_DISCARD, 0, 16), 1);
    ck_assert_int_eq(simple(&r, T_DISCARD, 0, 15), 1);  // not whole ranges
    // GET_ID: 20 bytes
    ck_assert_int_eq(simple(&r, T_GET_ID, 0, 20), 0);
    char id[21] = { 0 };
    get(&r, 0x6000, id, 20);
    ck_assert_str_eq(id, "hexsim-disk0");
    // an unknown type: UNSUPP
    ck_assert_int_eq(simple(&r, 99, 0, 0), 2);
    rig_down(&r);
}
END_TEST

START_TEST(blk_malformed_queue)
{
    struct rig r;
    rig_up(&r, false);
    // data outside RAM: the device needs a reset, no crash
    header(&r, 0x5000, T_IN, 0);
    struct buf b[3] = { { 0x5000, 16, false }, { 0x40000000u, 512, true },
                        { 0x5800, 1, true } };
    ck_assert_int_eq(submit(&r, b, 3), -1);
    ck_assert_uint_eq(rd(&r, 0x070, 4) & 0x40, 0x40);
    ck_assert_uint_eq(rd(&r, 0x060, 4) & 2, 2);
    rig_down(&r);
    // a readable buffer after a writable one
    rig_up(&r, false);
    struct buf c[3] = { { 0x5800, 1, true }, { 0x5000, 16, false }, { 0x5900, 1, true } };
    ck_assert_int_eq(submit(&r, c, 3), -1);
    ck_assert_uint_eq(rd(&r, 0x070, 4) & 0x40, 0x40);
    // the driver's reset brings it back
    wr(&r, 0x070, 0);
    ck_assert_uint_eq(rd(&r, 0x070, 4), 0);
    ck_assert_int_eq(r.level, 0);
    rig_down(&r);
}
END_TEST

// Snapshot state: the transport's registers and the capacity; another capacity refused.
START_TEST(blk_save_restore)
{
    struct rig r;
    rig_up(&r, true);
    size_t n = r.d.ops->save(&r.d, NULL, 0);
    uint8_t *st = malloc(n);
    ck_assert_uint_eq(r.d.ops->save(&r.d, st, n), n);
    wr(&r, 0x070, 0);                                  // reset: the queue is gone
    ck_assert_uint_eq(rd(&r, 0x044, 4), 0);
    ck_assert_int_eq(r.d.ops->restore(&r.d, st, n), 0);
    ck_assert_uint_eq(rd(&r, 0x044, 4), 1);            // queue ready again
    ck_assert_int_eq(simple(&r, T_IN, 7, 512), 0);     // and it works
    ck_assert_int_eq(r.d.ops->restore(&r.d, st, n - 1), -1);
    r.img.sectors = SECTORS - 1;                        // another image
    ck_assert_int_eq(r.d.ops->restore(&r.d, st, n), -1);
    r.img.sectors = SECTORS;
    free(st);
    rig_down(&r);
}
END_TEST

static int try_open(const char *path, bool readonly, struct hexsim_blk_image *img, char *msg,
                    size_t len)
{
    struct hexsim_drive_opts o = { .readonly = readonly };
    snprintf(o.file, sizeof o.file, "%s", path);
    return hexsim_blk_image_open(img, &o, msg, len);
}

static void write_file(const char *path, const void *p, size_t n)
{
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    ck_assert_int_ge(fd, 0);
    ck_assert_int_eq(write(fd, p, n), (ssize_t)n);
    close(fd);
}

START_TEST(image_checks_and_locks)
{
    char path[] = "/tmp/hexsim_img_XXXXXX";
    int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    close(fd);
    struct hexsim_blk_image a, b;
    char msg[512];
    ck_assert_int_eq(try_open(path, false, &a, msg, sizeof msg), -1);
    ck_assert_ptr_nonnull(strstr(msg, "empty"));
    static uint8_t img[8192];
    write_file(path, img, 1000);
    ck_assert_int_eq(try_open(path, false, &a, msg, sizeof msg), -1);
    ck_assert_ptr_nonnull(strstr(msg, "whole number of 512-byte sectors"));
    memcpy(img, "QFI\xfb", 4);
    write_file(path, img, 4096);
    ck_assert_int_eq(try_open(path, true, &a, msg, sizeof msg), -1);
    ck_assert_ptr_nonnull(strstr(msg, "qcow2"));
    // an ext4 superblock claiming 16 blocks of 1 KiB in 8 KiB
    memset(img, 0, 4);
    img[1024 + 4] = 16;
    img[1024 + 56] = 0x53;
    img[1024 + 57] = 0xef;
    write_file(path, img, 8192);
    ck_assert_int_eq(try_open(path, false, &a, msg, sizeof msg), -1);
    ck_assert_ptr_nonnull(strstr(msg, "truncated"));
    img[1024 + 4] = 8;                                  // fits exactly
    write_file(path, img, 8192);
    ck_assert_msg(try_open(path, false, &a, msg, sizeof msg) == 0, "%s", msg);
    ck_assert_uint_eq(a.sectors, 16);
    // a second writer and a reader are refused while a writer has it
    ck_assert_int_eq(try_open(path, false, &b, msg, sizeof msg), -1);
    ck_assert_ptr_nonnull(strstr(msg, "in use"));
    ck_assert_int_eq(try_open(path, true, &b, msg, sizeof msg), -1);
    ck_assert_int_eq(hexsim_blk_image_close(&a), 0);
    // readers share; a writer is refused while one reads
    ck_assert_int_eq(try_open(path, true, &a, msg, sizeof msg), 0);
    ck_assert_int_eq(try_open(path, true, &b, msg, sizeof msg), 0);
    struct hexsim_blk_image c;
    ck_assert_int_eq(try_open(path, false, &c, msg, sizeof msg), -1);
    hexsim_blk_image_close(&a);
    hexsim_blk_image_close(&b);
    ck_assert_int_eq(try_open(path, false, &c, msg, sizeof msg), 0);
    hexsim_blk_image_close(&c);
    unlink(path);
    ck_assert_int_eq(try_open(path, false, &a, msg, sizeof msg), -1);
    ck_assert_ptr_nonnull(strstr(msg, "cannot open"));
    ck_assert_int_eq(try_open("/tmp", true, &a, msg, sizeof msg), -1);
}
END_TEST

START_TEST(drive_option_parsing)
{
    struct hexsim_drive_opts o;
    char msg[256];
    ck_assert_int_eq(hexsim_drive_parse("file=a.img", &o, msg, sizeof msg), 0);
    ck_assert_str_eq(o.file, "a.img");
    ck_assert(!o.readonly && !o.writethrough);
    ck_assert_int_eq(hexsim_drive_parse("file=x,,y.img,format=raw,readonly=on,"
                                        "cache=writethrough", &o, msg, sizeof msg), 0);
    ck_assert_str_eq(o.file, "x,y.img");
    ck_assert(o.readonly && o.writethrough);
    ck_assert_int_eq(hexsim_drive_parse("b.img,readonly=off", &o, msg, sizeof msg), 0);
    ck_assert_str_eq(o.file, "b.img");
    ck_assert(!o.readonly);
    static const char *const bad[] = { "", "file=", "format=raw", "file=a,format=qcow2",
                                       "file=a,readonly=maybe", "file=a,cache=none",
                                       "file=a,if=virtio", "file=a,file=b", "file=a,junk" };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        ck_assert_msg(hexsim_drive_parse(bad[i], &o, msg, sizeof msg) == -1, "%s", bad[i]);
    ck_assert_int_eq(hexsim_drive_parse("file=a,cache=none", &o, msg, sizeof msg), -1);
    ck_assert_ptr_nonnull(strstr(msg, "writeback or writethrough"));
}
END_TEST

static Suite *blk_suite(void)
{
    Suite *s = suite_create("virtio_blk");
    TCase *t = tcase_create("requests");
    tcase_add_test(t, blk_config_space);
    tcase_add_test(t, blk_read_write);
    tcase_add_test(t, blk_bad_sectors_and_lengths);
    tcase_add_test(t, blk_unaligned_buffers);
    tcase_add_test(t, blk_readonly);
    tcase_add_test(t, blk_flush_discard_zeroes_id);
    tcase_add_test(t, blk_malformed_queue);
    tcase_add_test(t, blk_save_restore);
    tcase_add_test(t, image_checks_and_locks);
    tcase_add_test(t, drive_option_parsing);
    suite_add_tcase(s, t);
    return s;
}

int main(void)
{
    return hexsim_check_run(blk_suite());
}
