// SPDX-License-Identifier: MIT
// Debugger commands about source, frames and typed values, in gdb's wording (cli_int.h):
// print/ptype/whatis, display/undisplay, list, bt, up/down/frame, info frame/line/locals/
// args/display, and the code locations break/until/clear/list take (FILE:LINE, FUNC after
// its prologue, *ADDR). Source lines come from the DWARF line table (dwarf.c) and the
// source files on the host; without DWARF the commands say so or fall back on addresses.
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "cli_int.h"
#include "kernel.h"
#include "value.h"

static const char *base_name(const char *path)
{
    const char *s = strrchr(path, '/');
    return s ? s + 1 : path;
}

static bool all_digits(const char *s)
{
    return *s && strspn(s, "0123456789") == strlen(s);
}

static bool is_ident(const char *s)
{
    if (!isalpha((unsigned char)*s) && *s != '_')
        return false;
    while (isalnum((unsigned char)*s) || *s == '_' || *s == '.')
        s++;
    return *s == '\0';
}

// The file and line of the selected frame, or of the last list.
static bool current_file(struct hexsim_dbg_cli *c, const char **file, unsigned *line)
{
    uint32_t lookup;
    hexsim_dbg_frame_pc(c->d, &lookup);
    if (hexsim_dbg_line(c->d, lookup, file, line) == 0)
        return true;
    if (c->list_file[0]) {
        *file = c->list_file;
        *line = c->list_line;
        return true;
    }
    return false;
}

bool hexsim_cli_code_location(struct hexsim_dbg_cli *c, const char *args, uint32_t *addr,
                              const char **file, unsigned *line)
{
    FILE *out = c->d->out;
    struct hexsim_dwarf *dw = hexsim_dbg_dwarf(c->d);
    args = hexsim_cli_skip_ws(args);
    *file = NULL;
    if (*args == '*') {
        return hexsim_cli_eval_addr(c, args + 1, addr);
    }
    if (!*args) {
        fprintf(out, "Error: a location is needed\n");
        return false;
    }
    const char *colon = strrchr(args, ':');
    if (colon && args[0] != '$' && all_digits(colon + 1)) {
        char fname[512];
        snprintf(fname, sizeof(fname), "%.*s", (int)(colon - args), args);
        if (!dw) {
            fprintf(out, "Error: no line table: the program has no DWARF (build it with -g)\n");
            return false;
        }
        unsigned want = (unsigned)strtoul(colon + 1, NULL, 10);
        if (hexsim_dwarf_line_addr(dw, fname, want, addr, file, line)) {
            fprintf(out, "No line %u in file \"%s\".\n", want, fname);
            return false;
        }
        return true;
    }
    if (dw && all_digits(args)) {   // LINE: in the current file, as gdb reads it
        const char *cur;
        unsigned l;
        unsigned want = (unsigned)strtoul(args, NULL, 10);
        if (!current_file(c, &cur, &l) || hexsim_dwarf_line_addr(dw, cur, want, addr, file,
                                                                  line)) {
            fprintf(out, "No line %s in the current file.\n", args);
            return false;
        }
        return true;
    }
    struct hexsim_dwarf_func f;
    if (dw && is_ident(args) && hexsim_dwarf_func_named(dw, args, &f) == 0) {
        *addr = f.body;
        if (hexsim_dwarf_addr_line(dw, f.body, file, line))
            *file = NULL;
        return true;
    }
    return hexsim_cli_eval_addr(c, args, addr);
}

// ---- typed values

static char format_letter(struct hexsim_dbg_cli *c, const char *m, bool *ok)
{
    *ok = true;
    if (!m || !*m)
        return 0;
    if (strlen(m) == 1 && strchr("xduotca", m[0]))
        return m[0];
    fprintf(c->d->out, "Error: unknown format letter '%s' (x d u o t c a)\n", m);
    *ok = false;
    return 0;
}

