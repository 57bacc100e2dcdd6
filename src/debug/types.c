// SPDX-License-Identifier: MIT
// The debugger's C types (types.h): the arena, the built-in base types with the Hexagon
// ILP32 ABI's sizes (Hexagon ABI user guide: char 8 bits, short 16, int/long/pointer 32,
// long long 64; plain char is signed), and names in C declarator syntax as gdb prints them.
#include "types.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void hexsim_dtypes_free(struct hexsim_dtypes *a)
{
    for (struct hexsim_dtype *t = a->all, *next; t; t = next) {
        next = t->next_alloc;
        free(t->mem);
        free(t->en);
        free(t->param);
        free(t);
    }
    for (size_t i = 0; i < a->nstrs; i++)
        free(a->strs[i]);
    free(a->strs);
    memset(a, 0, sizeof(*a));
}

struct hexsim_dtype *hexsim_dtype_new(struct hexsim_dtypes *a, int kind)
{
    struct hexsim_dtype *t = calloc(1, sizeof(*t));
    if (!t)
        return NULL;
    t->kind = kind;
    t->next_alloc = a->all;
    a->all = t;
    return t;
}

const char *hexsim_dtype_str(struct hexsim_dtypes *a, const char *s)
{
    if (!s)
        return NULL;
    if (a->nstrs == a->capstrs) {
        size_t cap = a->capstrs ? 2 * a->capstrs : 64;
        char **n = realloc(a->strs, cap * sizeof(*n));
        if (!n)
            return NULL;
        a->strs = n;
        a->capstrs = cap;
    }
    char *c = strdup(s);
    if (c)
        a->strs[a->nstrs++] = c;
    return c;
}

static const struct {
    const char *name;
    int kind;
    uint8_t size;
    bool is_signed, is_char;
} builtins[] = {
    { "void", HEXSIM_T_VOID, 0, false, false },
    { "char", HEXSIM_T_INT, 1, true, true },
    { "signed char", HEXSIM_T_INT, 1, true, true },
    { "unsigned char", HEXSIM_T_INT, 1, false, true },
    { "short", HEXSIM_T_INT, 2, true, false },
    { "unsigned short", HEXSIM_T_INT, 2, false, false },
    { "int", HEXSIM_T_INT, 4, true, false },
    { "unsigned int", HEXSIM_T_INT, 4, false, false },
    { "long", HEXSIM_T_INT, 4, true, false },
    { "unsigned long", HEXSIM_T_INT, 4, false, false },
    { "long long", HEXSIM_T_INT, 8, true, false },
    { "unsigned long long", HEXSIM_T_INT, 8, false, false },
};
_Static_assert(sizeof(builtins) / sizeof(builtins[0]) <= 12, "hexsim_dtypes.base");

// Other spellings of the same types.
static const struct { const char *alias, *name; } spellings[] = {
    { "unsigned", "unsigned int" }, { "signed", "int" }, { "signed int", "int" },
    { "short int", "short" }, { "unsigned short int", "unsigned short" },
    { "long int", "long" }, { "unsigned long int", "unsigned long" },
    { "long long int", "long long" }, { "unsigned long long int", "unsigned long long" },
    { "signed short", "short" }, { "signed long", "long" }, { "signed long long", "long long" },
};

const struct hexsim_dtype *hexsim_dtype_builtin(struct hexsim_dtypes *a, const char *name)
{
    for (size_t i = 0; i < sizeof(spellings) / sizeof(spellings[0]); i++)
        if (strcmp(name, spellings[i].alias) == 0)
            name = spellings[i].name;
    if (strcmp(name, "_Bool") == 0 || strcmp(name, "float") == 0 || strcmp(name, "double") == 0) {
        // not cached in base[]: rare, and a new node each time costs little
        bool is_bool = name[0] == '_';
        struct hexsim_dtype *t = hexsim_dtype_new(a, is_bool ? HEXSIM_T_BOOL : HEXSIM_T_FLOAT);
        if (t) {
            t->size = is_bool ? 1 : name[0] == 'f' ? 4 : 8;
            t->name = is_bool ? "_Bool" : name[0] == 'f' ? "float" : "double";
        }
        return t;
    }
    for (size_t i = 0; i < sizeof(builtins) / sizeof(builtins[0]); i++) {
        if (strcmp(name, builtins[i].name) != 0)
            continue;
        if (!a->base[i]) {
            struct hexsim_dtype *t = hexsim_dtype_new(a, builtins[i].kind);
            if (!t)
                return NULL;
            t->name = builtins[i].name;
            t->size = builtins[i].size;
            t->is_signed = builtins[i].is_signed;
            t->is_char = builtins[i].is_char;
            a->base[i] = t;
        }
        return a->base[i];
    }
    return NULL;
}

