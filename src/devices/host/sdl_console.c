// SPDX-License-Identifier: MIT
// SDL2 console window (include/hexsim/sdl_console.h). Output bytes go into a terminal
// (vt_term.c, libvterm), which is drawn with a Linux console font (psf_font.c, read when
// the window opens; the window's size follows its glyphs) by vt_render.c into an XRGB8888
// canvas and copied to the window surface (a software path: it works with every SDL video
// driver, the headless "offscreen" and "dummy" ones included). Only rows that changed are
// drawn, at most about 30 times per second and only when something changed or the cursor
// blinks (every 500 ms).
// Output LF is shown as CR LF. The terminal's answers to the guest's questions (cursor
// position, device attributes) are queued as input, as a terminal window would send them.
// Input: the window's key events become bytes in a queue the UART reads: text input as
// typed (UTF-8 passes through), Enter CR, Backspace DEL (0x7f), Tab, Esc, Ctrl+letter the
// control byte, the arrows ESC [ A..D, Home/Insert/Delete/End/PgUp/PgDn ESC [ 1..6 ~ (the
// Linux console's keys). Closing the window quits like Ctrl-A x; the terminal's escape keys
// work in the window too (Ctrl-A x, s, h, Ctrl-A Ctrl-A). Events are read when the
// UART polls for input, when output arrives (both checked against the clock only every
// 64 calls, and events pumped at most every 5 ms) and in the idle hook, which also waits
// for events in place of the terminal's poll and says when keys came (idle_wakes). Guest time never depends on this: input
// reaches the guest as the UART samples the queue, as with the terminal. (A guest that
// computes with its UART receiver off and prints nothing leaves the window unserviced
// until it does; Linux keeps the console's receiver on once a shell has opened it.)
// SDL's own signal handlers are disabled: hexsim's (src/cli/run_system.c) stay in charge.
// SDL2 is loaded (dlopen) when a window is opened, not linked: its some 45 shared libraries
// (X11, Wayland, PulseAudio, ...) would otherwise be loaded and relocated at every start of
// hexsim, about 6 ms, more than a small guest program takes to run (issue 33). The header
// gives the types; the functions come from the library (struct sdl_api).
#define _GNU_SOURCE
#include "hexsim/sdl_console.h"

#include <SDL.h>
#include <dlfcn.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "devices/host/psf_font.h"
#include "devices/host/vt_render.h"
#include "devices/host/vt_term.h"

#define ESC_KEY 0x01         // Ctrl-A
#define INQ 4096            // input queue (bytes); typing never fills it, a flood is dropped
#define PUMP_MS 5
#define FRAME_MS 33          // at most about 30 frames per second
#define BLINK_MS 500
#define CHECK_EVERY 64      // callbacks between clock checks
#define IDLE_CAP_NS 50000000ull   // an idle wait returns at least this often

// The SDL2 functions used (SDL_BlitSurface is a macro for SDL_UpperBlit), each with the
// header's type, found by name in the library SDL_SONAME.
#define SDL_SONAME "libSDL2-2.0.so.0"
#define SDL_FUNCS(X) \
    X(GetWindowID) X(PushEvent) X(PollEvent) X(GetWindowSurface) X(LockSurface) \
    X(UnlockSurface) X(UpperBlit) X(UpdateWindowSurfaceRects) X(GetTicks64) \
    X(WaitEventTimeout) X(SetHint) X(InitSubSystem) X(GetError) X(GetCurrentVideoDriver) \
    X(QuitSubSystem) X(CreateWindow) X(CreateRGBSurfaceWithFormat) X(StartTextInput) \
    X(StopTextInput) X(FreeSurface) X(DestroyWindow) X(Quit)

struct sdl_api {
#define SDL_MEMBER(n) __typeof__(SDL_##n) *n;
    SDL_FUNCS(SDL_MEMBER)
#undef SDL_MEMBER
};

