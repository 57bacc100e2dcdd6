// SPDX-License-Identifier: MIT
// Debugger expressions (value.h, debugger.h hexsim_dbg_eval): a recursive-descent parser
// over a C subset, evaluated with C types as it parses. Operands: decimal, 0x hex, 0b binary
// and 0 octal numbers (int, else unsigned int, else long long, as C types constants),
// 'c' characters, $registers ($r0, $sp, $pc, $p0, $usr; of the selected frame), variables
// (DWARF: the selected frame's locals and parameters, then globals), ELF symbols without
// debug information (gdb's "<data variable, no debug info>": usable through & or a cast),
// casts to base types, typedefs, struct/union/enum types and pointers to them, sizeof,
// unary - + ~ ! * &, postfix [] . ->, and C's binary operators with the usual arithmetic
// conversions and pointer arithmetic. Floating-point values print but take no arithmetic.
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "debugger.h"
#include "value.h"
#include "vreg.h"

struct parser {
    struct hexsim_debugger *d;
    const char *s;
    char *err;
    size_t errlen;
    bool failed;
    bool lenient;       // a command that wants an address (hexsim_dbg_eval)
};

typedef struct hexsim_dval val;

static void fail(struct parser *p, const char *fmt, ...)
{
    if (p->failed)
        return;
    p->failed = true;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(p->err, p->errlen, fmt, ap);
    va_end(ap);
}

static void skip(struct parser *p)
{
    while (isspace((unsigned char)*p->s))
        p->s++;
}

static bool eat(struct parser *p, const char *op)
{
    skip(p);
    size_t n = strlen(op);
    if (strncmp(p->s, op, n) != 0)
        return false;
    // do not take "<" out of "<<" or "<=", "&" out of "&&", "-" out of "->", and so on
    if (n == 1 && strchr("<>&|", op[0]) &&
        (p->s[1] == op[0] || (strchr("<>", op[0]) && p->s[1] == '=')))
        return false;
    if (n == 1 && (op[0] == '!' || op[0] == '=') && p->s[1] == '=')
        return false;
    if (n == 1 && op[0] == '-' && (p->s[1] == '>' || p->s[1] == '-'))
        return false;
    p->s += n;
    return true;
}

static const struct hexsim_dtype *builtin(struct parser *p, const char *name)
{
    return hexsim_dtype_builtin(&p->d->types, name);
}

static val rvalue(const struct hexsim_dtype *t, uint64_t bits)
{
    val v = { .type = t, .where = HEXSIM_V_VALUE, .bits = bits };
    return v;
}

static uint64_t extend(const struct hexsim_dtype *t, uint64_t bits)
{
    return hexsim_dtype_extend(t, bits);
}

static const struct hexsim_dtype *nodebug_type(struct parser *p, bool text)
{
    for (const struct hexsim_dtype *t = p->d->types.all; t; t = t->next_alloc)
        if (t->kind == HEXSIM_T_NODEBUG && t->is_text == text)
            return t;
    struct hexsim_dtype *t = hexsim_dtype_new(&p->d->types, HEXSIM_T_NODEBUG);
    if (t) {
        t->is_text = text;
        t->size = 1;   // pointer arithmetic counts bytes (&sym + 4, main + 4), as in gdb
    }
    return t;
}

static int frame_reg_cb(void *ctx, unsigned r, uint32_t *v)
{
    return hexsim_dbg_frame_reg(ctx, r, v);
}

// ---- conversions

static bool get_scalar(struct parser *p, const val *v, uint64_t *out)
{
    if (p->failed)
        return false;
    char err[160];
    if (hexsim_dval_scalar(p->d, v, out, err, sizeof(err))) {
        fail(p, "%s", err);
        return false;
    }
    return true;
}