// print $v3, $v3.w, $q0: a whole HVX register or one of its lane views (vreg.h). True when
// a is one of those (printed, or an error said).
static bool print_vector(struct hexsim_dbg_cli *c, const char *a, char fmt)
{
    struct hexsim_dbg_vref r;
    const char *end;
    char err[160];
    if (a[0] != '$' || hexsim_dbg_vref_parse(c->d, a + 1, &end, &r, err, sizeof(err)) != 0 ||
        r.indexed || *hexsim_cli_skip_ws(end))
        return false;
    uint8_t buf[HEXSIM_DBG_REG_MAX_BYTES];
    if (hexsim_dbg_vreg_read(c->d, r.num, buf)) {
        fprintf(c->d->out, "no register $%s\n", r.name);
        return true;
    }
    fprintf(c->d->out, "$%u = ", ++c->d->values);
    hexsim_dbg_vref_print(c->d, &r, buf, fmt == 'x' ? 'x' : 0, c->d->out);
    fputc('\n', c->d->out);
    return true;
}

bool hexsim_cli_cmd_print(struct hexsim_dbg_cli *c, const char *a, const char *m)
{
    bool ok;
    char fmt = format_letter(c, m, &ok);
    struct hexsim_dval v;
    char err[256];
    FILE *out = c->d->out;
    if (!ok)
        return false;
    a = hexsim_cli_skip_ws(a);
    if (!*a) {
        fprintf(out, "Error: an expression is needed\n");
        return false;
    }
    if (print_vector(c, a, fmt))
        return false;
    if (hexsim_dbg_eval_value(c->d, a, &v, err, sizeof(err))) {
        fprintf(out, "%s\n", err);
        return false;
    }
    fprintf(out, "$%u = ", ++c->d->values);
    hexsim_dval_print(c->d, &v, fmt, out);
    fputc('\n', out);
    return false;
}

static bool type_of(struct hexsim_dbg_cli *c, const char *a, const struct hexsim_dtype **t)
{
    struct hexsim_dval v;
    char err[256];
    a = hexsim_cli_skip_ws(a);
    if (hexsim_dbg_parse_type(c->d, a, t) == 0)
        return true;
    if (hexsim_dbg_eval_value(c->d, a, &v, err, sizeof(err))) {
        fprintf(c->d->out, "%s\n", err);
        return false;
    }
    *t = v.type;
    return true;
}

bool hexsim_cli_cmd_ptype(struct hexsim_dbg_cli *c, const char *a, const char *m)
{
    (void)m;
    const struct hexsim_dtype *t;
    char buf[4096];
    if (!type_of(c, a, &t))
        return false;
    hexsim_dtype_expand(t, buf, sizeof(buf));
    fprintf(c->d->out, "type = %s\n", buf);
    return false;
}

bool hexsim_cli_cmd_whatis(struct hexsim_dbg_cli *c, const char *a, const char *m)
{
    (void)m;
    const struct hexsim_dtype *t;
    char buf[512];
    if (!type_of(c, a, &t))
        return false;
    hexsim_dtype_name(t, "", buf, sizeof(buf));
    fprintf(c->d->out, "type = %s\n", buf);
    return false;
}

static void show_display(struct hexsim_dbg_cli *c, const struct hexsim_dbg_display *ds)
{
    FILE *out = c->d->out;
    if (ds->fmt == 'i' || ds->fmt == 's') {
        char mod[4] = { ds->fmt, 0, 0, 0 };
        fprintf(out, "%d: x/%c %s\n", ds->id, ds->fmt, ds->expr);
        hexsim_cli_cmd_x(c, ds->expr, mod);
        return;
    }
    struct hexsim_dval v;
    char err[256];
    if (ds->fmt)
        fprintf(out, "%d: /%c %s = ", ds->id, ds->fmt, ds->expr);
    else
        fprintf(out, "%d: %s = ", ds->id, ds->expr);
    if (hexsim_dbg_eval_value(c->d, ds->expr, &v, err, sizeof(err)))
        fprintf(out, "<error: %s>\n", err);
    else {
        hexsim_dval_print(c->d, &v, ds->fmt, out);
        fputc('\n', out);
    }
}

void hexsim_cli_show_displays(struct hexsim_dbg_cli *c)
{
    if (c->d->ended)
        return;
    for (unsigned i = 0; i < c->d->ndisp; i++)
        show_display(c, &c->d->disp[i]);
}