struct hexsim_sdl_console {
    struct sdl_api sdl;      // the library's functions (loaded by sdl_load)
    struct hexsim_sdl_console_opts o;
    FILE *err;
    struct hexsim_vt vt;
    struct hexsim_font font;
    SDL_Window *win;
    SDL_Surface *canvas;     // the whole screen, XRGB8888
    unsigned scale;
    uint8_t inq[INQ];
    size_t in_head, in_len;
    bool in_dropped;
    const char *typing;      // rest of o.type still to be typed
    SDL_Keycode ctrl_key;    // the last Ctrl+letter, whose text event (if any) is dropped
    unsigned calls;
    uint64_t last_pump, last_frame, blink_base;
    bool cursor_drawn;       // the cursor as last drawn (on/off)
    bool cursor_row_valid;
    unsigned cursor_row;     // row the cursor was drawn in
    void (*quit)(void *ctx);
    void (*snapshot)(void *ctx);       // Ctrl-A s (NULL: not available)
    void *quit_ctx;
    bool esc;                          // Ctrl-A seen: the next key is an escape
    bool quit_sent;
    struct hexsim_chardev chr;
    struct hexsim_console con;
};

bool hexsim_sdl_console_available(void)
{
    return true;
}

// ---- input

static void quit_now(struct hexsim_sdl_console *c, const char *why)
{
    if (c->quit_sent)
        return;
    c->quit_sent = true;
    fprintf(c->err, "hexsim: %s: quitting\n", why);
    if (c->quit)
        c->quit(c->quit_ctx);
}

// Ctrl-A and the key after it, as on the terminal (terminal.c): x quits, s asks for a
// snapshot, h shows the keys, Ctrl-A sends one Ctrl-A; others are dropped.
static bool escape_key(struct hexsim_sdl_console *c, uint8_t b)
{
    static const char help[] = "hexsim escape keys: Ctrl-A x quit, Ctrl-A s snapshot now, "
                               "Ctrl-A h this help, Ctrl-A Ctrl-A send Ctrl-A";
    if (!c->esc) {
        c->esc = b == ESC_KEY;
        return c->esc;
    }
    c->esc = false;
    switch (b) {
    case 'x': case 'X':
        quit_now(c, "Ctrl-A x");
        return true;
    case 's': case 'S':
        if (c->snapshot)
            c->snapshot(c->quit_ctx);
        else
            fprintf(c->err, "hexsim: Ctrl-A s: no snapshots here\n");
        return true;
    case 'h': case 'H': case '?':
        fprintf(c->err, "%s\n", help);
        hexsim_vt_write(&c->vt, "\r\n", 2);
        hexsim_vt_write(&c->vt, help, sizeof(help) - 1);
        hexsim_vt_write(&c->vt, "\r\n", 2);
        return true;
    default:
        return b != ESC_KEY;           // Ctrl-A Ctrl-A: one Ctrl-A for the guest
    }
}

// Queues n bytes for the UART; keys (keys true) go through the escape keys first.
static void queue(struct hexsim_sdl_console *c, const void *buf, size_t n, bool keys)
{
    const uint8_t *p = buf;
    if (INQ - c->in_len < n) {
        if (!c->in_dropped)
            fprintf(c->err, "hexsim: SDL console: input queue full, keys dropped\n");
        c->in_dropped = true;
        return;
    }
    for (size_t i = 0; i < n; i++)
        if (!keys || !escape_key(c, p[i]))
            c->inq[(c->in_head + c->in_len++) % INQ] = p[i];
}

static void in_push(struct hexsim_sdl_console *c, const void *buf, size_t n)
{
    queue(c, buf, n, true);
}

// The terminal's answers (vt_term.h reply): input, as from a terminal window.
static void in_reply(void *ctx, const char *buf, size_t n)
{
    queue(ctx, buf, n, false);
}