// Arrays and functions become pointers to their first element / to themselves; a symbol
// without debug information is an error (or, for a command that wants an address, the
// address).
static val decay(struct parser *p, val v)
{
    const struct hexsim_dtype *t = hexsim_dtype_strip(v.type);
    if (p->failed || !t)
        return v;
    if (t->kind == HEXSIM_T_NODEBUG) {
        if (p->lenient || t->is_text)
            return rvalue(t->is_text ? hexsim_dtype_pointer(&p->d->types, t) : builtin(p, "int"),
                          v.addr);
        fail(p, "'%s' has unknown type; cast it to its declared type", v.name ? v.name : "?");
        return v;
    }
    if (t->kind == HEXSIM_T_ARRAY && v.where == HEXSIM_V_MEM)
        return rvalue(hexsim_dtype_pointer(&p->d->types, t->target), v.addr);
    if (t->kind == HEXSIM_T_FUNC && v.where == HEXSIM_V_MEM)
        return rvalue(hexsim_dtype_pointer(&p->d->types, v.type), v.addr);
    return v;
}

static bool is_int(const struct hexsim_dtype *t)
{
    t = hexsim_dtype_strip(t);
    return t && (t->kind == HEXSIM_T_INT || t->kind == HEXSIM_T_BOOL || t->kind == HEXSIM_T_ENUM);
}

static bool is_ptr(const struct hexsim_dtype *t)
{
    t = hexsim_dtype_strip(t);
    return t && t->kind == HEXSIM_T_PTR;
}

static val cast(struct parser *p, val v, const struct hexsim_dtype *to)
{
    if (p->failed)
        return v;
    const struct hexsim_dtype *from = hexsim_dtype_strip(v.type);
    const struct hexsim_dtype *t = hexsim_dtype_strip(to);
    if (from && from->kind == HEXSIM_T_NODEBUG && !from->is_text) {
        v.type = to;   // the symbol's memory as its declared type
        v.name = NULL;
        return v;
    }
    if (t && (t->kind == HEXSIM_T_STRUCT || t->kind == HEXSIM_T_UNION ||
              t->kind == HEXSIM_T_ARRAY)) {
        if (v.where != HEXSIM_V_MEM) {
            fail(p, "Invalid cast.");
            return v;
        }
        v.type = to;
        return v;
    }
    if (t && t->kind == HEXSIM_T_VOID)
        return rvalue(to, 0);
    v = decay(p, v);
    const struct hexsim_dtype *f = hexsim_dtype_strip(v.type);
    if ((t && t->kind == HEXSIM_T_FLOAT) || (f && f->kind == HEXSIM_T_FLOAT)) {
        fail(p, "hexsim does not convert floating-point values");
        return v;
    }
    uint64_t bits;
    if (!get_scalar(p, &v, &bits))
        return v;
    if (t && t->kind == HEXSIM_T_BOOL)
        bits = bits != 0;
    return rvalue(to, extend(to, bits));
}

// C's integer promotions and usual arithmetic conversions for a and b.
static const struct hexsim_dtype *common(struct parser *p, const struct hexsim_dtype *a,
                                         const struct hexsim_dtype *b)
{
    a = hexsim_dtype_strip(a);
    b = hexsim_dtype_strip(b);
    uint32_t sa = a && a->kind == HEXSIM_T_INT ? a->size : 4;
    uint32_t sb = b && b->kind == HEXSIM_T_INT ? b->size : 4;
    bool ua = a && a->kind == HEXSIM_T_INT && !a->is_signed && sa >= 4;
    bool ub = b && b->kind == HEXSIM_T_INT && !b->is_signed && sb >= 4;
    if (sa == 8 || sb == 8)
        return builtin(p, (sa == 8 && ua) || (sb == 8 && ub) || (sa == 8 && sb == 8 && (ua || ub))
                              ? "unsigned long long" : "long long");
    return builtin(p, ua || ub ? "unsigned int" : "int");
}