const struct hexsim_dtype *hexsim_dtype_pointer(struct hexsim_dtypes *a,
                                                const struct hexsim_dtype *to)
{
    for (const struct hexsim_dtype *t = a->all; t; t = t->next_alloc)
        if (t->kind == HEXSIM_T_PTR && t->target == to)
            return t;
    struct hexsim_dtype *t = hexsim_dtype_new(a, HEXSIM_T_PTR);
    if (t) {
        t->size = 4;
        t->target = to;
    }
    return t;
}

// Type chains deeper than this (only a damaged DWARF file makes them, or cycles) end as
// void, so that nothing loops or recurses without end.
#define MAX_CHAIN 64

const struct hexsim_dtype *hexsim_dtype_strip(const struct hexsim_dtype *t)
{
    for (unsigned n = 0; t && (t->kind == HEXSIM_T_TYPEDEF || t->kind == HEXSIM_T_CONST ||
                               t->kind == HEXSIM_T_VOLATILE); n++)
        t = n < MAX_CHAIN ? t->target : NULL;
    return t;
}

uint32_t hexsim_dtype_size(const struct hexsim_dtype *t)
{
    uint64_t n = 1;
    for (unsigned depth = 0; (t = hexsim_dtype_strip(t)) && t->kind == HEXSIM_T_ARRAY; depth++) {
        if (depth == MAX_CHAIN)
            return 0;
        n *= t->count;
        if (n > UINT32_MAX)
            return 0;
        t = t->target;
    }
    uint64_t size = t ? n * t->size : 0;
    return size > UINT32_MAX ? 0 : (uint32_t)size;
}

uint64_t hexsim_dtype_extend(const struct hexsim_dtype *t, uint64_t bits)
{
    t = hexsim_dtype_strip(t);
    uint32_t size = t ? t->size : 4;
    if (!size || size >= 8)
        return bits;
    uint64_t mask = (1ull << (8 * size)) - 1;
    bits &= mask;
    if (t && (t->kind == HEXSIM_T_INT || t->kind == HEXSIM_T_ENUM) && t->is_signed &&
        (bits >> (8 * size - 1) & 1))
        bits |= ~mask;
    return bits;
}

bool hexsim_dtype_is_scalar(const struct hexsim_dtype *t)
{
    t = hexsim_dtype_strip(t);
    return t && (t->kind == HEXSIM_T_INT || t->kind == HEXSIM_T_BOOL ||
                 t->kind == HEXSIM_T_ENUM || t->kind == HEXSIM_T_PTR ||
                 t->kind == HEXSIM_T_FLOAT);
}

static void cat(char *buf, size_t len, const char *s)
{
    size_t n = strlen(buf);
    if (n + 1 < len)
        snprintf(buf + n, len - n, "%s", s);
}

// How much of a struct, union or enum name_at writes out, as gdb's ptype does ("show"): above
// 0 every aggregate's body (ptype's own type, typedefs at its base unrolled), 0 only an
// anonymous one's (a member's type), below 0 "struct {...}" for an anonymous one. `indent`:
// the column of the body's closing brace.
struct shape_opts {
    int show;
    unsigned indent;
};

static void name_at(const struct hexsim_dtype *t, const char *inner, char *buf, size_t len,
                    unsigned depth, struct shape_opts o);

static void params(const struct hexsim_dtype *f, char *buf, size_t len, unsigned depth)
{
    snprintf(buf, len, "(");
    if (!f->nparam && f->prototyped && !f->varargs)
        cat(buf, len, "void");
    for (unsigned i = 0; i < f->nparam; i++) {
        char p[256];
        name_at(f->param[i], "", p, sizeof(p), depth + 1, (struct shape_opts){ -1, 0 });
        if (i)
            cat(buf, len, ", ");
        cat(buf, len, p);
    }
    if (f->varargs)
        cat(buf, len, f->nparam ? ", ..." : "...");
    cat(buf, len, ")");
}

void hexsim_dtype_name(const struct hexsim_dtype *t, const char *inner, char *buf, size_t len)
{
    name_at(t, inner, buf, len, 0, (struct shape_opts){ -1, 0 });
}

static void indent_to(char *buf, size_t len, unsigned n)
{
    for (unsigned i = 0; i < n; i++)
        cat(buf, len, " ");
}

// An enum's body as gdb writes it: {A, B = 5, C} (a value only where it is not the
// previous one plus 1).
static void enum_body(const struct hexsim_dtype *s, char *buf, size_t len)
{
    cat(buf, len, "{");
    int64_t next = 0;
    for (unsigned i = 0; i < s->nen; i++) {
        char e[200];
        if (s->en[i].value == next)
            snprintf(e, sizeof(e), "%s%s", i ? ", " : "", s->en[i].name);
        else
            snprintf(e, sizeof(e), "%s%s = %lld", i ? ", " : "", s->en[i].name,
                     (long long)s->en[i].value);
        cat(buf, len, e);
        next = s->en[i].value + 1;
    }
    cat(buf, len, "}");
}

