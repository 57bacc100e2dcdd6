// SPDX-License-Identifier: MIT
// The SDL2 console window (`hexsim --console sdl`, src/devices/host/sdl_console.c): the
// guest's serial console (UART3) and angel output drawn as a terminal grid in a window,
// and the window's keyboard as the console's input. It is driven from the run loop through
// the backend's own callbacks (the UART polling for input, console output, the idle hook);
// it has no thread. Without SDL2 or libvterm at build time (sdl_console_none.c)
// hexsim_sdl_console_new fails with a message saying so.
#ifndef HEXSIM_SDL_CONSOLE_H
#define HEXSIM_SDL_CONSOLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "hexsim/dev.h"

struct hexsim_vt;

struct hexsim_sdl_console_opts {
    unsigned cols, rows;     // grid size (0: 80 x 25)
    unsigned scale;          // 1 or 2 (0: 1)
    bool solid_cursor;       // do not blink the cursor
    const char *font;        // PSF console font file (NULL: Debian's Uni2-VGA16)
    const char *type;        // bytes to type into the window, as key events, from the start
                             // (test hook, HEXSIM_SDL_TYPE); NULL: none
    const char *dump;        // file that gets the final screen as text at the end
                             // (HEXSIM_SDL_DUMP); NULL: none
};

struct hexsim_sdl_console;

// True when hexsim was built with SDL2 and libvterm.
bool hexsim_sdl_console_available(void);
// Opens the window. Returns NULL with a message in msg when SDL2 or the font is missing or
// no window can be opened. err gets run-time messages (window closed, dump failures).
struct hexsim_sdl_console *hexsim_sdl_console_new(const struct hexsim_sdl_console_opts *o,
                                                  FILE *err, char *msg, size_t msglen);
// Writes the dump file (if any), closes the window. Returns 0, or -1 when the dump
// could not be written (reported on err).
int hexsim_sdl_console_free(struct hexsim_sdl_console *c);

// The backends to hand to the machine (struct hexsim_machine_opts serial, console, idle).
struct hexsim_chardev *hexsim_sdl_console_chardev(struct hexsim_sdl_console *c);
struct hexsim_console *hexsim_sdl_console_console(struct hexsim_sdl_console *c);
// Idle hook: redraws, waits for window events at most timeout_ns (at most 50 ms);
// returns 1 when keys are queued for the UART, else 0.
int hexsim_sdl_console_idle(void *ctx, uint64_t timeout_ns);
// quit(ctx) is called when the window is closed or on Ctrl-A x, snapshot(ctx) (may be
// NULL) on Ctrl-A s, as on the terminal.
void hexsim_sdl_console_set_quit(struct hexsim_sdl_console *c, void (*quit)(void *ctx),
                                 void (*snapshot)(void *ctx), void *ctx);

// Handles pending window events and redraws what changed now (tests; the callbacks above
// do this on their own at most every few milliseconds).
void hexsim_sdl_console_poll(struct hexsim_sdl_console *c);
// The terminal shown (vt_term.h) and the window's SDL id (tests).
const struct hexsim_vt *hexsim_sdl_console_grid(const struct hexsim_sdl_console *c);
uint32_t hexsim_sdl_console_window_id(const struct hexsim_sdl_console *c);

#endif
