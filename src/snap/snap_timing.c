// SPDX-License-Identifier: MIT
// The timing model's part of a system-mode snapshot (snap_machine.c calls these):
//   timing   the mode (--timing) and the parameters (--timing-param) the run used; a
//            restore needs the same, so that the continued run keeps the same clock
//   caches   cache mode only: the tags of L2, then L1I and L1D of each vCPU, in LRU order
// The per-vCPU model state (register ready times, statistics) is part of struct hexsim_cpu,
// saved with the vCPUs; hexsim_timing_state_check makes a restored one safe to use.
#include "snap_timing.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hexsim/machine.h"

struct snap_timing_rec {
    uint32_t mode;
    struct hexsim_timing_params p;
};

static size_t tags_bytes(const struct hexsim_cache *c)
{
    return (size_t)c->sets * c->ways * sizeof(*c->tag);
}

static size_t caches_bytes(const struct hexsim_machine *m)
{
    size_t n = tags_bytes(&m->l2);
    for (unsigned i = 0; i < m->nvcpu; i++)
        n += tags_bytes(&m->caches[i].l1i) + tags_bytes(&m->caches[i].l1d);
    return n;
}

// The caches in section order: L2, then each vCPU's L1I and L1D. Returns how many.
static unsigned cache_list(const struct hexsim_machine *m, struct hexsim_cache **list)
{
    unsigned k = 0;
    list[k++] = (struct hexsim_cache *)&m->l2;
    for (unsigned i = 0; i < m->nvcpu; i++) {
        list[k++] = (struct hexsim_cache *)&m->caches[i].l1i;
        list[k++] = (struct hexsim_cache *)&m->caches[i].l1d;
    }
    return k;
}

int snap_timing_save(struct snap_image *im, const struct hexsim_machine *m)
{
    struct snap_timing_rec t;
    memset(&t, 0, sizeof(t));
    t.mode = m->caches_on ? HEXSIM_TIMING_CACHE : HEXSIM_TIMING_SIMPLE;
    t.p = m->tparams;
    if (snap_add(im, "timing", &t, sizeof(t)))
        return -1;
    if (!m->caches_on)
        return 0;
    size_t n = caches_bytes(m), off = 0;
    uint8_t *b = malloc(n ? n : 1);
    if (!b)
        return -1;
    struct hexsim_cache *list[1 + 2 * HEXSIM_MAX_VCPUS];
    unsigned k = cache_list(m, list);
    for (unsigned i = 0; i < k; i++) {
        memcpy(b + off, list[i]->tag, tags_bytes(list[i]));
        off += tags_bytes(list[i]);
    }
    int rc = snap_add(im, "caches", b, n);
    free(b);
    return rc;
}

unsigned snap_timing_sections(const struct hexsim_machine *m)
{
    return m->caches_on ? 2 : 1;
}

int snap_timing_check(const struct snap_image *im, const struct hexsim_machine *m,
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
    uint32_t mode = m->caches_on ? HEXSIM_TIMING_CACHE : HEXSIM_TIMING_SIMPLE;
    if (t.mode != mode || memcmp(&t.p, &m->tparams, sizeof(t.p)) != 0) {
        snprintf(msg, msglen, "snapshot %s: taken with --timing=%s%s; continue it with the "
                 "same timing options (--timing-info lists the parameters)", path,
                 t.mode == HEXSIM_TIMING_CACHE ? "cache" : t.mode == HEXSIM_TIMING_SIMPLE
                 ? "simple" : "?", t.mode == mode ? " and other --timing-param values" : "");
        return -1;
    }
    if (!m->caches_on)
        return 0;
    const struct snap_section *c = snap_get(im, "caches");
    if (!c || c->len != caches_bytes(m)) {
        snprintf(msg, msglen, "snapshot %s: section caches: %s", path,
                 c ? "another size than this machine's caches" : "missing");
        return -1;
    }
    return 0;
}

void snap_timing_apply(const struct snap_image *im, struct hexsim_machine *m)
{
    for (unsigned i = 0; i < m->nvcpu; i++)
        hexsim_timing_state_check(&m->vcpu[i].cpu.tm);
    if (!m->caches_on)
        return;
    const struct snap_section *c = snap_get(im, "caches");
    size_t off = 0;
    struct hexsim_cache *list[1 + 2 * HEXSIM_MAX_VCPUS];
    unsigned k = cache_list(m, list);
    for (unsigned i = 0; i < k; i++) {
        memcpy(list[i]->tag, c->data + off, tags_bytes(list[i]));
        off += tags_bytes(list[i]);
    }
}
