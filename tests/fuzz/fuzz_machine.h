// SPDX-License-Identifier: MIT
// Host side shared by the system-mode fuzz targets (fuzz_devices.c, fuzz_system.c): an
// angel console that discards what the guest writes, and a Comet machine of 16 MiB whose
// messages go to /dev/null (abort() if it cannot be made: that is a bug, not an input).
#ifndef HEXSIM_FUZZ_MACHINE_H
#define HEXSIM_FUZZ_MACHINE_H

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>

#include "hexsim/machine.h"

static void fuzz_discard(void *ctx, const void *buf, size_t n)
{
    (void)ctx;
    (void)buf;
    (void)n;
}

static void fuzz_no_flush(void *ctx)
{
    (void)ctx;
}

static struct hexsim_machine *fuzz_machine_new(struct hexsim_machine_opts *o,
                                               struct hexsim_console *con, FILE **devnull)
{
    *con = (struct hexsim_console){ .write = fuzz_discard, .flush = fuzz_no_flush };
    o->ram_size = 16u << 20;
    o->console = con;
    char msg[256];
    *devnull = fopen("/dev/null", "w");
    struct hexsim_machine *m = *devnull ? hexsim_machine_new(o, *devnull, msg, sizeof(msg))
                                        : NULL;
    if (!m)
        abort();
    return m;
}

static void fuzz_machine_free(struct hexsim_machine *m, FILE *devnull)
{
    hexsim_machine_free(m);
    fclose(devnull);
}

#endif
