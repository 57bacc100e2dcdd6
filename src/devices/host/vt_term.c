// SPDX-License-Identifier: MIT
// The terminal of vt_term.h over libvterm 0.1.4 (facts from its vterm.h): a VTerm in
// UTF-8 mode with its VTermScreen, whose callbacks keep the changed rows (damage), the
// cursor (movecursor, the CURSORVISIBLE property), the count of lines scrolled off the top
// (sb_pushline: the lines themselves are not kept) and of bells; the alternate screen
// (?1049h, as in xterm) is on. Colours 0..15 are set to the VGA text palette (dark colours
// at two thirds intensity, brown for dark yellow, bright ones with a third of white added),
// default text is colour 7 on colour 0, and bold makes colours 0..7 bright, as on the
// Linux console; colours 16..255 are libvterm's (xterm's) and 24-bit colours pass through.
#include "devices/host/vt_term.h"

#include <stdlib.h>
#include <string.h>
#include <vterm.h>

#define CSI_ARGS_KEPT 16

static const uint32_t palette[16] = {
    0x000000, 0xaa0000, 0x00aa00, 0xaa5500, 0x0000aa, 0xaa00aa, 0x00aaaa, 0xaaaaaa,
    0x555555, 0xff5555, 0x55ff55, 0xffff55, 0x5555ff, 0xff55ff, 0x55ffff, 0xffffff,
};

uint32_t hexsim_vt_palette(unsigned i)
{
    return palette[i & 15];
}

static VTermColor rgb(uint32_t v)
{
    VTermColor c;
    vterm_color_rgb(&c, (uint8_t)(v >> 16), (uint8_t)(v >> 8), (uint8_t)v);
    return c;
}

static void mark_rows(struct hexsim_vt *vt, int y0, int y1)
{
    for (int y = y0 < 0 ? 0 : y0; y < y1 && y < (int)vt->rows; y++)
        vt->dirty_row[y] = true;
    vt->dirty = true;
}

static int on_damage(VTermRect r, void *user)
{
    mark_rows(user, r.start_row, r.end_row);
    return 1;
}

static int on_movecursor(VTermPos pos, VTermPos old, int visible, void *user)
{
    struct hexsim_vt *vt = user;
    (void)visible;   // the CURSORVISIBLE property says it too, also without a move
    mark_rows(vt, old.row, old.row + 1);
    mark_rows(vt, pos.row, pos.row + 1);
    vt->cx = (unsigned)pos.col;
    vt->cy = (unsigned)pos.row;
    return 1;
}

static int on_settermprop(VTermProp prop, VTermValue *val, void *user)
{
    struct hexsim_vt *vt = user;
    if (prop == VTERM_PROP_CURSORVISIBLE) {
        vt->cursor_visible = val->boolean != 0;
        mark_rows(vt, (int)vt->cy, (int)vt->cy + 1);
    }
    return 1;
}

static int on_bell(void *user)
{
    ((struct hexsim_vt *)user)->bells++;
    return 1;
}

static int on_pushline(int cols, const VTermScreenCell *cells, void *user)
{
    (void)cols;
    (void)cells;
    ((struct hexsim_vt *)user)->scrolled++;
    return 1;
}

static void on_output(const char *s, size_t len, void *user)
{
    struct hexsim_vt *vt = user;
    if (vt->reply)
        vt->reply(vt->reply_ctx, s, len);
}

static const VTermScreenCallbacks callbacks = {
    .damage = on_damage,
    .movecursor = on_movecursor,
    .settermprop = on_settermprop,
    .bell = on_bell,
    .sb_pushline = on_pushline,
};

int hexsim_vt_init(struct hexsim_vt *vt, unsigned cols, unsigned rows)
{
    memset(vt, 0, sizeof(*vt));
    if (cols < 1 || cols > HEXSIM_VT_MAX_COLS || rows < 1 || rows > HEXSIM_VT_MAX_ROWS)
        return -1;
    vt->dirty_row = calloc(rows, sizeof(*vt->dirty_row));
    vt->term = vt->dirty_row ? vterm_new((int)rows, (int)cols) : NULL;
    if (!vt->term) {
        hexsim_vt_free(vt);
        return -1;
    }
    vt->cols = cols;
    vt->rows = rows;
    vt->cursor_visible = true;
    vterm_set_utf8(vt->term, 1);
    vterm_output_set_callback(vt->term, on_output, vt);
    VTermState *st = vterm_obtain_state(vt->term);
    for (int i = 0; i < 16; i++) {
        VTermColor c = rgb(palette[i]);
        vterm_state_set_palette_color(st, i, &c);
    }
    VTermColor fg = rgb(palette[7]), bg = rgb(palette[0]);
    vterm_state_set_default_colors(st, &fg, &bg);
    vterm_state_set_bold_highbright(st, 1);
    vt->screen = vterm_obtain_screen(vt->term);
    vterm_screen_set_callbacks(vt->screen, &callbacks, vt);
    vterm_screen_enable_altscreen(vt->screen, 1);
    vterm_screen_reset(vt->screen, 1);
    hexsim_vt_touch(vt);
    return 0;
}

