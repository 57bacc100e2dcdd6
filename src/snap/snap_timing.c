// SPDX-License-Identifier: MIT
// The timing model's part of a snapshot (snap_machine.c and snap_user.c call these):
//   timing   the mode (--timing) and the parameters (--timing-param) the run used; a
//            restore needs the same, so that the continued run keeps the same clock
//   caches   cache mode only: the tags of L2, then L1I and L1D of each vCPU, in LRU order
// The per-vCPU model state (register ready times, statistics) is part of struct hexsim_cpu,
// saved with the vCPUs; the callers make a restored one safe with hexsim_timing_state_check.
#include "snap_timing.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "user/user.h"

struct snap_timing_rec {
    uint32_t mode;
    struct hexsim_timing_params p;
};

void snap_timing_of_machine(struct snap_timing_view *v, const struct hexsim_machine *m)
{
    memset(v, 0, sizeof(*v));
    v->mode = m->caches_on ? HEXSIM_TIMING_CACHE : HEXSIM_TIMING_SIMPLE;
    v->p = &m->tparams;
    if (!m->caches_on)
        return;
    v->cache[v->ncache++] = (struct hexsim_cache *)&m->l2;
    for (unsigned i = 0; i < m->nvcpu; i++) {
        v->cache[v->ncache++] = (struct hexsim_cache *)&m->caches[i].l1i;
        v->cache[v->ncache++] = (struct hexsim_cache *)&m->caches[i].l1d;
    }
}

void snap_timing_of_user(struct snap_timing_view *v, const struct hexsim_user *u)
{
    memset(v, 0, sizeof(*v));
    v->mode = u->opts.timing == HEXSIM_TIMING_CACHE ? HEXSIM_TIMING_CACHE
                                                     : HEXSIM_TIMING_SIMPLE;
    v->p = u->opts.timing_params ? u->opts.timing_params : &hexsim_timing_default_params;
    if (v->mode != HEXSIM_TIMING_CACHE || !u->caches_made)
        return;
    v->cache[v->ncache++] = (struct hexsim_cache *)&u->l2;
    v->cache[v->ncache++] = (struct hexsim_cache *)&u->caches.l1i;
    v->cache[v->ncache++] = (struct hexsim_cache *)&u->caches.l1d;
}

static size_t tags_bytes(const struct hexsim_cache *c)
{
    return (size_t)c->sets * c->ways * sizeof(*c->tag);
}

static size_t caches_bytes(const struct snap_timing_view *v)
{
    size_t n = 0;
    for (unsigned i = 0; i < v->ncache; i++)
        n += tags_bytes(v->cache[i]);
    return n;
}

int snap_timing_save(struct snap_image *im, const struct snap_timing_view *v)
{
    struct snap_timing_rec t;
    memset(&t, 0, sizeof(t));
    t.mode = v->mode;
    t.p = *v->p;
    if (snap_add(im, "timing", &t, sizeof(t)))
        return -1;
    if (v->mode != HEXSIM_TIMING_CACHE)
        return 0;
    size_t n = caches_bytes(v), off = 0;
    uint8_t *b = malloc(n ? n : 1);
    if (!b)
        return -1;
    for (unsigned i = 0; i < v->ncache; i++) {
        memcpy(b + off, v->cache[i]->tag, tags_bytes(v->cache[i]));
        off += tags_bytes(v->cache[i]);
    }
    int rc = snap_add(im, "caches", b, n);
    free(b);
    return rc;
}

unsigned snap_timing_sections(const struct snap_timing_view *v)
{
    return v->mode == HEXSIM_TIMING_CACHE ? 2 : 1;
}

int snap_timing_check(const struct snap_image *im, const struct snap_timing_view *v,
                      const char *path, char *msg, size_t msglen)
{
    const struct snap_section *s = snap_get(im, "timing");
    struct snap_timing_rec t;
    if (!s || s->len != sizeof(t)) {
        snprintf(msg, msglen, "snapshot %s: section timing: %s", path,
                 s ? "another size than this hexsim's" : "missing");
        return -1;
    }
    memcpy(&t, s->data, sizeof(t));
    if (t.mode != v->mode || memcmp(&t.p, v->p, sizeof(t.p)) != 0) {
        snprintf(msg, msglen, "snapshot %s: taken with --timing=%s%s; continue it with the "
                 "same timing options (--timing-info lists the parameters)", path,
                 t.mode == HEXSIM_TIMING_CACHE ? "cache" : t.mode == HEXSIM_TIMING_SIMPLE
                 ? "simple" : "?", t.mode == v->mode ? " and other --timing-param values" : "");
        return -1;
    }
    if (v->mode != HEXSIM_TIMING_CACHE)
        return 0;
    const struct snap_section *c = snap_get(im, "caches");
    if (!c || c->len != caches_bytes(v)) {
        snprintf(msg, msglen, "snapshot %s: section caches: %s", path,
                 c ? "another size than this run's caches" : "missing");
        return -1;
    }
    return 0;
}

void snap_timing_apply(const struct snap_image *im, const struct snap_timing_view *v)
{
    const struct snap_section *c = snap_get(im, "caches");
    if (!c)
        return;
    size_t off = 0;
    for (unsigned i = 0; i < v->ncache; i++) {
        memcpy(v->cache[i]->tag, c->data + off, tags_bytes(v->cache[i]));
        off += tags_bytes(v->cache[i]);
    }
}
