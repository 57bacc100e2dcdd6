// SPDX-License-Identifier: MIT
// Draws rows of a terminal grid (vt_grid.h) with the console font (font.h) into a 32-bit
// XRGB8888 pixel buffer (0x00RRGGBB), each font pixel as a scale x scale square. No SDL:
// the SDL console window copies the buffer to its window surface.
#ifndef HEXSIM_VT_RENDER_H
#define HEXSIM_VT_RENDER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "devices/host/font.h"
#include "devices/host/vt_grid.h"

// Colour i (0..15) of the palette: the 8 ANSI colours, then their bright forms.
uint32_t hexsim_vt_palette(unsigned i);

// The colours a cell is drawn with: bold makes colours 0..7 bright, reverse swaps them, and
// the cursor (cursor true) swaps them once more (a block cursor).
void hexsim_vt_cell_colours(const struct hexsim_vt_cell *c, bool cursor, uint32_t *fg,
                            uint32_t *bg);

// Draws row y of vt. pix is the top-left pixel of the whole screen, pitch its row length
// in pixels (at least cols * 8 * scale); cursor_on: draw the cursor if it is in this row
// and visible.
void hexsim_vt_render_row(const struct hexsim_vt *vt, const struct hexsim_font *font,
                          unsigned y, bool cursor_on, unsigned scale, uint32_t *pix,
                          size_t pitch);

#endif
