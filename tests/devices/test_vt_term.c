// SPDX-License-Identifier: MIT
// Check suites of the SDL console's pieces that do not need SDL: the terminal over
// libvterm (src/devices/host/vt_term.c: printable text, wrap, scroll, controls, CSI cursor
// movement, erase, SGR colours, save/restore, scroll region, the alternate screen, unknown
// sequences, the answers to the host's questions, UTF-8 and wide characters, what the
// project's shell and `clear` send, changed rows) and the rasterizer (vt_render.c) with
// Debian's console font.
#include "../check_main.h"
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "devices/host/psf_font.h"
#include "devices/host/vt_render.h"
#include "devices/host/vt_term.h"

#define PAL(i) hexsim_vt_palette(i)
#define DEF_FG PAL(7)
#define DEF_BG PAL(0)
#define AT(vt, x, y) hexsim_vt_at(vt, x, y)

static struct hexsim_vt *grid(unsigned cols, unsigned rows)
{
    struct hexsim_vt *vt = malloc(sizeof(*vt));
    ck_assert_ptr_nonnull(vt);
    ck_assert_int_eq(hexsim_vt_init(vt, cols, rows), 0);
    return vt;
}

static void done(struct hexsim_vt *vt)
{
    hexsim_vt_free(vt);
    free(vt);
}

static void out(struct hexsim_vt *vt, const char *s)
{
    hexsim_vt_write(vt, s, strlen(s));
}

// Row y as text (trailing blanks dropped).
static const char *row(const struct hexsim_vt *vt, unsigned y, char *buf)
{
    hexsim_vt_row_text(vt, y, buf, HEXSIM_VT_ROW_TEXT);
    return buf;
}

#define ROW_EQ(vt, y, s) do { char b_[HEXSIM_VT_ROW_TEXT]; \
        ck_assert_str_eq(row(vt, y, b_), s); } while (0)
#define CUR_EQ(vt, x, y) do { ck_assert_uint_eq((vt)->cx, x); ck_assert_uint_eq((vt)->cy, y); \
    } while (0)

START_TEST(vt_init_sizes)
{
    struct hexsim_vt vt;
    ck_assert_int_eq(hexsim_vt_init(&vt, 0, 25), -1);
    ck_assert_int_eq(hexsim_vt_init(&vt, 80, 0), -1);
    ck_assert_int_eq(hexsim_vt_init(&vt, HEXSIM_VT_MAX_COLS + 1, 25), -1);
    ck_assert_int_eq(hexsim_vt_init(&vt, 80, HEXSIM_VT_MAX_ROWS + 1), -1);
    ck_assert_int_eq(hexsim_vt_init(&vt, 80, 25), 0);
    ck_assert_uint_eq(vt.cols, 80);
    ck_assert_uint_eq(vt.rows, 25);
    for (unsigned y = 0; y < 25; y++)
        for (unsigned x = 0; x < 80; x++) {
            struct hexsim_vt_cell c = hexsim_vt_at(&vt, x, y);
            ck_assert_uint_eq(c.ch, ' ');
            ck_assert_uint_eq(c.fg, DEF_FG);
            ck_assert_uint_eq(c.bg, DEF_BG);
            ck_assert_uint_eq(c.attr, 0);
            ck_assert_uint_eq(c.width, 1);
        }
    CUR_EQ(&vt, 0, 0);
    ck_assert(vt.cursor_visible);
    hexsim_vt_free(&vt);
}
END_TEST

START_TEST(vt_text_cr_lf)
{
    struct hexsim_vt *vt = grid(20, 4);
    out(vt, "hello");
    ROW_EQ(vt, 0, "hello");
    CUR_EQ(vt, 5, 0);
    out(vt, "\n");                       // LF: down, same column
    CUR_EQ(vt, 5, 1);
    out(vt, "x\rA");                     // CR: column 0
    ROW_EQ(vt, 1, "A    x");
    CUR_EQ(vt, 1, 1);
    out(vt, "\r\nnext");
    ROW_EQ(vt, 2, "next");
    out(vt, "\a\x01\x0e\x0f\x7f");       // BEL, other C0 controls, DEL: nothing
    ROW_EQ(vt, 2, "next");
    CUR_EQ(vt, 4, 2);
    done(vt);
}
END_TEST