static void key_down(struct hexsim_sdl_console *c, const SDL_KeyboardEvent *k)
{
    SDL_Keycode s = k->keysym.sym;
    uint16_t mod = k->keysym.mod;
    c->ctrl_key = 0;
    if ((mod & KMOD_CTRL) && !(mod & (KMOD_ALT | KMOD_MODE))) {
        uint8_t b;
        bool ok = true;
        if (s >= SDLK_a && s <= SDLK_z)
            b = (uint8_t)(s - SDLK_a + 1);
        else if (s == SDLK_SPACE || s == SDLK_2 || s == SDLK_AT)
            b = 0;
        else if (s == SDLK_LEFTBRACKET)
            b = 0x1b;
        else if (s == SDLK_BACKSLASH)
            b = 0x1c;
        else if (s == SDLK_RIGHTBRACKET)
            b = 0x1d;
        else
            ok = false;
        if (ok) {
            in_push(c, &b, 1);
            c->ctrl_key = s;
            return;
        }
    }
    const char *seq = NULL;
    switch (s) {
    case SDLK_RETURN:
    case SDLK_KP_ENTER:
        seq = "\r";
        break;
    case SDLK_BACKSPACE:
        seq = "\x7f";
        break;
    case SDLK_TAB:
        seq = "\t";
        break;
    case SDLK_ESCAPE:
        seq = "\x1b";
        break;
    case SDLK_UP:
        seq = "\x1b[A";
        break;
    case SDLK_DOWN:
        seq = "\x1b[B";
        break;
    case SDLK_RIGHT:
        seq = "\x1b[C";
        break;
    case SDLK_LEFT:
        seq = "\x1b[D";
        break;
    case SDLK_HOME:
        seq = "\x1b[1~";
        break;
    case SDLK_INSERT:
        seq = "\x1b[2~";
        break;
    case SDLK_DELETE:
        seq = "\x1b[3~";
        break;
    case SDLK_END:
        seq = "\x1b[4~";
        break;
    case SDLK_PAGEUP:
        seq = "\x1b[5~";
        break;
    case SDLK_PAGEDOWN:
        seq = "\x1b[6~";
        break;
    default:
        break;                  // printable keys arrive as text input
    }
    if (seq)
        in_push(c, seq, strlen(seq));
}

static void text_input(struct hexsim_sdl_console *c, const char *text)
{
    size_t n = strlen(text);
    // Some platforms also report Ctrl+letter as that letter's text: it was sent already.
    if (c->ctrl_key && n == 1 && (text[0] | 0x20) == (char)c->ctrl_key) {
        c->ctrl_key = 0;
        return;
    }
    c->ctrl_key = 0;
    for (size_t i = 0; i < n; i++) {
        uint8_t b = (uint8_t)text[i];
        if (b >= 0x20 && b != 0x7f)
            in_push(c, &b, 1);
    }
}

static void handle(struct hexsim_sdl_console *c, const SDL_Event *e)
{
    switch (e->type) {
    case SDL_QUIT:
        quit_now(c, "the SDL console window was closed");
        break;
    case SDL_WINDOWEVENT:
        if (e->window.event == SDL_WINDOWEVENT_CLOSE)
            quit_now(c, "the SDL console window was closed");
        else if (e->window.event == SDL_WINDOWEVENT_EXPOSED ||
                 e->window.event == SDL_WINDOWEVENT_SIZE_CHANGED ||
                 e->window.event == SDL_WINDOWEVENT_RESTORED)
            hexsim_vt_touch(&c->vt);
        break;
    case SDL_KEYDOWN:
        key_down(c, &e->key);
        break;
    case SDL_TEXTINPUT:
        text_input(c, e->text.text);
        break;
    default:
        break;
    }
}

// The test hook: the next byte of o.type as the key events a keyboard would send.
static void type_next(struct hexsim_sdl_console *c)
{
    uint8_t b = (uint8_t)*c->typing++;
    SDL_Event e;
    memset(&e, 0, sizeof(e));
    e.key.windowID = c->sdl.GetWindowID(c->win);
    SDL_Keycode key = 0;
    uint16_t mod = 0;
    if (b == '\n' || b == '\r')
        key = SDLK_RETURN;
    else if (b == '\t')
        key = SDLK_TAB;
    else if (b == 0x7f || b == '\b')
        key = SDLK_BACKSPACE;
    else if (b == 0x1b)
        key = SDLK_ESCAPE;
    else if (b >= 1 && b <= 26) {
        key = SDLK_a + b - 1;
        mod = KMOD_LCTRL;
    }
    if (key) {
        e.type = SDL_KEYDOWN;
        e.key.state = SDL_PRESSED;
        e.key.keysym.sym = key;
        e.key.keysym.mod = mod;
        c->sdl.PushEvent(&e);
        if (!mod)
            return;
        b = (uint8_t)('a' + b - 1);   // and the letter's text, as some platforms send
    }
    memset(&e, 0, sizeof(e));
    e.type = SDL_TEXTINPUT;
    e.text.windowID = c->sdl.GetWindowID(c->win);
    e.text.text[0] = (char)b;
    c->sdl.PushEvent(&e);
}

