// SPDX-License-Identifier: MIT
// Rasterizer of vt_render.h. A wide character's glyph is drawn in its first cell (console
// fonts have glyphs one cell wide); the underline is drawn on the font's second row from
// the bottom (row 14 of 16, as the VGA text mode's cursor and underline sit).
#include "devices/host/vt_render.h"

void hexsim_vt_cell_colours(const struct hexsim_vt_cell *c, bool cursor, uint32_t *fg,
                            uint32_t *bg)
{
    bool rev = (c->attr & HEXSIM_VT_REVERSE) != 0;
    if (cursor)
        rev = !rev;
    *fg = rev ? c->bg : c->fg;
    *bg = rev ? c->fg : c->bg;
}

void hexsim_vt_render_row(const struct hexsim_vt *vt, const struct hexsim_font *font,
                          unsigned y, bool cursor_on, unsigned scale, uint32_t *pix,
                          size_t pitch)
{
    bool cursor_here = cursor_on && vt->cursor_visible && vt->cy == y;
    unsigned fw = font->w, fh = font->h, under = fh >= 2 ? fh - 2 : 0;
    uint32_t *row0 = pix + (size_t)y * fh * scale * pitch;
    for (unsigned x = 0; x < vt->cols; x++) {
        struct hexsim_vt_cell c = hexsim_vt_at(vt, x, y);
        uint32_t fg, bg;
        hexsim_vt_cell_colours(&c, cursor_here && vt->cx == x, &fg, &bg);
        const uint8_t *g = c.ch ? hexsim_font_glyph(font, c.ch) : hexsim_font_glyph(font, ' ');
        uint32_t *cell0 = row0 + (size_t)x * fw * scale;
        for (unsigned gy = 0; gy < fh; gy++) {
            bool line = gy == under && (c.attr & HEXSIM_VT_UNDERLINE);
            for (unsigned sy = 0; sy < scale; sy++) {
                uint32_t *p = cell0 + ((size_t)gy * scale + sy) * pitch;
                for (unsigned gx = 0; gx < fw; gx++) {
                    uint32_t v = line || hexsim_font_ink(font, g, gx, gy) ? fg : bg;
                    for (unsigned sx = 0; sx < scale; sx++)
                        *p++ = v;
                }
            }
        }
    }
}
