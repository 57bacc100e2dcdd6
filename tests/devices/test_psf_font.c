// SPDX-License-Identifier: MIT
// Check suite of the SDL console's PSF font reader (src/devices/host/psf_font.c): PSF1
// and PSF2 images built here byte by byte (headers, glyph bits, Unicode tables with
// sequences), read from memory and from files (plain and gzip'd); truncated and corrupt
// ones refused with a message; and Debian's console font the window uses by default.
#include "../check_main.h"
#include <check.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "devices/host/psf_font.h"

struct img {
    uint8_t b[8192];
    size_t n;
};

static void put(struct img *m, const void *p, size_t n)
{
    ck_assert_uint_le(m->n + n, sizeof(m->b));
    memcpy(m->b + m->n, p, n);
    m->n += n;
}

static void put8(struct img *m, unsigned v)
{
    uint8_t b = (uint8_t)v;
    put(m, &b, 1);
}

static void put16(struct img *m, unsigned v)
{
    put8(m, v & 0xff);
    put8(m, v >> 8);
}

static void put32(struct img *m, uint32_t v)
{
    put16(m, v & 0xffff);
    put16(m, v >> 16);
}

// PSF1, 256 glyphs of 8x8; glyph i has row 0 = i and row 7 = 0x81. With a table: glyph i
// is code point i for i < 128, glyph 200 is U+00E9 and (in a sequence) e + U+0301, glyph 1
// is U+FFFD, glyph 2 is U+263A and U+263B.
static void psf1(struct img *m, bool table)
{
    m->n = 0;
    put8(m, 0x36);
    put8(m, 0x04);
    put8(m, table ? 0x06 : 0x00);
    put8(m, 8);
    for (unsigned i = 0; i < 256; i++) {
        uint8_t g[8] = { (uint8_t)i, 0, 0, 0, 0, 0, 0, 0x81 };
        put(m, g, 8);
    }
    if (!table)
        return;
    for (unsigned i = 0; i < 256; i++) {
        if (i == 1) {
            put16(m, 0xfffd);
        } else if (i == 2) {
            put16(m, 0x263a);
            put16(m, 0x263b);
        } else if (i == 200) {
            put16(m, 0xe9);
            put16(m, 0xfffe);
            put16(m, 'e');
            put16(m, 0x301);
        } else if (i < 128) {
            put16(m, i);
        }
        put16(m, 0xffff);
    }
}

// PSF2 with a 40-byte header, 3 glyphs of 12x10 (2 bytes a row): glyph i has its pixel
// (9, i) set. Table: glyph 0 '?', glyph 1 'A' and U+20AC, glyph 2 U+1F600 and the
// sequence e U+0301.
static void psf2(struct img *m)
{
    m->n = 0;
    put32(m, 0x864ab572u);
    put32(m, 0);
    put32(m, 40);
    put32(m, 1);
    put32(m, 3);
    put32(m, 20);
    put32(m, 10);
    put32(m, 12);
    put32(m, 0xdeadbeef);   // header bytes past the 32 known ones
    put32(m, 0);
    for (unsigned i = 0; i < 3; i++) {
        uint8_t g[20] = { 0 };
        g[i * 2 + 1] = 0x40;    // x = 9: bit 6 of the row's second byte
        put(m, g, 20);
    }
    put(m, "?\xff" "A\xe2\x82\xac\xff" "\xf0\x9f\x98\x80\xfe" "e\xcc\x81\xff", 16);
}

START_TEST(psf1_with_table)
{
    struct img m;
    struct hexsim_font f;
    char msg[200];
    psf1(&m, true);
    ck_assert_msg(hexsim_font_parse(&f, m.b, m.n, msg, sizeof msg) == 0, "%s", msg);
    ck_assert_uint_eq(f.w, 8);
    ck_assert_uint_eq(f.h, 8);
    ck_assert_uint_eq(f.count, 256);
    ck_assert_uint_eq(f.row_bytes, 1);
    ck_assert_int_eq(hexsim_font_lookup(&f, 'A'), 'A');
    ck_assert_int_eq(hexsim_font_lookup(&f, 0xe9), 200);
    ck_assert_int_eq(hexsim_font_lookup(&f, 0x263b), 2);
    ck_assert_int_eq(hexsim_font_lookup(&f, 0x301), -1);   // only in a sequence
    ck_assert_int_eq(hexsim_font_lookup(&f, 'e'), 'e');     // not glyph 200's sequence
    ck_assert_int_eq(hexsim_font_lookup(&f, 150), -1);      // glyph 150 has no code point
    ck_assert_uint_eq(f.fallback, 1);                       // U+FFFD
    const uint8_t *g = hexsim_font_glyph(&f, 0xe9);
    ck_assert_uint_eq(g[0], 200);
    ck_assert_uint_eq(hexsim_font_glyph(&f, 0x4e00)[0], 1);  // unknown: the fallback
    ck_assert_uint_eq(hexsim_font_ink(&f, g, 0, 7), 1);
    ck_assert_uint_eq(hexsim_font_ink(&f, g, 1, 7), 0);
    ck_assert_uint_eq(hexsim_font_ink(&f, g, 7, 7), 1);
    ck_assert_uint_eq(hexsim_font_ink(&f, g, 0, 0), 1);   // 200 = 0b11001000
    ck_assert_uint_eq(hexsim_font_ink(&f, g, 2, 0), 0);
    ck_assert_uint_eq(hexsim_font_ink(&f, g, 4, 0), 1);
    hexsim_font_free(&f);
}
END_TEST

