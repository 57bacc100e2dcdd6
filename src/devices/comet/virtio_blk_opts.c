// SPDX-License-Identifier: MIT
// The value of --drive: file=IMG[,format=raw][,readonly=on|off][,cache=writeback|
// writethrough], QEMU's spelling (its -drive option) where it fits: comma-separated
// key=value pairs, a comma inside the file name written twice (",,"), a bare IMG as the
// first item taken as file=IMG. Every key at most once; unknown keys and values refused.
// The item splitting is --share's too (virtio_9p_opts.c).
#include <stdio.h>
#include <string.h>

#include "hexsim/virtio.h"

bool hexsim_virtio_opt_item(const char **p, char *out, size_t cap)
{
    size_t n = 0;
    const char *s = *p;
    for (; *s; s++) {
        if (*s == ',') {
            if (s[1] != ',')
                break;
            s++;
        }
        if (n + 1 >= cap)
            return false;
        out[n++] = *s;
    }
    out[n] = '\0';
    *p = *s ? s + 1 : s;
    return true;
}

static int bad(char *msg, size_t msglen, const char *spec, const char *why, const char *what)
{
    snprintf(msg, msglen, "--drive %s: %s%s%s", spec, why, what ? " " : "", what ? what : "");
    return -1;
}

static int on_off(const char *v, bool *out)
{
    if (strcmp(v, "on") == 0 || strcmp(v, "true") == 0 || strcmp(v, "yes") == 0)
        *out = true;
    else if (strcmp(v, "off") == 0 || strcmp(v, "false") == 0 || strcmp(v, "no") == 0)
        *out = false;
    else
        return -1;
    return 0;
}

int hexsim_drive_parse(const char *spec, struct hexsim_drive_opts *o, char *msg,
                       size_t msglen)
{
    memset(o, 0, sizeof(*o));
    unsigned seen = 0;                 // bit per key: file, format, readonly, cache
    static const char *const keys[] = { "file", "format", "readonly", "cache" };
    char item[sizeof o->file + 16];
    const char *p = spec;
    for (bool first = true; *p || first; first = false) {
        if (!hexsim_virtio_opt_item(&p, item, sizeof item))
            return bad(msg, msglen, spec, "file name too long", NULL);
        char *eq = strchr(item, '=');
        const char *key = item, *val;
        if (!eq && first) {
            key = "file";
            val = item;
        } else if (!eq) {
            return bad(msg, msglen, spec, "expected key=value, got", item);
        } else {
            *eq = '\0';
            val = eq + 1;
        }
        unsigned k = 0;
        while (k < 4 && strcmp(key, keys[k]) != 0)
            k++;
        if (k == 4)
            return bad(msg, msglen, spec, "unknown key (file, format, readonly, cache):", key);
        if (seen & (1u << k))
            return bad(msg, msglen, spec, "key given twice:", key);
        seen |= 1u << k;
        if (k == 0) {
            if (!*val)
                return bad(msg, msglen, spec, "empty file name", NULL);
            size_t n = strlen(val);
            if (n >= sizeof o->file)
                return bad(msg, msglen, spec, "file name too long", NULL);
            memcpy(o->file, val, n + 1);
        } else if (k == 1) {
            if (strcmp(val, "raw") != 0)
                return bad(msg, msglen, spec, "only format=raw is supported, got", val);
        } else if (k == 2) {
            if (on_off(val, &o->readonly))
                return bad(msg, msglen, spec, "readonly takes on or off, got", val);
        } else if (strcmp(val, "writeback") == 0) {
            o->writethrough = false;
        } else if (strcmp(val, "writethrough") == 0) {
            o->writethrough = true;
        } else {
            return bad(msg, msglen, spec, "cache takes writeback or writethrough, got", val);
        }
    }
    if (!(seen & 1u))
        return bad(msg, msglen, spec, "no file=IMG given", NULL);
    return 0;
}
