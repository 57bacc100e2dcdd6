// SPDX-License-Identifier: MIT
// Debugger commands over raw memory and registers (cli_int.h): x/NFU (formats x d u o t c a
// s i, units b h w g, /p physical), set ($reg, *ADDR, {byte|half|word|dword} ADDR) and
// disassemble, in gdb's spelling. Addresses are numbers (hexsim_dbg_eval): a symbol without
// debug information is its address here.
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "cli_int.h"

#define skip_ws hexsim_cli_skip_ws
#define eval hexsim_cli_eval

static void print_value(struct hexsim_dbg_cli *c, uint64_t v, char fmt, unsigned size)
{
    FILE *out = c->d->out;
    uint64_t mask = size >= 8 ? ~0ull : (1ull << (8 * size)) - 1;
    v &= mask;
    switch (fmt) {
    case 'x': fprintf(out, "0x%0*llx", 2 * (int)size, (unsigned long long)v); break;
    case 'o': fprintf(out, "0%llo", (unsigned long long)v); break;
    case 'u': fprintf(out, "%llu", (unsigned long long)v); break;
    case 't': {
        char b[65];
        unsigned n = 0;
        for (int i = 8 * (int)size - 1; i >= 0; i--)
            b[n++] = (char)('0' + (v >> i & 1));
        b[n] = '\0';
        fputs(b, out);
        break;
    }
    case 'c':
        fprintf(out, "%u '%c'", (unsigned)(v & 0xff), isprint((int)(v & 0xff)) ? (int)v : '.');
        break;
    case 'a': {
        char sym[160];
        fprintf(out, "0x%08llx", (unsigned long long)v);
        hexsim_dbg_symbolize(c->d, (uint32_t)v, sym, sizeof(sym));
        if (sym[0])
            fprintf(out, " %s", sym);
        break;
    }
    default: {   // 'd': signed at the value's size
        int64_t s = size >= 8 ? (int64_t)v : (v >> (8 * size - 1) & 1) ? (int64_t)(v - mask - 1)
                                                                      : (int64_t)v;
        fprintf(out, "%lld", (long long)s);
        break;
    }
    }
}

static unsigned type_size(const char *t, size_t n)
{
    static const struct { const char *name; unsigned size; } types[] = {
        { "byte", 1 }, { "char", 1 }, { "half", 2 }, { "short", 2 }, { "word", 4 },
        { "int", 4 }, { "long", 4 }, { "dword", 8 }, { "long long", 8 },
    };
    for (size_t i = 0; i < sizeof(types) / sizeof(types[0]); i++)
        if (strlen(types[i].name) == n && strncmp(types[i].name, t, n) == 0)
            return types[i].size;
    return 0;
}

