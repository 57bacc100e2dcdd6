// SPDX-License-Identifier: MIT
// Check suite of the SDL console window (src/devices/host/sdl_console.c), run on SDL's
// headless "offscreen" video driver (ctest sets SDL_VIDEODRIVER; the suite sets it too
// when it is missing): text written to the console appears on the window surface as the
// font's glyphs in the palette's colours (scale 1 and 2); key events become the bytes a
// terminal sends, and the terminal's answers to the guest's questions are input too;
// closing the window calls the quit hook; the typing hook goes through the same key path;
// the dump file holds the screen; a missing or broken font is refused with a message.
#include "../check_main.h"
#include <SDL.h>
#include <check.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "devices/host/psf_font.h"
#include "devices/host/vt_render.h"
#include "devices/host/vt_term.h"
#include "hexsim/sdl_console.h"

static struct hexsim_sdl_console *open_console(const struct hexsim_sdl_console_opts *o)
{
    char msg[256] = "";
    setenv("SDL_VIDEODRIVER", "offscreen", 0);
    struct hexsim_sdl_console *c = hexsim_sdl_console_new(o, stderr, msg, sizeof(msg));
    ck_assert_msg(c != NULL, "cannot open the console: %s", msg);
    return c;
}

static void say(struct hexsim_sdl_console *c, const char *s)
{
    struct hexsim_chardev *d = hexsim_sdl_console_chardev(c);
    d->write(d->ctx, s, strlen(s));
}

// The window surface's pixel (x, y) as 0xRRGGBB.
static uint32_t pixel(struct hexsim_sdl_console *c, int x, int y)
{
    SDL_Window *w = SDL_GetWindowFromID(hexsim_sdl_console_window_id(c));
    ck_assert_ptr_nonnull(w);
    SDL_Surface *s = SDL_GetWindowSurface(w);
    ck_assert_ptr_nonnull(s);
    ck_assert_int_lt(x, s->w);
    ck_assert_int_lt(y, s->h);
    ck_assert_int_eq(s->format->BytesPerPixel, 4);
    uint32_t v;
    memcpy(&v, (const uint8_t *)s->pixels + (size_t)y * (size_t)s->pitch + (size_t)x * 4, 4);
    uint8_t r, g, b;
    SDL_GetRGB(v, s->format, &r, &g, &b);
    return (uint32_t)r << 16 | (uint32_t)g << 8 | b;
}

// Checks that cell (cx, cy) shows the glyph of ch in fg on bg.
static void check_cell(struct hexsim_sdl_console *c, unsigned scale, unsigned cx, unsigned cy,
                       uint32_t ch, uint32_t fg, uint32_t bg)
{
    struct hexsim_font f;
    char msg[400];
    ck_assert_msg(hexsim_font_load(&f, HEXSIM_FONT_DEFAULT, msg, sizeof msg) == 0, "%s", msg);
    const uint8_t *g = hexsim_font_glyph(&f, ch);
    unsigned ink = 0;
    for (unsigned py = 0; py < 16 * scale; py++)
        for (unsigned px = 0; px < 8 * scale; px++) {
            bool on = hexsim_font_ink(&f, g, px / scale, py / scale);
            ink += on;
            uint32_t got = pixel(c, (int)(cx * 8 * scale + px), (int)(cy * 16 * scale + py));
            ck_assert_msg(got == (on ? fg : bg), "cell (%u,%u) U+%04X pixel (%u,%u): 0x%06x, "
                          "expected 0x%06x", cx, cy, ch, px, py, got, on ? fg : bg);
        }
    ck_assert(ink > 0 || ch == ' ');
    hexsim_font_free(&f);
}