static val binary(struct parser *p, const char *op, val a, val b)
{
    a = decay(p, a);
    b = decay(p, b);
    if (p->failed)
        return a;
    uint64_t x, y;
    if (!get_scalar(p, &a, &x) || !get_scalar(p, &b, &y))
        return a;
    const struct hexsim_dtype *int_t = builtin(p, "int");
    bool pa = is_ptr(a.type), pb = is_ptr(b.type);
    if (!(pa || is_int(a.type)) || !(pb || is_int(b.type))) {
        fail(p, "hexsim evaluates integer and pointer expressions only");
        return a;
    }
    if (op[0] == '&' && op[1] == '&')
        return rvalue(int_t, x && y);
    if (op[0] == '|' && op[1] == '|')
        return rvalue(int_t, x || y);
    if (pa || pb) {
        if ((op[0] == '+' || op[0] == '-') && !op[1] && pa != pb) {
            if (pb && op[0] == '-') {
                fail(p, "Argument to arithmetic operation not a number or boolean.");
                return a;
            }
            const val *ptr = pa ? &a : &b;
            uint64_t n = pa ? y : x;
            uint32_t size = hexsim_dtype_size(hexsim_dtype_strip(ptr->type)->target);
            uint64_t base = pa ? x : y;
            uint64_t r = op[0] == '+' ? base + n * (size ? size : 1) : base - n * (size ? size : 1);
            return rvalue(ptr->type, (uint32_t)r);
        }
        if (op[0] == '-' && !op[1] && pa && pb) {
            uint32_t size = hexsim_dtype_size(hexsim_dtype_strip(a.type)->target);
            return rvalue(int_t, (uint64_t)(int64_t)((int32_t)(x - y) / (int32_t)(size ? size : 1)));
        }
        if (strchr("<>=!", op[0])) {   // compare as addresses
            x = (uint32_t)x, y = (uint32_t)y;
            a.type = b.type = builtin(p, "unsigned int");
        } else {
            fail(p, "Argument to arithmetic operation not a number or boolean.");
            return a;
        }
    }
    bool shift = (op[0] == '<' && op[1] == '<') || (op[0] == '>' && op[1] == '>');
    const struct hexsim_dtype *rt = shift ? common(p, a.type, int_t) : common(p, a.type, b.type);
    bool sgn = hexsim_dtype_strip(rt)->is_signed;
    x = extend(rt, x);
    y = shift ? y : extend(rt, y);
    int64_t sx = (int64_t)x, sy = (int64_t)y;
    uint64_t r;
    switch (op[0]) {
    case '|': r = x | y; break;
    case '^': r = x ^ y; break;
    case '&': r = x & y; break;
    case '=': return rvalue(int_t, x == y);
    case '!': return rvalue(int_t, x != y);
    case '<':
        if (op[1] == '<') {
            r = y < 64 ? x << y : 0;
            break;
        }
        return rvalue(int_t, op[1] ? (sgn ? sx <= sy : x <= y) : (sgn ? sx < sy : x < y));
    case '>':
        if (op[1] == '>') {
            r = y >= 64 ? 0 : sgn ? (uint64_t)(sx >> y) : x >> y;
            break;
        }
        return rvalue(int_t, op[1] ? (sgn ? sx >= sy : x >= y) : (sgn ? sx > sy : x > y));
    case '+': r = x + y; break;
    case '-': r = x - y; break;
    case '*': r = x * y; break;
    default:
        if (extend(rt, y) == 0) {
            fail(p, "Division by zero");
            return a;
        }
        if (sgn && sy == -1)
            r = op[0] == '/' ? (uint64_t)0 - x : 0;
        else if (op[0] == '/')
            r = sgn ? (uint64_t)(sx / sy) : x / y;
        else
            r = sgn ? (uint64_t)(sx % sy) : x % y;
        break;
    }
    return rvalue(rt, extend(rt, r));
}

// ---- types in expressions

static bool is_type_word(const char *w, size_t n)
{
    static const char *const words[] = { "unsigned", "signed", "short", "long", "int", "char",
                                         "void", "_Bool", "float", "double" };
    for (size_t i = 0; i < sizeof(words) / sizeof(words[0]); i++)
        if (strlen(words[i]) == n && strncmp(words[i], w, n) == 0)
            return true;
    return false;
}

static size_t ident_len(const char *s)
{
    size_t n = 0;
    if (!isalpha((unsigned char)s[0]) && s[0] != '_')
        return 0;
    while (isalnum((unsigned char)s[n]) || s[n] == '_')
        n++;
    return n;
}

