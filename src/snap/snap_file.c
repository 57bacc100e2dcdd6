// SPDX-License-Identifier: MIT
// The snapshot file container. All integers little-endian:
//   0   8 bytes  magic "HEXSIMSN"
//   8   u32      format version (SNAP_FORMAT)
//   12  u32      number of sections N (1..SNAP_MAX_SECTIONS)
//   16  32 bytes the hexsim version that wrote it (NUL-padded; informative)
//   48  u32      CRC32 (zlib) of bytes 0-47 and of the section table
//   52  N x 48   section table: name (16 bytes, NUL-padded), u64 offset, u64 compressed
//                length, u64 length, u32 CRC32 of the compressed bytes, u32 0
//   then the sections' zlib streams at their offsets.
// A reader trusts nothing: every offset and length is checked against the file, every
// checksum before decompressing, and each stream must decompress to exactly its length.
#define _DEFAULT_SOURCE
#include "snap_file.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "hexsim/version.h"

#define SNAP_MAGIC "HEXSIMSN"
// 2: the config section starts with the kind; 3: struct hexsim_cpu (the cpu and vcpus
// sections) holds the HVX registers and predicates and the HVX counts of --stats
#define SNAP_FORMAT 3u
#define HDR 52u
#define ENT 48u

static void put32(uint8_t *p, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

static void put64(uint8_t *p, uint64_t v)
{
    for (int i = 0; i < 8; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

static uint32_t get32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static uint64_t get64(const uint8_t *p)
{
    return get32(p) | (uint64_t)get32(p + 4) << 32;
}

int snap_add(struct snap_image *im, const char *name, const void *data, size_t len)
{
    if (im->n >= SNAP_MAX_SECTIONS || strlen(name) >= SNAP_NAME_MAX || len > SNAP_MAX_SECTION)
        return -1;
    uint8_t *copy = malloc(len ? len : 1);
    if (!copy)
        return -1;
    if (len)
        memcpy(copy, data, len);
    struct snap_section *s = &im->sec[im->n++];
    memset(s->name, 0, sizeof(s->name));
    strcpy(s->name, name);
    s->data = copy;
    s->len = len;
    return 0;
}

const struct snap_section *snap_get(const struct snap_image *im, const char *name)
{
    for (unsigned i = 0; i < im->n; i++)
        if (strcmp(im->sec[i].name, name) == 0)
            return &im->sec[i];
    return NULL;
}

const struct snap_section *snap_need(const struct snap_image *im, const char *path,
                                     const char *name, size_t len, char *msg, size_t msglen)
{
    const struct snap_section *s = snap_get(im, name);
    if (!s)
        snprintf(msg, msglen, "snapshot %s: section %s: missing", path, name);
    else if (len && s->len != len)
        snprintf(msg, msglen, "snapshot %s: section %s: %zu bytes, this hexsim expects %zu "
                 "(a snapshot of another hexsim version?)", path, name, s->len, len);
    else
        return s;
    return NULL;
}

bool snap_page_zero(const uint8_t *p)
{
    static const uint8_t zero[4096];
    return memcmp(p, zero, sizeof(zero)) == 0;
}

int snap_config(const struct snap_image *im, const char *path, uint32_t kind, void *out,
                size_t len, char *msg, size_t msglen)
{
    const struct snap_section *s = snap_get(im, "config");
    uint32_t k = s && s->len >= 4 ? get32(s->data) : 0;
    if (!s) {
        snprintf(msg, msglen, "snapshot %s: section config: missing", path);
        return -1;
    }
    if (k != kind && (k == SNAP_KIND_SYSTEM || k == SNAP_KIND_USER)) {
        snprintf(msg, msglen, "snapshot %s: a snapshot of a %s, not of a %s (restore it with "
                 "hexsim %s--restore %s)", path,
                 k == SNAP_KIND_USER ? "user-mode process (--user)" : "system-mode machine",
                 kind == SNAP_KIND_USER ? "user-mode process" : "system-mode machine",
                 k == SNAP_KIND_USER ? "--user " : "", path);
        return -1;
    }
    if (k != kind || s->len != len) {
        snprintf(msg, msglen, "snapshot %s: section config: %s", path, k != kind ?
                 "unknown kind of snapshot" : "of another size than this hexsim writes "
                 "(another version?)");
        return -1;
    }
    memcpy(out, s->data, len);
    return 0;
}

void snap_free(struct snap_image *im)
{
    for (unsigned i = 0; i < im->n; i++)
        free(im->sec[i].data);
    memset(im, 0, sizeof(*im));
}

int snap_write(const struct snap_image *im, const char *path, char *msg, size_t msglen)
{
    uint8_t *z[SNAP_MAX_SECTIONS] = { 0 };
    uLongf zlen[SNAP_MAX_SECTIONS];
    size_t tlen = HDR + (size_t)im->n * ENT;
    uint8_t *head = calloc(1, tlen);
    int rc = -1;
    FILE *f = NULL;
    char tmp[4096];
    snprintf(tmp, sizeof(tmp), "%s.tmp", path);
    if (!head) {
        snprintf(msg, msglen, "snapshot %s: out of memory", path);
        goto out;
    }
    uint64_t off = tlen;
    for (unsigned i = 0; i < im->n; i++) {
        const struct snap_section *s = &im->sec[i];
        zlen[i] = compressBound(s->len);
        z[i] = malloc(zlen[i]);
        if (!z[i] || compress2(z[i], &zlen[i], s->data, s->len, 6) != Z_OK) {
            snprintf(msg, msglen, "snapshot %s: section %s: cannot compress", path, s->name);
            goto out;
        }
        uint8_t *e = head + HDR + i * ENT;
        memcpy(e, s->name, SNAP_NAME_MAX);
        put64(e + 16, off);
        put64(e + 24, zlen[i]);
        put64(e + 32, s->len);
        put32(e + 40, (uint32_t)crc32(0, z[i], (uInt)zlen[i]));
        off += zlen[i];
    }
    memcpy(head, SNAP_MAGIC, 8);
    put32(head + 8, SNAP_FORMAT);
    put32(head + 12, im->n);
    snprintf((char *)head + 16, 32, "%s", hexsim_version());
    uLong crc = crc32(0, head, 48);
    crc = crc32(crc, head + HDR, (uInt)(tlen - HDR));
    put32(head + 48, (uint32_t)crc);
    f = fopen(tmp, "wb");
    if (!f) {
        snprintf(msg, msglen, "snapshot %s: cannot create: %s", tmp, strerror(errno));
        goto out;
    }
    bool ok = fwrite(head, 1, tlen, f) == tlen;
    for (unsigned i = 0; ok && i < im->n; i++)
        ok = fwrite(z[i], 1, zlen[i], f) == zlen[i];
    if (fclose(f) != 0)
        ok = false;
    f = NULL;
    if (!ok || rename(tmp, path) != 0) {
        snprintf(msg, msglen, "snapshot %s: cannot write: %s", path, strerror(errno));
        remove(tmp);
        goto out;
    }
    rc = 0;
out:
    for (unsigned i = 0; i < im->n; i++)
        free(z[i]);
    free(head);
    return rc;
}

int snap_finish(struct snap_image *im, bool ok, const char *path, char *msg, size_t msglen)
{
    int rc = -1;
    if (!ok)
        snprintf(msg, msglen, "snapshot %s: out of memory", path);
    else
        rc = snap_write(im, path, msg, msglen);
    snap_free(im);
    return rc;
}

static int bad(char *msg, size_t msglen, const char *path, const char *what)
{
    snprintf(msg, msglen, "snapshot %s: %s", path, what);
    return -1;
}

int snap_read(struct snap_image *im, const char *path, char *msg, size_t msglen)
{
    memset(im, 0, sizeof(*im));
    FILE *f = fopen(path, "rb");
    if (!f) {
        snprintf(msg, msglen, "cannot read snapshot %s: %s", path, strerror(errno));
        return -1;
    }
    uint8_t *buf = NULL;
    size_t size = 0, cap = 0;
    for (;;) {
        if (size == cap) {
            cap = cap ? cap * 2 : 1u << 20;
            uint8_t *nb = cap <= (SNAP_MAX_SECTION * 2) ? realloc(buf, cap) : NULL;
            if (!nb) {
                free(buf);
                fclose(f);
                return bad(msg, msglen, path, "too large or out of memory");
            }
            buf = nb;
        }
        size_t n = fread(buf + size, 1, cap - size, f);
        size += n;
        if (n == 0)
            break;
    }
    bool err = ferror(f);
    fclose(f);
    int rc = -1;
    char why[256];
    if (err) {
        bad(msg, msglen, path, "read error");
        goto out;
    }
    if (size < HDR || memcmp(buf, SNAP_MAGIC, 8) != 0) {
        bad(msg, msglen, path, size < 8 ? "truncated (no header)" : "not a hexsim snapshot "
            "(bad magic)");
        goto out;
    }
    uint32_t fmt = get32(buf + 8), n = get32(buf + 12);
    if (fmt != SNAP_FORMAT) {   // (the writer's version, informative: printable only)
        char by[33];
        size_t k = 0;
        for (; k < 32 && buf[16 + k] >= 0x20 && buf[16 + k] < 0x7f; k++)
            by[k] = (char)buf[16 + k];
        by[k] = '\0';
        snprintf(why, sizeof(why), "format version %u%s%s%s, this hexsim reads version %u%s",
                 fmt, k ? " (written by hexsim " : "", by, k ? ")" : "", SNAP_FORMAT,
                 fmt < SNAP_FORMAT ? "; older snapshots cannot be restored: take it again" : "");
        bad(msg, msglen, path, why);
        goto out;
    }
    if (n == 0 || n > SNAP_MAX_SECTIONS || size < HDR + (uint64_t)n * ENT) {
        bad(msg, msglen, path, "truncated or corrupt section table");
        goto out;
    }
    uLong crc = crc32(0, buf, 48);
    crc = crc32(crc, buf + HDR, (uInt)(n * ENT));
    if ((uint32_t)crc != get32(buf + 48)) {
        bad(msg, msglen, path, "header checksum mismatch (corrupt file)");
        goto out;
    }
    for (uint32_t i = 0; i < n; i++) {          // every section checked before any is used
        const uint8_t *e = buf + HDR + i * ENT;
        char name[SNAP_NAME_MAX + 1] = { 0 };
        memcpy(name, e, SNAP_NAME_MAX);
        uint64_t off = get64(e + 16), zl = get64(e + 24), ul = get64(e + 32);
        if (!name[0] || memchr(e, 0, SNAP_NAME_MAX) == NULL || off > size || zl > size - off ||
            ul > SNAP_MAX_SECTION || zl > 0xffffffffu) {
            snprintf(why, sizeof(why), "section %u (%s): outside the file (truncated?)", i,
                     name[0] ? name : "?");
            bad(msg, msglen, path, why);
            goto out;
        }
        if ((uint32_t)crc32(0, buf + off, (uInt)zl) != get32(e + 40)) {
            snprintf(why, sizeof(why), "section %s: checksum mismatch (corrupt file)", name);
            bad(msg, msglen, path, why);
            goto out;
        }
    }
    for (uint32_t i = 0; i < n; i++) {
        const uint8_t *e = buf + HDR + i * ENT;
        uint64_t off = get64(e + 16), zl = get64(e + 24), ul = get64(e + 32);
        struct snap_section *s = &im->sec[im->n];
        memcpy(s->name, e, SNAP_NAME_MAX);
        s->data = malloc(ul ? ul : 1);
        uLongf got = (uLongf)ul;
        if (!s->data || uncompress(s->data, &got, buf + off, (uLong)zl) != Z_OK || got != ul) {
            free(s->data);
            s->data = NULL;
            snprintf(why, sizeof(why), "section %s: does not decompress to its %llu bytes",
                     s->name, (unsigned long long)ul);
            bad(msg, msglen, path, why);
            goto out;
        }
        s->len = (size_t)ul;
        im->n++;
    }
    rc = 0;
out:
    free(buf);
    if (rc)
        snap_free(im);
    return rc;
}
