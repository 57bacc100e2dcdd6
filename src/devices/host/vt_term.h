// SPDX-License-Identifier: MIT
// The SDL console's terminal: the screen of an xterm-style terminal as libvterm (Debian
// libvterm-dev, the emulator Neovim uses) keeps it, seen as cells of a Unicode character,
// 0xRRGGBB colours and attributes, a cursor, rows changed since they were last drawn, the
// lines scrolled off the top, and the terminal's replies to the host's questions (cursor
// position, device attributes). The SDL console window (sdl_console.c) draws it with
// vt_render.c; tests read it back as text.
#ifndef HEXSIM_VT_TERM_H
#define HEXSIM_VT_TERM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define HEXSIM_VT_MAX_COLS 256
#define HEXSIM_VT_MAX_ROWS 128
// Room for one row as UTF-8 text (hexsim_vt_row_text), with its NUL.
#define HEXSIM_VT_ROW_TEXT (HEXSIM_VT_MAX_COLS * 4 + 1)

// Attribute bits of a cell.
enum {
    HEXSIM_VT_BOLD = 1u << 0,
    HEXSIM_VT_UNDERLINE = 1u << 1,
    HEXSIM_VT_REVERSE = 1u << 2,
};

struct hexsim_vt_cell {
    uint32_t ch;        // Unicode code point; ' ' when blank, 0 for the right half of a wide
                        // character (the cell before it has width 2)
    uint32_t fg, bg;    // 0xRRGGBB (bold has made colours 0..7 bright already)
    uint8_t attr;       // HEXSIM_VT_BOLD | ...
    uint8_t width;      // 1, or 2 for a wide character
};

struct VTerm;
struct VTermScreen;

struct hexsim_vt {
    struct VTerm *term;
    struct VTermScreen *screen;
    unsigned cols, rows;
    bool *dirty_row;         // rows: changed since the renderer last drew them
    bool dirty;              // any row, or the cursor, changed
    unsigned cx, cy;         // cursor (0-based)
    bool cursor_visible;     // DECTCEM (CSI ? 25 h/l)
    uint64_t scrolled;       // lines scrolled off the top of the whole screen
    uint64_t bells;          // BEL characters shown
    // where the terminal's answers go (NULL: dropped); the SDL console queues them as input
    void (*reply)(void *ctx, const char *buf, size_t n);
    void *reply_ctx;
    uint8_t scan;            // hexsim_vt_write's view of CSI sequences (vt_term.c)
    unsigned csi_args;
};

// The 16-colour palette (the VGA text palette) the terminal's colours 0..15 are set to.
uint32_t hexsim_vt_palette(unsigned i);

// Sets up an empty cols x rows screen (1..HEXSIM_VT_MAX_COLS/ROWS). Returns 0, or -1 when
// the size is out of range or memory is short.
int hexsim_vt_init(struct hexsim_vt *vt, unsigned cols, unsigned rows);
void hexsim_vt_free(struct hexsim_vt *vt);
// Interprets n bytes of terminal output (UTF-8).
void hexsim_vt_write(struct hexsim_vt *vt, const void *buf, size_t n);
// The cell at column x, row y.
struct hexsim_vt_cell hexsim_vt_at(const struct hexsim_vt *vt, unsigned x, unsigned y);

// Row y as UTF-8 text (trailing blanks dropped), NUL-terminated within cap. Returns the
// length.
size_t hexsim_vt_row_text(const struct hexsim_vt *vt, unsigned y, char *buf, size_t cap);
// Writes the whole screen as text, one line per row, trailing blank rows dropped.
// Returns 0, or -1 on a write error.
int hexsim_vt_dump(const struct hexsim_vt *vt, FILE *f);
// Marks every row dirty (the window was exposed).
void hexsim_vt_touch(struct hexsim_vt *vt);

#endif
