// SPDX-License-Identifier: MIT
// Draws rows of the console's terminal (vt_term.h) with a PSF font (psf_font.h) into a
// 32-bit XRGB8888 pixel buffer (0x00RRGGBB), each font pixel as a scale x scale square. No
// SDL: the SDL console window copies the buffer to its window surface.
#ifndef HEXSIM_VT_RENDER_H
#define HEXSIM_VT_RENDER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "devices/host/psf_font.h"
#include "devices/host/vt_term.h"

// The colours a cell is drawn with: reverse swaps its colours, and the cursor (cursor
// true) swaps them once more (a block cursor).
void hexsim_vt_cell_colours(const struct hexsim_vt_cell *c, bool cursor, uint32_t *fg,
                            uint32_t *bg);

// Draws row y of vt. pix is the top-left pixel of the whole screen, pitch its row length
// in pixels (at least cols * font->w * scale); cursor_on: draw the cursor if it is in this
// row and visible.
void hexsim_vt_render_row(const struct hexsim_vt *vt, const struct hexsim_font *font,
                          unsigned y, bool cursor_on, unsigned scale, uint32_t *pix,
                          size_t pitch);

#endif
