// SPDX-License-Identifier: MIT
// --record FILE / --replay FILE: the serial console's input with the pcycle at which the
// UART took each byte (hexsim/host.h). The file is text: a first line "hexsim console
// record 1", then one line per byte, "PCYCLE BYTE" (BYTE in decimal), or "PCYCLE eof" where
// the input ended. A replayed run is deterministic, so the UART asks at the same pcycles
// as in the recorded run and gets the same bytes; a byte whose pcycle has passed (the
// replay runs another hexsim or other options) is given at once, with one warning.
#include "hexsim/host.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#define RECORD_HEADER "hexsim console record 1\n"
#define RECORD_MAX_EVENTS (1u << 24)

static int rec_read(void *ctx, uint8_t *buf, size_t n)
{
    struct hexsim_record *r = ctx;
    uint64_t now = r->now ? *r->now : 0;
    if (r->replaying) {
        if (r->pos == r->n || r->ev[r->pos].at > now || n == 0)
            return 0;
        if (r->ev[r->pos].at < now && !r->late_warned) {
            r->late_warned = true;
            fprintf(r->err, "hexsim: --replay: the guest took input at pcycle %" PRIu64
                    ", later than recorded (%" PRIu64 "): this run differs from the recorded "
                    "one\n", now, r->ev[r->pos].at);
        }
        int b = r->ev[r->pos++].byte;
        if (b < 0)
            return -1;
        buf[0] = (uint8_t)b;
        return 1;
    }
    int got = r->inner && r->inner->read ? r->inner->read(r->inner->ctx, buf, n) : -1;
    if (r->out) {
        if (got < 0)
            fprintf(r->out, "%" PRIu64 " eof\n", now);
        for (int i = 0; i < got; i++)
            fprintf(r->out, "%" PRIu64 " %u\n", now, buf[i]);
    }
    return got;
}

static void rec_write(void *ctx, const void *buf, size_t n)
{
    struct hexsim_record *r = ctx;
    if (r->inner && r->inner->write)
        r->inner->write(r->inner->ctx, buf, n);
}

static bool rec_wants_input(void *ctx)
{
    struct hexsim_record *r = ctx;
    return !r->replaying && r->inner && r->inner->wants_input &&
           r->inner->wants_input(r->inner->ctx);
}

static int load(struct hexsim_record *r, FILE *f, const char *path, char *msg, size_t msglen)
{
    char line[128];
    if (!fgets(line, sizeof(line), f) || strcmp(line, RECORD_HEADER) != 0) {
        snprintf(msg, msglen, "--replay %s: not a hexsim console record (first line)", path);
        return -1;
    }
    size_t cap = 0;
    for (unsigned long ln = 2; fgets(line, sizeof(line), f); ln++) {
        uint64_t at;
        char what[16];
        if (sscanf(line, "%" SCNu64 " %15s", &at, what) != 2) {
            snprintf(msg, msglen, "--replay %s:%lu: expected \"PCYCLE BYTE\"", path, ln);
            return -1;
        }
        char *end;
        long b = strtol(what, &end, 10);
        if (strcmp(what, "eof") == 0)
            b = -1;
        else if (*end || b < 0 || b > 255) {
            snprintf(msg, msglen, "--replay %s:%lu: byte '%s' is not 0-255 or eof", path, ln,
                     what);
            return -1;
        }
        if (r->n && at < r->ev[r->n - 1].at) {
            snprintf(msg, msglen, "--replay %s:%lu: pcycles go backwards", path, ln);
            return -1;
        }
        if (r->n == cap) {
            if (cap >= RECORD_MAX_EVENTS) {
                snprintf(msg, msglen, "--replay %s: more than %u bytes", path,
                         RECORD_MAX_EVENTS);
                return -1;
            }
            cap = cap ? cap * 2 : 256;
            void *ne = realloc(r->ev, cap * sizeof(*r->ev));
            if (!ne) {
                snprintf(msg, msglen, "--replay %s: out of memory", path);
                return -1;
            }
            r->ev = ne;
        }
        r->ev[r->n].at = at;
        r->ev[r->n].byte = (int)b;
        r->n++;
    }
    if (ferror(f)) {
        snprintf(msg, msglen, "--replay %s: read error", path);
        return -1;
    }
    return 0;
}

int hexsim_record_open(struct hexsim_record *r, const char *path, bool replay,
                       struct hexsim_chardev *inner, FILE *err, char *msg, size_t msglen)
{
    memset(r, 0, sizeof(*r));
    r->inner = inner;
    r->err = err;
    r->replaying = replay;
    // a replayed byte is due at its pcycle, which nothing announces: the UART samples on
    r->chr = (struct hexsim_chardev){ .read = rec_read, .write = rec_write, .ctx = r,
                                      .wants_input = rec_wants_input,
                                      .idle_wakes = !replay && inner && inner->idle_wakes };
    FILE *f = fopen(path, replay ? "r" : "w");
    if (!f) {
        snprintf(msg, msglen, "--%s %s: %s", replay ? "replay" : "record", path,
                 strerror(errno));
        return -1;
    }
    if (!replay) {
        r->out = f;
        fputs(RECORD_HEADER, f);
        return 0;
    }
    int rc = load(r, f, path, msg, msglen);
    fclose(f);
    if (rc) {
        free(r->ev);
        r->ev = NULL;
    }
    return rc;
}

int hexsim_record_close(struct hexsim_record *r)
{
    int rc = 0;
    if (r->out && fclose(r->out) != 0)
        rc = -1;
    r->out = NULL;
    free(r->ev);
    r->ev = NULL;
    return rc;
}
