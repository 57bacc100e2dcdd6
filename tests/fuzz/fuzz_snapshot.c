// SPDX-License-Identifier: MIT
// Fuzz target: the snapshot loader (src/snap/), then the machine it restores. A fresh Comet
// machine (16 MiB) is saved; the input damages that snapshot, which is restored into a
// second fresh machine (hexsim_snapshot_restore), and a machine restored without complaint
// runs up to MAX_PACKETS packets. Two ways to damage it, by the first byte:
//   even: the sections' contents, checksums recomputed (snap_write), so what the device
//         restore functions and the machine accept is what is tested: records of 4 bytes
//         (section index, offset low, offset high, XOR value; XOR 0 cuts the section
//         there; offsets modulo the section's length)
//   odd:  the file's bytes (records of 3 bytes: offset low, offset high + bits 16-23 of
//         the offset in the next byte, XOR value; modulo the file's size), so the checks of
//         the container are tested
// Checks: no crash or sanitizer report; a refused snapshot comes with a message; a run
// ends with a documented exit status (at the latest after 2 s of host time: a guest idling
// forever on a timer it never takes runs no packets, as a hung guest would).
#define _DEFAULT_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fuzz_machine.h"
#include "hexsim/snapshot.h"
#include "snap/snap_file.h"

#define CHECK(c) do { if (!(c)) abort(); } while (0)
#define MAX_PACKETS 2000

static void temp_path(char *buf, size_t n, const char *what)
{
    snprintf(buf, n, "/tmp/hexsim-fuzz-snap-%d-%s", (int)getpid(), what);
}

static void damage_sections(struct snap_image *im, const uint8_t *d, size_t size)
{
    for (size_t i = 1; i + 4 <= size; i += 4) {
        struct snap_section *s = &im->sec[d[i] % im->n];
        if (!s->len)
            continue;
        size_t off = (size_t)(d[i + 1] | d[i + 2] << 8) % s->len;
        if (d[i + 3])
            s->data[off] ^= d[i + 3];
        else
            s->len = off;
    }
}

static int damage_file(const char *path, const uint8_t *d, size_t size)
{
    FILE *f = fopen(path, "r+b");
    if (!f)
        return -1;
    fseek(f, 0, SEEK_END);
    long len = ftell(f);
    for (size_t i = 1; len > 0 && i + 3 <= size; i += 3) {
        long off = (long)((uint32_t)d[i] | (uint32_t)d[i + 1] << 8 |
                          (uint32_t)(i + 3 < size ? d[i + 3] : 0) << 16) % len;
        fseek(f, off, SEEK_SET);
        int c = fgetc(f);
        fseek(f, off, SEEK_SET);
        fputc((c ^ d[i + 2]) & 0xFF, f);
    }
    fclose(f);
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char good[128], bad[128], msg[512];
    temp_path(good, sizeof(good), "good");
    temp_path(bad, sizeof(bad), "bad");
    struct hexsim_chardev chr = { .write = fuzz_discard };
    struct hexsim_console con;
    struct hexsim_machine_opts o = { .serial = &chr };
    FILE *devnull;
    struct hexsim_machine *m = fuzz_machine_new(&o, &con, &devnull);
    CHECK(hexsim_snapshot_save(m, good, msg, sizeof(msg)) == 0);
    fuzz_machine_free(m, devnull);
    if (size && (data[0] & 1)) {
        rename(good, bad);
        CHECK(damage_file(bad, data, size) == 0);
    } else {
        struct snap_image im;
        CHECK(snap_read(&im, good, msg, sizeof(msg)) == 0);
        damage_sections(&im, data, size);
        CHECK(snap_write(&im, bad, msg, sizeof(msg)) == 0);
        snap_free(&im);
        unlink(good);
    }
    // A guest that waits forever while a timer it never takes keeps firing runs no packets:
    // like a hung guest in a real run, it is ended by host time (--max-seconds).
    o = (struct hexsim_machine_opts){ .serial = &chr, .max_packets = MAX_PACKETS,
                                      .max_seconds = 2 };
    m = fuzz_machine_new(&o, &con, &devnull);
    msg[0] = 0;
    if (hexsim_snapshot_restore(m, bad, msg, sizeof(msg)) == 0) {
        m->opts.max_packets = m->packets + MAX_PACKETS;
        int st = hexsim_machine_run(m);
        CHECK(st == HEXSIM_SYS_EXIT_OK || st == HEXSIM_SYS_EXIT_ERROR ||
              st == HEXSIM_SYS_EXIT_GUEST_FAIL || st == HEXSIM_SYS_EXIT_LIMIT);
    } else {
        CHECK(msg[0]);
    }
    fuzz_machine_free(m, devnull);
    unlink(bad);
    return 0;
}