// set $REG = EXPR | set var $REG = EXPR | set *ADDR = EXPR | set {TYPE} ADDR = EXPR
bool hexsim_cli_cmd_set(struct hexsim_dbg_cli *c, const char *a, const char *m)
{
    (void)m;
    a = skip_ws(a);
    if (strncmp(a, "var ", 4) == 0 || strncmp(a, "variable ", 9) == 0)
        a = skip_ws(strchr(a, ' '));
    const char *eq = strchr(a, '=');
    if (!eq) {
        fprintf(c->d->out, "Error: usage: set $REG = EXPR, set *ADDR = EXPR, "
                "set {TYPE} ADDR = EXPR\n");
        return false;
    }
    char lhs[128];
    size_t n = (size_t)(eq - a);
    while (n && isspace((unsigned char)a[n - 1]))
        n--;
    snprintf(lhs, sizeof(lhs), "%.*s", (int)n, a);
    uint64_t v;
    if (!eval(c, eq + 1, &v))
        return false;
    struct hexsim_dbg_vref r;
    const char *end;
    char err[160];
    int vr = lhs[0] == '$' ? hexsim_dbg_vref_parse(c->d, lhs + 1, &end, &r, err, sizeof(err)) : 1;
    if (vr < 0 || (vr == 0 && (*end || !r.indexed))) {
        fprintf(c->d->out, "Error: %s\n", vr < 0 ? err : "set a vector register by lanes: "
                "set $v3.w[N] = EXPR (views b ub h uh w uw)");
        return false;
    }
    if (vr == 0) {   // one lane of an HVX register: read, change the lane, write back
        uint8_t buf[HEXSIM_DBG_REG_MAX_BYTES];
        if (hexsim_dbg_vreg_read(c->d, r.num, buf)) {
            fprintf(c->d->out, "Error: no register %s\n", lhs);
            return false;
        }
        for (unsigned k = 0; k < r.lane; k++)
            buf[r.index * r.lane + k] = (uint8_t)(v >> (8 * k));
        if (hexsim_dbg_vreg_write(c->d, r.num, buf))
            fprintf(c->d->out, "Error: cannot write %s\n", lhs);
        return false;
    }
    if (lhs[0] == '$') {
        unsigned num;
        for (char *p = lhs; *p; p++)
            *p = (char)tolower((unsigned char)*p);
        if (hexsim_dbg_reg_lookup(c->d, lhs + 1, &num) || hexsim_dbg_reg_write(c->d, num, v))
            fprintf(c->d->out, "Error: no register %s\n", lhs);
        return false;
    }
    unsigned size = 4;
    const char *addr_expr = lhs;
    if (lhs[0] == '{') {
        const char *close = strchr(lhs, '}');
        size = close ? type_size(lhs + 1, (size_t)(close - lhs - 1)) : 0;
        if (!size) {
            fprintf(c->d->out, "Error: unknown type in \"%s\" (byte, half, word, dword)\n", lhs);
            return false;
        }
        addr_expr = close + 1;
    } else if (lhs[0] == '*') {
        addr_expr = lhs + 1;
    } else {
        fprintf(c->d->out, "Error: cannot assign to \"%s\"\n", lhs);
        return false;
    }
    uint32_t addr;
    if (!hexsim_cli_eval_addr(c, addr_expr, &addr))
        return false;
    if (hexsim_dbg_write_uint(c->d, addr, size, 0, v))
        fprintf(c->d->out, "Cannot access memory at address 0x%08x\n", addr);
    return false;
}

// x/NFU ADDR: N units of size U (b h w g) in format F (x d u o t c a s i); /p: physical.
bool hexsim_cli_cmd_x(struct hexsim_dbg_cli *c, const char *a, const char *m)
{
    unsigned count = 1, size = 4;
    char fmt = 'x';
    unsigned flags = 0;
    for (const char *p = m ? m : ""; *p;) {
        if (isdigit((unsigned char)*p)) {
            count = (unsigned)strtoul(p, (char **)&p, 10);
            continue;
        }
        switch (*p) {
        case 'b': size = 1; break;
        case 'h': size = 2; break;
        case 'w': size = 4; break;
        case 'g': size = 8; break;
        case 'p': flags |= HEXSIM_DBG_MEM_PHYS; break;
        case 'x': case 'd': case 'u': case 'o': case 't': case 'c': case 'a': case 's': case 'i':
            fmt = *p;
            if (fmt == 'c')
                size = 1;
            break;
        default:
            fprintf(c->d->out, "Error: unknown format letter '%c'\n", *p);
            return false;
        }
        p++;
    }
    uint64_t addr;
    a = skip_ws(a);
    if (!*a)
        addr = hexsim_dbg_pc(c->d);
    else if (!eval(c, a, &addr))
        return false;
    // a virtual address is 32 bits ($r1 is an int, sign-extended by the expression) and
    // wraps as the guest's does; a physical one (/p) may be wider
    const uint64_t amask = flags & HEXSIM_DBG_MEM_PHYS ? ~0ull : 0xffffffffull;
    addr &= amask;
    FILE *out = c->d->out;
    char sym[160];
    if (fmt == 'i') {
        for (unsigned i = 0; i < count; i++) {
            char text[1024];
            uint32_t at = (uint32_t)addr;
            unsigned len = hexsim_dbg_format_packet(c->d, at, text, sizeof(text));
            hexsim_dbg_symbolize(c->d, at, sym, sizeof(sym));
            fprintf(out, "%s0x%08x%s%s: %s\n", at == hexsim_dbg_pc(c->d) ? "=> " : "   ", at,
                    sym[0] ? " " : "", sym, text);
            addr = (addr + len) & amask;
        }
        return false;
    }
    if (fmt == 's') {
        for (unsigned i = 0; i < count; i++) {
            char buf[256];
            size_t n = 0;
            uint8_t ch;
            fprintf(out, "0x%08x: \"", (uint32_t)addr);
            while (n < sizeof(buf) - 1 &&
                   c->d->t.ops->read_mem(c->d->t.ctx, c->d->thread, (addr + n) & amask, &ch, 1,
                                         flags) == 1 && ch) {
                if (isprint(ch) && ch != '"' && ch != '\\')
                    fputc(ch, out);
                else
                    fprintf(out, "\\%03o", ch);
                n++;
            }
            fprintf(out, "\"\n");
            addr = (addr + n + 1) & amask;
        }
        return false;
    }
    unsigned per_line = size == 8 ? 2 : size == 4 ? 4 : 8;
    for (unsigned i = 0; i < count; i++) {
        uint64_t v;
        if (i % per_line == 0) {
            if (i)
                fputc('\n', out);
            hexsim_dbg_symbolize(c->d, (uint32_t)addr, sym, sizeof(sym));
            fprintf(out, "0x%08x%s%s:", (uint32_t)addr, sym[0] ? " " : "", sym);
        }
        if (hexsim_dbg_read_uint(c->d, addr, size, flags, &v)) {
            fprintf(out, "\nCannot access memory at address 0x%08x", (uint32_t)addr);
            break;
        }
        fputc('\t', out);
        print_value(c, v, fmt, size);
        addr = (addr + size) & amask;
    }
    fputc('\n', out);
    return false;
}