START_TEST(vt_backspace_tab)
{
    struct hexsim_vt *vt = grid(20, 3);
    out(vt, "abc\b\bX");
    ROW_EQ(vt, 0, "aXc");
    out(vt, "\r\b\b");                   // stops at column 0
    CUR_EQ(vt, 0, 0);
    out(vt, "\r\n\tT");
    CUR_EQ(vt, 9, 1);
    ck_assert_uint_eq(AT(vt, 8, 1).ch, 'T');
    out(vt, "123456\t");                 // column 15 -> 16
    CUR_EQ(vt, 16, 1);
    out(vt, "\t\t");                     // no stop past column 16: the last column
    CUR_EQ(vt, 19, 1);
    done(vt);
}
END_TEST

START_TEST(vt_wrap_and_scroll)
{
    struct hexsim_vt *vt = grid(5, 3);
    out(vt, "abcde");
    CUR_EQ(vt, 4, 0);                    // the cursor stays on the last column
    out(vt, "\r");                       // a CR cancels the pending wrap
    CUR_EQ(vt, 0, 0);
    out(vt, "abcdefg");                  // f wraps to the next row
    ROW_EQ(vt, 0, "abcde");
    ROW_EQ(vt, 1, "fg");
    out(vt, "\r\n3\r\n4");               // LF on the last row scrolls
    ROW_EQ(vt, 0, "fg");
    ROW_EQ(vt, 1, "3");
    ROW_EQ(vt, 2, "4");
    ck_assert_uint_eq(vt->scrolled, 1);
    out(vt, "\x1b[H\x1b[3;5Hxy");        // wrap at the bottom scrolls too
    ROW_EQ(vt, 1, "4   x");
    ROW_EQ(vt, 2, "y");
    CUR_EQ(vt, 1, 2);
    ck_assert_uint_eq(vt->scrolled, 2);
    done(vt);
}
END_TEST

START_TEST(vt_cursor_movement)
{
    struct hexsim_vt *vt = grid(80, 25);
    out(vt, "\x1b[10;20H");              // H: row;column, 1-based
    CUR_EQ(vt, 19, 9);
    out(vt, "\x1b[A");                   // default 1
    CUR_EQ(vt, 19, 8);
    out(vt, "\x1b[3A\x1b[2B\x1b[5C\x1b[4D");
    CUR_EQ(vt, 20, 7);
    out(vt, "\x1b[0C");                  // 0 counts as 1
    CUR_EQ(vt, 21, 7);
    out(vt, "\x1b[100A\x1b[200D");       // clamped at the edges
    CUR_EQ(vt, 0, 0);
    out(vt, "\x1b[999B\x1b[999C");
    CUR_EQ(vt, 79, 24);
    out(vt, "\x1b[5G");                  // G: column
    CUR_EQ(vt, 4, 24);
    out(vt, "\x1b[3d");                  // d: row
    CUR_EQ(vt, 4, 2);
    out(vt, "\x1b[7;9f");                // f like H
    CUR_EQ(vt, 8, 6);
    out(vt, "\x1b[;4H");                 // a missing row is 1
    CUR_EQ(vt, 3, 0);
    out(vt, "\x1b[H");
    CUR_EQ(vt, 0, 0);
    out(vt, "\x1b[30;90H");              // out of range: clamped
    CUR_EQ(vt, 79, 24);
    out(vt, "\x1b[2E");                  // E/F: lines down/up, column 0 (clamped)
    CUR_EQ(vt, 0, 24);
    out(vt, "\x1b[4F");
    CUR_EQ(vt, 0, 20);
    done(vt);
}
END_TEST

static void fill(struct hexsim_vt *vt)
{
    char line[81];
    memset(line, '#', 80);
    line[80] = '\0';
    out(vt, "\x1b[H");
    for (unsigned y = 0; y < vt->rows; y++) {
        char pos[16];
        snprintf(pos, sizeof pos, "\x1b[%uH", y + 1);
        out(vt, pos);
        hexsim_vt_write(vt, line, vt->cols);
    }
}

