// SPDX-License-Identifier: MIT
// Rasterizer of vt_render.h. The palette is the usual VGA-style text palette (dark
// colours at two thirds intensity, brown for dark yellow, bright colours with a third of
// white added); the underline is drawn on font row 14.
#include "devices/host/vt_render.h"

static const uint32_t palette[16] = {
    0x000000, 0xaa0000, 0x00aa00, 0xaa5500, 0x0000aa, 0xaa00aa, 0x00aaaa, 0xaaaaaa,
    0x555555, 0xff5555, 0x55ff55, 0xffff55, 0x5555ff, 0xff55ff, 0x55ffff, 0xffffff,
};

#define UNDERLINE_ROW 14

uint32_t hexsim_vt_palette(unsigned i)
{
    return palette[i & 15];
}

void hexsim_vt_cell_colours(const struct hexsim_vt_cell *c, bool cursor, uint32_t *fg,
                            uint32_t *bg)
{
    unsigned f = c->fg & 15, b = c->bg & 15;
    if ((c->attr & HEXSIM_VT_BOLD) && f < 8)
        f += 8;
    bool rev = (c->attr & HEXSIM_VT_REVERSE) != 0;
    if (cursor)
        rev = !rev;
    *fg = palette[rev ? b : f];
    *bg = palette[rev ? f : b];
}

void hexsim_vt_render_row(const struct hexsim_vt *vt, const struct hexsim_font *font,
                          unsigned y, bool cursor_on, unsigned scale, uint32_t *pix,
                          size_t pitch)
{
    bool cursor_here = cursor_on && vt->cursor_visible && vt->cy == y;
    uint32_t *row0 = pix + (size_t)y * HEXSIM_FONT_H * scale * pitch;
    for (unsigned x = 0; x < vt->cols; x++) {
        const struct hexsim_vt_cell *c = hexsim_vt_at(vt, x, y);
        uint32_t fg, bg;
        hexsim_vt_cell_colours(c, cursor_here && vt->cx == x, &fg, &bg);
        const uint8_t *g = hexsim_font_glyph(font, c->ch);
        uint32_t *cell0 = row0 + (size_t)x * HEXSIM_FONT_W * scale;
        for (unsigned gy = 0; gy < HEXSIM_FONT_H; gy++) {
            unsigned bits = g[gy];
            if (gy == UNDERLINE_ROW && (c->attr & HEXSIM_VT_UNDERLINE))
                bits = 0xff;
            for (unsigned sy = 0; sy < scale; sy++) {
                uint32_t *p = cell0 + ((size_t)gy * scale + sy) * pitch;
                for (unsigned gx = 0; gx < HEXSIM_FONT_W; gx++) {
                    uint32_t v = (bits & (0x80u >> gx)) ? fg : bg;
                    for (unsigned sx = 0; sx < scale; sx++)
                        *p++ = v;
                }
            }
        }
    }
}