// A type name at p->s ("unsigned int", "struct s", "u32", then "*"s); NULL (position kept)
// when there is none.
static const struct hexsim_dtype *parse_type(struct parser *p)
{
    const char *start = p->s;
    char name[160] = "";
    const struct hexsim_dtype *t = NULL;
    skip(p);
    for (;;) {   // qualifiers are accepted and dropped
        size_t n = ident_len(p->s);
        if ((n == 5 && strncmp(p->s, "const", 5) == 0) ||
            (n == 8 && strncmp(p->s, "volatile", 8) == 0)) {
            p->s += n;
            skip(p);
            continue;
        }
        break;
    }
    size_t n = ident_len(p->s);
    if (n && ((n == 6 && (strncmp(p->s, "struct", 6) == 0)) ||
              (n == 5 && strncmp(p->s, "union", 5) == 0) ||
              (n == 4 && strncmp(p->s, "enum", 4) == 0))) {
        const char *kw = p->s;
        p->s += n;
        skip(p);
        size_t m = ident_len(p->s);
        snprintf(name, sizeof(name), "%.*s %.*s", (int)n, kw, (int)m, p->s);
        p->s += m;
        t = hexsim_dwarf_type(hexsim_dbg_dwarf(p->d), &p->d->types, name);
        if (!t) {
            fail(p, "No %.*s type named %.*s.", (int)n, kw, (int)m, p->s - m);
            return NULL;
        }
    } else if (n && is_type_word(p->s, n)) {
        while ((n = ident_len(p->s)) && is_type_word(p->s, n)) {
            size_t l = strlen(name);
            snprintf(name + l, sizeof(name) - l, "%s%.*s", l ? " " : "", (int)n, p->s);
            p->s += n;
            skip(p);
        }
        t = builtin(p, name);
        if (!t) {
            fail(p, "unknown type \"%s\"", name);
            return NULL;
        }
    } else if (n) {
        snprintf(name, sizeof(name), "%.*s", (int)n, p->s);
        t = hexsim_dwarf_type(hexsim_dbg_dwarf(p->d), &p->d->types, name);
        if (!t) {
            p->s = start;
            return NULL;
        }
        p->s += n;
    } else {
        p->s = start;
        return NULL;
    }
    for (;;) {
        skip(p);
        if (*p->s == '*') {
            p->s++;
            t = hexsim_dtype_pointer(&p->d->types, t);
        } else if (strncmp(p->s, "const", 5) == 0 && !isalnum((unsigned char)p->s[5])) {
            p->s += 5;
        } else {
            break;
        }
    }
    return t;
}

int hexsim_dbg_parse_type(struct hexsim_debugger *d, const char *expr,
                          const struct hexsim_dtype **t)
{
    char err[160];
    struct parser p = { d, expr, err, sizeof(err), false, false };
    const struct hexsim_dtype *r = parse_type(&p);
    skip(&p);
    if (!r || p.failed || *p.s)
        return -1;
    *t = r;
    return 0;
}

// ---- operands

static val parse_binary(struct parser *p, int level);
static val parse_unary(struct parser *p);

static val number(struct parser *p)
{
    const char *s = p->s;
    char *end;
    uint64_t v;
    if (s[0] == '0' && (s[1] == 'b' || s[1] == 'B'))
        v = strtoull(s + 2, &end, 2);
    else
        v = strtoull(s, &end, 0);
    bool is_unsigned = false;
    while (*end == 'u' || *end == 'U' || *end == 'l' || *end == 'L') {
        is_unsigned |= *end == 'u' || *end == 'U';
        end++;
    }
    if (isalnum((unsigned char)*end) || *end == '_' || *end == '.')
        fail(p, "Invalid number \"%.*s\".", (int)(strcspn(s, " \t)+-*/")), s);
    p->s = end;
    bool hex = s[0] == '0' && s[1];
    const char *t = v <= 0x7fffffff && !is_unsigned ? "int"
                  : v <= 0xffffffffu && (hex || is_unsigned) ? "unsigned int"
                  : v <= 0x7fffffffffffffffull && !is_unsigned ? "long long" : "unsigned long long";
    return rvalue(builtin(p, t), v);
}

