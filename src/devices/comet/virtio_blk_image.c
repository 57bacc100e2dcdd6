// SPDX-License-Identifier: MIT
// The host side of a block device: a raw disk image file, opened and checked before the
// machine boots, and locked the way QEMU locks its images, with open file description
// locks (fcntl F_OFD_SETLK, Linux 3.15 on), which belong to this open file and not to the
// process: a read-write drive holds an exclusive lock, a read-only one a shared lock, so
// a second hexsim (or QEMU-style user of the same convention) cannot write an image that
// another one has open, nor read one another one writes.
// Checks (each refusal names the file and the reason): readable regular file or block
// device; not empty; a whole number of 512-byte sectors; not a qcow2 image (magic
// "QFI\xfb"; hexsim reads raw images only); when it holds an ext2/3/4 file system (magic
// 0xEF53 at byte 1080), that file system fits in the file (a truncated image otherwise).
// Facts: fcntl(2) "Open file description locks"; qcow2 header (QEMU docs/interop/qcow2.txt:
// magic "QFI\xfb" at 0); ext4 superblock at byte 1024: s_blocks_count_lo at +4,
// s_log_block_size at +24 (block size 1024 << it), s_magic at +56, s_blocks_count_hi at
// +0x150 with the 64bit feature (s_feature_incompat +0x60 bit 0x80).
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "hexsim/virtio.h"

static int fail(struct hexsim_blk_image *img, char *msg, size_t msglen, const char *why)
{
    snprintf(msg, msglen, "--drive file=%s: %s", img->path, why);
    if (img->fd >= 0)
        close(img->fd);
    img->fd = -1;
    return -1;
}

static uint32_t le32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

// The bytes an ext2/3/4 file system in the image says it covers (0: none found).
static uint64_t ext_fs_bytes(const uint8_t *sb)
{
    if (sb[56] != 0x53 || sb[57] != 0xef)
        return 0;
    uint32_t log = le32(sb + 24);
    if (log > 6)
        return 0;                      // not a block size ext4 knows: no claim made
    uint64_t blocks = le32(sb + 4);
    if (le32(sb + 0x60) & 0x80)
        blocks |= (uint64_t)le32(sb + 0x150) << 32;
    return blocks << (10 + log);
}

int hexsim_blk_image_open(struct hexsim_blk_image *img, const struct hexsim_drive_opts *o,
                          char *msg, size_t msglen)
{
    char why[512];
    img->path = o->file;
    img->readonly = o->readonly;
    img->writethrough = o->writethrough;
    img->sectors = 0;
    img->fd = open(o->file, (o->readonly ? O_RDONLY : O_RDWR) | O_CLOEXEC);
    if (img->fd < 0) {
        snprintf(why, sizeof why, "cannot open%s: %s", o->readonly ? "" : " for writing",
                 strerror(errno));
        if (!o->readonly && (errno == EACCES || errno == EROFS))
            snprintf(why + strlen(why), sizeof why - strlen(why), " (readonly=on?)");
        return fail(img, msg, msglen, why);
    }
    struct stat st;
    if (fstat(img->fd, &st))
        return fail(img, msg, msglen, strerror(errno));
    uint64_t size = (uint64_t)st.st_size;
    if (S_ISBLK(st.st_mode)) {
        off_t end = lseek(img->fd, 0, SEEK_END);
        if (end < 0)
            return fail(img, msg, msglen, strerror(errno));
        size = (uint64_t)end;
    } else if (!S_ISREG(st.st_mode)) {
        return fail(img, msg, msglen, "not a regular file or block device");
    }
    struct flock lk = { .l_type = (short)(o->readonly ? F_RDLCK : F_WRLCK),
                        .l_whence = SEEK_SET, .l_start = 0, .l_len = 1 };
    if (fcntl(img->fd, F_OFD_SETLK, &lk)) {
        if (errno == EAGAIN || errno == EACCES)
            return fail(img, msg, msglen, o->readonly
                        ? "in use: another process has it open for writing"
                        : "in use: another process has it open (a second writer would "
                          "corrupt it; use readonly=on in both to share it)");
        snprintf(why, sizeof why, "cannot lock: %s", strerror(errno));
        return fail(img, msg, msglen, why);
    }
    if (size == 0)
        return fail(img, msg, msglen, "the image is empty (0 bytes)");
    if (size % HEXSIM_SECTOR) {
        snprintf(why, sizeof why, "%llu bytes is not a whole number of 512-byte sectors "
                 "(truncated?)", (unsigned long long)size);
        return fail(img, msg, msglen, why);
    }
    uint8_t head[2048] = { 0 };
    size_t want = size < sizeof head ? (size_t)size : sizeof head;
    ssize_t got = pread(img->fd, head, want, 0);
    if (got != (ssize_t)want) {
        snprintf(why, sizeof why, "cannot read: %s", got < 0 ? strerror(errno) : "short read");
        return fail(img, msg, msglen, why);
    }
    if (memcmp(head, "QFI\xfb", 4) == 0)
        return fail(img, msg, msglen, "a qcow2 image; hexsim reads raw images only "
                    "(qemu-img convert -O raw)");
    uint64_t fs = size >= 2048 ? ext_fs_bytes(head + 1024) : 0;
    if (fs > size) {
        snprintf(why, sizeof why, "truncated: its ext2/3/4 file system needs %llu bytes, "
                 "the file has %llu", (unsigned long long)fs, (unsigned long long)size);
        return fail(img, msg, msglen, why);
    }
    img->sectors = size / HEXSIM_SECTOR;
    return 0;
}

int hexsim_blk_image_close(struct hexsim_blk_image *img)
{
    if (img->fd < 0)
        return 0;
    int rc = !img->readonly && fdatasync(img->fd) ? -1 : 0;
    if (close(img->fd))
        rc = -1;
    img->fd = -1;
    return rc;
}