bool hexsim_cli_cmd_display(struct hexsim_dbg_cli *c, const char *a, const char *m)
{
    struct hexsim_debugger *d = c->d;
    a = hexsim_cli_skip_ws(a);
    if (!*a) {
        hexsim_cli_show_displays(c);
        return false;
    }
    char fmt = 0;
    if (m && *m) {
        if (strlen(m) != 1 || !strchr("xduotcais", m[0])) {
            fprintf(d->out, "Error: unknown format letter '%s' (x d u o t c a i s)\n", m);
            return false;
        }
        fmt = m[0];
    }
    if (d->ndisp >= HEXSIM_DBG_MAX_DISPLAY) {
        fprintf(d->out, "Error: too many display expressions\n");
        return false;
    }
    struct hexsim_dbg_display *ds = &d->disp[d->ndisp++];
    ds->id = ++d->next_disp;
    ds->fmt = fmt;
    snprintf(ds->expr, sizeof(ds->expr), "%s", a);
    if (!d->ended)
        show_display(c, ds);
    return false;
}

bool hexsim_cli_cmd_undisplay(struct hexsim_dbg_cli *c, const char *a, const char *m)
{
    (void)m;
    struct hexsim_debugger *d = c->d;
    a = hexsim_cli_skip_ws(a);
    if (!*a) {
        d->ndisp = 0;
        return false;
    }
    while (*a) {
        char *end;
        long id = strtol(a, &end, 10);
        if (end == a) {
            fprintf(d->out, "Error: bad display number \"%s\"\n", a);
            return false;
        }
        unsigned j = 0;
        bool found = false;
        for (unsigned i = 0; i < d->ndisp; i++)
            if (d->disp[i].id == id)
                found = true;
            else
                d->disp[j++] = d->disp[i];
        d->ndisp = j;
        if (!found)
            fprintf(d->out, "No display number %ld.\n", id);
        a = hexsim_cli_skip_ws(end);
    }
    return false;
}

void hexsim_cli_info_display(struct hexsim_dbg_cli *c)
{
    struct hexsim_debugger *d = c->d;
    if (!d->ndisp) {
        fprintf(d->out, "There are no auto-display expressions now.\n");
        return;
    }
    fprintf(d->out, "Auto-display expressions now in effect:\nNum Enb Expression\n");
    for (unsigned i = 0; i < d->ndisp; i++) {
        if (d->disp[i].fmt)
            fprintf(d->out, "%d:   y  /%c %s\n", d->disp[i].id, d->disp[i].fmt, d->disp[i].expr);
        else
            fprintf(d->out, "%d:   y  %s\n", d->disp[i].id, d->disp[i].expr);
    }
}

struct vars_ctx {
    struct hexsim_dbg_cli *c;
    unsigned n;
};

static void print_var(void *ctx, const char *name)
{
    struct vars_ctx *v = ctx;
    struct hexsim_dval val;
    char err[256];
    FILE *out = v->c->d->out;
    v->n++;
    fprintf(out, "%s = ", name);
    if (hexsim_dbg_eval_value(v->c->d, name, &val, err, sizeof(err)))
        fprintf(out, "<%s>", err);
    else
        hexsim_dval_print(v->c->d, &val, 0, out);
    fputc('\n', out);
}

void hexsim_cli_info_vars(struct hexsim_dbg_cli *c, bool args)
{
    struct hexsim_dwarf *dw = hexsim_dbg_dwarf(c->d);
    if (!dw) {
        fprintf(c->d->out, "No symbol table info available.\n");
        return;
    }
    uint32_t lookup;
    hexsim_dbg_frame_pc(c->d, &lookup);
    struct vars_ctx v = { c, 0 };
    hexsim_dwarf_locals(dw, lookup, args, print_var, &v);
    if (!v.n)
        fprintf(c->d->out, args ? "No arguments.\n" : "No locals.\n");
}