static val reg_value(struct parser *p, const char *name)
{
    unsigned num;
    uint64_t v = 0;
    struct hexsim_debugger *d = p->d;
    if (hexsim_dbg_reg_lookup(d, name, &num)) {
        fail(p, "no register $%s", name);
        return rvalue(NULL, 0);
    }
    if (num == HEXSIM_DBG_REG_PC) {
        v = hexsim_dbg_frame_pc(d, NULL);
        struct hexsim_dtype *fn = NULL;
        for (struct hexsim_dtype *t = d->types.all; t; t = t->next_alloc)
            if (t->kind == HEXSIM_T_FUNC && !t->target && !t->nparam && !t->prototyped &&
                !t->name)
                fn = t;
        if (!fn)
            fn = hexsim_dtype_new(&d->types, HEXSIM_T_FUNC);
        return rvalue(hexsim_dtype_pointer(&d->types, fn), v);
    }
    if (num < 32) {
        uint32_t r;
        if (hexsim_dbg_frame_reg(d, num, &r)) {
            val o = { .type = builtin(p, "int"), .where = HEXSIM_V_OPTIMIZED };
            return o;
        }
        v = r;
    } else if (hexsim_dbg_reg_read(d, num, &v)) {
        fail(p, "no register $%s", name);
    }
    if (num == HEXSIM_DBG_REG_SP || num == HEXSIM_DBG_REG_FP)
        return rvalue(hexsim_dtype_pointer(&d->types, builtin(p, "void")), (uint32_t)v);
    return rvalue(builtin(p, "int"), extend(builtin(p, "int"), v));
}

static val vector_lane(struct parser *p, const struct hexsim_dbg_vref *r, const char *end)
{
    uint8_t buf[HEXSIM_DBG_REG_MAX_BYTES];
    if (!r->indexed) {
        fail(p, "$%s is a vector register: print shows it whole; in an expression use a lane, "
             "$%s.w[N] (views b ub h uh w uw)", r->name, r->name);
        return rvalue(NULL, 0);
    }
    if (hexsim_dbg_vreg_read(p->d, r->num, buf)) {
        fail(p, "no register $%s", r->name);
        return rvalue(NULL, 0);
    }
    // the lane's type: gdb's vector element types (int8_t ... uint32_t; bytes are numbers,
    // not characters)
    static const char *const names[2][3] = { { "uint8_t", "uint16_t", "uint32_t" },
                                             { "int8_t", "int16_t", "int32_t" } };
    struct hexsim_dtype *t = hexsim_dtype_new(&p->d->types, HEXSIM_T_INT);
    if (!t) {
        fail(p, "out of memory");
        return rvalue(NULL, 0);
    }
    t->size = r->lane;
    t->is_signed = r->is_signed;
    t->name = names[r->is_signed][r->lane == 1 ? 0 : r->lane == 2 ? 1 : 2];
    p->s = end;
    return rvalue(t, hexsim_dbg_vlane(buf, r->lane, r->index, r->is_signed));
}

static val identifier(struct parser *p, const char *name)
{
    struct hexsim_debugger *d = p->d;
    struct hexsim_dwarf *dw = hexsim_dbg_dwarf(d);
    struct hexsim_dwarf_var var;
    uint32_t lookup;
    hexsim_dbg_frame_pc(d, &lookup);
    if (dw && hexsim_dwarf_var(dw, &d->types, name, lookup, frame_reg_cb, d, &var) == 0) {
        val v = { .type = var.type };
        switch (var.loc) {
        case HEXSIM_DW_MEM:
        case HEXSIM_DW_FUNC:
            v.where = HEXSIM_V_MEM;
            v.addr = (uint32_t)var.val;
            break;
        case HEXSIM_DW_REG:
            v.where = HEXSIM_V_REG;
            v.reg = (unsigned)var.val;
            break;
        case HEXSIM_DW_VALUE:
            v.where = HEXSIM_V_VALUE;
            v.bits = extend(var.type, var.val);
            break;
        default:
            v.where = HEXSIM_V_OPTIMIZED;
            break;
        }
        return v;
    }
    const struct hexsim_sym *sym = hexsim_symtab_find(hexsim_dbg_symtab(d), name);
    if (!sym) {
        fail(p, "No symbol \"%s\" in current context.", name);
        return rvalue(NULL, 0);
    }
    val v = { .type = nodebug_type(p, sym->type == 'F'), .where = HEXSIM_V_MEM,
              .addr = sym->addr, .name = sym->name };
    return v;
}

