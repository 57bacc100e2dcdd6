// SPDX-License-Identifier: MIT
// The SDL console's font: a Linux console font in PC Screen Font format (PSF1 or PSF2,
// plain or gzip-compressed, as Debian's console-setup-linux installs them under
// /usr/share/consolefonts), read at run time, with its Unicode table mapping code points to
// glyphs. Glyph rows are bit rows, the leftmost pixel in bit 7 of the row's first byte.
#ifndef HEXSIM_PSF_FONT_H
#define HEXSIM_PSF_FONT_H

#include <stddef.h>
#include <stdint.h>

// The font used unless another is asked for, and the Debian package that has it.
#define HEXSIM_FONT_DEFAULT "/usr/share/consolefonts/Uni2-VGA16.psf.gz"
#define HEXSIM_FONT_PACKAGE "console-setup-linux"

struct hexsim_font_map {
    uint32_t cp;          // code point
    uint32_t glyph;
};

struct hexsim_font {
    unsigned w, h;        // glyph size in pixels (1..32 wide, 1..64 high)
    unsigned count;       // glyphs
    unsigned row_bytes;   // bytes per glyph row: (w + 7) / 8
    unsigned glyph_bytes; // bytes per glyph: h * row_bytes
    uint8_t *glyphs;      // count * glyph_bytes
    struct hexsim_font_map *map;   // sorted by code point; NULL: code point = glyph index
    size_t nmap;
    unsigned fallback;    // the glyph of code points the font lacks: U+FFFD, else '?'
};

// Reads the font file at path (gzip-compressed or not). Returns 0, or -1 with msg saying
// what is wrong (the file named); *f is then empty.
int hexsim_font_load(struct hexsim_font *f, const char *path, char *msg, size_t msglen);
// Parses a PSF image of n bytes (the file's contents after decompression). Returns 0, or -1
// with msg saying what is wrong.
int hexsim_font_parse(struct hexsim_font *f, const uint8_t *data, size_t n, char *msg,
                      size_t msglen);
void hexsim_font_free(struct hexsim_font *f);

// The glyph of code point cp (the fallback glyph when the font has none).
const uint8_t *hexsim_font_glyph(const struct hexsim_font *f, uint32_t cp);
// The index of cp's glyph, or -1 when the font has none.
long hexsim_font_lookup(const struct hexsim_font *f, uint32_t cp);

// Pixel (x, y) of glyph g: 1 ink, 0 paper.
static inline unsigned hexsim_font_ink(const struct hexsim_font *f, const uint8_t *g,
                                       unsigned x, unsigned y)
{
    return (g[y * f->row_bytes + x / 8] >> (7 - x % 8)) & 1u;
}

#endif