// "a=10" items of an argument list (info frame)
static void print_arg(void *ctx, const char *name)
{
    struct vars_ctx *v = ctx;
    struct hexsim_dval val;
    char err[256];
    FILE *out = v->c->d->out;
    fprintf(out, "%s%s=", v->n++ ? ", " : "", name);
    if (hexsim_dbg_eval_value(v->c->d, name, &val, err, sizeof(err)))
        fprintf(out, "<%s>", err);
    else
        hexsim_dval_print(v->c->d, &val, 0, out);
}

// ---- source

// Lists lines [first, first+10) of file; remembers where the next list goes on.
static void list_lines(struct hexsim_dbg_cli *c, const char *file, unsigned first)
{
    FILE *out = c->d->out;
    FILE *f = fopen(file, "r");
    if (!f) {
        fprintf(out, "Error: cannot read the source file %s\n", file);
        return;
    }
    if (first < 1)
        first = 1;
    char *text = NULL;
    size_t cap = 0;
    ssize_t len;
    unsigned n = 0, shown = 0;
    while ((len = getline(&text, &cap, f)) >= 0) {
        n++;
        if (n < first || shown >= 10)
            continue;
        while (len > 0 && (text[len - 1] == '\n' || text[len - 1] == '\r'))
            text[--len] = '\0';
        fprintf(out, "%u\t%s\n", n, text);
        shown++;
    }
    free(text);
    fclose(f);
    if (!shown)
        fprintf(out, "Line number %u out of range; \"%s\" has %u lines.\n", first,
                base_name(file), n);
    snprintf(c->list_file, sizeof(c->list_file), "%s", file);
    c->list_line = first + 10;
}

bool hexsim_cli_cmd_list(struct hexsim_dbg_cli *c, const char *a, const char *m)
{
    (void)m;
    FILE *out = c->d->out;
    struct hexsim_dwarf *dw = hexsim_dbg_dwarf(c->d);
    a = hexsim_cli_skip_ws(a);
    if (!dw) {
        fprintf(out, "Error: no source lines: the program has no DWARF (build it with -g)\n");
        return false;
    }
    const char *file;
    unsigned line;
    if (!*a) {
        if (c->list_line && c->list_file[0]) {
            char keep[sizeof(c->list_file)];
            snprintf(keep, sizeof(keep), "%s", c->list_file);
            list_lines(c, keep, c->list_line);
            return false;
        }
        uint32_t lookup;
        hexsim_dbg_frame_pc(c->d, &lookup);
        if (hexsim_dbg_line(c->d, lookup, &file, &line)) {
            fprintf(out, "Error: no line information for 0x%08x\n", lookup);
            return false;
        }
        list_lines(c, file, line > 5 ? line - 5 : 1);
        return false;
    }
    struct hexsim_dwarf_func f;
    if (is_ident(a) && hexsim_dwarf_func_named(dw, a, &f) == 0) {
        // the function's declaration line, in the file the line table names for its code
        if (hexsim_dwarf_addr_line(dw, f.low, &file, &line)) {
            fprintf(out, "Error: no line information for %s\n", a);
            return false;
        }
        line = f.line ? f.line : line;
        list_lines(c, file, line > 4 ? line - 4 : 1);
        return false;
    }
    if (all_digits(a)) {
        unsigned want = (unsigned)strtoul(a, NULL, 10);
        if (!current_file(c, &file, &line)) {
            fprintf(out, "Error: no current source file\n");
            return false;
        }
        char keep[sizeof(c->list_file)];
        snprintf(keep, sizeof(keep), "%s", file);
        list_lines(c, keep, want > 5 ? want - 5 : 1);
        return false;
    }
    uint32_t addr;
    if (!hexsim_cli_code_location(c, a, &addr, &file, &line))
        return false;
    if (!file && hexsim_dbg_line(c->d, addr, &file, &line)) {
        fprintf(out, "Error: no line information for 0x%08x\n", addr);
        return false;
    }
    list_lines(c, file, line > 5 ? line - 5 : 1);
    return false;
}

