// SPDX-License-Identifier: MIT
// The HVX registers in the debugger: see vreg.h.
#include "vreg.h"

#include <ctype.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "debugger.h"

int hexsim_dbg_vref_parse(struct hexsim_debugger *d, const char *s, const char **end,
                          struct hexsim_dbg_vref *r, char *err, size_t errlen)
{
    memset(r, 0, sizeof(*r));
    size_t n = 0;
    while (isalnum((unsigned char)s[n]))
        n++;
    if (n == 0 || n >= sizeof(r->name))
        return 1;
    for (size_t i = 0; i < n; i++)
        r->name[i] = (char)tolower((unsigned char)s[i]);
    unsigned count;
    const struct hexsim_dbg_reg_desc *rd = d->t.ops->regs(d->t.ctx, &count);
    const struct hexsim_dbg_reg_desc *found = NULL;
    for (unsigned i = 0; i < count; i++)
        if (rd[i].group == HEXSIM_DBG_GRP_VECTOR && strcmp(rd[i].name, r->name) == 0)
            found = &rd[i];
    if (!found)
        return 1;
    r->num = found->num;
    r->bytes = found->bits / 8u;
    s += n;
    if (*s == '.') {
        static const struct { const char *v; unsigned lane; bool is_signed; } views[] = {
            { "b", 1, true }, { "ub", 1, false }, { "h", 2, true }, { "uh", 2, false },
            { "w", 4, true }, { "uw", 4, false },
        };
        const char *view = s + 1;
        size_t k = 0;
        while (isalpha((unsigned char)s[1 + k]))
            k++;
        for (unsigned i = 0; i < sizeof(views) / sizeof(views[0]); i++)
            if (strlen(views[i].v) == k && strncmp(s + 1, views[i].v, k) == 0) {
                r->lane = views[i].lane;
                r->is_signed = views[i].is_signed;
            }
        if (!r->lane) {
            snprintf(err, errlen, "There is no member named %.*s. (lanes of $%s: b ub h uh w uw)",
                     (int)k, s + 1, r->name);
            return -1;
        }
        s += 1 + k;
        while (isspace((unsigned char)*s))
            s++;
        if (*s == '[') {
            char *e;
            unsigned long i = strtoul(s + 1, &e, 0);
            while (isspace((unsigned char)*e))
                e++;
            if (e == s + 1 || *e != ']') {
                snprintf(err, errlen, "a lane number is needed: $%s.%.*s[N]", r->name, (int)k,
                         view);
                return -1;
            }
            if (i >= r->bytes / r->lane) {
                snprintf(err, errlen, "no lane %lu in $%s (lanes 0-%u)", i, r->name,
                         r->bytes / r->lane - 1);
                return -1;
            }
            r->indexed = true;
            r->index = (unsigned)i;
            s = e + 1;
        }
    }
    *end = s;
    return 0;
}

int hexsim_dbg_vreg_read(struct hexsim_debugger *d, unsigned num, void *buf)
{
    if (!d->t.ops->read_wide)
        return -1;
    return d->t.ops->read_wide(d->t.ctx, d->thread, num, buf);
}

int hexsim_dbg_vreg_write(struct hexsim_debugger *d, unsigned num, const void *buf)
{
    if (!d->t.ops->write_wide)
        return -1;
    return d->t.ops->write_wide(d->t.ctx, d->thread, num, buf);
}

uint64_t hexsim_dbg_vlane(const uint8_t *buf, unsigned lane, unsigned i, bool is_signed)
{
    uint64_t v = 0;
    for (unsigned k = 0; k < lane; k++)
        v |= (uint64_t)buf[i * lane + k] << (8 * k);
    if (is_signed && lane < 8 && (v >> (8 * lane - 1) & 1))
        v |= ~0ull << (8 * lane);
    return v;
}

static void lane_print(uint64_t v, unsigned lane, bool is_signed, char fmt, FILE *out)
{
    uint64_t m = v & (UINT64_MAX >> (64 - 8 * lane));
    if (fmt == 'z')
        fprintf(out, "0x%0*" PRIx64, 2 * lane, m);
    else if (fmt == 'x')
        fprintf(out, "0x%" PRIx64, m);
    else if (is_signed)
        fprintf(out, "%" PRId64, (int64_t)v);
    else
        fprintf(out, "%" PRIu64, v);
}

void hexsim_dbg_vlanes_print(const uint8_t *buf, unsigned bytes, unsigned lane, bool is_signed,
                             char fmt, FILE *out)
{
    unsigned n = bytes / lane;
    fputc('{', out);
    for (unsigned i = 0; i < n;) {
        uint64_t v = hexsim_dbg_vlane(buf, lane, i, is_signed);
        unsigned run = 1;
        while (i + run < n && hexsim_dbg_vlane(buf, lane, i + run, is_signed) == v)
            run++;
        if (i)
            fputs(", ", out);
        lane_print(v, lane, is_signed, fmt, out);
        if (run >= 10) {   // gdb's repeat threshold
            fprintf(out, " <repeats %u times>", run);
            i += run;
        } else {
            i++;
        }
    }
    fputc('}', out);
}