static val parse_primary(struct parser *p)
{
    skip(p);
    const char *s = p->s;
    if (*s == '(') {
        p->s++;
        val v = parse_binary(p, 0);
        if (!eat(p, ")"))
            fail(p, "missing ')'");
        return v;
    }
    if (isdigit((unsigned char)*s))
        return number(p);
    if (*s == '\'' && s[1] && s[1] != '\\' && s[2] == '\'') {
        p->s += 3;
        return rvalue(builtin(p, "char"), extend(builtin(p, "char"), (unsigned char)s[1]));
    }
    if (*s == '$' || isalpha((unsigned char)*s) || *s == '_' || *s == '.') {
        bool reg = *s == '$';
        if (reg) {
            s++;
            // an HVX register lane ($v3.w[5], vreg.h); the whole register only with print
            struct hexsim_dbg_vref r;
            const char *end;
            char err[160];
            int rc = hexsim_dbg_vref_parse(p->d, s, &end, &r, err, sizeof(err));
            if (rc < 0) {
                fail(p, "%s", err);
                return rvalue(NULL, 0);
            }
            if (rc == 0)
                return vector_lane(p, &r, end);
        }
        size_t n = 0;
        while (isalnum((unsigned char)s[n]) || s[n] == '_' || s[n] == '.' ||
               (reg && s[n] == ':'))
            n++;
        char name[128];
        if (n == 0 || n >= sizeof(name)) {
            fail(p, "bad name");
            return rvalue(NULL, 0);
        }
        memcpy(name, s, n);
        name[n] = '\0';
        // "box.corner" is a member access unless an ELF symbol has the dotted name
        char *dot = reg ? NULL : strchr(name + 1, '.');
        if (dot && !hexsim_symtab_find(hexsim_dbg_symtab(p->d), name)) {
            n = (size_t)(dot - name);
            *dot = '\0';
        }
        p->s = s + n;
        if (reg) {
            for (char *c = name; *c; c++)
                *c = (char)tolower((unsigned char)*c);
            return reg_value(p, name);
        }
        return identifier(p, name);
    }
    fail(p, *s ? "A syntax error in expression, near `%s'." : "expression expected", s);
    return rvalue(NULL, 0);
}

static val deref(struct parser *p, val v)
{
    v = decay(p, v);
    if (p->failed)
        return v;
    const struct hexsim_dtype *t = hexsim_dtype_strip(v.type);
    uint64_t a;
    if (!get_scalar(p, &v, &a))
        return v;
    if (t && t->kind == HEXSIM_T_PTR) {
        const struct hexsim_dtype *to = hexsim_dtype_strip(t->target);
        if (!to || to->kind == HEXSIM_T_VOID) {
            fail(p, "Attempt to take contents of a non-pointer value.");
            return v;
        }
        val r = { .type = t->target, .where = HEXSIM_V_MEM, .addr = (uint32_t)a };
        if (to->kind == HEXSIM_T_NODEBUG)
            r.type = builtin(p, "int");   // *&sym with no debug info: an int, as gdb reads it
        return r;
    }
    if (p->lenient && is_int(v.type)) {   // x/set/break: *ADDR is the word there
        val r = { .type = builtin(p, "int"), .where = HEXSIM_V_MEM, .addr = (uint32_t)a };
        return r;
    }
    fail(p, "Attempt to take contents of a non-pointer value.");
    return v;
}

// Member `name` of struct or union t, also inside its anonymous struct and union members
// (C11 6.7.2.1p13, as gdb finds them); *off gets the offset of the anonymous members it is
// inside. NULL when there is none.
static const struct hexsim_dmember *find_member(const struct hexsim_dtype *t, const char *name,
                                                uint32_t *off, unsigned depth)
{
    for (unsigned i = 0; i < t->nmem; i++)
        if (t->mem[i].name && strcmp(t->mem[i].name, name) == 0)
            return &t->mem[i];
    for (unsigned i = 0; i < t->nmem && depth < 8; i++) {
        const struct hexsim_dtype *a = hexsim_dtype_strip(t->mem[i].type);
        const struct hexsim_dmember *m;
        if (!t->mem[i].name && a && (a->kind == HEXSIM_T_STRUCT || a->kind == HEXSIM_T_UNION) &&
            (m = find_member(a, name, off, depth + 1))) {
            *off += t->mem[i].offset;
            return m;
        }
    }
    return NULL;
}

