// SPDX-License-Identifier: MIT
// The value of --share: DIR[,tag=NAME][,readonly=on|off] (DIR may also be given as
// path=DIR; a comma in it written twice, as for --drive). The tag is what the guest
// mounts (`mount -t 9p -o trans=virtio NAME /mnt`): 1 to 31 letters, digits, '_', '-' or
// '.'; by default hexsim0 for the first --share, hexsim1 for the second. The directory
// itself is opened when the machine is made (virtio_9p.c).
#include <stdio.h>
#include <string.h>

#include "hexsim/virtio.h"

static int bad(char *msg, size_t msglen, const char *spec, const char *why, const char *what)
{
    snprintf(msg, msglen, "--share %s: %s%s%s", spec, why, what ? " " : "", what ? what : "");
    return -1;
}

static bool tag_ok(const char *t)
{
    size_t n = strlen(t);
    if (n == 0 || n > HEXSIM_P9_TAG_MAX)
        return false;
    for (size_t i = 0; i < n; i++) {
        char c = t[i];
        if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
              c == '_' || c == '-' || c == '.'))
            return false;
    }
    return true;
}

int hexsim_share_parse(const char *spec, unsigned n, struct hexsim_share_opts *o, char *msg,
                       size_t msglen)
{
    memset(o, 0, sizeof(*o));
    snprintf(o->tag, sizeof o->tag, "hexsim%u", n);
    bool seen_dir = false, seen_tag = false, seen_ro = false;
    char item[sizeof o->dir + 8];
    const char *p = spec;
    for (bool first = true; *p || first; first = false) {
        if (!hexsim_virtio_opt_item(&p, item, sizeof item))
            return bad(msg, msglen, spec, "directory name too long", NULL);
        char *eq = strchr(item, '=');
        const char *key = "path", *val = item;
        if (eq && !(first && strncmp(item, "path=", 5) != 0 && strncmp(item, "tag=", 4) != 0 &&
                    strncmp(item, "readonly=", 9) != 0)) {
            *eq = '\0';
            key = item;
            val = eq + 1;
        } else if (!first) {
            return bad(msg, msglen, spec, "expected key=value, got", item);
        }
        bool *seen = strcmp(key, "path") == 0 ? &seen_dir : strcmp(key, "tag") == 0 ? &seen_tag
                     : strcmp(key, "readonly") == 0 ? &seen_ro : NULL;
        if (!seen)
            return bad(msg, msglen, spec, "unknown key (path, tag, readonly):", key);
        if (*seen)
            return bad(msg, msglen, spec, "key given twice:", key);
        *seen = true;
        if (seen == &seen_dir) {
            if (!*val || strlen(val) >= sizeof o->dir)
                return bad(msg, msglen, spec, "empty or too long directory name", NULL);
            strcpy(o->dir, val);
        } else if (seen == &seen_tag) {
            if (!tag_ok(val))
                return bad(msg, msglen, spec,
                           "tag takes 1 to 31 letters, digits, '_', '-' or '.', got", val);
            strcpy(o->tag, val);
        } else if (strcmp(val, "on") == 0 || strcmp(val, "off") == 0) {
            o->readonly = val[1] == 'n';
        } else {
            return bad(msg, msglen, spec, "readonly takes on or off, got", val);
        }
    }
    if (!seen_dir)
        return bad(msg, msglen, spec, "no directory given", NULL);
    return 0;
}