// A struct or union's body, members one per line at o.indent + 4, each member's own type
// shown with show - 1.
static void struct_body(const struct hexsim_dtype *s, char *buf, size_t len, unsigned depth,
                        struct shape_opts o)
{
    cat(buf, len, "{\n");
    for (unsigned i = 0; i < s->nmem; i++) {
        indent_to(buf, len, o.indent + 4);
        size_t n = strlen(buf);
        if (n + 1 >= len)
            return;
        name_at(s->mem[i].type, s->mem[i].name ? s->mem[i].name : "", buf + n, len - n,
                depth + 1, (struct shape_opts){ o.show - 1, o.indent + 4 });
        char tail[32];
        if (s->mem[i].bit_size)
            snprintf(tail, sizeof(tail), " : %u;\n", s->mem[i].bit_size);
        else
            snprintf(tail, sizeof(tail), ";\n");
        cat(buf, len, tail);
    }
    indent_to(buf, len, o.indent);
    cat(buf, len, "}");
}

static void name_at(const struct hexsim_dtype *t, const char *inner, char *buf, size_t len,
                    unsigned depth, struct shape_opts o)
{
    char tmp[512];
    buf[0] = '\0';
    if (depth > MAX_CHAIN)
        t = NULL;
    if (!t) {
        snprintf(buf, len, "void%s%s", *inner ? " " : "", inner);
        return;
    }
    switch (t->kind) {
    case HEXSIM_T_PTR: {
        const struct hexsim_dtype *to = hexsim_dtype_strip(t->target);
        bool paren = to && (to->kind == HEXSIM_T_ARRAY || to->kind == HEXSIM_T_FUNC);
        snprintf(tmp, sizeof(tmp), paren ? "(*%s)" : "*%s", inner);
        name_at(t->target, tmp, buf, len, depth + 1, o);
        return;
    }
    case HEXSIM_T_ARRAY:
        if (t->has_count)
            snprintf(tmp, sizeof(tmp), "%s[%u]", inner, t->count);
        else
            snprintf(tmp, sizeof(tmp), "%s[]", inner);
        name_at(t->target, tmp, buf, len, depth + 1, o);
        return;
    case HEXSIM_T_FUNC: {
        char p[400];
        params(t, p, sizeof(p), depth);
        snprintf(tmp, sizeof(tmp), "%s%s", inner, p);
        name_at(t->target, tmp, buf, len, depth + 1, o);
        return;
    }
    case HEXSIM_T_CONST:
    case HEXSIM_T_VOLATILE: {
        const char *q = t->kind == HEXSIM_T_CONST ? "const" : "volatile";
        const struct hexsim_dtype *to = hexsim_dtype_strip(t->target);
        if (to && to->kind == HEXSIM_T_PTR) {   // int * const
            snprintf(tmp, sizeof(tmp), "%s%s%s", q, *inner ? " " : "", inner);
            name_at(t->target, tmp, buf, len, depth + 1, o);
        } else {
            snprintf(buf, len, "%s ", q);
            size_t n = strlen(buf);
            if (n + 1 < len)
                name_at(t->target, inner, buf + n, len - n, depth + 1, o);
        }
        return;
    }
    case HEXSIM_T_TYPEDEF:
        if (o.show > 0) {   // ptype unrolls the typedefs at its type's base
            name_at(t->target, inner, buf, len, depth + 1, o);
            return;
        }
        snprintf(buf, len, "%s%s%s", t->name ? t->name : "?", *inner ? " " : "", inner);
        return;
    case HEXSIM_T_STRUCT:
    case HEXSIM_T_UNION:
    case HEXSIM_T_ENUM: {
        const char *kw = t->kind == HEXSIM_T_STRUCT ? "struct" :
                         t->kind == HEXSIM_T_UNION ? "union" : "enum";
        bool body = o.show > 0 || (o.show == 0 && !t->name);
        if (!body) {
            snprintf(buf, len, "%s %s%s%s", kw, t->name ? t->name : "{...}", *inner ? " " : "",
                     inner);
            return;
        }
        snprintf(buf, len, "%s %s%s", kw, t->name ? t->name : "", t->name ? " " : "");
        if (t->kind == HEXSIM_T_ENUM)
            enum_body(t, buf, len);
        else
            struct_body(t, buf, len, depth, o);
        if (*inner) {
            cat(buf, len, " ");
            cat(buf, len, inner);
        }
        return;
    }
    case HEXSIM_T_NODEBUG:
        snprintf(buf, len, "%s%s%s", t->is_text ? "<text variable, no debug info>" :
                 "<data variable, no debug info>", *inner ? " " : "", inner);
        return;
    default:
        snprintf(buf, len, "%s%s%s", t->name ? t->name : "?", *inner ? " " : "", inner);
        return;
    }
}

void hexsim_dtype_expand(const struct hexsim_dtype *t, char *buf, size_t len)
{
    // the type with the aggregate at its base written out (through pointers, arrays,
    // qualifiers and typedefs, as gdb's ptype), and anonymous members' types one level in
    name_at(t, "", buf, len, 0, (struct shape_opts){ 1, 0 });
}