static val member(struct parser *p, val v, const char *name)
{
    const struct hexsim_dtype *t = hexsim_dtype_strip(v.type);
    if (!t || (t->kind != HEXSIM_T_STRUCT && t->kind != HEXSIM_T_UNION)) {
        fail(p, "Attempt to extract a component of a value that is not a structure.");
        return v;
    }
    uint32_t anon = 0;
    const struct hexsim_dmember *m = find_member(t, name, &anon, 0);
    if (m) {
        if (v.where != HEXSIM_V_MEM) {
            fail(p, "hexsim reads members of structures in memory only");
            return v;
        }
        uint32_t at = v.addr + anon + m->offset;
        if (m->bit_size) {
            uint64_t bits = 0;
            unsigned bytes = (m->bit_offset + m->bit_size + 7) / 8;
            if (hexsim_dbg_read_uint(p->d, at, bytes > 4 ? 8 : bytes > 2 ? 4 : bytes, 0,
                                     &bits)) {
                fail(p, "Cannot access memory at address 0x%x", at);
                return v;
            }
            bits = bits >> m->bit_offset & ((1ull << m->bit_size) - 1);
            const struct hexsim_dtype *mt = hexsim_dtype_strip(m->type);
            if (mt && mt->is_signed && (bits >> (m->bit_size - 1) & 1))
                bits |= ~((1ull << m->bit_size) - 1);
            return rvalue(m->type, bits);
        }
        val r = { .type = m->type, .where = HEXSIM_V_MEM, .addr = at };
        return r;
    }
    fail(p, "There is no member named %s.", name);
    return v;
}

static val parse_postfix(struct parser *p)
{
    val v = parse_primary(p);
    for (;;) {
        if (p->failed)
            return v;
        if (eat(p, "[")) {
            val i = parse_binary(p, 0);
            if (!eat(p, "]"))
                fail(p, "missing ']'");
            v = deref(p, binary(p, "+", v, i));
        } else if (eat(p, "->") || eat(p, ".")) {
            bool arrow = p->s[-1] == '>';
            skip(p);
            size_t n = ident_len(p->s);
            char name[128];
            snprintf(name, sizeof(name), "%.*s", (int)n, p->s);
            p->s += n;
            if (!n) {
                fail(p, "a member name is needed");
                return v;
            }
            v = member(p, arrow ? deref(p, v) : v, name);
        } else {
            return v;
        }
    }
}

static val parse_unary(struct parser *p)
{
    if (eat(p, "-")) {
        val v = parse_unary(p);
        return binary(p, "-", rvalue(builtin(p, "int"), 0), v);
    }
    if (eat(p, "+"))
        return binary(p, "+", rvalue(builtin(p, "int"), 0), parse_unary(p));
    if (eat(p, "~")) {
        val v = decay(p, parse_unary(p));
        uint64_t x;
        if (!get_scalar(p, &v, &x))
            return v;
        const struct hexsim_dtype *t = common(p, v.type, builtin(p, "int"));
        return rvalue(t, extend(t, ~x));
    }
    if (eat(p, "!")) {
        val v = decay(p, parse_unary(p));
        uint64_t x;
        if (!get_scalar(p, &v, &x))
            return v;
        return rvalue(builtin(p, "int"), !x);
    }
    if (eat(p, "&")) {
        val v = parse_unary(p);
        if (p->failed)
            return v;
        if (v.where != HEXSIM_V_MEM) {
            fail(p, "Attempt to take address of value not located in memory.");
            return v;
        }
        return rvalue(hexsim_dtype_pointer(&p->d->types, v.type), v.addr);
    }
    if (eat(p, "*"))
        return deref(p, parse_unary(p));
    skip(p);
    if (strncmp(p->s, "sizeof", 6) == 0 && !isalnum((unsigned char)p->s[6]) && p->s[6] != '_') {
        p->s += 6;
        const char *save = p->s;
        const struct hexsim_dtype *t = NULL;
        if (eat(p, "(")) {
            t = parse_type(p);
            if (t && !eat(p, ")"))
                t = NULL;
        }
        if (!t) {
            p->s = save;
            val v = parse_unary(p);
            t = v.type;
        }
        return rvalue(builtin(p, "unsigned int"), hexsim_dtype_size(t));
    }
    if (*p->s == '(') {   // a cast?
        const char *save = p->s;
        p->s++;
        const struct hexsim_dtype *t = parse_type(p);
        if (p->failed)
            return rvalue(NULL, 0);
        if (t && eat(p, ")"))
            return cast(p, parse_unary(p), t);
        p->s = save;
    }
    return parse_postfix(p);
}

