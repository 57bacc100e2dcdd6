// SPDX-License-Identifier: MIT
// hexsim's own 8x16 bitmap font for the SDL console window: printable ASCII 0x20..0x7e and
// a placeholder box (HEXSIM_VT_PLACEHOLDER, 0x7f) for characters outside ASCII. The glyphs
// are drawn in font8x16.c as rows of '#' (ink) and '.' (paper); hexsim_font_init turns them
// into bit rows (bit 7 the leftmost pixel).
#ifndef HEXSIM_HOST_FONT_H
#define HEXSIM_HOST_FONT_H

#include <stdint.h>

#define HEXSIM_FONT_W 8
#define HEXSIM_FONT_H 16
#define HEXSIM_FONT_FIRST 0x20
#define HEXSIM_FONT_COUNT 96   // 0x20..0x7f

struct hexsim_font {
    uint8_t rows[HEXSIM_FONT_COUNT][HEXSIM_FONT_H];
};

// Fills *f from the drawn glyphs. Returns 0, or -1 when a drawn row is not 8 characters of
// '#' and '.' (then *f is incomplete).
int hexsim_font_init(struct hexsim_font *f);

// The glyph of character ch; characters outside 0x20..0x7f get the placeholder.
static inline const uint8_t *hexsim_font_glyph(const struct hexsim_font *f, uint8_t ch)
{
    unsigned i = ch >= HEXSIM_FONT_FIRST && ch < HEXSIM_FONT_FIRST + HEXSIM_FONT_COUNT
                     ? ch - HEXSIM_FONT_FIRST : HEXSIM_FONT_COUNT - 1;
    return f->rows[i];
}

#endif