START_TEST(psf1_without_table)
{
    struct img m;
    struct hexsim_font f;
    char msg[200];
    psf1(&m, false);
    ck_assert_int_eq(hexsim_font_parse(&f, m.b, m.n, msg, sizeof msg), 0);
    ck_assert_ptr_null(f.map);
    ck_assert_int_eq(hexsim_font_lookup(&f, 0xe9), 0xe9);   // code point = glyph
    ck_assert_int_eq(hexsim_font_lookup(&f, 256), -1);
    ck_assert_uint_eq(f.fallback, '?');
    ck_assert_uint_eq(hexsim_font_glyph(&f, 0x20ac)[0], '?');
    hexsim_font_free(&f);
}
END_TEST

START_TEST(psf2_with_table)
{
    struct img m;
    struct hexsim_font f;
    char msg[200];
    psf2(&m);
    ck_assert_msg(hexsim_font_parse(&f, m.b, m.n, msg, sizeof msg) == 0, "%s", msg);
    ck_assert_uint_eq(f.w, 12);
    ck_assert_uint_eq(f.h, 10);
    ck_assert_uint_eq(f.count, 3);
    ck_assert_uint_eq(f.row_bytes, 2);
    ck_assert_uint_eq(f.glyph_bytes, 20);
    ck_assert_int_eq(hexsim_font_lookup(&f, '?'), 0);
    ck_assert_int_eq(hexsim_font_lookup(&f, 'A'), 1);
    ck_assert_int_eq(hexsim_font_lookup(&f, 0x20ac), 1);
    ck_assert_int_eq(hexsim_font_lookup(&f, 0x1f600), 2);
    ck_assert_int_eq(hexsim_font_lookup(&f, 'e'), -1);
    ck_assert_int_eq(hexsim_font_lookup(&f, 0x301), -1);
    ck_assert_uint_eq(f.fallback, 0);                       // no U+FFFD: '?'
    for (unsigned i = 0; i < 3; i++) {
        const uint8_t *g = f.glyphs + i * f.glyph_bytes;
        for (unsigned y = 0; y < 10; y++)
            for (unsigned x = 0; x < 12; x++)
                ck_assert_uint_eq(hexsim_font_ink(&f, g, x, y), x == 9 && y == i);
    }
    hexsim_font_free(&f);
}
END_TEST

static void refused(const uint8_t *b, size_t n, const char *want)
{
    struct hexsim_font f;
    char msg[200] = "";
    ck_assert_int_eq(hexsim_font_parse(&f, b, n, msg, sizeof msg), -1);
    ck_assert_msg(strstr(msg, want) != NULL, "message '%s', expected '%s' in it", msg, want);
    ck_assert_ptr_null(f.glyphs);
    ck_assert_ptr_null(f.map);
}

START_TEST(bad_images)
{
    struct img m;
    psf1(&m, true);
    refused(m.b, 3, "not a PSF font");
    refused(m.b, 4 + 255 * 8, "truncated");            // a glyph short
    refused(m.b, m.n - 1, "Unicode table ends at glyph 255");
    refused(m.b, 4 + 256 * 8 + 10, "Unicode table ends at glyph");
    m.b[3] = 0;
    refused(m.b, m.n, "0 pixels high");
    m.b[0] = 0x37;
    refused(m.b, m.n, "not a PSF font");
    psf2(&m);
    refused(m.b, 31, "not a PSF font");
    refused(m.b, 40 + 2 * 20, "truncated");
    refused(m.b, m.n - 3, "Unicode table ends at glyph 2");
    m.b[m.n - 14] = 0x80;                              // 'A' made a stray continuation byte
    refused(m.b, m.n, "bad UTF-8 at glyph 1");
    psf2(&m);
    m.b[20] = 21;                                      // bytes per glyph != height * 2
    refused(m.b, m.n, "PSF2 header that makes no sense");
    psf2(&m);
    m.b[4] = 1;                                        // version 1
    refused(m.b, m.n, "version 1");
    psf2(&m);
    m.b[8] = 0xff;                                     // header larger than the file
    m.b[9] = 0xff;
    refused(m.b, m.n, "header 65535 bytes");
}
END_TEST