START_TEST(vt_erase)
{
    struct hexsim_vt *vt = grid(10, 4);
    fill(vt);
    out(vt, "\x1b[2;5H\x1b[K");          // K, K0: to the end of the line
    ROW_EQ(vt, 1, "####");
    ROW_EQ(vt, 0, "##########");
    out(vt, "\x1b[3;5H\x1b[1K");         // K1: from the start to the cursor, inclusive
    ROW_EQ(vt, 2, "     #####");
    out(vt, "\x1b[4;3H\x1b[2K");         // K2: the whole line
    ROW_EQ(vt, 3, "");
    CUR_EQ(vt, 2, 3);                    // erasing does not move the cursor
    fill(vt);
    out(vt, "\x1b[2;4H\x1b[J");          // J0: cursor to the end of the screen
    ROW_EQ(vt, 0, "##########");
    ROW_EQ(vt, 1, "###");
    ROW_EQ(vt, 2, "");
    ROW_EQ(vt, 3, "");
    fill(vt);
    out(vt, "\x1b[3;4H\x1b[1J");         // J1: start of the screen to the cursor
    ROW_EQ(vt, 0, "");
    ROW_EQ(vt, 1, "");
    ROW_EQ(vt, 2, "    ######");
    ROW_EQ(vt, 3, "##########");
    fill(vt);
    out(vt, "\x1b[2;2H\x1b[2J");         // J2: everything, cursor kept
    for (unsigned y = 0; y < 4; y++)
        ROW_EQ(vt, y, "");
    CUR_EQ(vt, 1, 1);
    fill(vt);
    out(vt, "\x1b[3J");                  // J3 (xterm: the scrollback only) leaves the screen
    ROW_EQ(vt, 2, "##########");
    done(vt);
}
END_TEST

START_TEST(vt_erase_uses_background)
{
    struct hexsim_vt *vt = grid(10, 2);
    out(vt, "abc\x1b[44m\r\x1b[K");
    ck_assert_uint_eq(AT(vt, 0, 0).ch, ' ');
    ck_assert_uint_eq(AT(vt, 0, 0).bg, PAL(4));
    ck_assert_uint_eq(AT(vt, 9, 0).bg, PAL(4));
    ck_assert_uint_eq(AT(vt, 0, 1).bg, DEF_BG);
    done(vt);
}
END_TEST

START_TEST(vt_sgr)
{
    struct hexsim_vt *vt = grid(40, 2);
    out(vt, "a\x1b[1mb\x1b[31mc\x1b[42md\x1b[7me\x1b[0mf\x1b[4mg\x1b[24;22;27mh");
    struct hexsim_vt_cell c[14];
#define CELLS() for (unsigned x_ = 0; x_ < 14; x_++) c[x_] = AT(vt, x_, 0)
    CELLS();
    ck_assert_uint_eq(c[0].attr, 0);
    ck_assert_uint_eq(c[0].fg, DEF_FG);
    ck_assert_uint_eq(c[1].attr, HEXSIM_VT_BOLD);
    ck_assert_uint_eq(c[2].fg, PAL(9));  // bold makes red bright
    ck_assert_uint_eq(c[2].attr, HEXSIM_VT_BOLD);
    ck_assert_uint_eq(c[3].bg, PAL(2));
    ck_assert_uint_eq(c[4].attr, HEXSIM_VT_BOLD | HEXSIM_VT_REVERSE);
    ck_assert_uint_eq(c[5].attr, 0);     // 0: everything back
    ck_assert_uint_eq(c[5].fg, DEF_FG);
    ck_assert_uint_eq(c[5].bg, DEF_BG);
    ck_assert_uint_eq(c[6].attr, HEXSIM_VT_UNDERLINE);
    ck_assert_uint_eq(c[7].attr, 0);
    out(vt, "\x1b[1;35;46mi\x1b[mj");    // several at once; empty = 0
    CELLS();
    ck_assert_uint_eq(c[8].fg, PAL(13));
    ck_assert_uint_eq(c[8].bg, PAL(6));
    ck_assert_uint_eq(c[8].attr, HEXSIM_VT_BOLD);
    ck_assert_uint_eq(c[9].fg, DEF_FG);
    ck_assert_uint_eq(c[9].attr, 0);
    out(vt, "\x1b[93;104mk\x1b[39;49ml");    // bright colours; default colours
    CELLS();
    ck_assert_uint_eq(c[10].fg, PAL(11));
    ck_assert_uint_eq(c[10].bg, PAL(12));
    ck_assert_uint_eq(c[11].fg, DEF_FG);
    ck_assert_uint_eq(c[11].bg, DEF_BG);
    // 256 colours: the 16 of the palette, then libvterm's 6x6x6 cube in steps of 0x33
    // (200 = 5,0,4 in it) and grey ramp
    out(vt, "\x1b[38;5;9;48;5;200mm");
    CELLS();
    ck_assert_uint_eq(c[12].fg, PAL(9));
    ck_assert_uint_eq(c[12].bg, 0xff00cc);
    out(vt, "\x1b[0;38;2;10;20;30;1mn"); // 24-bit colour, and bold after it
    CELLS();
    ck_assert_uint_eq(c[13].fg, 0x0a141e);
    ck_assert_uint_eq(c[13].attr, HEXSIM_VT_BOLD);
    ck_assert_uint_eq(c[13].ch, 'n');
    done(vt);
}
END_TEST

