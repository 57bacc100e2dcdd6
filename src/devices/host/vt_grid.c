// SPDX-License-Identifier: MIT
// The terminal grid of vt_grid.h. Behaviour follows the DEC VT100 / ECMA-48 conventions the
// Linux console and xterm share (facts from ECMA-48 and the console_codes(4) manual page):
// LF moves down (scrolling at the bottom of the scroll region) without returning the
// carriage, since the tty's ONLCR sends CR LF; the last column holds the cursor with a
// pending wrap that the next printable character performs; erasing fills with the current
// background; CSI parameters default to 1 for movement and 0 for erase and SGR; controls
// inside a sequence act at once; CAN and SUB cancel a sequence; sequences this model does
// not know are read to their final byte and dropped. UTF-8: a lead byte and its
// continuation bytes become one placeholder cell, and so does any byte that cannot start a
// UTF-8 character.
#include "devices/host/vt_grid.h"

#include <stdlib.h>
#include <string.h>

static struct hexsim_vt_pen default_pen(void)
{
    return (struct hexsim_vt_pen){ HEXSIM_VT_DEFAULT_FG, HEXSIM_VT_DEFAULT_BG, 0 };
}

static struct hexsim_vt_cell *cell(struct hexsim_vt *vt, unsigned x, unsigned y)
{
    return &vt->cells[(size_t)y * vt->cols + x];
}

static void mark(struct hexsim_vt *vt, unsigned y)
{
    vt->dirty_row[y] = true;
    vt->dirty = true;
}

static void mark_rows(struct hexsim_vt *vt, unsigned y0, unsigned y1)
{
    for (unsigned y = y0; y <= y1; y++)
        vt->dirty_row[y] = true;
    vt->dirty = true;
}

// Blanks cells [x0, x1] of row y with the pen's colours (no attributes).
static void blank(struct hexsim_vt *vt, unsigned y, unsigned x0, unsigned x1)
{
    struct hexsim_vt_cell b = { ' ', vt->pen.fg, vt->pen.bg, 0 };
    for (unsigned x = x0; x <= x1 && x < vt->cols; x++)
        *cell(vt, x, y) = b;
    mark(vt, y);
}

// Moves rows [top, bottom] up by n (n > 0), blanking the n rows at the bottom.
static void scroll_up(struct hexsim_vt *vt, unsigned top, unsigned bottom, unsigned n)
{
    unsigned h = bottom - top + 1;
    if (n > h)
        n = h;
    if (n < h)
        memmove(cell(vt, 0, top), cell(vt, 0, top + n),
                sizeof(struct hexsim_vt_cell) * vt->cols * (h - n));
    for (unsigned y = bottom + 1 - n; y <= bottom; y++)
        blank(vt, y, 0, vt->cols - 1);
    mark_rows(vt, top, bottom);
    if (top == 0)
        vt->scrolled += n;
}

static void scroll_down(struct hexsim_vt *vt, unsigned top, unsigned bottom, unsigned n)
{
    unsigned h = bottom - top + 1;
    if (n > h)
        n = h;
    if (n < h)
        memmove(cell(vt, 0, top + n), cell(vt, 0, top),
                sizeof(struct hexsim_vt_cell) * vt->cols * (h - n));
    for (unsigned y = top; y < top + n; y++)
        blank(vt, y, 0, vt->cols - 1);
    mark_rows(vt, top, bottom);
}

static void move_to(struct hexsim_vt *vt, unsigned x, unsigned y)
{
    mark(vt, vt->cy);
    vt->cx = x < vt->cols ? x : vt->cols - 1;
    vt->cy = y < vt->rows ? y : vt->rows - 1;
    vt->wrap_pending = false;
    mark(vt, vt->cy);
}

static void line_feed(struct hexsim_vt *vt)
{
    vt->wrap_pending = false;
    if (vt->cy == vt->bottom)
        scroll_up(vt, vt->top, vt->bottom, 1);
    else if (vt->cy + 1 < vt->rows)
        move_to(vt, vt->cx, vt->cy + 1);
}

static void reverse_index(struct hexsim_vt *vt)
{
    vt->wrap_pending = false;
    if (vt->cy == vt->top)
        scroll_down(vt, vt->top, vt->bottom, 1);
    else if (vt->cy > 0)
        move_to(vt, vt->cx, vt->cy - 1);
}