void hexsim_cli_info_line(struct hexsim_dbg_cli *c, const char *args)
{
    FILE *out = c->d->out;
    struct hexsim_dwarf *dw = hexsim_dbg_dwarf(c->d);
    uint32_t addr, start, end;
    const char *file;
    unsigned line;
    args = hexsim_cli_skip_ws(args);
    if (!*args)
        hexsim_dbg_frame_pc(c->d, &addr);
    else if (!hexsim_cli_code_location(c, args, &addr, &file, &line))
        return;
    char sym[160], sym2[160];
    if (!dw || hexsim_dwarf_addr_line(dw, addr, &file, &line) ||
        hexsim_dwarf_line_range(dw, addr, &start, &end)) {
        fprintf(out, "No line number information available for address 0x%x %s\n", addr,
                hexsim_dbg_symbolize(c->d, addr, sym, sizeof(sym)));
        return;
    }
    hexsim_dbg_symbolize(c->d, start, sym, sizeof(sym));
    hexsim_dbg_symbolize(c->d, end, sym2, sizeof(sym2));
    fprintf(out, "Line %u of \"%s\" starts at address 0x%x %s and ends at 0x%x %s.\n", line,
            base_name(file), start, sym, end, sym2);
}

// ---- frames

static void print_frame(struct hexsim_dbg_cli *c, unsigned n, bool source)
{
    FILE *out = c->d->out;
    fprintf(out, "#%-2u ", n);
    hexsim_dbg_describe_frame(c->d, n, out);
    fputc('\n', out);
    if (!source)
        return;
    struct hexsim_dbg_frame f[HEXSIM_DBG_MAX_FRAMES];
    unsigned count = hexsim_dbg_frames(c->d, f, HEXSIM_DBG_MAX_FRAMES);
    const char *file;
    unsigned line;
    if (n < count && hexsim_dbg_line(c->d, n ? f[n].pc - 1 : f[n].pc, &file, &line) == 0)
        hexsim_dbg_print_source_line(c->d, file, line, out);
}

bool hexsim_cli_cmd_bt(struct hexsim_dbg_cli *c, const char *a, const char *m)
{
    (void)m;
    if (c->d->ended) {
        fprintf(c->d->out, "No stack.\n");
        return false;
    }
    struct hexsim_dbg_frame f[HEXSIM_DBG_MAX_FRAMES];
    uint64_t max = HEXSIM_DBG_MAX_FRAMES;
    a = hexsim_cli_skip_ws(a);
    if (*a && !hexsim_cli_eval(c, a, &max))
        return false;
    unsigned n = hexsim_dbg_frames(c->d, f, HEXSIM_DBG_MAX_FRAMES);
    for (unsigned i = 0; i < n && i < max; i++) {
        if (f[i].regs)   // the guest kernel's event entry: where the interrupted context was
            hexsim_kernel_print_boundary(c->d, &f[i], i > 1 ? &f[i - 2] : NULL, c->d->out);
        print_frame(c, i, false);
    }
    if (max < n)
        fprintf(c->d->out, "(More stack frames follow...)\n");
    return false;
}

static bool move_frame(struct hexsim_dbg_cli *c, const char *a, int dir)
{
    uint64_t k = 1;
    a = hexsim_cli_skip_ws(a);
    if (*a && !hexsim_cli_eval(c, a, &k))
        return false;
    int64_t want = (int64_t)c->d->frame + dir * (int64_t)k;
    struct hexsim_dbg_frame f[HEXSIM_DBG_MAX_FRAMES];
    int64_t n = hexsim_dbg_frames(c->d, f, HEXSIM_DBG_MAX_FRAMES);
    if (want < 0 || (dir < 0 && c->d->frame == 0)) {
        if (c->d->frame == 0) {
            fprintf(c->d->out, "Bottom (innermost) frame selected; you cannot go down.\n");
            return false;
        }
        want = 0;
    }
    if (want >= n) {
        if (c->d->frame + 1 >= n) {
            fprintf(c->d->out, "Initial frame selected; you cannot go up.\n");
            return false;
        }
        want = n - 1;
    }
    hexsim_dbg_select_frame(c->d, (unsigned)want);
    c->list_line = 0;
    print_frame(c, (unsigned)want, true);
    return false;
}

bool hexsim_cli_cmd_up(struct hexsim_dbg_cli *c, const char *a, const char *m)
{
    (void)m;
    if (c->d->ended) {
        fprintf(c->d->out, "No stack.\n");
        return false;
    }
    return move_frame(c, a, 1);
}

