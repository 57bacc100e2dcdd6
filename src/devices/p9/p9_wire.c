// SPDX-License-Identifier: MIT
// The 9P wire format (src/devices/p9/p9_int.h): integers little-endian of 1, 2, 4 and 8
// bytes, strings as a 2-byte length then the bytes (no NUL), a qid as type[1] version[4]
// path[8]. Facts: Linux 6.1 net/9p/protocol.c's field letters (b w d q s Q) and
// include/net/9p/9p.h (P9_QTDIR 0x80, P9_QTSYMLINK 0x02, P9_QTFILE 0).
#include <string.h>

#include "p9_int.h"

static const uint8_t *take(struct p9_in *in, size_t n)
{
    if (in->bad || n > in->n - in->off) {
        in->bad = true;
        return NULL;
    }
    const uint8_t *p = in->p + in->off;
    in->off += n;
    return p;
}

static uint64_t get_le(struct p9_in *in, unsigned n)
{
    const uint8_t *p = take(in, n);
    uint64_t v = 0;
    for (unsigned i = 0; p && i < n; i++)
        v |= (uint64_t)p[i] << (8 * i);
    return v;
}

uint8_t p9_get8(struct p9_in *in) { return (uint8_t)get_le(in, 1); }
uint16_t p9_get16(struct p9_in *in) { return (uint16_t)get_le(in, 2); }
uint32_t p9_get32(struct p9_in *in) { return (uint32_t)get_le(in, 4); }
uint64_t p9_get64(struct p9_in *in) { return get_le(in, 8); }

void p9_getstr(struct p9_in *in, char *buf, size_t cap)
{
    size_t n = p9_get16(in);
    const uint8_t *p = take(in, n);
    buf[0] = '\0';
    if (!p)
        return;
    if (n >= cap || memchr(p, 0, n)) {
        in->bad = true;
        return;
    }
    memcpy(buf, p, n);
    buf[n] = '\0';
}

uint8_t *p9_room(struct p9_out *o, size_t n)
{
    if (o->full || n > o->cap - o->off) {
        o->full = true;
        return NULL;
    }
    return o->p + o->off;
}

void p9_commit(struct p9_out *o, size_t n)
{
    if (!o->full)
        o->off += n;
}

static void put_le(struct p9_out *o, uint64_t v, unsigned n)
{
    uint8_t *p = p9_room(o, n);
    if (!p)
        return;
    for (unsigned i = 0; i < n; i++)
        p[i] = (uint8_t)(v >> (8 * i));
    p9_commit(o, n);
}

void p9_put8(struct p9_out *o, uint8_t v) { put_le(o, v, 1); }
void p9_put16(struct p9_out *o, uint16_t v) { put_le(o, v, 2); }
void p9_put32(struct p9_out *o, uint32_t v) { put_le(o, v, 4); }
void p9_put64(struct p9_out *o, uint64_t v) { put_le(o, v, 8); }

void p9_putstr(struct p9_out *o, const char *s)
{
    size_t n = strlen(s);
    if (n > 0xffff) {
        o->full = true;
        return;
    }
    p9_put16(o, (uint16_t)n);
    uint8_t *p = p9_room(o, n);
    if (p) {
        memcpy(p, s, n);
        p9_commit(o, n);
    }
}

void p9_putqid(struct p9_out *o, const struct stat *st)
{
    uint8_t type = S_ISDIR(st->st_mode) ? 0x80 : S_ISLNK(st->st_mode) ? 0x02 : 0;
    p9_put8(o, type);
    p9_put32(o, 0);
    p9_put64(o, (uint64_t)st->st_ino ^ ((uint64_t)st->st_dev << 48));
}
