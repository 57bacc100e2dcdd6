// SPDX-License-Identifier: MIT
// The SDL console of a build without SDL2 or libvterm (src/devices/host/sdl_console_none.c,
// compiled here without HEXSIM_SDL_MISSING: the package named is libsdl2-dev): opening
// it fails with the message that says how to get it, which hexsim prints before exiting
// with status 2.
#include <stdio.h>
#include <string.h>

#include "hexsim/sdl_console.h"

int main(void)
{
    char msg[200] = "";
    struct hexsim_sdl_console_opts o = { 0 };
    if (hexsim_sdl_console_available()) {
        fprintf(stderr, "FAIL: the fallback claims SDL2\n");
        return 1;
    }
    if (hexsim_sdl_console_new(&o, stderr, msg, sizeof(msg)) != NULL) {
        fprintf(stderr, "FAIL: the fallback opened a console\n");
        return 1;
    }
    const char *want = "hexsim was built without the SDL console (install libsdl2-dev and "
                       "rebuild)";
    if (strcmp(msg, want) != 0) {
        fprintf(stderr, "FAIL: message '%s', expected '%s'\n", msg, want);
        return 1;
    }
    if (hexsim_sdl_console_free(NULL) != 0)
        return 1;
    puts("ok");
    return 0;
}
