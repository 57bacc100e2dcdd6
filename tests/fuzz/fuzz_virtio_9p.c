// SPDX-License-Identifier: MIT
// Fuzz target: the shared directory's device and 9P server (src/devices/comet/virtio_9p.c
// on the transport virtio_mmio.c; src/devices/p9/) as a guest driver reaches them, on a
// fresh scratch share holding a file, a directory, a symbolic link out to an "outside"
// directory next to it, and a relative one out.
// Input: byte 0 bit 0 read-only share, bit 1 the message mode; byte 1 the queue size
// (QueueNum, 0-255). Descriptor mode (bit 1 clear): then the first 48 KiB of guest RAM
// (descriptor table at 0, available ring at 0x1000, used ring at 0x2000, buffers anywhere;
// the rest zero); the device is notified, reset by the driver, brought up again and
// notified once more (a 9P session is then a chain per message, Tversion first).
// Message mode (bit 1 set): the server gets Tversion and Tattach (fid 0 at the top), then
// the rest of the input as 9P messages back to back (each as long as its size field says;
// a short tail is sent as it is), straight to hexsim_p9_handle.
// Checks: no crash or sanitizer report; every reply is a whole R-message no longer than
// its buffer; the used index advances by at most what was offered; nothing outside the
// share changes (the outside directory keeps its one file and its contents); a read-only
// share is not changed at all.
#define _GNU_SOURCE
#include <dirent.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fuzz_virtio.h"

static void put_file(const char *dir, const char *name, const char *text)
{
    char p[256];
    snprintf(p, sizeof p, "%s/%s", dir, name);
    FILE *f = fopen(p, "w");
    CHECK(f);
    fputs(text, f);
    fclose(f);
}

static int rm_one(const char *p, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)st;
    (void)flag;
    (void)ftw;
    chmod(p, 0700);
    return remove(p);
}

// A fingerprint of a tree: names, types, sizes and modes of everything under dir.
static uint64_t tree_sum(const char *dir)
{
    uint64_t h = 1469598103934665603ull;
    DIR *d = opendir(dir);
    if (!d)
        return 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        struct stat st;
        char p[4096];
        snprintf(p, sizeof p, "%s/%s", dir, e->d_name);
        if (lstat(p, &st))
            continue;
        uint64_t v = (uint64_t)st.st_size ^ ((uint64_t)st.st_mode << 40);
        for (const char *c = e->d_name; *c; c++)
            v = v * 131 + (uint8_t)*c;
        h ^= v * 0x9e3779b97f4a7c15ull;        // order-free
        if (S_ISDIR(st.st_mode) && strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
            h += tree_sum(p);
    }
    closedir(d);
    return h;
}

static void check_reply(const uint8_t *out, size_t len, size_t cap)
{
    CHECK(len <= cap);
    if (len) {
        uint32_t size = (uint32_t)out[0] | (uint32_t)out[1] << 8 | (uint32_t)out[2] << 16 |
                        (uint32_t)out[3] << 24;
        CHECK(size == len && len >= 7 && (out[4] & 1));
    }
}

static void message_mode(struct hexsim_p9 *s, const uint8_t *data, size_t size, uint8_t *out)
{
    static const uint8_t hello[] = {
        21, 0, 0, 0, 100, 0xff, 0xff, 0, 0, 1, 0, 8, 0, '9', 'P', '2', '0', '0', '0', '.', 'L',
        23, 0, 0, 0, 104, 1, 0, 0, 0, 0, 0, 0xff, 0xff, 0xff, 0xff, 0, 0, 0, 0, 0, 0, 0, 0,
    };
    size_t len = hexsim_p9_handle(s, hello, 21, out, 4096);
    check_reply(out, len, 4096);
    len = hexsim_p9_handle(s, hello + 21, 23, out, 4096);
    check_reply(out, len, 4096);
    CHECK(out[4] == 105);
    while (size) {
        size_t n = size;
        if (size >= 4) {
            size_t want = (size_t)data[0] | (size_t)data[1] << 8 | (size_t)data[2] << 16;
            n = want >= 7 && want < size ? want : size;
        }
        size_t cap = 11 + (data[n - 1] & 1 ? 64 : 65536);    // sometimes a tight buffer
        len = hexsim_p9_handle(s, data, n, out, cap);
        check_reply(out, len, cap);
        data += n;
        size -= n;
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 2)
        return 0;
    char base[] = "/tmp/fuzz_virtio_9p_XXXXXX", share[64], outside[64], p[128];
    CHECK(mkdtemp(base));
    snprintf(share, sizeof share, "%s/share", base);
    snprintf(outside, sizeof outside, "%s/outside", base);
    CHECK(mkdir(share, 0755) == 0 && mkdir(outside, 0755) == 0);
    put_file(outside, "secret", "secret\n");
    put_file(share, "file", "0123456789abcdef\n");
    snprintf(p, sizeof p, "%s/dir", share);
    CHECK(mkdir(p, 0755) == 0);
    snprintf(p, sizeof p, "%s/out", share);
    CHECK(symlink(outside, p) == 0);
    snprintf(p, sizeof p, "%s/dir/up", share);
    CHECK(symlink("../../outside", p) == 0);
    uint64_t outside_sum = tree_sum(outside), share_sum = tree_sum(share);

    struct hexsim_share_opts o = { .readonly = data[0] & 1 };
    snprintf(o.dir, sizeof o.dir, "%s", share);
    snprintf(o.tag, sizeof o.tag, "fuzz");
    struct hexsim_mem ram;
    hexsim_mem_init(&ram);
    CHECK(hexsim_mem_map(&ram, 0, RAM, HEXSIM_PROT_R | HEXSIM_PROT_W) == 0);
    struct hexsim_dev d;
    struct hexsim_virtio_9p *v = malloc(sizeof *v);
    char msg[256];
    CHECK(v && hexsim_virtio_9p_init(&d, v, 1, &ram, &o, msg, sizeof msg) == 0);
    if (data[0] & 2) {
        message_mode(&v->srv, data + 2, size - 2, v->resp);
    } else {
        size_t n = size - 2 < RAM ? size - 2 : RAM;
        hexsim_mem_copy_in(&ram, 0, data + 2, n, true, NULL);
        fuzz_virtio_rounds(&d, &ram, data[1]);
    }
    hexsim_virtio_9p_free(v);
    free(v);
    hexsim_mem_free(&ram);
    CHECK(tree_sum(outside) == outside_sum);
    if (o.readonly)
        CHECK(tree_sum(share) == share_sum);
    CHECK(nftw(base, rm_one, 16, FTW_DEPTH | FTW_PHYS) == 0);
    return 0;
}