static void pump(struct hexsim_sdl_console *c, uint64_t now)
{
    c->last_pump = now;
    // a few typed bytes per pump, so that the queue (in_len counts only what was polled
    // already) never overflows
    for (unsigned i = 0; i < 32 && c->typing && *c->typing && INQ - c->in_len >= 256; i++)
        type_next(c);
    SDL_Event e;
    while (c->sdl.PollEvent(&e))
        handle(c, &e);
}

// ---- output

static bool cursor_phase(const struct hexsim_sdl_console *c, uint64_t now)
{
    return c->o.solid_cursor || ((now - c->blink_base) / BLINK_MS) % 2 == 0;
}

static void render(struct hexsim_sdl_console *c, uint64_t now)
{
    struct hexsim_vt *vt = &c->vt;
    bool on = cursor_phase(c, now);
    if (c->cursor_row_valid && (on != c->cursor_drawn || c->cursor_row != vt->cy))
        vt->dirty_row[c->cursor_row] = true;      // take the old cursor away
    if (on != c->cursor_drawn)
        vt->dirty_row[vt->cy] = true;
    c->last_frame = now;
    SDL_Surface *ws = c->sdl.GetWindowSurface(c->win);
    if (!ws)
        return;
    SDL_Rect rects[HEXSIM_VT_MAX_ROWS];
    int nrect = 0;
    int rh = (int)(c->font.h * c->scale);
    if (SDL_MUSTLOCK(c->canvas))
        c->sdl.LockSurface(c->canvas);
    for (unsigned y = 0; y < vt->rows; y++) {
        if (!vt->dirty_row[y])
            continue;
        vt->dirty_row[y] = false;
        hexsim_vt_render_row(vt, &c->font, y, on, c->scale, c->canvas->pixels,
                             (size_t)c->canvas->pitch / 4);
        SDL_Rect r = { 0, (int)y * rh, c->canvas->w, rh };
        if (nrect && rects[nrect - 1].y + rects[nrect - 1].h == r.y)
            rects[nrect - 1].h += rh;             // merge adjacent rows
        else
            rects[nrect++] = r;
    }
    if (SDL_MUSTLOCK(c->canvas))
        c->sdl.UnlockSurface(c->canvas);
    vt->dirty = false;
    c->cursor_drawn = on;
    c->cursor_row = vt->cy;
    c->cursor_row_valid = true;
    for (int i = 0; i < nrect; i++) {
        SDL_Rect d = rects[i];
        c->sdl.UpperBlit(c->canvas, &rects[i], ws, &d);
    }
    if (nrect)
        c->sdl.UpdateWindowSurfaceRects(c->win, rects, nrect);
}

static bool render_due(const struct hexsim_sdl_console *c, uint64_t now)
{
    return c->vt.dirty || cursor_phase(c, now) != c->cursor_drawn ||
           (c->cursor_row_valid && c->cursor_row != c->vt.cy);
}

// Pumps events and redraws when their time has come; force: check the clock now.
static void service(struct hexsim_sdl_console *c, bool force)
{
    if (!force && (++c->calls % CHECK_EVERY) != 0)
        return;
    uint64_t now = c->sdl.GetTicks64();
    if (force || now - c->last_pump >= PUMP_MS)
        pump(c, now);
    if (now - c->last_frame >= FRAME_MS && render_due(c, now))
        render(c, now);
}

