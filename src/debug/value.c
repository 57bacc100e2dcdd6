// SPDX-License-Identifier: MIT
// Printing typed values (value.h) in gdb's notation: integers in decimal by signedness,
// chars as 65 'A', bools as true/false, enums by name, pointers in hex with the symbol they
// point at (and the string for char pointers), functions as {type} 0x... <name>, arrays as
// {1, 2, 3} with runs of 10 or more equal elements as <repeats N times> and char arrays as
// strings, structs as {a = 1, b = 2}; a print format letter (x d u o t c a) applies to
// every scalar inside. At most 200 elements of an array are shown, as gdb's default limit.
#include <ctype.h>
#include <inttypes.h>
#include <string.h>

#include "debugger.h"
#include "value.h"

#define MAX_ELEMENTS 200
#define REPEATS 10
#define MAX_SCAN 100000         // elements looked at for runs of repeats in one array

int hexsim_dval_scalar(struct hexsim_debugger *d, const struct hexsim_dval *v, uint64_t *out,
                       char *err, size_t errlen)
{
    const struct hexsim_dtype *t = hexsim_dtype_strip(v->type);
    if (v->where == HEXSIM_V_OPTIMIZED) {
        snprintf(err, errlen, "value has been optimized out");
        return -1;
    }
    if (t && t->kind == HEXSIM_T_NODEBUG) {
        snprintf(err, errlen, "'%s' has unknown type; cast it to its declared type",
                 v->name ? v->name : "?");
        return -1;
    }
    if (!t || !hexsim_dtype_is_scalar(t)) {
        snprintf(err, errlen, t && t->kind != HEXSIM_T_VOID ?
                 "Value can't be converted to integer." : "Attempt to use a void value.");
        return -1;
    }
    uint64_t bits = 0;
    uint32_t size = t->size ? t->size : 4;
    switch (v->where) {
    case HEXSIM_V_MEM:
        if (hexsim_dbg_read_uint(d, v->addr, size > 8 ? 8 : size, 0, &bits)) {
            snprintf(err, errlen, "Cannot access memory at address 0x%x", v->addr);
            return -1;
        }
        break;
    case HEXSIM_V_REG: {
        uint32_t r;
        if (hexsim_dbg_frame_reg(d, v->reg, &r)) {
            snprintf(err, errlen, "value is not available in this frame (r%u)", v->reg);
            return -1;
        }
        bits = r;
        break;
    }
    default:
        bits = v->bits;
        break;
    }
    *out = hexsim_dtype_extend(t, bits);
    return 0;
}

static void put_char(FILE *out, unsigned c, char quote)
{
    switch (c) {
    case '\n': fputs("\\n", out); return;
    case '\t': fputs("\\t", out); return;
    case '\r': fputs("\\r", out); return;
    case '\033': fputs("\\033", out); return;
    default:
        if (c == (unsigned char)quote || c == '\\')
            fprintf(out, "\\%c", c);
        else if (isprint((int)c))
            fputc((int)c, out);
        else
            fprintf(out, "\\%03o", c);
    }
}

// A symbol for a pointer's target: " <sym+off>" when one contains it.
static void pointer_sym(struct hexsim_debugger *d, uint32_t a, FILE *out)
{
    char sym[160];
    if (a && hexsim_dbg_symbolize(d, a, sym, sizeof(sym))[0]) {
        const struct hexsim_sym *s = hexsim_symtab_lookup(hexsim_dbg_symtab(d), a);
        if (s && (s->size || a == s->addr))
            fprintf(out, " %s", sym);
    }
}

// The string at a (a char pointer's target): up to 200 characters.
static void c_string(struct hexsim_debugger *d, uint32_t a, FILE *out)
{
    uint8_t ch;
    fputs(" \"", out);
    for (unsigned n = 0;; n++) {
        if (d->t.ops->read_mem(d->t.ctx, d->thread, a + n, &ch, 1, 0) != 1) {
            fprintf(out, "\"<error: Cannot access memory at address 0x%x>", a + n);
            return;
        }
        if (!ch)
            break;
        if (n == MAX_ELEMENTS) {
            fputs("\"...", out);
            return;
        }
        put_char(out, ch, '"');
    }
    fputc('"', out);
}

