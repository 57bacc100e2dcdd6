// SPDX-License-Identifier: MIT
// The PSF reader of psf_font.h. Facts are the PC Screen Font layouts kbd documents (its
// psf.h and Andries Brouwer's notes on console fonts); all numbers are little-endian.
// PSF1: bytes 0x36 0x04, a mode byte (0x01: 512 glyphs, else 256; 0x02: a Unicode table
// follows; 0x04: it has sequences), the glyph height; glyphs are 8 pixels wide, one byte a
// row. Its table has, per glyph, 16-bit code points up to 0xFFFF, 0xFFFE starting the
// glyph's sequences (combining characters, skipped here). PSF2: the magic 0x72 0xB5 0x4A
// 0x86, then 32-bit version (0), header size, flags (bit 0: a Unicode table follows),
// glyph count, bytes per glyph, height and width; glyphs start at the header size. Its
// table has, per glyph, UTF-8 characters up to 0xFF, 0xFE starting the sequences.
#include "devices/host/psf_font.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#define MAX_FILE (8u << 20)    // a font larger than this (uncompressed) is refused
#define MAX_GLYPHS 65536u

static uint32_t le32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

void hexsim_font_free(struct hexsim_font *f)
{
    free(f->glyphs);
    free(f->map);
    memset(f, 0, sizeof(*f));
}

static int add(struct hexsim_font_map **map, size_t *n, size_t *cap, uint32_t cp, uint32_t g)
{
    if (*n == *cap) {
        size_t c = *cap ? *cap * 2 : 256;
        struct hexsim_font_map *m = realloc(*map, c * sizeof(*m));
        if (!m)
            return -1;
        *map = m;
        *cap = c;
    }
    (*map)[(*n)++] = (struct hexsim_font_map){ cp, g };
    return 0;
}

static int by_cp(const void *a, const void *b)
{
    const struct hexsim_font_map *x = a, *y = b;
    if (x->cp != y->cp)
        return x->cp < y->cp ? -1 : 1;
    return x->glyph < y->glyph ? -1 : x->glyph > y->glyph;
}

// Decodes the UTF-8 character at p (before end); its length in *len, 0 when invalid.
static uint32_t utf8(const uint8_t *p, const uint8_t *end, size_t *len)
{
    unsigned n = p[0] < 0x80 ? 1 : (p[0] & 0xe0) == 0xc0 ? 2 : (p[0] & 0xf0) == 0xe0 ? 3
               : (p[0] & 0xf8) == 0xf0 ? 4 : 0;
    *len = 0;
    if (!n || (size_t)(end - p) < n)
        return 0;
    uint32_t u = n == 1 ? p[0] : p[0] & (0x7fu >> n);
    for (unsigned i = 1; i < n; i++) {
        if ((p[i] & 0xc0) != 0x80)
            return 0;
        u = u << 6 | (p[i] & 0x3fu);
    }
    *len = n;
    return u;
}

// Reads the Unicode table at p..end into f->map. psf2: UTF-8 entries, else 16-bit ones.
static int read_table(struct hexsim_font *f, const uint8_t *p, const uint8_t *end, bool psf2,
                      char *msg, size_t msglen)
{
    size_t cap = 0;
    unsigned term = psf2 ? 0xff : 0xffff, seq = psf2 ? 0xfe : 0xfffe;
    for (uint32_t g = 0; g < f->count; g++) {
        bool in_seq = false;
        for (;;) {
            size_t len = psf2 ? 1 : 2;
            if ((size_t)(end - p) < len) {
                snprintf(msg, msglen, "its Unicode table ends at glyph %u of %u", g, f->count);
                return -1;
            }
            uint32_t v = psf2 ? p[0] : (uint32_t)p[0] | (uint32_t)p[1] << 8;
            if (v == term) {
                p += len;
                break;
            }
            if (v == seq) {
                in_seq = true;
                p += len;
                continue;
            }
            if (psf2) {
                v = utf8(p, end, &len);
                if (!len) {
                    snprintf(msg, msglen, "its Unicode table has bad UTF-8 at glyph %u", g);
                    return -1;
                }
            }
            p += len;
            if (!in_seq && add(&f->map, &f->nmap, &cap, v, g)) {
                snprintf(msg, msglen, "out of memory");
                return -1;
            }
        }
    }
    if (f->nmap)
        qsort(f->map, f->nmap, sizeof(*f->map), by_cp);
    // a code point listed for two glyphs keeps the first
    size_t k = 0;
    for (size_t i = 0; i < f->nmap; i++)
        if (k == 0 || f->map[k - 1].cp != f->map[i].cp)
            f->map[k++] = f->map[i];
    f->nmap = k;
    return 0;
}