START_TEST(vt_save_restore)
{
    struct hexsim_vt *vt = grid(20, 5);
    out(vt, "\x1b[3;4H\x1b[31m\x1b" "7\x1b[H\x1b[0mA\x1b" "8B");
    ck_assert_uint_eq(AT(vt, 0, 0).fg, DEF_FG);
    ck_assert_uint_eq(AT(vt, 3, 2).ch, 'B');
    ck_assert_uint_eq(AT(vt, 3, 2).fg, PAL(1));    // the pen came back too
    // CSI s and CSI u (SCO's save and restore) are not in libvterm 0.1.4: no effect
    out(vt, "\x1b[5;10H\x1b[s\x1b[1;3H\x1b[uC");
    ck_assert_uint_eq(AT(vt, 2, 0).ch, 'C');
    done(vt);
}
END_TEST

START_TEST(vt_unknown_sequences)
{
    struct hexsim_vt *vt = grid(40, 3);
    out(vt, "a\x1b[>0cb\x1b(Bc\x1b]0;title\ad\x1b]2;t\x1b\\e\x1b[6nf"
            "\x1b[1 qg\x1b=h\x1b[5;7;9zi\x1bPqdata\x1b\\j\x1b[?25lz");
    ROW_EQ(vt, 0, "abcdefghijz");
    ck_assert(!vt->cursor_visible);      // ?25l hides the cursor
    out(vt, "\x1b[?25h");
    ck_assert(vt->cursor_visible);
    // CAN/SUB cancel; a CR inside acts at once and an ESC starts a new sequence
    out(vt, "\r\n\x1b[12\x18X\x1b[3\x1aY\x1b[2\r\x1b[3CZ");
    ROW_EQ(vt, 1, "XY Z");
    // more parameters than libvterm keeps (16): dropped, the sequence still ends at its
    // final byte, and acts with the first 16 (bold, and red from the 16th)
    out(vt, "\r\n\x1b[1;2;3;4;5;6;7;8;9;10;11;12;13;14;15;31;32;33;34;35;36:37;38m");
    out(vt, "Q\x1b[0;1;2;3;4;5;6;7;8;9;10;11;12;13;14;15");   // the cut across writes
    out(vt, ";16;17:18;19;20;21;22;23;24;25;26;27;28;29;30;31;32;33;34;35;36mR\x1b[m");
    ROW_EQ(vt, 2, "QR");
    ck_assert_uint_eq(AT(vt, 0, 2).fg, PAL(9));
    ck_assert_uint_eq(AT(vt, 0, 2).attr & HEXSIM_VT_BOLD, HEXSIM_VT_BOLD);
    ck_assert_uint_eq(AT(vt, 1, 2).fg, DEF_FG);
    out(vt, "\x1b[99999999999999999999Cq");   // a huge number stays bounded
    ck_assert_uint_eq(AT(vt, 39, 2).ch, 'q');
    done(vt);
}
END_TEST

