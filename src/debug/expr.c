// SPDX-License-Identifier: MIT
// Debugger expressions (debugger.h hexsim_dbg_eval): a recursive-descent parser over C's
// integer operators, evaluated in 64 bits as it parses. Operands: decimal, 0x hex, 0b binary
// and 0 octal numbers, 'c' characters, $registers ($r0, $sp, $pc, $p0, $usr), symbols (their
// address; sym+off works), *EXPR (a 32-bit load from guest memory) and parentheses.
#include <ctype.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "debugger.h"

struct parser {
    struct hexsim_debugger *d;
    const char *s;
    char *err;
    size_t errlen;
    bool failed;
};

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
    // do not take "<" out of "<<" or "<=", "&" out of "&&", and so on
    if (n == 1 && strchr("<>&|", op[0]) &&
        (p->s[1] == op[0] || (strchr("<>", op[0]) && p->s[1] == '=')))
        return false;
    if (n == 1 && op[0] == '!' && p->s[1] == '=')
        return false;
    p->s += n;
    return true;
}

static uint64_t parse_binary(struct parser *p, int level);

static uint64_t parse_primary(struct parser *p)
{
    skip(p);
    const char *s = p->s;
    if (*s == '(') {
        p->s++;
        uint64_t v = parse_binary(p, 0);
        if (!eat(p, ")"))
            fail(p, "missing ')'");
        return v;
    }
    if (isdigit((unsigned char)*s)) {
        char *end;
        uint64_t v;
        if (s[0] == '0' && (s[1] == 'b' || s[1] == 'B'))
            v = strtoull(s + 2, &end, 2);
        else
            v = strtoull(s, &end, 0);
        if (isalnum((unsigned char)*end) || *end == '_')
            fail(p, "invalid number \"%.*s\"", (int)(strcspn(s, " \t)+-*/")), s);
        p->s = end;
        return v;
    }
    if (*s == '\'' && s[1] && s[2] == '\'') {
        p->s += 3;
        return (unsigned char)s[1];
    }
    if (*s == '$' || isalpha((unsigned char)*s) || *s == '_' || *s == '.') {
        bool reg = *s == '$';
        if (reg)
            s++;
        size_t n = 0;
        while (isalnum((unsigned char)s[n]) || s[n] == '_' || s[n] == '.' ||
               (reg && s[n] == ':'))
            n++;
        char name[128];
        if (n == 0 || n >= sizeof(name)) {
            fail(p, "bad name");
            return 0;
        }
        memcpy(name, s, n);
        name[n] = '\0';
        p->s = s + n;
        if (reg) {
            unsigned num;
            uint64_t v = 0;
            for (char *c = name; *c; c++)
                *c = (char)tolower((unsigned char)*c);
            if (hexsim_dbg_reg_lookup(p->d, name, &num) || hexsim_dbg_reg_read(p->d, num, &v))
                fail(p, "no register $%s", name);
            return v;
        }
        const struct hexsim_sym *sym = hexsim_symtab_find(hexsim_dbg_symtab(p->d), name);
        if (!sym) {
            fail(p, "no symbol \"%s\"", name);
            return 0;
        }
        return sym->addr;
    }
    fail(p, *s ? "syntax error at \"%s\"" : "expression expected", s);
    return 0;
}

static uint64_t parse_unary(struct parser *p)
{
    if (eat(p, "-"))
        return -parse_unary(p);
    if (eat(p, "+"))
        return parse_unary(p);
    if (eat(p, "~"))
        return ~parse_unary(p);
    if (eat(p, "!"))
        return !parse_unary(p);
    if (eat(p, "&"))   // &sym is the symbol's address, as sym is
        return parse_unary(p);
    if (eat(p, "*")) {
        uint64_t a = parse_unary(p), v = 0;
        if (!p->failed && hexsim_dbg_read_uint(p->d, a, 4, 0, &v))
            fail(p, "cannot access memory at address 0x%llx", (unsigned long long)a);
        return v;
    }
    return parse_primary(p);
}

// Binary operators by precedence, loosest first.
static const char *const levels[][5] = {
    { "||" }, { "&&" }, { "|" }, { "^" }, { "&" }, { "==", "!=" },
    { "<=", ">=", "<", ">" }, { "<<", ">>" }, { "+", "-" }, { "*", "/", "%" },
};
#define NLEVELS (int)(sizeof(levels) / sizeof(levels[0]))

static uint64_t apply(struct parser *p, const char *op, uint64_t a, uint64_t b)
{
    switch (op[0]) {
    case '|': return op[1] ? (a || b) : (a | b);
    case '&': return op[1] ? (a && b) : (a & b);
    case '^': return a ^ b;
    case '=': return a == b;
    case '!': return a != b;
    case '<': return op[1] == '<' ? (b < 64 ? a << b : 0) : op[1] ? a <= b : a < b;
    case '>': return op[1] == '>' ? (b < 64 ? a >> b : 0) : op[1] ? a >= b : a > b;
    case '+': return a + b;
    case '-': return a - b;
    case '*': return a * b;
    default:
        if (b == 0) {
            fail(p, "division by zero");
            return 0;
        }
        return op[0] == '/' ? a / b : a % b;
    }
}

static uint64_t parse_binary(struct parser *p, int level)
{
    if (level >= NLEVELS)
        return parse_unary(p);
    uint64_t v = parse_binary(p, level + 1);
    for (;;) {
        const char *op = NULL;
        for (int k = 0; k < 5 && levels[level][k]; k++)
            if (eat(p, levels[level][k])) {
                op = levels[level][k];
                break;
            }
        if (!op || p->failed)
            return v;
        uint64_t r = parse_binary(p, level + 1);
        v = apply(p, op, v, r);
    }
}

int hexsim_dbg_eval(struct hexsim_debugger *d, const char *expr, uint64_t *val, char *err,
                    size_t errlen)
{
    struct parser p = { d, expr, err, errlen, false };
    uint64_t v = parse_binary(&p, 0);
    skip(&p);
    if (!p.failed && *p.s)
        fail(&p, "junk at end of expression: \"%s\"", p.s);
    if (p.failed)
        return -1;
    *val = v;
    return 0;
}