void hexsim_vt_free(struct hexsim_vt *vt)
{
    if (vt->term)
        vterm_free(vt->term);
    free(vt->dirty_row);
    vt->term = NULL;
    vt->screen = NULL;
    vt->dirty_row = NULL;
}

// libvterm 0.1.4 keeps 16 CSI arguments and writes past its array on a 17th (a crash any
// program could cause; Neovim fixed its copy of libvterm in 2025). Parameter bytes after
// the 16th argument of a CSI sequence are dropped here, before libvterm sees them: the
// sequence acts with its first 16 arguments. The scan follows ECMA-48's CSI syntax:
// parameter bytes 0x30..0x3f (';' and ':' separate arguments), intermediates 0x20..0x2f, a
// final byte 0x40..0x7e; controls inside act without ending it, CAN and SUB cancel it, ESC
// starts another sequence. (In UTF-8 mode libvterm takes no 8-bit CSI.)
enum { SCAN_GROUND, SCAN_ESC, SCAN_CSI };

void hexsim_vt_write(struct hexsim_vt *vt, const void *buf, size_t n)
{
    const char *p = buf;
    size_t from = 0;
    for (size_t i = 0; i < n; i++) {
        uint8_t c = (uint8_t)p[i];
        if (c == 0x1b) {
            vt->scan = SCAN_ESC;
        } else if (vt->scan == SCAN_ESC) {
            vt->scan = c == '[' ? SCAN_CSI : SCAN_GROUND;
            vt->csi_args = 1;
        } else if (vt->scan == SCAN_CSI) {
            if (c >= 0x30 && c <= 0x3f) {
                if (c == ';' || c == ':')
                    vt->csi_args++;
                if (vt->csi_args > CSI_ARGS_KEPT) {
                    if (i > from)
                        vterm_input_write(vt->term, p + from, i - from);
                    from = i + 1;                // drop this byte
                }
            } else if (c == 0x18 || c == 0x1a || c >= 0x40) {
                vt->scan = SCAN_GROUND;
            }
        }
    }
    if (n > from)
        vterm_input_write(vt->term, p + from, n - from);
}

static uint32_t colour(const struct hexsim_vt *vt, VTermColor c)
{
    vterm_screen_convert_color_to_rgb(vt->screen, &c);
    return (uint32_t)c.rgb.red << 16 | (uint32_t)c.rgb.green << 8 | c.rgb.blue;
}

struct hexsim_vt_cell hexsim_vt_at(const struct hexsim_vt *vt, unsigned x, unsigned y)
{
    VTermScreenCell c;
    struct hexsim_vt_cell r = { ' ', palette[7], palette[0], 0, 1 };
    if (!vterm_screen_get_cell(vt->screen, (VTermPos){ .row = (int)y, .col = (int)x }, &c))
        return r;
    r.ch = c.chars[0] == (uint32_t)-1 ? 0 : c.chars[0] ? c.chars[0] : ' ';
    r.fg = colour(vt, c.fg);
    r.bg = colour(vt, c.bg);
    r.attr = (uint8_t)((c.attrs.bold ? HEXSIM_VT_BOLD : 0) |
                       (c.attrs.underline ? HEXSIM_VT_UNDERLINE : 0) |
                       (c.attrs.reverse ? HEXSIM_VT_REVERSE : 0));
    r.width = c.width == 2 ? 2 : 1;
    return r;
}

// Appends code point u as UTF-8 if it fits in buf[*len .. cap - 1).
static void put_utf8(char *buf, size_t *len, size_t cap, uint32_t u)
{
    char b[4];
    size_t n;
    if (u < 0x80) {
        b[0] = (char)u;
        n = 1;
    } else if (u < 0x800) {
        b[0] = (char)(0xc0 | u >> 6);
        b[1] = (char)(0x80 | (u & 0x3f));
        n = 2;
    } else if (u < 0x10000) {
        b[0] = (char)(0xe0 | u >> 12);
        b[1] = (char)(0x80 | ((u >> 6) & 0x3f));
        b[2] = (char)(0x80 | (u & 0x3f));
        n = 3;
    } else {
        b[0] = (char)(0xf0 | (u >> 18 & 7));
        b[1] = (char)(0x80 | ((u >> 12) & 0x3f));
        b[2] = (char)(0x80 | ((u >> 6) & 0x3f));
        b[3] = (char)(0x80 | (u & 0x3f));
        n = 4;
    }
    if (*len + n < cap) {
        memcpy(buf + *len, b, n);
        *len += n;
    }
}

size_t hexsim_vt_row_text(const struct hexsim_vt *vt, unsigned y, char *buf, size_t cap)
{
    size_t len = 0;
    if (cap == 0)
        return 0;
    for (unsigned x = 0; x < vt->cols; x++) {
        uint32_t ch = hexsim_vt_at(vt, x, y).ch;
        if (ch)
            put_utf8(buf, &len, cap, ch);
    }
    while (len && buf[len - 1] == ' ')
        len--;
    buf[len] = '\0';
    return len;
}

int hexsim_vt_dump(const struct hexsim_vt *vt, FILE *f)
{
    char line[HEXSIM_VT_ROW_TEXT];
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

void hexsim_vt_touch(struct hexsim_vt *vt)
{
    mark_rows(vt, 0, (int)vt->rows);
}