static void scalar(struct hexsim_debugger *d, const struct hexsim_dtype *t, uint64_t bits,
                   char fmt, FILE *out)
{
    t = hexsim_dtype_strip(t);
    uint32_t size = t->size ? t->size : 4;
    uint64_t mask = size >= 8 ? ~0ull : (1ull << (8 * size)) - 1;
    uint64_t u = bits & mask;
    switch (fmt) {
    case 'x': fprintf(out, "0x%" PRIx64, u); return;
    case 'o': fprintf(out, "0%" PRIo64, u); return;
    case 'u': fprintf(out, "%" PRIu64, u); return;
    case 'd': fprintf(out, "%" PRId64, (int64_t)hexsim_dtype_extend(
                          hexsim_dtype_builtin(&d->types, size == 8 ? "long long" : size == 2 ?
                                               "short" : size == 1 ? "signed char" : "int"), u));
              return;
    case 't': {
        int top = 63;
        while (top > 0 && !(u >> top & 1))
            top--;
        for (int i = top; i >= 0; i--)
            fputc('0' + (int)(u >> i & 1), out);
        return;
    }
    case 'c':
        fprintf(out, "%d '", (int)(int8_t)u);
        put_char(out, (unsigned)(u & 0xff), '\'');
        fputc('\'', out);
        return;
    case 'a':
        fprintf(out, "0x%" PRIx64, u);
        pointer_sym(d, (uint32_t)u, out);
        return;
    default:
        break;
    }
    switch (t->kind) {
    case HEXSIM_T_PTR: {
        fprintf(out, "0x%" PRIx64, u);
        const struct hexsim_dtype *to = hexsim_dtype_strip(t->target);
        if (to && to->kind == HEXSIM_T_INT && to->is_char && u)
            c_string(d, (uint32_t)u, out);
        else
            pointer_sym(d, (uint32_t)u, out);
        return;
    }
    case HEXSIM_T_BOOL:
        if (u <= 1)
            fputs(u ? "true" : "false", out);
        else
            fprintf(out, "%" PRIu64, u);
        return;
    case HEXSIM_T_ENUM:
        for (unsigned i = 0; i < t->nen; i++)
            if ((uint64_t)t->en[i].value == bits) {
                fputs(t->en[i].name, out);
                return;
            }
        fprintf(out, t->is_signed ? "%" PRId64 : "%" PRIu64, bits);
        return;
    case HEXSIM_T_FLOAT:
        if (size == 4) {
            float f;
            uint32_t w = (uint32_t)u;
            memcpy(&f, &w, 4);
            fprintf(out, "%.9g", (double)f);
        } else {
            double f;
            memcpy(&f, &u, 8);
            fprintf(out, "%.17g", f);
        }
        return;
    default:
        if (t->is_char) {
            fprintf(out, "%d '", (int)(t->is_signed ? (int8_t)u : (uint8_t)u));
            put_char(out, (unsigned)(u & 0xff), '\'');
            fputc('\'', out);
        } else {
            fprintf(out, t->is_signed ? "%" PRId64 : "%" PRIu64, t->is_signed ? bits : u);
        }
    }
}

static void value_at(struct hexsim_debugger *d, const struct hexsim_dtype *t, uint32_t a,
                     char fmt, FILE *out, unsigned depth);

static bool same_bytes(struct hexsim_debugger *d, uint32_t a, uint32_t b, uint32_t size)
{
    uint8_t x[64], y[64];
    if (size > sizeof(x))
        return false;
    return d->t.ops->read_mem(d->t.ctx, d->thread, a, x, size, 0) == size &&
           d->t.ops->read_mem(d->t.ctx, d->thread, b, y, size, 0) == size &&
           memcmp(x, y, size) == 0;
}

static void char_array(struct hexsim_debugger *d, uint32_t a, uint32_t n, FILE *out)
{
    uint8_t buf[MAX_ELEMENTS];
    uint32_t len = n < MAX_ELEMENTS ? n : MAX_ELEMENTS;
    if (d->t.ops->read_mem(d->t.ctx, d->thread, a, buf, len, 0) != len) {
        fprintf(out, "<error: Cannot access memory at address 0x%x>", a);
        return;
    }
    uint32_t end = len;   // gdb drops the trailing NULs of a char array's printing
    while (end > 0 && buf[end - 1] == 0)
        end--;
    bool open = false;
    bool any = false;
    for (uint32_t i = 0; i < end;) {
        uint32_t run = 1;
        while (i + run < end && buf[i + run] == buf[i])
            run++;
        if (run >= REPEATS) {
            fprintf(out, "%s%s'", open ? "\", " : any ? ", " : "", "");
            put_char(out, buf[i], '\'');
            fprintf(out, "' <repeats %u times>", run);
            open = false;
            any = true;
            i += run;
            continue;
        }
        if (!open)
            fputs(any ? ", \"" : "\"", out);
        open = any = true;
        put_char(out, buf[i], '"');
        i++;
    }
    if (open)
        fputc('"', out);
    if (!any)
        fputs("\"\"", out);
    if (len < n)
        fputs("...", out);
}