// The image in a temporary file, gzip'd (gz true) or not; returns its path in path.
static void write_file(const struct img *m, bool gz, char *path)
{
    strcpy(path, "/tmp/hexsim_psf_XXXXXX");
    int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    if (gz) {
        gzFile z = gzdopen(fd, "wb9");
        ck_assert_ptr_nonnull(z);
        ck_assert_int_eq(gzwrite(z, m->b, (unsigned)m->n), (int)m->n);
        ck_assert_int_eq(gzclose(z), Z_OK);
    } else {
        ck_assert_int_eq(write(fd, m->b, m->n), (ssize_t)m->n);
        close(fd);
    }
}

START_TEST(files)
{
    struct img m;
    struct hexsim_font f;
    char path[64], msg[400];
    psf2(&m);
    for (int gz = 0; gz <= 1; gz++) {
        write_file(&m, gz, path);
        ck_assert_msg(hexsim_font_load(&f, path, msg, sizeof msg) == 0, "%s", msg);
        ck_assert_int_eq(hexsim_font_lookup(&f, 0x20ac), 1);
        hexsim_font_free(&f);
        unlink(path);
    }
    // a gzip file cut short: refused, the file named
    psf1(&m, true);
    write_file(&m, true, path);
    FILE *fp = fopen(path, "r+");
    ck_assert_ptr_nonnull(fp);
    ck_assert_int_eq(fseek(fp, 0, SEEK_END), 0);
    long size = ftell(fp);
    fclose(fp);
    ck_assert_int_eq(truncate(path, size / 2), 0);
    ck_assert_int_eq(hexsim_font_load(&f, path, msg, sizeof msg), -1);
    ck_assert_msg(strstr(msg, path) != NULL, "%s", msg);
    ck_assert_ptr_null(f.glyphs);
    unlink(path);
    // a file that is no font
    m.n = 0;
    put(&m, "hello, world\n", 13);
    write_file(&m, false, path);
    ck_assert_int_eq(hexsim_font_load(&f, path, msg, sizeof msg), -1);
    ck_assert_msg(strstr(msg, "not a PSF font") && strstr(msg, path), "%s", msg);
    unlink(path);
    // no file at all
    ck_assert_int_eq(hexsim_font_load(&f, "/nonexistent/x.psf.gz", msg, sizeof msg), -1);
    ck_assert_str_eq(msg, "cannot open the font '/nonexistent/x.psf.gz': No such file or "
                     "directory");
}
END_TEST

// The font the window uses unless told otherwise (tools/setup.sh installs it).
START_TEST(debian_font)
{
    struct hexsim_font f;
    char msg[400];
    ck_assert_msg(hexsim_font_load(&f, HEXSIM_FONT_DEFAULT, msg, sizeof msg) == 0,
                  "%s (Debian package " HEXSIM_FONT_PACKAGE ")", msg);
    ck_assert_uint_eq(f.w, 8);
    ck_assert_uint_eq(f.h, 16);
    ck_assert_uint_eq(f.count, 512);
    ck_assert_uint_gt(f.nmap, 500);
    ck_assert_int_ge(hexsim_font_lookup(&f, 0xfffd), 0);
    // printable ASCII: each its own glyph, with ink (the space without)
    for (uint32_t c = 0x20; c < 0x7f; c++) {
        long g = hexsim_font_lookup(&f, c);
        ck_assert_int_ge(g, 0);
        const uint8_t *p = hexsim_font_glyph(&f, c);
        unsigned ink = 0;
        for (unsigned i = 0; i < f.glyph_bytes; i++)
            ink += (unsigned)__builtin_popcount(p[i]);
        ck_assert_msg(c == ' ' ? ink == 0 : ink > 0, "U+%04X has %u pixels", c, ink);
        for (uint32_t o = 0x20; o < c; o++)
            ck_assert_int_ne(hexsim_font_lookup(&f, o), g);
    }
    // Latin-1, box drawing, Greek, Cyrillic
    const uint32_t more[] = { 0xe9, 0xdf, 0x2500, 0x2588, 0x3b1, 0x416 };
    for (unsigned i = 0; i < sizeof(more) / sizeof(more[0]); i++)
        ck_assert_msg(hexsim_font_lookup(&f, more[i]) >= 0, "no U+%04X", more[i]);
    hexsim_font_free(&f);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("psf_font");
    TCase *t = tcase_create("psf");
    tcase_add_test(t, psf1_with_table);
    tcase_add_test(t, psf1_without_table);
    tcase_add_test(t, psf2_with_table);
    tcase_add_test(t, bad_images);
    tcase_add_test(t, files);
    tcase_add_test(t, debian_font);
    suite_add_tcase(s, t);
    return s;
}

int main(void)
{
    return hexsim_check_run(suite());
}