START_TEST(sdl_draws_glyphs)
{
    for (unsigned scale = 1; scale <= 2; scale++) {
        struct hexsim_sdl_console_opts o = { .cols = 40, .rows = 10, .scale = scale,
                                             .solid_cursor = true };
        struct hexsim_sdl_console *c = open_console(&o);
        SDL_Window *w = SDL_GetWindowFromID(hexsim_sdl_console_window_id(c));
        int ww, wh;
        SDL_GetWindowSize(w, &ww, &wh);
        ck_assert_int_eq(ww, (int)(40 * 8 * scale));
        ck_assert_int_eq(wh, (int)(10 * 16 * scale));
        say(c, "Hexagon\r\n\x1b[1;32mok\x1b[0m \x1b[7mR\x1b[0m\r\n\xc3\xa9");
        hexsim_sdl_console_poll(c);
        uint32_t grey = hexsim_vt_palette(7), black = hexsim_vt_palette(0);
        const char *word = "Hexagon";
        for (unsigned i = 0; word[i]; i++)
            check_cell(c, scale, i, 0, (uint8_t)word[i], grey, black);
        check_cell(c, scale, 0, 1, 'o', hexsim_vt_palette(10), black);   // bold green
        check_cell(c, scale, 3, 1, 'R', black, grey);                     // reverse
        check_cell(c, scale, 0, 2, 0xe9, grey, black);                    // é
        char text[HEXSIM_VT_ROW_TEXT];
        hexsim_vt_row_text(hexsim_sdl_console_grid(c), 2, text, sizeof text);
        ck_assert_str_eq(text, "\xc3\xa9");
        // the cursor after it: a solid block
        check_cell(c, scale, 1, 2, ' ', grey, grey);
        // clear: the glyphs go, the cursor goes home
        say(c, "\x1b[H\x1b[2J");
        hexsim_sdl_console_poll(c);
        check_cell(c, scale, 1, 0, ' ', black, black);
        check_cell(c, scale, 0, 0, ' ', grey, grey);
        ck_assert_int_eq(hexsim_sdl_console_free(c), 0);
    }
}
END_TEST

static void push_key(SDL_Keycode k, uint16_t mod)
{
    SDL_Event e;
    memset(&e, 0, sizeof(e));
    e.type = SDL_KEYDOWN;
    e.key.state = SDL_PRESSED;
    e.key.keysym.sym = k;
    e.key.keysym.mod = mod;
    ck_assert_int_eq(SDL_PushEvent(&e), 1);
    e.type = SDL_KEYUP;
    e.key.state = SDL_RELEASED;
    ck_assert_int_eq(SDL_PushEvent(&e), 1);
}

static void push_text(const char *t)
{
    SDL_Event e;
    memset(&e, 0, sizeof(e));
    e.type = SDL_TEXTINPUT;
    strcpy(e.text.text, t);
    ck_assert_int_eq(SDL_PushEvent(&e), 1);
}

// Everything the console has for the UART now.
static size_t drain(struct hexsim_sdl_console *c, uint8_t *buf, size_t cap)
{
    struct hexsim_chardev *d = hexsim_sdl_console_chardev(c);
    hexsim_sdl_console_poll(c);
    size_t n = 0;
    int r;
    while (n < cap && (r = d->read(d->ctx, buf + n, cap - n)) > 0)
        n += (size_t)r;
    return n;
}

START_TEST(sdl_keyboard_bytes)
{
    struct hexsim_sdl_console_opts o = { 0 };
    struct hexsim_sdl_console *c = open_console(&o);
    uint8_t buf[128];
    ck_assert_uint_eq(drain(c, buf, sizeof buf), 0);      // nothing typed: nothing read
    push_key(SDLK_l, 0);                  // a printable key: its text event carries it
    push_text("l");
    push_text("s -");
    push_key(SDLK_RETURN, 0);
    push_key(SDLK_BACKSPACE, 0);
    push_key(SDLK_TAB, 0);
    push_key(SDLK_ESCAPE, 0);
    push_key(SDLK_UP, 0);
    push_key(SDLK_DOWN, 0);
    push_key(SDLK_RIGHT, 0);
    push_key(SDLK_LEFT, 0);
    push_key(SDLK_c, KMOD_LCTRL);         // Ctrl-C, and a text event some platforms add
    push_text("c");
    push_key(SDLK_d, KMOD_RCTRL);         // Ctrl-D without one
    push_text("x");
    push_key(SDLK_HOME, 0);
    push_key(SDLK_DELETE, 0);
    push_key(SDLK_END, 0);
    push_key(SDLK_KP_ENTER, 0);
    push_text("\xc3\xa9");                // UTF-8 text passes through
    push_key(SDLK_LSHIFT, KMOD_LSHIFT);   // modifiers alone: nothing
    const char want[] = "ls -\r\x7f\t\x1b\x1b[A\x1b[B\x1b[C\x1b[D\x03\x04x\x1b[1~\x1b[3~"
                        "\x1b[4~\r\xc3\xa9";
    size_t n = drain(c, buf, sizeof buf);
    ck_assert_uint_eq(n, sizeof(want) - 1);
    ck_assert_mem_eq(buf, want, n);
    ck_assert_int_eq(hexsim_sdl_console_free(c), 0);
}
END_TEST