static void value_at(struct hexsim_debugger *d, const struct hexsim_dtype *type, uint32_t a,
                     char fmt, FILE *out, unsigned depth)
{
    const struct hexsim_dtype *t = hexsim_dtype_strip(type);
    if (!t || t->kind == HEXSIM_T_VOID) {
        fputs("void", out);
        return;
    }
    if (depth > 8) {
        fputs("{...}", out);
        return;
    }
    if (t->kind == HEXSIM_T_ARRAY) {
        const struct hexsim_dtype *e = hexsim_dtype_strip(t->target);
        uint32_t es = hexsim_dtype_size(t->target);
        if (e && e->kind == HEXSIM_T_INT && e->is_char && !fmt) {
            char_array(d, a, t->count, out);
            return;
        }
        fputc('{', out);
        uint32_t shown = 0;
        for (uint32_t i = 0; i < t->count;) {
            if (shown >= MAX_ELEMENTS || i >= MAX_SCAN) {
                fputs("...", out);
                break;
            }
            uint32_t run = 1;
            while (i + run < t->count && i + run < MAX_SCAN && es &&
                   same_bytes(d, a + i * es, a + (i + run) * es, es))
                run++;
            if (i)
                fputs(", ", out);
            value_at(d, t->target, a + i * es, fmt, out, depth + 1);
            if (run >= REPEATS) {
                fprintf(out, " <repeats %u times>", run);
                i += run;
            } else {
                i++;
            }
            shown++;
        }
        fputc('}', out);
        return;
    }
    if (t->kind == HEXSIM_T_STRUCT || t->kind == HEXSIM_T_UNION) {
        fputc('{', out);
        for (unsigned i = 0; i < t->nmem; i++) {
            const struct hexsim_dmember *m = &t->mem[i];
            if (i)
                fputs(", ", out);
            if (m->name)
                fprintf(out, "%s = ", m->name);
            if (m->bit_size) {
                uint64_t bits = 0;
                unsigned bytes = (m->bit_offset + m->bit_size + 7) / 8;
                if (hexsim_dbg_read_uint(d, a + m->offset, bytes > 4 ? 8 : bytes > 2 ? 4 : bytes,
                                         0, &bits)) {
                    fprintf(out, "<error: Cannot access memory at address 0x%x>", a + m->offset);
                    continue;
                }
                bits = bits >> m->bit_offset & ((1ull << m->bit_size) - 1);
                const struct hexsim_dtype *mt = hexsim_dtype_strip(m->type);
                if (mt && mt->is_signed && (bits >> (m->bit_size - 1) & 1))
                    bits |= ~((1ull << m->bit_size) - 1);
                scalar(d, m->type, bits, fmt, out);
            } else {
                value_at(d, m->type, a + m->offset, fmt, out, depth + 1);
            }
        }
        fputc('}', out);
        return;
    }
    if (t->kind == HEXSIM_T_FUNC) {
        char name[256];
        hexsim_dtype_name(type, "", name, sizeof(name));
        fprintf(out, "{%s} 0x%x", name, a);
        pointer_sym(d, a, out);
        return;
    }
    uint64_t bits;
    uint32_t size = t->size ? t->size : 4;
    if (hexsim_dbg_read_uint(d, a, size > 8 ? 8 : size, 0, &bits)) {
        fprintf(out, "<error: Cannot access memory at address 0x%x>", a);
        return;
    }
    scalar(d, type, hexsim_dtype_extend(type, bits), fmt, out);
}

void hexsim_dval_print(struct hexsim_debugger *d, const struct hexsim_dval *v, char fmt,
                       FILE *out)
{
    const struct hexsim_dtype *t = hexsim_dtype_strip(v->type);
    if (v->where == HEXSIM_V_OPTIMIZED) {
        fputs("<optimized out>", out);
        return;
    }
    if (t && t->kind == HEXSIM_T_NODEBUG) {   // a function symbol without debug information
        fprintf(out, "{<text variable, no debug info>} 0x%x", v->addr);
        pointer_sym(d, v->addr, out);
        return;
    }
    if (v->where == HEXSIM_V_MEM && t && !hexsim_dtype_is_scalar(t)) {
        value_at(d, v->type, v->addr, fmt, out, 0);
        return;
    }
    if (t && !hexsim_dtype_is_scalar(t)) {
        fputs(t->kind == HEXSIM_T_VOID ? "void" : "<not in memory>", out);
        return;
    }
    uint64_t bits;
    char err[160];
    if (hexsim_dval_scalar(d, v, &bits, err, sizeof(err))) {
        fprintf(out, "<%s>", err);
        return;
    }
    if (t && t->kind == HEXSIM_T_PTR && !fmt) {
        const struct hexsim_dtype *to = hexsim_dtype_strip(t->target);
        if (!(to && to->kind == HEXSIM_T_INT && to->is_char)) {   // char *: no type prefix
            char name[256];
            hexsim_dtype_name(v->type, "", name, sizeof(name));
            fprintf(out, "(%s) ", name);
        }
    }
    scalar(d, v->type, bits, fmt, out);
}