static void put(struct hexsim_vt *vt, uint8_t ch)
{
    if (vt->wrap_pending) {
        vt->cx = 0;
        line_feed(vt);
    }
    *cell(vt, vt->cx, vt->cy) = (struct hexsim_vt_cell){ ch, vt->pen.fg, vt->pen.bg, vt->pen.attr };
    mark(vt, vt->cy);
    if (vt->cx + 1 < vt->cols)
        vt->cx++;
    else
        vt->wrap_pending = true;
}

int hexsim_vt_init(struct hexsim_vt *vt, unsigned cols, unsigned rows)
{
    memset(vt, 0, sizeof(*vt));
    if (cols < 1 || cols > HEXSIM_VT_MAX_COLS || rows < 1 || rows > HEXSIM_VT_MAX_ROWS)
        return -1;
    vt->cells = calloc((size_t)cols * rows, sizeof(*vt->cells));
    vt->dirty_row = calloc(rows, sizeof(*vt->dirty_row));
    if (!vt->cells || !vt->dirty_row) {
        hexsim_vt_free(vt);
        return -1;
    }
    vt->cols = cols;
    vt->rows = rows;
    hexsim_vt_reset(vt);
    return 0;
}

void hexsim_vt_free(struct hexsim_vt *vt)
{
    free(vt->cells);
    free(vt->dirty_row);
    vt->cells = NULL;
    vt->dirty_row = NULL;
}

void hexsim_vt_reset(struct hexsim_vt *vt)
{
    vt->pen = default_pen();
    vt->cx = vt->cy = 0;
    vt->wrap_pending = false;
    vt->cursor_visible = true;
    vt->top = 0;
    vt->bottom = vt->rows - 1;
    vt->saved.cx = vt->saved.cy = 0;
    vt->saved.wrap_pending = false;
    vt->saved.pen = vt->pen;
    vt->state = VT_GROUND;
    vt->utf8_left = 0;
    for (unsigned y = 0; y < vt->rows; y++)
        blank(vt, y, 0, vt->cols - 1);
}

void hexsim_vt_touch(struct hexsim_vt *vt)
{
    mark_rows(vt, 0, vt->rows - 1);
}

static void save_cursor(struct hexsim_vt *vt)
{
    vt->saved.cx = vt->cx;
    vt->saved.cy = vt->cy;
    vt->saved.wrap_pending = vt->wrap_pending;
    vt->saved.pen = vt->pen;
}

static void restore_cursor(struct hexsim_vt *vt)
{
    move_to(vt, vt->saved.cx, vt->saved.cy);
    vt->wrap_pending = vt->saved.wrap_pending;
    vt->pen = vt->saved.pen;
}

// Parameter i, or def when it is missing or 0.
static unsigned param(const struct hexsim_vt *vt, unsigned i, unsigned def)
{
    unsigned v = i < vt->nparams ? vt->params[i] : 0;
    return v ? v : def;
}

static void erase_display(struct hexsim_vt *vt, unsigned mode)
{
    switch (mode) {
    case 0:
        blank(vt, vt->cy, vt->cx, vt->cols - 1);
        for (unsigned y = vt->cy + 1; y < vt->rows; y++)
            blank(vt, y, 0, vt->cols - 1);
        break;
    case 1:
        for (unsigned y = 0; y < vt->cy; y++)
            blank(vt, y, 0, vt->cols - 1);
        blank(vt, vt->cy, 0, vt->cx);
        break;
    case 2:
    case 3:   // xterm: also the scrollback, which this grid does not keep
        for (unsigned y = 0; y < vt->rows; y++)
            blank(vt, y, 0, vt->cols - 1);
        break;
    default:
        break;
    }
}

static void erase_line(struct hexsim_vt *vt, unsigned mode)
{
    if (mode == 0)
        blank(vt, vt->cy, vt->cx, vt->cols - 1);
    else if (mode == 1)
        blank(vt, vt->cy, 0, vt->cx);
    else if (mode == 2)
        blank(vt, vt->cy, 0, vt->cols - 1);
}

