// SPDX-License-Identifier: MIT
// A terminal grid (the screen of a VT100-style terminal, no host dependencies): cells of a
// character and its attributes, a cursor, scrolling, and an interpreter for the bytes a
// Linux serial console and the project's shell send: printable ASCII, CR, LF, BS, TAB, BEL,
// ANSI CSI sequences (cursor movement, erase, SGR, save/restore, scroll region) and UTF-8,
// whose non-ASCII characters are shown as one placeholder cell. The SDL console window
// (sdl_console.c) draws it with vt_render.c; tests read it back as text.
#ifndef HEXSIM_VT_GRID_H
#define HEXSIM_VT_GRID_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define HEXSIM_VT_MAX_COLS 256
#define HEXSIM_VT_MAX_ROWS 128
#define HEXSIM_VT_MAX_PARAMS 16

// Character of a cell that shows a non-ASCII (UTF-8) character or an invalid byte.
#define HEXSIM_VT_PLACEHOLDER 0x7f

// Attribute bits of a cell.
enum {
    HEXSIM_VT_BOLD = 1u << 0,
    HEXSIM_VT_UNDERLINE = 1u << 1,
    HEXSIM_VT_REVERSE = 1u << 2,
};

// Default colours (indexes into the 16-colour palette of vt_render.c).
#define HEXSIM_VT_DEFAULT_FG 7
#define HEXSIM_VT_DEFAULT_BG 0

struct hexsim_vt_cell {
    uint8_t ch;   // 0x20..0x7e, or HEXSIM_VT_PLACEHOLDER
    uint8_t fg, bg; // palette index 0..15
    uint8_t attr; // HEXSIM_VT_BOLD | ...
};

struct hexsim_vt_pen {
    uint8_t fg, bg, attr;
};

struct hexsim_vt {
    unsigned cols, rows;
    struct hexsim_vt_cell *cells;    // rows * cols, row-major
    bool *dirty_row;                 // rows: changed since the last hexsim_vt_take_dirty
    bool dirty;                      // any row, or the cursor, changed
    unsigned cx, cy;                 // cursor (0-based; cx < cols, cy < rows)
    bool wrap_pending;               // the last column was written: wrap before the next
    bool cursor_visible;             // DECTCEM (CSI ? 25 h/l)
    unsigned top, bottom;            // scroll region, inclusive rows
    struct hexsim_vt_pen pen;        // attributes of new characters and of erasing
    struct {                         // save/restore cursor (ESC 7/8, CSI s/u)
        unsigned cx, cy;
        bool wrap_pending;
        struct hexsim_vt_pen pen;
    } saved;
    // parser
    enum { VT_GROUND, VT_ESC, VT_ESC_SKIP, VT_CSI, VT_OSC, VT_OSC_ESC } state;
    unsigned params[HEXSIM_VT_MAX_PARAMS];
    unsigned nparams;                // parameters seen (the one being read counts)
    bool private_mode, intermediate;
    unsigned utf8_left;              // continuation bytes still expected
    uint64_t scrolled;               // lines scrolled off the top (statistics, tests)
};

// Sets up an empty cols x rows grid (1..HEXSIM_VT_MAX_COLS/ROWS). Returns 0, or -1 when the
// size is out of range or memory is short.
int hexsim_vt_init(struct hexsim_vt *vt, unsigned cols, unsigned rows);
void hexsim_vt_free(struct hexsim_vt *vt);
// Clears the screen, homes the cursor and resets attributes and the parser (ESC c).
void hexsim_vt_reset(struct hexsim_vt *vt);
// Interprets n bytes of terminal output.
void hexsim_vt_write(struct hexsim_vt *vt, const void *buf, size_t n);

static inline const struct hexsim_vt_cell *hexsim_vt_at(const struct hexsim_vt *vt, unsigned x,
                                                        unsigned y)
{
    return &vt->cells[(size_t)y * vt->cols + x];
}

// Row y as text (placeholders as '?', trailing blanks dropped), NUL-terminated within cap.
// Returns the length.
size_t hexsim_vt_row_text(const struct hexsim_vt *vt, unsigned y, char *buf, size_t cap);
// Writes the whole screen as text, one line per row, trailing blank rows dropped.
// Returns 0, or -1 on a write error.
int hexsim_vt_dump(const struct hexsim_vt *vt, FILE *f);
// Marks every row dirty (the window was exposed).
void hexsim_vt_touch(struct hexsim_vt *vt);

#endif