int hexsim_font_parse(struct hexsim_font *f, const uint8_t *d, size_t n, char *msg,
                      size_t msglen)
{
    memset(f, 0, sizeof(*f));
    size_t off;
    bool table, psf2;
    if (n >= 4 && d[0] == 0x36 && d[1] == 0x04) {
        psf2 = false;
        f->count = (d[2] & 1) ? 512 : 256;
        f->w = 8;
        f->h = d[3];
        f->row_bytes = 1;
        f->glyph_bytes = d[3];
        table = (d[2] & 6) != 0;
        off = 4;
    } else if (n >= 32 && le32(d) == 0x864ab572u) {
        psf2 = true;
        uint32_t ver = le32(d + 4), hsize = le32(d + 8), flags = le32(d + 12);
        uint32_t count = le32(d + 16), size = le32(d + 20), h = le32(d + 24), w = le32(d + 28);
        if (ver != 0 || hsize < 32 || hsize > n || count == 0 || count > MAX_GLYPHS ||
            w < 1 || w > 32 || h < 1 || h > 64 || size != h * ((w + 7) / 8)) {
            snprintf(msg, msglen, "a PSF2 header that makes no sense (version %u, header %u "
                     "bytes, %u glyphs of %u bytes, %ux%u)", ver, hsize, count, size, w, h);
            return -1;
        }
        f->count = count;
        f->w = w;
        f->h = h;
        f->row_bytes = (w + 7) / 8;
        f->glyph_bytes = size;
        table = (flags & 1) != 0;
        off = hsize;
    } else {
        snprintf(msg, msglen, "not a PSF font (no PSF1 or PSF2 magic number)");
        return -1;
    }
    if (f->h < 1 || f->h > 64) {
        snprintf(msg, msglen, "a PSF1 header with glyphs %u pixels high", f->h);
        memset(f, 0, sizeof(*f));
        return -1;
    }
    size_t bytes = (size_t)f->count * f->glyph_bytes;
    if (n - off < bytes) {
        snprintf(msg, msglen, "truncated: %zu bytes of glyphs, %u glyphs need %zu", n - off,
                 f->count, bytes);
        memset(f, 0, sizeof(*f));
        return -1;
    }
    f->glyphs = malloc(bytes);
    if (!f->glyphs) {
        snprintf(msg, msglen, "out of memory");
        memset(f, 0, sizeof(*f));
        return -1;
    }
    memcpy(f->glyphs, d + off, bytes);
    if (table && read_table(f, d + off + bytes, d + n, psf2, msg, msglen)) {
        hexsim_font_free(f);
        return -1;
    }
    long g = hexsim_font_lookup(f, 0xfffd);
    if (g < 0)
        g = hexsim_font_lookup(f, '?');
    f->fallback = g < 0 ? 0 : (unsigned)g;
    return 0;
}

int hexsim_font_load(struct hexsim_font *f, const char *path, char *msg, size_t msglen)
{
    memset(f, 0, sizeof(*f));
    char why[200];
    gzFile z = gzopen(path, "rb");
    if (!z) {
        snprintf(msg, msglen, "cannot open the font '%s': %s", path,
                 errno ? strerror(errno) : "out of memory");
        return -1;
    }
    size_t cap = 65536, n = 0;
    uint8_t *buf = malloc(cap);
    int got = 0;
    while (buf && (got = gzread(z, buf + n, (unsigned)(cap - n))) > 0) {
        n += (size_t)got;
        if (n == cap && cap < MAX_FILE) {
            uint8_t *b = realloc(buf, cap * 2);
            if (!b) {
                free(buf);
                buf = NULL;
                break;
            }
            buf = b;
            cap *= 2;
        } else if (n == cap) {
            break;
        }
    }
    int zerr = Z_OK;
    const char *zmsg = got < 0 ? gzerror(z, &zerr) : NULL;
    gzclose(z);
    int rc = -1;
    if (!buf)
        snprintf(msg, msglen, "out of memory reading the font '%s'", path);
    else if (zmsg)
        snprintf(msg, msglen, "cannot read the font '%s': %s", path,
                 zerr == Z_ERRNO ? strerror(errno) : zmsg);
    else if (n == cap)
        snprintf(msg, msglen, "the font '%s' is larger than %u MiB", path, MAX_FILE >> 20);
    else if (hexsim_font_parse(f, buf, n, why, sizeof(why)))
        snprintf(msg, msglen, "the font '%s' is not usable: %s", path, why);
    else
        rc = 0;
    free(buf);
    return rc;
}

long hexsim_font_lookup(const struct hexsim_font *f, uint32_t cp)
{
    if (!f->map)
        return cp < f->count ? (long)cp : -1;
    size_t lo = 0, hi = f->nmap;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (f->map[mid].cp < cp)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < f->nmap && f->map[lo].cp == cp ? (long)f->map[lo].glyph : -1;
}

const uint8_t *hexsim_font_glyph(const struct hexsim_font *f, uint32_t cp)
{
    long g = hexsim_font_lookup(f, cp);
    return f->glyphs + (size_t)(g < 0 ? f->fallback : (unsigned)g) * f->glyph_bytes;
}