static void sgr(struct hexsim_vt *vt)
{
    if (vt->nparams == 0) {
        vt->pen = default_pen();
        return;
    }
    for (unsigned i = 0; i < vt->nparams; i++) {
        unsigned p = vt->params[i];
        if (p == 0)
            vt->pen = default_pen();
        else if (p == 1)
            vt->pen.attr |= HEXSIM_VT_BOLD;
        else if (p == 4)
            vt->pen.attr |= HEXSIM_VT_UNDERLINE;
        else if (p == 7)
            vt->pen.attr |= HEXSIM_VT_REVERSE;
        else if (p == 21 || p == 22)
            vt->pen.attr &= (uint8_t)~HEXSIM_VT_BOLD;
        else if (p == 24)
            vt->pen.attr &= (uint8_t)~HEXSIM_VT_UNDERLINE;
        else if (p == 27)
            vt->pen.attr &= (uint8_t)~HEXSIM_VT_REVERSE;
        else if (p >= 30 && p <= 37)
            vt->pen.fg = (uint8_t)(p - 30);
        else if (p == 39)
            vt->pen.fg = HEXSIM_VT_DEFAULT_FG;
        else if (p >= 40 && p <= 47)
            vt->pen.bg = (uint8_t)(p - 40);
        else if (p == 49)
            vt->pen.bg = HEXSIM_VT_DEFAULT_BG;
        else if (p >= 90 && p <= 97)
            vt->pen.fg = (uint8_t)(p - 90 + 8);
        else if (p >= 100 && p <= 107)
            vt->pen.bg = (uint8_t)(p - 100 + 8);
        else if (p == 38 || p == 48) {
            // 38;5;N (256 colours: the first 16 are kept, others ignored) or 38;2;R;G;B
            // (ignored): their arguments are consumed either way.
            unsigned kind = i + 1 < vt->nparams ? vt->params[i + 1] : 0;
            if (kind == 5 && i + 2 < vt->nparams) {
                unsigned n = vt->params[i + 2];
                if (n < 16) {
                    if (p == 38)
                        vt->pen.fg = (uint8_t)n;
                    else
                        vt->pen.bg = (uint8_t)n;
                }
                i += 2;
            } else if (kind == 2) {
                i += 4;
            } else {
                i += 1;
            }
        }
        // other renditions (italic, blink, fonts, ...) are accepted and not shown
    }
}