static int con_read(void *ctx, uint8_t *buf, size_t n)
{
    struct hexsim_sdl_console *c = ctx;
    if (c->in_len == 0 && c->typing && *c->typing)
        pump(c, c->sdl.GetTicks64());      // typed text is there whenever the UART looks, as
                                        // from a pipe: the run does not depend on host time
    else if (c->in_len == 0)
        service(c, false);
    size_t got = 0;
    while (got < n && c->in_len) {
        buf[got++] = c->inq[c->in_head];
        c->in_head = (c->in_head + 1) % INQ;
        c->in_len--;
    }
    return (int)got;
}

// Output, with LF as CR LF (the terminal backend's tty does the same with ONLCR): the UART
// text has CR LF already, angel output (the kernel's boot console) bare LFs.
static void con_write(void *ctx, const void *buf, size_t n)
{
    struct hexsim_sdl_console *c = ctx;
    const char *p = buf, *end = p + n;
    while (p < end) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        if (!nl) {
            hexsim_vt_write(&c->vt, p, (size_t)(end - p));
            break;
        }
        hexsim_vt_write(&c->vt, p, (size_t)(nl - p));
        hexsim_vt_write(&c->vt, "\r\n", 2);
        p = nl + 1;
    }
    c->blink_base = c->sdl.GetTicks64();   // a solid cursor while text arrives
    service(c, false);
}

static void con_flush(void *ctx)
{
    struct hexsim_sdl_console *c = ctx;
    uint64_t now = c->sdl.GetTicks64();
    if (render_due(c, now))
        render(c, now);
}

void hexsim_sdl_console_poll(struct hexsim_sdl_console *c)
{
    pump(c, c->sdl.GetTicks64());
    con_flush(c);
}

int hexsim_sdl_console_idle(void *ctx, uint64_t timeout_ns)
{
    struct hexsim_sdl_console *c = ctx;
    service(c, true);
    if (c->in_len || (c->typing && *c->typing))
        return 1;
    if (c->quit_sent)
        return 0;
    if (timeout_ns > IDLE_CAP_NS)
        timeout_ns = IDLE_CAP_NS;
    uint64_t ms = timeout_ns / 1000000, now = c->sdl.GetTicks64();
    // wake for the next frame when there is something to draw, or for the next blink
    uint64_t since = now - c->last_frame;
    uint64_t wake = render_due(c, now) ? (since < FRAME_MS ? FRAME_MS - since : 1)
                    : c->o.solid_cursor ? ms : BLINK_MS - (now - c->blink_base) % BLINK_MS;
    if (wake < ms)
        ms = wake ? wake : 1;
    if (ms) {
        c->sdl.WaitEventTimeout(NULL, (int)ms);
    } else if (timeout_ns) {
        // below SDL's millisecond: a plain sleep (the window waits that long at most)
        struct timespec ts = { 0, (long)timeout_ns };
        nanosleep(&ts, NULL);
    }
    service(c, true);
    return c->in_len > 0;
}

// ---- set-up