static void quit_hook(void *ctx)
{
    ++*(int *)ctx;
}

// The terminal's escape keys in the window: Ctrl-A Ctrl-A is one Ctrl-A for the guest,
// Ctrl-A h and Ctrl-A s are hexsim's, Ctrl-A x quits.
START_TEST(sdl_escape_keys)
{
    struct hexsim_sdl_console_opts o = { .type = "a\x01\x01" "b\x01hc\x01s\x01x" };
    struct hexsim_sdl_console *c = open_console(&o);
    int calls = 0;
    hexsim_sdl_console_set_quit(c, quit_hook, quit_hook, &calls);
    uint8_t buf[16];
    size_t n = drain(c, buf, sizeof buf);
    ck_assert_uint_eq(n, 4);
    ck_assert_mem_eq(buf, "a\x01" "bc", 4);
    ck_assert_int_eq(calls, 2);          // the snapshot, then the quit
    ck_assert_int_eq(hexsim_sdl_console_free(c), 0);
}
END_TEST

START_TEST(sdl_close_quits)
{
    struct hexsim_sdl_console_opts o = { 0 };
    struct hexsim_sdl_console *c = open_console(&o);
    int quits = 0;
    hexsim_sdl_console_set_quit(c, quit_hook, NULL, &quits);
    hexsim_sdl_console_poll(c);
    ck_assert_int_eq(quits, 0);
    SDL_Event e;
    memset(&e, 0, sizeof(e));
    e.type = SDL_WINDOWEVENT;
    e.window.event = SDL_WINDOWEVENT_CLOSE;
    e.window.windowID = hexsim_sdl_console_window_id(c);
    SDL_PushEvent(&e);
    hexsim_sdl_console_poll(c);
    ck_assert_int_eq(quits, 1);
    e.type = SDL_QUIT;                   // a second request does not quit twice
    SDL_PushEvent(&e);
    hexsim_sdl_console_poll(c);
    ck_assert_int_eq(quits, 1);
    ck_assert_int_eq(hexsim_sdl_console_free(c), 0);
}
END_TEST

START_TEST(sdl_type_hook_and_idle)
{
    struct hexsim_sdl_console_opts o = { .type = "uname -a\n\x03\x7fq" };
    struct hexsim_sdl_console *c = open_console(&o);
    uint8_t buf[64];
    size_t n = drain(c, buf, sizeof buf);
    ck_assert_uint_eq(n, 12);
    ck_assert_mem_eq(buf, "uname -a\r\x03\x7fq", 12);
    // the idle hook waits about the time it is given when nothing is typed, and returns
    uint64_t t0 = SDL_GetTicks64();
    for (int i = 0; i < 40; i++)
        ck_assert_int_eq(hexsim_sdl_console_idle(c, 1000000), 0);   // 1 ms each
    uint64_t took = SDL_GetTicks64() - t0;
    ck_assert_uint_ge(took, 30);
    ck_assert_uint_lt(took, 2000);
    ck_assert_int_eq(hexsim_sdl_console_free(c), 0);
}
END_TEST

START_TEST(sdl_dump_file)
{
    char path[] = "/tmp/hexsim_sdl_dump_XXXXXX";
    int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    close(fd);
    struct hexsim_sdl_console_opts o = { .cols = 20, .rows = 5, .dump = path };
    struct hexsim_sdl_console *c = open_console(&o);
    struct hexsim_console *con = hexsim_sdl_console_console(c);
    con->write(con->ctx, "angel\nline\n", 11);   // bare LF shown as CR LF
    say(c, "root@hexagon:/# ");
    con->flush(con->ctx);
    ck_assert_int_eq(hexsim_sdl_console_free(c), 0);
    FILE *f = fopen(path, "r");
    ck_assert_ptr_nonnull(f);
    char buf[256] = { 0 };
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    unlink(path);
    ck_assert_uint_gt(n, 0);
    ck_assert_str_eq(buf, "angel\nline\nroot@hexagon:/#\n");
    // an unwritable dump file is reported
    o.dump = "/nonexistent-dir/x.txt";
    c = open_console(&o);
    ck_assert_int_eq(hexsim_sdl_console_free(c), -1);
}
END_TEST