// gdb's artificial array, v@n: n objects of v's type from v's address on (GDB manual,
// "Artificial Arrays"), with gdb's messages for a value not in memory and a count below 1.
static val repeat(struct parser *p, val v, val n)
{
    uint64_t count;
    n = decay(p, n);
    if (!get_scalar(p, &n, &count))
        return v;
    const struct hexsim_dtype *t = hexsim_dtype_strip(v.type);
    if (t && t->kind == HEXSIM_T_NODEBUG) {
        fail(p, "'%s' has unknown type; cast it to its declared type", v.name ? v.name : "?");
        return v;
    }
    if (v.where != HEXSIM_V_MEM) {
        fail(p, "Only values in memory can be extended with '@'.");
        return v;
    }
    if ((int64_t)count <= 0) {
        fail(p, "Invalid number %lld of repetitions.", (long long)count);
        return v;
    }
    struct hexsim_dtype *a = hexsim_dtype_new(&p->d->types, HEXSIM_T_ARRAY);
    if (!a) {
        fail(p, "out of memory");
        return v;
    }
    a->target = v.type;
    a->count = count > UINT32_MAX ? UINT32_MAX : (uint32_t)count;
    a->has_count = true;
    if (!hexsim_dtype_size(a) && hexsim_dtype_size(v.type)) {
        fail(p, "value requires more than 4 GiB");   // a count that overflows the address space
        return v;
    }
    a->size = hexsim_dtype_size(a);
    val r = { .type = a, .where = HEXSIM_V_MEM, .addr = v.addr };
    return r;
}

// Binary operators by precedence, loosest first ('@' binds more loosely than C's).
static const char *const levels[][5] = {
    { "@" }, { "||" }, { "&&" }, { "|" }, { "^" }, { "&" }, { "==", "!=" },
    { "<=", ">=", "<", ">" }, { "<<", ">>" }, { "+", "-" }, { "*", "/", "%" },
};
#define NLEVELS (int)(sizeof(levels) / sizeof(levels[0]))

static val parse_binary(struct parser *p, int level)
{
    if (level >= NLEVELS)
        return parse_unary(p);
    val v = parse_binary(p, level + 1);
    for (;;) {
        const char *op = NULL;
        for (int k = 0; k < 5 && levels[level][k]; k++)
            if (eat(p, levels[level][k])) {
                op = levels[level][k];
                break;
            }
        if (!op || p->failed)
            return v;
        val r = parse_binary(p, level + 1);
        v = op[0] == '@' ? repeat(p, v, r) : binary(p, op, v, r);
    }
}

static int evaluate(struct hexsim_debugger *d, const char *expr, bool lenient, val *out,
                    char *err, size_t errlen)
{
    struct parser p = { d, expr, err, errlen, false, lenient };
    val v = parse_binary(&p, 0);
    skip(&p);
    if (!p.failed && *p.s)
        fail(&p, "A syntax error in expression, near `%s'.", p.s);
    if (p.failed)
        return -1;
    *out = v;
    return 0;
}

int hexsim_dbg_eval_value(struct hexsim_debugger *d, const char *expr, struct hexsim_dval *v,
                          char *err, size_t errlen)
{
    if (evaluate(d, expr, false, v, err, errlen))
        return -1;
    const struct hexsim_dtype *t = hexsim_dtype_strip(v->type);
    if (t && t->kind == HEXSIM_T_NODEBUG && !t->is_text) {
        snprintf(err, errlen, "'%s' has unknown type; cast it to its declared type",
                 v->name ? v->name : expr);
        return -1;
    }
    return 0;
}

int hexsim_dbg_eval(struct hexsim_debugger *d, const char *expr, uint64_t *val_out, char *err,
                    size_t errlen)
{
    val v;
    if (evaluate(d, expr, true, &v, err, errlen))
        return -1;
    struct parser p = { d, expr, err, errlen, false, true };
    v = decay(&p, v);
    uint64_t x;
    if (!get_scalar(&p, &v, &x))
        return -1;
    *val_out = is_ptr(v.type) ? (uint32_t)x : x;
    return 0;
}