static void collect(void *ctx, const char *buf, size_t n)
{
    strncat(ctx, buf, n);
}

// The terminal answers where a VT100/xterm does: the cursor position (CSI 6 n, 1-based),
// its status (CSI 5 n) and primary device attributes (CSI c); nothing is shown for them.
START_TEST(vt_replies)
{
    struct hexsim_vt *vt = grid(40, 5);
    char got[256] = "";
    out(vt, "\x1b[6n");                  // no reply hook: dropped
    vt->reply = collect;
    vt->reply_ctx = got;
    out(vt, "\x1b[3;7H\x1b[6n");
    ck_assert_str_eq(got, "\x1b[3;7R");
    got[0] = '\0';
    out(vt, "\x1b[5n");
    ck_assert_str_eq(got, "\x1b[0n");
    got[0] = '\0';
    out(vt, "\x1b[c");
    ck_assert_uint_gt(strlen(got), 3);
    ck_assert_mem_eq(got, "\x1b[?", 3);
    ck_assert_int_eq(got[strlen(got) - 1], 'c');
    for (unsigned y = 0; y < 5; y++)
        ROW_EQ(vt, y, "");
    out(vt, "\a\a");
    ck_assert_uint_eq(vt->bells, 2);
    done(vt);
}
END_TEST

// xterm's alternate screen (?1049h/l: what full-screen programs such as vi and less use):
// a blank screen, and the old one with its cursor back afterwards.
START_TEST(vt_alternate_screen)
{
    struct hexsim_vt *vt = grid(20, 3);
    out(vt, "shell\r\n$ vi");
    out(vt, "\x1b[?1049h");
    ROW_EQ(vt, 0, "");
    ROW_EQ(vt, 1, "");
    out(vt, "\x1b[Hfile text");
    ROW_EQ(vt, 0, "file text");
    out(vt, "\x1b[?1049l");
    ROW_EQ(vt, 0, "shell");
    ROW_EQ(vt, 1, "$ vi");
    CUR_EQ(vt, 4, 1);
    done(vt);
}
END_TEST

// UTF-8 characters are themselves (a wide one takes two cells); bytes that are no UTF-8
// show U+FFFD, the replacement character.
START_TEST(vt_utf8)
{
    struct hexsim_vt *vt = grid(20, 2);
    out(vt, "a\xc3\xa9" "b\xe2\x82\xac" "c\xf0\x9f\x98\x80" "d");   // é € 😀
    ROW_EQ(vt, 0, "a\xc3\xa9" "b\xe2\x82\xac" "c\xf0\x9f\x98\x80" "d");
    ck_assert_uint_eq(AT(vt, 1, 0).ch, 0xe9);
    ck_assert_uint_eq(AT(vt, 3, 0).ch, 0x20ac);
    ck_assert_uint_eq(AT(vt, 5, 0).ch, 0x1f600);
    ck_assert_uint_eq(AT(vt, 5, 0).width, 2);
    ck_assert_uint_eq(AT(vt, 6, 0).ch, 0);          // its right half
    ck_assert_uint_eq(AT(vt, 7, 0).ch, 'd');
    CUR_EQ(vt, 8, 0);
    out(vt, "\r\n\x80x\xffy\xc3z\xe2\x82w");   // stray, invalid, truncated characters
    ROW_EQ(vt, 1, "\xef\xbf\xbdx\xef\xbf\xbdy\xef\xbf\xbdz\xef\xbf\xbdw");
    out(vt, "\r\xe2");                   // a character split between writes
    out(vt, "\x82");
    out(vt, "\xac");
    ROW_EQ(vt, 1, "\xe2\x82\xacx\xef\xbf\xbdy\xef\xbf\xbdz\xef\xbf\xbdw");
    done(vt);
}
END_TEST