static void csi_dispatch(struct hexsim_vt *vt, uint8_t final)
{
    if (vt->intermediate)
        return;                         // e.g. CSI ... SP q (cursor style): not modelled
    if (vt->private_mode) {
        // DEC private modes: only the cursor's visibility (?25) changes what is shown.
        if ((final == 'h' || final == 'l'))
            for (unsigned i = 0; i < vt->nparams; i++)
                if (vt->params[i] == 25) {
                    vt->cursor_visible = final == 'h';
                    mark(vt, vt->cy);
                }
        return;
    }
    unsigned n = param(vt, 0, 1);
    switch (final) {
    case 'A':
        move_to(vt, vt->cx, vt->cy >= n ? vt->cy - n : 0);
        break;
    case 'B':
    case 'e':
        move_to(vt, vt->cx, vt->cy + n);
        break;
    case 'C':
    case 'a':
        move_to(vt, vt->cx + n, vt->cy);
        break;
    case 'D':
        move_to(vt, vt->cx >= n ? vt->cx - n : 0, vt->cy);
        break;
    case 'E':
        move_to(vt, 0, vt->cy + n);
        break;
    case 'F':
        move_to(vt, 0, vt->cy >= n ? vt->cy - n : 0);
        break;
    case 'G':
    case '`':
        move_to(vt, n - 1, vt->cy);
        break;
    case 'd':
        move_to(vt, vt->cx, n - 1);
        break;
    case 'H':
    case 'f':
        move_to(vt, param(vt, 1, 1) - 1, n - 1);
        break;
    case 'J':
        vt->wrap_pending = false;
        erase_display(vt, param(vt, 0, 0));
        break;
    case 'K':
        vt->wrap_pending = false;
        erase_line(vt, param(vt, 0, 0));
        break;
    case 'm':
        sgr(vt);
        break;
    case 's':
        save_cursor(vt);
        break;
    case 'u':
        restore_cursor(vt);
        break;
    case 'S':
        scroll_up(vt, vt->top, vt->bottom, n);
        break;
    case 'T':
        scroll_down(vt, vt->top, vt->bottom, n);
        break;
    case 'L':   // insert lines at the cursor (inside the scroll region)
    case 'M':   // delete lines
        if (vt->cy >= vt->top && vt->cy <= vt->bottom) {
            if (final == 'L')
                scroll_down(vt, vt->cy, vt->bottom, n);
            else
                scroll_up(vt, vt->cy, vt->bottom, n);
            move_to(vt, 0, vt->cy);
        }
        break;
    case 'P':   // delete characters, shifting the rest of the line left
    case '@': { // insert blanks
        unsigned w = vt->cols - vt->cx;
        if (n > w)
            n = w;
        struct hexsim_vt_cell *row = cell(vt, 0, vt->cy);
        if (final == 'P') {
            memmove(row + vt->cx, row + vt->cx + n, sizeof(*row) * (w - n));
            blank(vt, vt->cy, vt->cols - n, vt->cols - 1);
        } else {
            memmove(row + vt->cx + n, row + vt->cx, sizeof(*row) * (w - n));
            blank(vt, vt->cy, vt->cx, vt->cx + n - 1);
        }
        vt->wrap_pending = false;
        break;
    }
    case 'X':   // erase characters
        blank(vt, vt->cy, vt->cx, vt->cx + n - 1);
        vt->wrap_pending = false;
        break;
    case 'r': { // scroll region, then home
        unsigned t = param(vt, 0, 1), b = param(vt, 1, vt->rows);
        if (b > vt->rows)
            b = vt->rows;
        if (t < b) {
            vt->top = t - 1;
            vt->bottom = b - 1;
            move_to(vt, 0, 0);
        }
        break;
    }
    default:
        break;                          // modes (h/l), reports (n, c), ...: dropped
    }
}

// C0 controls; returns true when c was one (they act in every state).
static bool control(struct hexsim_vt *vt, uint8_t c)
{
    switch (c) {
    case '\r':
        move_to(vt, 0, vt->cy);
        return true;
    case '\n':
    case 0x0b:
    case 0x0c:
        line_feed(vt);
        return true;
    case '\b':
        move_to(vt, vt->cx ? vt->cx - 1 : 0, vt->cy);
        return true;
    case '\t':   // tab stops every 8 columns; the last column stops it
        move_to(vt, (vt->cx / 8 + 1) * 8, vt->cy);
        return true;
    case 0x18:
    case 0x1a:
        vt->state = VT_GROUND;          // CAN, SUB: cancel a sequence
        return true;
    case 0x1b:
        vt->state = VT_ESC;
        return true;
    default:
        return c < 0x20;                // NUL, BEL, SO, SI, ...: nothing to show
    }
}

static void esc_dispatch(struct hexsim_vt *vt, uint8_t c)
{
    vt->state = VT_GROUND;
    switch (c) {
    case '[':
        vt->state = VT_CSI;
        vt->nparams = 0;
        vt->private_mode = vt->intermediate = false;
        memset(vt->params, 0, sizeof(vt->params));
        break;
    case ']':
    case 'P':   // DCS: read like an OSC string
    case 'X':
    case '^':
    case '_':
        vt->state = VT_OSC;
        break;
    case '7':
        save_cursor(vt);
        break;
    case '8':
        restore_cursor(vt);
        break;
    case 'c':
        hexsim_vt_reset(vt);
        break;
    case 'D':
        line_feed(vt);
        break;
    case 'E':
        move_to(vt, 0, vt->cy);
        line_feed(vt);
        break;
    case 'M':
        reverse_index(vt);
        break;
    default:
        if (c >= 0x20 && c <= 0x2f)
            vt->state = VT_ESC_SKIP;    // ESC ( B and the like: one more byte follows
        break;
    }
}