static void q_hex(const uint8_t *buf, unsigned bytes, FILE *out)
{
    fputs("0x", out);
    for (unsigned i = bytes; i-- > 0;)
        fprintf(out, "%02x", buf[i]);
}

void hexsim_dbg_vref_print(struct hexsim_debugger *d, const struct hexsim_dbg_vref *r,
                           const uint8_t *buf, char fmt, FILE *out)
{
    (void)d;
    if (r->lane) {
        hexsim_dbg_vlanes_print(buf, r->bytes, r->lane, r->is_signed, fmt, out);
    } else if (r->bytes < HEXSIM_DBG_REG_MAX_BYTES) {
        q_hex(buf, r->bytes, out);
    } else {
        static const char *const names[3] = { "b", "h", "w" };
        fputc('{', out);
        for (unsigned k = 0; k < 3; k++) {
            fprintf(out, "%s%s = ", k ? ", " : "", names[k]);
            hexsim_dbg_vlanes_print(buf, r->bytes, 1u << k, true, fmt, out);
        }
        fputc('}', out);
    }
}

static void show_one(struct hexsim_debugger *d, const struct hexsim_dbg_vref *r, FILE *out)
{
    uint8_t buf[HEXSIM_DBG_REG_MAX_BYTES];
    if (hexsim_dbg_vreg_read(d, r->num, buf)) {
        fprintf(out, "%-10s<unavailable>\n", r->name);
        return;
    }
    if (r->bytes < HEXSIM_DBG_REG_MAX_BYTES && !r->lane) {   // a Q register
        fprintf(out, "%-10s", r->name);
        q_hex(buf, r->bytes, out);
        fputc('\n', out);
        return;
    }
    static const char *const sv[3] = { "b", "h", "w" }, *const uv[3] = { "ub", "uh", "uw" };
    for (unsigned k = 0; k < 3; k++) {
        unsigned lane = 1u << k;
        if (r->lane && r->lane != lane)
            continue;
        char label[16];
        snprintf(label, sizeof(label), "%s.%s", r->name, r->lane && !r->is_signed ? uv[k] : sv[k]);
        fprintf(out, "%-10s", label);
        hexsim_dbg_vlanes_print(buf, r->bytes, lane, !r->lane || r->is_signed, 0, out);
        fputc('\n', out);
    }
    fprintf(out, "%-10s", r->lane ? "" : r->name);
    hexsim_dbg_vlanes_print(buf, r->bytes, r->lane ? r->lane : 4, false, 'z', out);
    fputc('\n', out);
}

void hexsim_dbg_info_vector(struct hexsim_debugger *d, const char *args, FILE *out)
{
    while (isspace((unsigned char)*args))
        args++;
    if (!*args) {
        unsigned count;
        const struct hexsim_dbg_reg_desc *rd = d->t.ops->regs(d->t.ctx, &count);
        bool any = false;
        for (unsigned i = 0; i < count; i++) {
            if (rd[i].group != HEXSIM_DBG_GRP_VECTOR)
                continue;
            any = true;
            uint8_t buf[HEXSIM_DBG_REG_MAX_BYTES];
            fprintf(out, "%-10s", rd[i].name);
            if (hexsim_dbg_vreg_read(d, rd[i].num, buf))
                fputs("<unavailable>", out);
            else if (rd[i].bits / 8u < HEXSIM_DBG_REG_MAX_BYTES)
                q_hex(buf, rd[i].bits / 8u, out);
            else
                hexsim_dbg_vlanes_print(buf, rd[i].bits / 8u, 4, false, 'z', out);
            fputc('\n', out);
        }
        if (!any)
            fprintf(out, "The target has no vector registers (a core without HVX).\n");
        return;
    }
    while (*args) {
        size_t n = strcspn(args, " \t");
        char word[64], err[160];
        snprintf(word, sizeof(word), "%.*s", (int)n, args);
        const char *w = word[0] == '$' ? word + 1 : word, *end = w;
        struct hexsim_dbg_vref r;
        int rc = hexsim_dbg_vref_parse(d, w, &end, &r, err, sizeof(err));
        if (rc > 0 || (rc == 0 && (*end || r.indexed)))
            fprintf(out, "Invalid vector register `%s'\n", word);
        else if (rc < 0)
            fprintf(out, "%s\n", err);
        else
            show_one(d, &r, out);
        args += n;
        while (isspace((unsigned char)*args))
            args++;
    }
}
