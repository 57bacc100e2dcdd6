// SPDX-License-Identifier: MIT
// Console backend on a stdio stream: guest text (angel calls today, the UART later) goes to
// the host's standard output, flushed at each newline so interleaving with diagnostics on
// stderr stays readable.
#include <string.h>

#include "hexsim/dev.h"

static void stdio_write(void *ctx, const void *buf, size_t n)
{
    FILE *f = ctx;
    fwrite(buf, 1, n, f);
    if (memchr(buf, '\n', n))
        fflush(f);
}

static void stdio_flush(void *ctx)
{
    fflush((FILE *)ctx);
}

void hexsim_console_stdio(struct hexsim_console *c, FILE *f)
{
    c->write = stdio_write;
    c->flush = stdio_flush;
    c->ctx = f;
    c->fresh_line = NULL;
}