bool hexsim_cli_cmd_down(struct hexsim_dbg_cli *c, const char *a, const char *m)
{
    (void)m;
    if (c->d->ended) {
        fprintf(c->d->out, "No stack.\n");
        return false;
    }
    return move_frame(c, a, -1);
}

bool hexsim_cli_cmd_frame(struct hexsim_dbg_cli *c, const char *a, const char *m)
{
    (void)m;
    if (c->d->ended) {
        fprintf(c->d->out, "No stack.\n");
        return false;
    }
    a = hexsim_cli_skip_ws(a);
    if (*a) {
        uint64_t n;
        if (!hexsim_cli_eval(c, a, &n))
            return false;
        if (n > HEXSIM_DBG_MAX_FRAMES || hexsim_dbg_select_frame(c->d, (unsigned)n)) {
            fprintf(c->d->out, "No frame at level %s.\n", a);
            return false;
        }
        c->list_line = 0;
    }
    print_frame(c, c->d->frame, true);
    return false;
}

void hexsim_cli_info_frame(struct hexsim_dbg_cli *c)
{
    FILE *out = c->d->out;
    struct hexsim_dbg_frame f[HEXSIM_DBG_MAX_FRAMES];
    unsigned n = hexsim_dbg_frames(c->d, f, HEXSIM_DBG_MAX_FRAMES);
    unsigned k = c->d->frame < n ? c->d->frame : 0;
    // a frame's CFA is the SP its caller had before the call: the caller's entry's sp
    uint32_t cfa = k + 1 < n ? f[k + 1].sp : f[k].sp;
    bool saved = k + 1 < n && f[k].fp && f[k + 1].sp == f[k].fp + 8;
    fprintf(out, "Stack level %u, frame at 0x%x:\n pc = 0x%x in ", k, cfa, f[k].pc);
    uint32_t lookup = k ? f[k].pc - 1 : f[k].pc;
    struct hexsim_dwarf_func fn;
    const char *file;
    unsigned line;
    if (hexsim_dwarf_func_at(hexsim_dbg_dwarf(c->d), lookup, &fn) == 0)
        fputs(fn.name, out);
    else {
        const struct hexsim_sym *s = hexsim_symtab_lookup(hexsim_dbg_symtab(c->d), lookup);
        fputs(s ? s->name : "??", out);
    }
    if (hexsim_dbg_line(c->d, lookup, &file, &line) == 0)
        fprintf(out, " (%s:%u)", base_name(file), line);
    if (k + 1 < n)
        fprintf(out, "; saved pc = 0x%x", f[k + 1].pc);
    fputc('\n', out);
    if (k + 2 < n)
        fprintf(out, " called by frame at 0x%x", f[k + 2].sp);
    if (k > 0)
        fprintf(out, "%s caller of frame at 0x%x", k + 2 < n ? "," : "", f[k].sp);
    if (k + 2 < n || k > 0)
        fputc('\n', out);
    fprintf(out, " Arglist at 0x%x, args: ", f[k].fp);
    unsigned keep = c->d->frame;
    c->d->frame = k;
    struct vars_ctx v = { c, 0 };
    hexsim_dwarf_locals(hexsim_dbg_dwarf(c->d), lookup, true, print_arg, &v);
    c->d->frame = keep;
    fprintf(out, "\n Locals at 0x%x, Previous frame's sp is 0x%x\n", f[k].fp, cfa);
    // where this frame saved its caller's registers: the CFI's rules, else allocframe's pair
    unsigned nsaved = 0;
    for (unsigned r = 0; r < 32; r++) {
        uint32_t at;
        if (hexsim_dbg_frame_saved_at(c->d, k, r, &at))
            continue;
        fprintf(out, "%sr%u at 0x%x", nsaved++ ? ", " : " Saved registers:\n  ", r, at);
    }
    if (nsaved)
        fputc('\n', out);
    else if (saved)
        fprintf(out, " Saved registers:\n  r30 at 0x%x, r31 at 0x%x\n", f[k].fp, f[k].fp + 4);
}