// What BusyBox's line editor (ash, libbb/lineedit.c) and its clear applet send.
START_TEST(vt_shell_sequences)
{
    struct hexsim_vt *vt = grid(80, 25);
    out(vt, "boot line\r\nroot@hexagon:/# ");
    out(vt, "\rroot@hexagon:/# ls -la\x1b[J");      // redraw (history, completion)
    out(vt, "\x08\x08" "a\x1b[J\x08");              // the "l" deleted: the rest redrawn
    ROW_EQ(vt, 1, "root@hexagon:/# ls -a");
    CUR_EQ(vt, 20, 1);
    out(vt, "\x1b[H\x1b[J");             // clear
    for (unsigned y = 0; y < 25; y++)
        ROW_EQ(vt, y, "");
    CUR_EQ(vt, 0, 0);
    out(vt, "root@hexagon:/# ");
    ROW_EQ(vt, 0, "root@hexagon:/#");
    done(vt);
}
END_TEST

START_TEST(vt_scroll_region_and_edit)
{
    struct hexsim_vt *vt = grid(10, 5);
    out(vt, "0\r\n1\r\n2\r\n3\r\n4");
    out(vt, "\x1b[2;4r");                // rows 2..4; cursor home
    CUR_EQ(vt, 0, 0);
    out(vt, "\x1b[4H\n");                // LF on the region's bottom scrolls it only
    ROW_EQ(vt, 0, "0");
    ROW_EQ(vt, 1, "2");
    ROW_EQ(vt, 2, "3");
    ROW_EQ(vt, 3, "");
    ROW_EQ(vt, 4, "4");
    out(vt, "\x1b[2H\x1bM");             // reverse index at the region's top
    ROW_EQ(vt, 1, "");
    ROW_EQ(vt, 2, "2");
    ROW_EQ(vt, 3, "3");
    out(vt, "\x1b[r\x1b[H\x1b[2K");      // region reset to the screen
    out(vt, "abcdef\x1b[1;2H\x1b[2P");  // P: delete characters
    ROW_EQ(vt, 0, "adef");
    out(vt, "\x1b[2@");                  // @: insert blanks
    ROW_EQ(vt, 0, "a  def");
    out(vt, "\x1b[1;5H\x1b[9X");         // X: erase characters
    ROW_EQ(vt, 0, "a  d");
    out(vt, "\x1b[3H\x1b[L");            // L: insert a line at the cursor
    ROW_EQ(vt, 2, "");
    ROW_EQ(vt, 3, "2");
    out(vt, "\x1b[2M");                  // M: delete lines
    ROW_EQ(vt, 2, "3");
    ROW_EQ(vt, 3, "");
    out(vt, "\x1b" "c");                 // full reset
    ROW_EQ(vt, 0, "");
    CUR_EQ(vt, 0, 0);
    done(vt);
}
END_TEST

START_TEST(vt_dirty_rows_and_dump)
{
    struct hexsim_vt *vt = grid(10, 4);
    for (unsigned y = 0; y < 4; y++)
        vt->dirty_row[y] = false;
    vt->dirty = false;
    out(vt, "\x1b[3Hx");
    ck_assert(vt->dirty);
    ck_assert(!vt->dirty_row[1]);
    ck_assert(vt->dirty_row[2]);
    FILE *f = tmpfile();
    ck_assert_ptr_nonnull(f);
    out(vt, "\x1b[1;3Hhi \xc3\xa9");
    ck_assert_int_eq(hexsim_vt_dump(vt, f), 0);
    rewind(f);
    char buf[64] = { 0 };
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    ck_assert_uint_eq(n, strlen("  hi \xc3\xa9\n\nx\n"));
    ck_assert_str_eq(buf, "  hi \xc3\xa9\n\nx\n");   // trailing blank rows dropped
    done(vt);
}
END_TEST

// ---- rasterizer