static void csi_byte(struct hexsim_vt *vt, uint8_t c)
{
    if (c >= '0' && c <= '9') {
        if (vt->nparams == 0)
            vt->nparams = 1;
        if (vt->nparams <= HEXSIM_VT_MAX_PARAMS && vt->params[vt->nparams - 1] < 100000)
            vt->params[vt->nparams - 1] = vt->params[vt->nparams - 1] * 10 + (unsigned)(c - '0');
    } else if (c == ';' || c == ':') {
        if (vt->nparams == 0)
            vt->nparams = 1;            // an empty first parameter
        if (vt->nparams <= HEXSIM_VT_MAX_PARAMS)
            vt->nparams++;              // HEXSIM_VT_MAX_PARAMS + 1: the rest are dropped
    } else if (c >= 0x3c && c <= 0x3f) {
        vt->private_mode = true;        // ? > = <
    } else if (c >= 0x20 && c <= 0x2f) {
        vt->intermediate = true;
    } else if (c >= 0x40 && c <= 0x7e) {
        if (vt->nparams > HEXSIM_VT_MAX_PARAMS)
            vt->nparams = HEXSIM_VT_MAX_PARAMS;
        vt->state = VT_GROUND;
        csi_dispatch(vt, c);
    } else {
        vt->state = VT_GROUND;          // not a CSI byte: drop the sequence
    }
}

static void byte(struct hexsim_vt *vt, uint8_t c)
{
    if (vt->utf8_left) {
        if ((c & 0xc0) == 0x80) {
            if (--vt->utf8_left == 0)
                put(vt, HEXSIM_VT_PLACEHOLDER);
            return;
        }
        vt->utf8_left = 0;              // a truncated character
        put(vt, HEXSIM_VT_PLACEHOLDER);
    }
    if (vt->state == VT_OSC || vt->state == VT_OSC_ESC) {
        // strings end with BEL or ST (ESC \); CAN/SUB abort them
        if (c == 0x07 || c == 0x18 || c == 0x1a || (vt->state == VT_OSC_ESC && c == '\\'))
            vt->state = VT_GROUND;
        else
            vt->state = c == 0x1b ? VT_OSC_ESC : VT_OSC;
        return;
    }
    if (c < 0x20 && control(vt, c))
        return;
    if (c == 0x7f)
        return;                         // DEL: nothing
    switch (vt->state) {
    case VT_ESC:
        esc_dispatch(vt, c);
        return;
    case VT_ESC_SKIP:
        if (c < 0x20 || c > 0x2f)
            vt->state = VT_GROUND;
        return;
    case VT_CSI:
        csi_byte(vt, c);
        return;
    default:
        break;
    }
    if (c < 0x80) {
        put(vt, c);
    } else if (c >= 0xc2 && c <= 0xdf) {
        vt->utf8_left = 1;
    } else if (c >= 0xe0 && c <= 0xef) {
        vt->utf8_left = 2;
    } else if (c >= 0xf0 && c <= 0xf4) {
        vt->utf8_left = 3;
    } else {
        put(vt, HEXSIM_VT_PLACEHOLDER); // a stray continuation byte or an invalid lead byte
    }
}

void hexsim_vt_write(struct hexsim_vt *vt, const void *buf, size_t n)
{
    const uint8_t *p = buf;
    for (size_t i = 0; i < n; i++)
        byte(vt, p[i]);
}

size_t hexsim_vt_row_text(const struct hexsim_vt *vt, unsigned y, char *buf, size_t cap)
{
    size_t len = 0;
    if (cap == 0)
        return 0;
    for (unsigned x = 0; x < vt->cols && len + 1 < cap; x++) {
        uint8_t c = hexsim_vt_at(vt, x, y)->ch;
        buf[len++] = c == HEXSIM_VT_PLACEHOLDER ? '?' : (char)c;
    }
    while (len && buf[len - 1] == ' ')
        len--;
    buf[len] = '\0';
    return len;
}

int hexsim_vt_dump(const struct hexsim_vt *vt, FILE *f)
{
    char line[HEXSIM_VT_MAX_COLS + 1];
    unsigned last = 0;
    for (unsigned y = 0; y < vt->rows; y++)
        if (hexsim_vt_row_text(vt, y, line, sizeof(line)))
            last = y + 1;
    for (unsigned y = 0; y < last; y++) {
        hexsim_vt_row_text(vt, y, line, sizeof(line));
        fputs(line, f);
        fputc('\n', f);
    }
    return ferror(f) ? -1 : 0;
}
