// SPDX-License-Identifier: MIT
// The SDL console of include/hexsim/sdl_console.h in a build without SDL2 or libvterm
// (CMake did not find the pkg-config module sdl2 or vterm; HEXSIM_SDL_MISSING names the
// Debian packages that have them): opening it fails with a message saying how to get it.
// The other functions are never reached, since no console can exist.
#include "hexsim/sdl_console.h"

#ifndef HEXSIM_SDL_MISSING
#define HEXSIM_SDL_MISSING "libsdl2-dev"
#endif

bool hexsim_sdl_console_available(void)
{
    return false;
}

struct hexsim_sdl_console *hexsim_sdl_console_new(const struct hexsim_sdl_console_opts *o,
                                                  FILE *err, char *msg, size_t msglen)
{
    (void)o;
    (void)err;
    snprintf(msg, msglen, "hexsim was built without the SDL console (install "
             HEXSIM_SDL_MISSING " and rebuild)");
    return NULL;
}

int hexsim_sdl_console_free(struct hexsim_sdl_console *c)
{
    (void)c;
    return 0;
}

struct hexsim_chardev *hexsim_sdl_console_chardev(struct hexsim_sdl_console *c)
{
    (void)c;
    return NULL;
}

struct hexsim_console *hexsim_sdl_console_console(struct hexsim_sdl_console *c)
{
    (void)c;
    return NULL;
}

int hexsim_sdl_console_idle(void *ctx, uint64_t timeout_ns)
{
    (void)ctx;
    (void)timeout_ns;
    return -1;
}

void hexsim_sdl_console_set_quit(struct hexsim_sdl_console *c, void (*quit)(void *ctx),
                                 void (*snapshot)(void *ctx), void *ctx)
{
    (void)c;
    (void)quit;
    (void)snapshot;
    (void)ctx;
}

void hexsim_sdl_console_poll(struct hexsim_sdl_console *c)
{
    (void)c;
}

const struct hexsim_vt *hexsim_sdl_console_grid(const struct hexsim_sdl_console *c)
{
    (void)c;
    return NULL;
}

uint32_t hexsim_sdl_console_window_id(const struct hexsim_sdl_console *c)
{
    (void)c;
    return 0;
}