// disassemble [ADDR | START,END | START,+LEN]: packets with braces; without a range the
// function around ADDR (default PC), or 8 packets when no sized symbol covers it.
bool hexsim_cli_cmd_disassemble(struct hexsim_dbg_cli *c, const char *a, const char *m)
{
    (void)m;
    uint32_t start;
    uint64_t end = 0;
    a = skip_ws(a);
    const struct hexsim_sym *fn = NULL;
    char first[128];
    const char *comma = strchr(a, ',');
    snprintf(first, sizeof(first), "%.*s", (int)(comma ? (size_t)(comma - a) : strlen(a)), a);
    if (!first[0])
        start = hexsim_dbg_pc(c->d);
    else if (!hexsim_cli_eval_addr(c, first, &start))
        return false;
    if (comma) {
        const char *e = skip_ws(comma + 1);
        uint32_t v;
        if (!hexsim_cli_eval_addr(c, *e == '+' ? e + 1 : e, &v))
            return false;
        end = *e == '+' ? (uint64_t)start + v : v;
    } else {
        fn = hexsim_symtab_lookup(hexsim_dbg_symtab(c->d), start);
        if (fn && fn->size) {
            start = fn->addr;
            end = (uint64_t)fn->addr + fn->size;
        } else {
            fn = NULL;
            end = 0;   // 8 packets
        }
    }
    FILE *out = c->d->out;
    if (fn)
        fprintf(out, "Dump of assembler code for function %s:\n", fn->name);
    else
        fprintf(out, "Dump of assembler code from 0x%08x to 0x%08x:\n", start, (uint32_t)end);
    uint32_t pc = hexsim_dbg_pc(c->d);
    uint64_t at = start;
    for (unsigned n = 0; n < 100000 && (end ? at < end : n < 8); n++) {
        char text[1024], sym[160];
        unsigned len = hexsim_dbg_format_packet(c->d, (uint32_t)at, text, sizeof(text));
        if (fn)
            snprintf(sym, sizeof(sym), "<+%u>", (uint32_t)(at - fn->addr));
        else
            hexsim_dbg_symbolize(c->d, (uint32_t)at, sym, sizeof(sym));
        fprintf(out, "%s0x%08x%s%s:\t%s\n", at == pc ? "=> " : "   ", (uint32_t)at,
                sym[0] ? " " : "", sym, text);
        at += len;
    }
    fprintf(out, "End of assembler dump.\n");
    return false;
}
