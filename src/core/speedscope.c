// SPDX-License-Identifier: MIT
// Speedscope JSON from folded stacks (speedscope.h). Frame names are interned in an
// open-addressing table as the lines are read; the samples are written as they come, the
// weights and frames (known only at the end) after them: JSON does not order an object's
// members.
#include "speedscope.h"

#include "flamegraph.h"

#include <errno.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct frames {
    char **name;                // by index
    uint32_t n, cap;
    uint32_t *slot;             // index + 1, 0: empty
    size_t nslot;
};

static size_t hash(const char *s, size_t len)
{
    size_t h = 2166136261u;   // FNV-1a
    for (size_t i = 0; i < len; i++)
        h = (h ^ (unsigned char)s[i]) * 16777619u;
    return h;
}

static int rehash(struct frames *fr)
{
    size_t n = fr->nslot ? 2 * fr->nslot : 1024;
    uint32_t *s = calloc(n, sizeof(*s));
    if (!s)
        return -1;
    for (uint32_t i = 0; i < fr->n; i++) {
        size_t h = hash(fr->name[i], strlen(fr->name[i])) & (n - 1);
        while (s[h])
            h = (h + 1) & (n - 1);
        s[h] = i + 1;
    }
    free(fr->slot);
    fr->slot = s;
    fr->nslot = n;
    return 0;
}

// The index of the frame called s[0..len), added when new; -1 when out of memory.
static int64_t intern(struct frames *fr, const char *s, size_t len)
{
    if (2 * ((size_t)fr->n + 1) >= fr->nslot && rehash(fr))
        return -1;
    size_t h = hash(s, len) & (fr->nslot - 1);
    for (; fr->slot[h]; h = (h + 1) & (fr->nslot - 1)) {
        const char *t = fr->name[fr->slot[h] - 1];
        if (strncmp(t, s, len) == 0 && t[len] == '\0')
            return fr->slot[h] - 1;
    }
    if (fr->n == fr->cap) {
        uint32_t cap = fr->cap ? 2 * fr->cap : 1024;
        char **nn = realloc(fr->name, cap * sizeof(*nn));
        if (!nn)
            return -1;
        fr->name = nn;
        fr->cap = cap;
    }
    char *c = malloc(len + 1);
    if (!c)
        return -1;
    memcpy(c, s, len);
    c[len] = '\0';
    fr->name[fr->n] = c;
    fr->slot[h] = fr->n + 1;
    return fr->n++;
}

static void json_string(FILE *f, const char *s)
{
    fputc('"', f);
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\')
            fprintf(f, "\\%c", c);
        else if (c < 0x20)
            fprintf(f, "\\u%04x", c);
        else
            fputc(c, f);
    }
    fputc('"', f);
}

// Writes one line's stack as a sample and keeps its weight; -1 when it is not a folded
// line or memory ran out.
static int sample(FILE *f, struct frames *fr, char *line, uint64_t **w, size_t *nw,
                  size_t *wcap)
{
    unsigned long long v;
    if (hexsim_folded_line(line, &v))
        return -1;
    if (*nw == *wcap) {
        size_t cap = *wcap ? 2 * *wcap : 1024;
        uint64_t *n = realloc(*w, cap * sizeof(*n));
        if (!n)
            return -1;
        *w = n;
        *wcap = cap;
    }
    (*w)[(*nw)++] = v;
    fputs(*nw > 1 ? ",[" : "[", f);
    for (char *s = line; *s;) {
        size_t k = strcspn(s, ";");
        int64_t i = intern(fr, s, k);
        if (i < 0)
            return -1;
        fprintf(f, "%s%" PRId64, s == line ? "" : ",", i);
        s += k + (s[k] == ';');
    }
    fputc(']', f);
    return 0;
}

int hexsim_speedscope_write(const char *folded_path, const char *json_path, const char *name,
                            char *msg, size_t msglen)
{
    FILE *in = fopen(folded_path, "r");
    if (!in) {
        snprintf(msg, msglen, "cannot read %s: %s", folded_path, strerror(errno));
        return -1;
    }
    FILE *f = fopen(json_path, "w");
    if (!f) {
        snprintf(msg, msglen, "cannot write %s: %s", json_path, strerror(errno));
        fclose(in);
        return -1;
    }
    struct frames fr = { 0 };
    uint64_t *w = NULL, total = 0;
    size_t nw = 0, wcap = 0;
    char *line = NULL;
    size_t cap = 0;
    unsigned lineno = 0;
    int rc = 0;
    fputs("{\"$schema\":\"https://www.speedscope.app/file-format-schema.json\","
          "\"exporter\":\"hexsim\",\"name\":", f);
    json_string(f, name);
    fputs(",\"activeProfileIndex\":0,\"profiles\":[{\"type\":\"sampled\",\"name\":", f);
    json_string(f, name);
    fputs(",\"unit\":\"none\",\"startValue\":0,\"samples\":[", f);
    while (getline(&line, &cap, in) >= 0) {
        lineno++;
        line[strcspn(line, "\r\n")] = '\0';
        if (!line[0])
            continue;
        if (sample(f, &fr, line, &w, &nw, &wcap)) {
            snprintf(msg, msglen, "%s:%u: not a folded stack (\"a;b;c COUNT\") or out of "
                     "memory", folded_path, lineno);
            rc = -1;
            break;
        }
    }
    fputs("],\"weights\":[", f);
    for (size_t i = 0; i < nw; i++) {
        fprintf(f, "%s%" PRIu64, i ? "," : "", w[i]);
        total += w[i];
    }
    fprintf(f, "],\"endValue\":%" PRIu64 "}],\"shared\":{\"frames\":[", total);
    for (uint32_t i = 0; i < fr.n; i++) {
        fputs(i ? ",{\"name\":" : "{\"name\":", f);
        json_string(f, fr.name[i]);
        fputc('}', f);
    }
    fputs("]}}\n", f);
    if (fclose(f) != 0 && !rc) {
        snprintf(msg, msglen, "cannot write %s: %s", json_path, strerror(errno));
        rc = -1;
    }
    fclose(in);
    free(line);
    free(w);
    for (uint32_t i = 0; i < fr.n; i++)
        free(fr.name[i]);
    free(fr.name);
    free(fr.slot);
    return rc;
}