START_TEST(render_cells)
{
    struct hexsim_vt *vt = grid(5, 2);
    struct hexsim_font f;
    char msg[256];
    ck_assert_msg(hexsim_font_load(&f, HEXSIM_FONT_DEFAULT, msg, sizeof msg) == 0, "%s", msg);
    ck_assert_uint_eq(f.w, 8);
    ck_assert_uint_eq(f.h, 16);
    out(vt, "A\x1b[1;31;44mB\x1b[0;7mC\x1b[0;4m_\x1b[0m\xc3\xa9\x1b[2;1H");
    for (unsigned scale = 1; scale <= 2; scale++) {
        size_t w = 5 * 8 * scale, h = 2 * 16 * scale;
        uint32_t *pix = calloc(w * h, sizeof(*pix));
        ck_assert_ptr_nonnull(pix);
        for (unsigned y = 0; y < 2; y++)
            hexsim_vt_render_row(vt, &f, y, true, scale, pix, w);
        const uint32_t chars[] = { 'A', 'B', 'C', '_', 0xe9 };
        for (unsigned cx = 0; cx < 5; cx++) {
            const uint8_t *g = hexsim_font_glyph(&f, chars[cx]);
            uint32_t fg, bg;
            struct hexsim_vt_cell c = AT(vt, cx, 0);
            hexsim_vt_cell_colours(&c, false, &fg, &bg);
            unsigned ink = 0;
            for (unsigned py = 0; py < 16 * scale; py++)
                for (unsigned px = 0; px < 8 * scale; px++) {
                    unsigned gy = py / scale, gx = px / scale;
                    bool on = hexsim_font_ink(&f, g, gx, gy);
                    if (cx == 3 && gy == 14)
                        on = true;       // underline
                    ink += on;
                    ck_assert_uint_eq(pix[py * w + cx * 8 * scale + px], on ? fg : bg);
                }
            ck_assert_uint_gt(ink, 0);
        }
        // é has a glyph of its own, neither the fallback nor e's
        ck_assert_ptr_ne(hexsim_font_glyph(&f, 0xe9), hexsim_font_glyph(&f, 0xfffd));
        ck_assert_ptr_ne(hexsim_font_glyph(&f, 0xe9), hexsim_font_glyph(&f, 'e'));
        // the colours themselves
        uint32_t fg, bg;
        struct hexsim_vt_cell c = AT(vt, 1, 0);
        hexsim_vt_cell_colours(&c, false, &fg, &bg);
        ck_assert_uint_eq(fg, PAL(9));   // bold red -> bright red
        ck_assert_uint_eq(bg, PAL(4));
        c = AT(vt, 2, 0);
        hexsim_vt_cell_colours(&c, false, &fg, &bg);
        ck_assert_uint_eq(fg, PAL(0));   // reverse
        ck_assert_uint_eq(bg, PAL(7));
        // the cursor at (0,1): a block in the foreground colour on a blank cell
        ck_assert_uint_eq(pix[(16 * scale + 5) * w + 3], PAL(7));
        ck_assert_uint_eq(pix[(16 * scale + 5) * w + 8 * scale + 3], PAL(0));
        vt->cursor_visible = false;
        hexsim_vt_render_row(vt, &f, 1, true, scale, pix, w);
        ck_assert_uint_eq(pix[(16 * scale + 5) * w + 3], PAL(0));
        vt->cursor_visible = true;
        free(pix);
    }
    hexsim_font_free(&f);
    done(vt);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("vt_term");
    TCase *t = tcase_create("grid");
    tcase_add_test(t, vt_init_sizes);
    tcase_add_test(t, vt_text_cr_lf);
    tcase_add_test(t, vt_backspace_tab);
    tcase_add_test(t, vt_wrap_and_scroll);
    tcase_add_test(t, vt_cursor_movement);
    tcase_add_test(t, vt_erase);
    tcase_add_test(t, vt_erase_uses_background);
    tcase_add_test(t, vt_sgr);
    tcase_add_test(t, vt_save_restore);
    tcase_add_test(t, vt_unknown_sequences);
    tcase_add_test(t, vt_replies);
    tcase_add_test(t, vt_alternate_screen);
    tcase_add_test(t, vt_utf8);
    tcase_add_test(t, vt_shell_sequences);
    tcase_add_test(t, vt_scroll_region_and_edit);
    tcase_add_test(t, vt_dirty_rows_and_dump);
    suite_add_tcase(s, t);
    TCase *r = tcase_create("render");
    tcase_add_test(r, render_cells);
    suite_add_tcase(s, r);
    return s;
}

int main(void)
{
    return hexsim_check_run(suite());
}