START_TEST(sdl_bad_options)
{
    char msg[256];
    struct hexsim_sdl_console_opts o = { .scale = 3 };
    ck_assert_ptr_null(hexsim_sdl_console_new(&o, stderr, msg, sizeof msg));
    ck_assert_ptr_nonnull(strstr(msg, "scale"));
    o = (struct hexsim_sdl_console_opts){ .cols = 1000 };
    ck_assert_ptr_null(hexsim_sdl_console_new(&o, stderr, msg, sizeof msg));
    ck_assert_ptr_nonnull(strstr(msg, "grid"));
    // no font: the message names the file and the package (or the option)
    o = (struct hexsim_sdl_console_opts){ .font = "/nonexistent/font.psf.gz" };
    ck_assert_ptr_null(hexsim_sdl_console_new(&o, stderr, msg, sizeof msg));
    ck_assert_str_eq(msg, "SDL console: cannot open the font '/nonexistent/font.psf.gz': No "
                     "such file or directory (choose a PSF font with --console "
                     "sdl,font=FILE)");
    o.font = "/etc/passwd";
    ck_assert_ptr_null(hexsim_sdl_console_new(&o, stderr, msg, sizeof msg));
    ck_assert_ptr_nonnull(strstr(msg, "'/etc/passwd' is not usable: not a PSF font"));
    ck_assert(hexsim_sdl_console_available());
}
END_TEST

// Another font: the window's size follows its glyphs (Terminus 16x32 from
// console-setup-linux: two bytes a glyph row).
START_TEST(sdl_other_font)
{
    struct hexsim_sdl_console_opts o = {
        .cols = 20, .rows = 5, .solid_cursor = true,
        .font = "/usr/share/consolefonts/Uni2-Terminus32x16.psf.gz" };
    struct hexsim_sdl_console *c = open_console(&o);
    SDL_Window *w = SDL_GetWindowFromID(hexsim_sdl_console_window_id(c));
    int ww, wh;
    SDL_GetWindowSize(w, &ww, &wh);
    ck_assert_int_eq(ww, 20 * 16);
    ck_assert_int_eq(wh, 5 * 32);
    say(c, "\x1b[2;3H\xe2\x94\x80W");   // U+2500 (box drawing), W
    hexsim_sdl_console_poll(c);
    struct hexsim_font f;
    char msg[400];
    ck_assert_msg(hexsim_font_load(&f, o.font, msg, sizeof msg) == 0, "%s", msg);
    const uint32_t chars[] = { 0x2500, 'W' };
    for (unsigned i = 0; i < 2; i++) {
        const uint8_t *g = hexsim_font_glyph(&f, chars[i]);
        for (unsigned py = 0; py < 32; py++)
            for (unsigned px = 0; px < 16; px++)
                ck_assert_uint_eq(pixel(c, (int)((2 + i) * 16 + px), (int)(32 + py)),
                                  hexsim_font_ink(&f, g, px, py) ? hexsim_vt_palette(7)
                                                                 : hexsim_vt_palette(0));
    }
    hexsim_font_free(&f);
    ck_assert_int_eq(hexsim_sdl_console_free(c), 0);
}
END_TEST

// The terminal's answers reach the UART as input, after what was typed before them: the
// cursor position (CSI 6 n), as BusyBox's vi and less ask for the screen's size.
START_TEST(sdl_replies)
{
    struct hexsim_sdl_console_opts o = { .cols = 40, .rows = 10 };
    struct hexsim_sdl_console *c = open_console(&o);
    uint8_t buf[64];
    push_text("k");
    hexsim_sdl_console_poll(c);
    say(c, "\x1b[999;999H\x1b[6n");
    size_t n = drain(c, buf, sizeof buf);
    ck_assert_uint_eq(n, 9);
    ck_assert_mem_eq(buf, "k\x1b[10;40R", 9);
    ck_assert_int_eq(hexsim_sdl_console_free(c), 0);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("sdl_console");
    TCase *t = tcase_create("sdl");
    tcase_set_timeout(t, 60);
    tcase_add_test(t, sdl_draws_glyphs);
    tcase_add_test(t, sdl_keyboard_bytes);
    tcase_add_test(t, sdl_close_quits);
    tcase_add_test(t, sdl_escape_keys);
    tcase_add_test(t, sdl_type_hook_and_idle);
    tcase_add_test(t, sdl_dump_file);
    tcase_add_test(t, sdl_bad_options);
    tcase_add_test(t, sdl_other_font);
    tcase_add_test(t, sdl_replies);
    suite_add_tcase(s, t);
    return s;
}

int main(void)
{
    return hexsim_check_run(suite());
}