// Loads SDL2 (once per process: dlopen counts; the library stays loaded, as SDL_Quit leaves
// it reusable) and fills a->*; 0, or -1 with msg saying what is missing.
static int sdl_load(struct sdl_api *a, char *msg, size_t msglen)
{
    void *h = dlopen(SDL_SONAME, RTLD_NOW | RTLD_LOCAL);
    if (!h) {
        snprintf(msg, msglen, "SDL console: cannot load SDL2: %s", dlerror());
        return -1;
    }
#define SDL_FIND(n) \
    if (!(a->n = (__typeof__(a->n))dlsym(h, "SDL_" #n))) { \
        snprintf(msg, msglen, "SDL console: %s has no SDL_%s", SDL_SONAME, #n); \
        return -1; \
    }
    SDL_FUNCS(SDL_FIND)
#undef SDL_FIND
    return 0;
}

// While SDL looks for a display, its video drivers and the libraries under them write to
// stderr on their own (libwayland: "error: XDG_RUNTIME_DIR is invalid or not set in the
// environment." before SDL goes on to X11 or the next driver). That matters only when no
// window opens: file descriptor 2 goes to a temporary file meanwhile, shown after SDL
// failed and dropped when the window is open.
struct quiet {
    FILE *f;
    int saved;
};

static void quiet_begin(struct quiet *q)
{
    fflush(stderr);
    q->f = tmpfile();
    q->saved = q->f ? dup(2) : -1;
    if (q->saved >= 0 && dup2(fileno(q->f), 2) < 0) {
        close(q->saved);
        q->saved = -1;
    }
}

static void quiet_end(struct quiet *q, bool show, FILE *err)
{
    fflush(stderr);
    if (q->saved >= 0) {
        dup2(q->saved, 2);
        close(q->saved);
    }
    if (q->f && show && q->saved >= 0) {
        char buf[512];
        size_t n;
        rewind(q->f);
        while ((n = fread(buf, 1, sizeof buf, q->f)) > 0)
            fwrite(buf, 1, n, err);
    }
    if (q->f)
        fclose(q->f);
    q->f = NULL;
    q->saved = -1;
}

// True when the SDL_VIDEODRIVER list (comma-separated) names drv.
static bool driver_asked(const char *want, const char *drv)
{
    size_t n = strlen(drv);
    for (const char *p = want; p && *p; p = strchr(p, ',') ? strchr(p, ',') + 1 : NULL)
        if (strncmp(p, drv, n) == 0 && (p[n] == '\0' || p[n] == ','))
            return true;
    return false;
}

// Frees what hexsim_sdl_console_new set up before SDL's video started; NULL.
static struct hexsim_sdl_console *early_fail(struct hexsim_sdl_console *c)
{
    hexsim_vt_free(&c->vt);
    hexsim_font_free(&c->font);
    free(c);
    return NULL;
}

struct hexsim_sdl_console *hexsim_sdl_console_new(const struct hexsim_sdl_console_opts *o,
                                                  FILE *err, char *msg, size_t msglen)
{
    struct hexsim_sdl_console *c = calloc(1, sizeof(*c));
    if (!c) {
        snprintf(msg, msglen, "out of memory");
        return NULL;
    }
    c->o = *o;
    c->err = err;
    unsigned cols = o->cols ? o->cols : 80, rows = o->rows ? o->rows : 25;
    c->scale = o->scale ? o->scale : 1;
    if (c->scale > 2) {
        snprintf(msg, msglen, "SDL console: scale %u (1 or 2)", c->scale);
        return early_fail(c);
    }
    if (hexsim_vt_init(&c->vt, cols, rows)) {
        snprintf(msg, msglen, "SDL console: a %ux%u grid (1x1 to %dx%d)", cols, rows,
                 HEXSIM_VT_MAX_COLS, HEXSIM_VT_MAX_ROWS);
        return early_fail(c);
    }
    c->vt.reply = in_reply;
    c->vt.reply_ctx = c;
    char why[400];
    const char *font = o->font ? o->font : HEXSIM_FONT_DEFAULT;
    if (hexsim_font_load(&c->font, font, why, sizeof(why))) {
        snprintf(msg, msglen, "SDL console: %s (%s)", why, o->font ? "choose a PSF font "
                 "with --console sdl,font=FILE" : "install Debian's " HEXSIM_FONT_PACKAGE
                 ", or choose a PSF font with --console sdl,font=FILE");
        return early_fail(c);
    }
    if (sdl_load(&c->sdl, msg, msglen))
        return early_fail(c);
    c->sdl.SetHint(SDL_HINT_NO_SIGNAL_HANDLERS, "1");
    // The window surface in plain memory: without this, SDL may put it in an OpenGL
    // texture, which on a machine without a GPU (Mesa's llvmpipe) costs more than drawing.
    // SDL_FRAMEBUFFER_ACCELERATION in the environment still decides.
    c->sdl.SetHint(SDL_HINT_FRAMEBUFFER_ACCELERATION, "0");
    struct quiet q;
    quiet_begin(&q);
    if (c->sdl.InitSubSystem(SDL_INIT_VIDEO) != 0) {
        quiet_end(&q, true, err);
        snprintf(msg, msglen, "SDL console: cannot start SDL video: %s", c->sdl.GetError());
        return early_fail(c);
    }
    // Without a display SDL falls back to a driver that shows nothing: an invisible
    // machine nobody can type into. Only asked for by name (tests) is that wanted.
    const char *drv = c->sdl.GetCurrentVideoDriver(), *want = getenv("SDL_VIDEODRIVER");
    if (drv && (strcmp(drv, "offscreen") == 0 || strcmp(drv, "dummy") == 0) &&
        !driver_asked(want, drv)) {
        quiet_end(&q, false, err);   // hexsim's message says what is wrong
        snprintf(msg, msglen, "SDL console: no display to open a window on (SDL would use "
                 "its '%s' driver, which shows nothing; is DISPLAY or WAYLAND_DISPLAY set?). "
                 "SDL_VIDEODRIVER=%s runs it without a window on purpose", drv, drv);
        c->sdl.QuitSubSystem(SDL_INIT_VIDEO);
        return early_fail(c);
    }
    int w = (int)(cols * c->font.w * c->scale), h = (int)(rows * c->font.h * c->scale);
    c->win = c->sdl.CreateWindow("hexsim console (UART3)", SDL_WINDOWPOS_UNDEFINED,
                              SDL_WINDOWPOS_UNDEFINED, w, h, 0);
    if (c->win)
        c->canvas = c->sdl.CreateRGBSurfaceWithFormat(0, w, h, 32, SDL_PIXELFORMAT_RGB888);
    quiet_end(&q, !c->win || !c->canvas, err);
    if (!c->win || !c->canvas) {
        snprintf(msg, msglen, "SDL console: cannot open a %dx%d window: %s", w, h,
                 c->sdl.GetError());
        c->o.dump = NULL;
        hexsim_sdl_console_free(c);
        return NULL;
    }
    c->sdl.StartTextInput();
    c->typing = o->type;
    c->blink_base = c->last_pump = c->sdl.GetTicks64();
    c->last_frame = c->blink_base - FRAME_MS;
    c->chr = (struct hexsim_chardev){ .read = con_read, .write = con_write, .ctx = c,
                                      .idle_wakes = true };
    c->con = (struct hexsim_console){ .write = con_write, .flush = con_flush, .ctx = c };
    hexsim_vt_touch(&c->vt);
    render(c, c->blink_base);
    return c;
}

int hexsim_sdl_console_free(struct hexsim_sdl_console *c)
{
    if (!c)
        return 0;
    int rc = 0;
    if (c->o.dump) {
        FILE *f = fopen(c->o.dump, "w");
        if (!f || hexsim_vt_dump(&c->vt, f) != 0 || fclose(f) != 0) {
            fprintf(c->err, "hexsim: cannot write the SDL console screen to '%s'\n", c->o.dump);
            rc = -1;
        }
    }
    if (c->canvas)
        c->sdl.FreeSurface(c->canvas);
    if (c->win) {
        c->sdl.StopTextInput();
        c->sdl.DestroyWindow(c->win);
    }
    c->sdl.QuitSubSystem(SDL_INIT_VIDEO);
    c->sdl.Quit();
    hexsim_vt_free(&c->vt);
    hexsim_font_free(&c->font);
    free(c);
    return rc;
}

struct hexsim_chardev *hexsim_sdl_console_chardev(struct hexsim_sdl_console *c)
{
    return &c->chr;
}

struct hexsim_console *hexsim_sdl_console_console(struct hexsim_sdl_console *c)
{
    return &c->con;
}

void hexsim_sdl_console_set_quit(struct hexsim_sdl_console *c, void (*quit)(void *ctx),
                                 void (*snapshot)(void *ctx), void *ctx)
{
    c->quit = quit;
    c->snapshot = snapshot;
    c->quit_ctx = ctx;
}

const struct hexsim_vt *hexsim_sdl_console_grid(const struct hexsim_sdl_console *c)
{
    return &c->vt;
}

uint32_t hexsim_sdl_console_window_id(const struct hexsim_sdl_console *c)
{
    return c->sdl.GetWindowID(c->win);
}
