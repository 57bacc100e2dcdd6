// SPDX-License-Identifier: MIT
// --script FILE: console input typed as the guest asks for it. The file's lines are held
// back and given to the serial port one line at a time, each when the guest waits for
// console input (the machine's wants_input call: every vCPU idle, the UART's RX interrupt
// enabled, its RX FIFO empty, its TX side done) after it has written something since
// the last line, not counting the echo of that line up to its newline: the prompt, or a
// command's output. Without that second condition a command that idles without output
// (sleep) would get the next line typed ahead, which still works but echoes out of order. The timing depends only on the guest, so a scripted run is as
// deterministic as the guest itself. When the script is used up, input continues from
// the inner backend (the terminal: a tty or a pipe on stdin; or the SDL window), which
// then also gets the wants_input calls.
#include "hexsim/host.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <stdio.h>

#define SCRIPT_MAX (1u << 20)

static int script_read(void *ctx, uint8_t *buf, size_t n)
{
    struct hexsim_script *s = ctx;
    if (s->pos == s->len)
        return s->inner && s->inner->read ? s->inner->read(s->inner->ctx, buf, n) : -1;
    size_t avail = s->released - s->pos;
    if (avail > n)
        avail = n;
    memcpy(buf, s->data + s->pos, avail);
    s->pos += avail;
    return (int)avail;
}

static void script_write(void *ctx, const void *buf, size_t n)
{
    struct hexsim_script *s = ctx;
    if (s->echoing) {
        // the echo of the line just typed ends at its newline; output after it counts
        const uint8_t *nl = memchr(buf, '\n', n);
        if (nl) {
            s->echoing = false;
            s->output_since = (size_t)(nl - (const uint8_t *)buf) + 1 < n;
        }
    } else if (n) {
        s->output_since = true;
    }
    if (s->inner && s->inner->write)
        s->inner->write(s->inner->ctx, buf, n);
}

static bool script_wants_input(void *ctx)
{
    struct hexsim_script *s = ctx;
    if (s->pos == s->len && s->inner && s->inner->wants_input)
        return s->inner->wants_input(s->inner->ctx);     // the script is used up
    if (s->pos != s->released || s->released == s->len || !s->output_since)
        return false;
    const uint8_t *nl = memchr(s->data + s->released, '\n', s->len - s->released);
    s->released = nl ? (size_t)(nl - s->data) + 1 : s->len;
    s->output_since = false;
    s->echoing = nl != NULL;
    return true;
}

int hexsim_script_open(struct hexsim_script *s, const char *path,
                       struct hexsim_chardev *inner, char *msg, size_t msglen)
{
    memset(s, 0, sizeof(*s));
    FILE *f = fopen(path, "rb");
    if (!f) {
        snprintf(msg, msglen, "--script %s: %s", path, strerror(errno));
        return -1;
    }
    s->data = malloc(SCRIPT_MAX);
    if (!s->data) {
        fclose(f);
        snprintf(msg, msglen, "out of memory");
        return -1;
    }
    s->len = fread(s->data, 1, SCRIPT_MAX, f);
    bool err = ferror(f) != 0, more = !err && fgetc(f) != EOF;
    fclose(f);
    if (err || more) {
        snprintf(msg, msglen, "--script %s: %s", path,
                 err ? "read error" : "larger than 1 MiB");
        free(s->data);
        s->data = NULL;
        return -1;
    }
    s->chr.read = script_read;
    s->chr.write = script_write;
    s->chr.wants_input = script_wants_input;
    s->chr.ctx = s;
    hexsim_script_set_inner(s, inner);
    return 0;
}

void hexsim_script_set_inner(struct hexsim_script *s, struct hexsim_chardev *inner)
{
    s->inner = inner;
    // the script's own lines are released by wants_input; after them, inner's input
    s->chr.idle_wakes = !inner || inner->idle_wakes;
}

void hexsim_script_close(struct hexsim_script *s)
{
    free(s->data);
    memset(s, 0, sizeof(*s));
}
