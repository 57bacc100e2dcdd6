// SPDX-License-Identifier: MIT
// Debugger commands (cli.h), in gdb's spirit and spelling: the command table and parsing,
// break/tbreak/delete/clear/disable/enable, watch/rwatch/awatch, continue, step/stepi/next/
// finish/until/advance, info (registers, breakpoints, watchpoints, symbol, threads, the
// target's own: tlb, irq, devices, hvm; and cli_src.c's frame, line, locals, args, display),
// thread, trace, savevm/loadvm, echo, help, quit. x, set and disassemble are in cli_mem.c;
// print, ptype, list, bt and the frame commands in cli_src.c. Output formats are stable
// (tests compare them); every message goes to the debugger's output stream.
#include "cli_int.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "cpu/cpu.h"
#include "kernel.h"
#include "value.h"

struct command {
    const char *name;
    const char *alias;     // a second name or NULL
    bool (*fn)(struct hexsim_dbg_cli *c, const char *args, const char *mod);
    const char *help;
};

const char *hexsim_cli_skip_ws(const char *s)
{
    while (isspace((unsigned char)*s))
        s++;
    return s;
}
#define skip_ws hexsim_cli_skip_ws

bool hexsim_cli_eval(struct hexsim_dbg_cli *c, const char *expr, uint64_t *v)
{
    char err[160];
    if (hexsim_dbg_eval(c->d, expr, v, err, sizeof(err))) {
        fprintf(c->d->out, "Error: %s\n", err);
        return false;
    }
    return true;
}
#define eval hexsim_cli_eval
#define report hexsim_cli_report

bool hexsim_cli_eval_addr(struct hexsim_dbg_cli *c, const char *expr, uint32_t *addr)
{
    uint64_t v;
    if (!eval(c, expr, &v))
        return false;
    *addr = (uint32_t)v;   // $r1 is an int: 0xc09a9ed0 was sign-extended to 64 bits
    return true;
}

static bool not_running(struct hexsim_dbg_cli *c)
{
    if (c->d->ended) {
        fprintf(c->d->out, "The program is not being run.\n");
        return true;
    }
    return false;
}

// step/next on the current thread: false with the reason when that thread cannot run.
static bool thread_can_step(struct hexsim_dbg_cli *c)
{
    struct hexsim_debugger *d = c->d;
    const char *why = d->t.ops->thread_state ? d->t.ops->thread_state(d->t.ctx, d->thread)
                                             : NULL;
    if (why)
        fprintf(d->out, "Error: thread %u is %s: it cannot step; select a running thread "
                "(thread N) or continue\n", d->thread, why);
    return !why;
}

// A repeat count (step, next, stepi): 1 without one; false with a message for a bad one.
// 0 runs nothing, as in gdb; a negative count is refused (gdb has no reverse execution here).
static bool count_arg(struct hexsim_dbg_cli *c, const char *args, uint64_t *n)
{
    uint64_t v = 1;
    args = skip_ws(args);
    if (*args && !eval(c, args, &v))
        return false;
    if ((int64_t)v < 0) {
        fprintf(c->d->out, "Error: a step count cannot be negative (%s); hexsim does not run "
                "backwards\n", args);
        return false;
    }
    *n = v;
    return true;
}

// ---- breakpoints and watchpoints

static bool cmd_break_common(struct hexsim_dbg_cli *c, const char *args, bool temp)
{
    uint32_t addr;
    const char *file = NULL;
    unsigned line = 0;
    char where[256];
    const char *cond = hexsim_cli_split_if(args, where, sizeof(where));   // LOC if EXPR
    if (cond && !*cond) {
        fprintf(c->d->out, "Argument required (boolean expression).\n");
        return false;
    }
    args = where;
    // a function also where it was inlined (DWARF): every instance is a location
    uint32_t inl[HEXSIM_DBG_MAX_BP];
    unsigned ninl = hexsim_cli_inlined(c, skip_ws(args), inl, HEXSIM_DBG_MAX_BP), k = 0;
    if (!*skip_ws(args))
        addr = hexsim_dbg_frame_pc(c->d, NULL);
    else if (ninl && !hexsim_cli_has_code(c, skip_ws(args)))
        addr = inl[k++];   // only inlined copies: the first is the breakpoint's address
    else if (!hexsim_cli_code_location(c, args, &addr, &file, &line))
        return false;
    char loc[64];
    snprintf(loc, sizeof(loc), "%.*s", (int)sizeof(loc) - 1, skip_ws(args));   // may cut
    int id = hexsim_dbg_break_add(c->d, addr, temp, false, loc);
    if (id < 0) {
        fprintf(c->d->out, "Error: too many breakpoints\n");
        return false;
    }
    unsigned nlocs = 1;
    for (; k < ninl; k++)
        if (inl[k] != addr && hexsim_dbg_break_add_loc(c->d, id, inl[k]) == 0)
            nlocs++;
    if (nlocs > 1) {   // gdb's words for a breakpoint with several locations
        if (cond && !hexsim_cli_set_condition(c, id, cond)) {
            hexsim_dbg_delete(c->d, id);
            return false;
        }
        fprintf(c->d->out, "%s %d at 0x%08x: %s. (%u locations)\n",
                temp ? "Temporary breakpoint" : "Breakpoint", id, addr, loc, nlocs);
        return false;
    }
    if (cond && !hexsim_cli_set_condition(c, id, cond)) {
        hexsim_dbg_delete(c->d, id);
        return false;
    }
    char sym[160];
    const char *what = temp ? "Temporary breakpoint" : "Breakpoint";
    if (file || hexsim_dbg_line(c->d, addr, &file, &line) == 0) {
        const char *base = strrchr(file, '/');
        fprintf(c->d->out, "%s %d at 0x%08x: file %s, line %u.\n", what, id, addr,
                base ? base + 1 : file, line);
        return false;
    }
    fprintf(c->d->out, "%s %d at 0x%08x%s%s\n", what, id, addr,
            hexsim_dbg_symbolize(c->d, addr, sym, sizeof(sym))[0] ? " " : "", sym);
    return false;
}

static bool cmd_break(struct hexsim_dbg_cli *c, const char *a, const char *m)
{
    (void)m;
    return cmd_break_common(c, a, false);
}

static bool cmd_tbreak(struct hexsim_dbg_cli *c, const char *a, const char *m)
{
    (void)m;
    return cmd_break_common(c, a, true);
}

// Applies fn to each id in args, or to all (-1) when there are none.
static void for_ids(struct hexsim_dbg_cli *c, const char *args,
                    int (*fn)(struct hexsim_debugger *, int, bool), bool on)
{
    args = skip_ws(args);
    if (!*args) {
        fn(c->d, -1, on);
        return;
    }
    while (*args) {
        char *end;
        long id = strtol(args, &end, 10);
        if (end == args) {
            fprintf(c->d->out, "Error: bad breakpoint number \"%s\"\n", args);
            return;
        }
        if (fn(c->d, (int)id, on))
            fprintf(c->d->out, "No breakpoint number %ld.\n", id);
        args = skip_ws(end);
    }
}

static int delete_fn(struct hexsim_debugger *d, int id, bool on)
{
    (void)on;
    return hexsim_dbg_delete(d, id);
}

static bool cmd_delete(struct hexsim_dbg_cli *c, const char *a, const char *m)
{
    (void)m;
    a = skip_ws(a);
    if (strncmp(a, "breakpoints", 11) == 0)
        a += 11;
    for_ids(c, a, delete_fn, false);
    return false;
}

static bool cmd_disable(struct hexsim_dbg_cli *c, const char *a, const char *m)
{
    (void)m;
    for_ids(c, a, hexsim_dbg_enable, false);
    return false;
}

static bool cmd_enable(struct hexsim_dbg_cli *c, const char *a, const char *m)
{
    (void)m;
    for_ids(c, a, hexsim_dbg_enable, true);
    return false;
}

// clear [LOC]: deletes the breakpoints at LOC (default: the selected frame's PC).
static bool cmd_clear(struct hexsim_dbg_cli *c, const char *a, const char *m)
{
    (void)m;
    struct hexsim_debugger *d = c->d;
    uint32_t addr;
    const char *file;
    unsigned line;
    if (!*skip_ws(a))
        addr = hexsim_dbg_frame_pc(d, NULL);
    else if (!hexsim_cli_code_location(c, a, &addr, &file, &line))
        return false;
    int ids[HEXSIM_DBG_MAX_BP];
    unsigned n = 0;
    for (unsigned i = 0; i < d->nbp; i++)
        if (!d->bp[i].remote && d->bp[i].addr == addr)
            ids[n++] = d->bp[i].id;
    if (!n) {
        fprintf(d->out, "No breakpoint at %s.\n", *skip_ws(a) ? skip_ws(a) : "this line");
        return false;
    }
    fprintf(d->out, "Deleted breakpoint%s", n > 1 ? "s" : "");
    for (unsigned i = 0; i < n; i++) {
        hexsim_dbg_delete(d, ids[i]);
        fprintf(d->out, " %d", ids[i]);
    }
    fprintf(d->out, " \n");
    return false;
}

static bool watch_common(struct hexsim_dbg_cli *c, const char *args, unsigned kind)
{
    args = skip_ws(args);
    uint32_t v;
    uint32_t len = 4;
    if (*args == '*') {
        if (!hexsim_cli_eval_addr(c, args + 1, &v))
            return false;
    } else {
        const struct hexsim_sym *s = hexsim_symtab_find(hexsim_dbg_symtab(c->d), args);
        struct hexsim_dval val;
        char err[160];
        const struct hexsim_dtype *t;
        if (hexsim_dbg_eval_value(c->d, args, &val, err, sizeof(err)) == 0 &&
            val.where == HEXSIM_V_MEM && (t = hexsim_dtype_strip(val.type)) &&
            t->kind != HEXSIM_T_FUNC && hexsim_dtype_size(t)) {
            v = val.addr;   // a variable with DWARF (a local too): its own bytes
            len = hexsim_dtype_size(t);
        } else if (s) {
            v = s->addr;
            if (s->size == 1 || s->size == 2 || s->size == 4 || s->size == 8)
                len = s->size;
        } else if (!hexsim_cli_eval_addr(c, args, &v)) {
            return false;
        }
    }
    int id = hexsim_dbg_watch_add(c->d, v, len, kind, false, args);
    if (id < 0) {
        fprintf(c->d->out, "Error: too many watchpoints\n");
        return false;
    }
    fprintf(c->d->out, "%s %d: %s (0x%08x, %u bytes)\n", kind == HEXSIM_DBG_WATCH_WRITE ?
            "Watchpoint" : kind == HEXSIM_DBG_WATCH_READ ? "Read watchpoint" :
            "Access watchpoint", id, args, v, len);
    return false;
}

static bool cmd_watch(struct hexsim_dbg_cli *c, const char *a, const char *m)
{
    (void)m;
    return watch_common(c, a, HEXSIM_DBG_WATCH_WRITE);
}

static bool cmd_rwatch(struct hexsim_dbg_cli *c, const char *a, const char *m)
{
    (void)m;
    return watch_common(c, a, HEXSIM_DBG_WATCH_READ);
}

static bool cmd_awatch(struct hexsim_dbg_cli *c, const char *a, const char *m)
{
    (void)m;
    return watch_common(c, a, HEXSIM_DBG_WATCH_ACCESS);
}

// info breakpoints (both kinds) or info watchpoints (watchpoints only).
static void info_breakpoints(struct hexsim_dbg_cli *c, bool watch_only)
{
    struct hexsim_debugger *d = c->d;
    unsigned shown = 0;
    for (int id = 1; id < d->next_id; id++) {
        char sym[160];
        for (unsigned i = 0; i < d->nbp; i++) {
            const struct hexsim_dbg_bp *b = &d->bp[i];
            if (b->id != id || b->remote || watch_only)
                continue;
            if (!shown++)
                fprintf(d->out, "Num  Type        Disp  Enb  Address     What\n");
            fprintf(d->out, "%-4d %-11s %-5s %-4s 0x%08x  ", b->id, "breakpoint",
                    b->temp ? "del" : "keep", b->enabled ? "y" : "n", b->addr);
            struct hexsim_dwarf_func fn;
            const char *file;
            unsigned line;
            if (hexsim_dwarf_func_at(hexsim_dbg_dwarf(d), b->addr, &fn) == 0 &&
                hexsim_dbg_line(d, b->addr, &file, &line) == 0) {
                const char *base = strrchr(file, '/');
                fprintf(d->out, "in %s at %s:%u", fn.name, base ? base + 1 : file, line);
            } else {
                fputs(hexsim_dbg_symbolize(d, b->addr, sym, sizeof(sym)), d->out);
            }
            if (b->hits)
                fprintf(d->out, "  (hit %u time%s)", b->hits, b->hits == 1 ? "" : "s");
            fputc('\n', d->out);
            hexsim_cli_bp_details(c, b);
        }
        for (unsigned i = 0; i < d->nwp; i++) {
            const struct hexsim_dbg_wp *w = &d->wp[i];
            if (w->id != id || w->remote)
                continue;
            if (!shown++)
                fprintf(d->out, "Num  Type        Disp  Enb  Address     What\n");
            fprintf(d->out, "%-4d %-11s %-5s %-4s 0x%08x  %s (%u bytes)", w->id,
                    w->w.kind == HEXSIM_DBG_WATCH_WRITE ? "watchpoint" :
                    w->w.kind == HEXSIM_DBG_WATCH_READ ? "rwatchpoint" : "awatchpoint",
                    "keep", w->enabled ? "y" : "n", w->w.addr, w->expr, w->w.len);
            if (w->hits)
                fprintf(d->out, "  (hit %u time%s)", w->hits, w->hits == 1 ? "" : "s");
            fputc('\n', d->out);
        }
    }
    if (!shown)
        fprintf(d->out, watch_only ? "No watchpoints.\n" : "No breakpoints or watchpoints.\n");
}

// ---- running

void hexsim_cli_report(struct hexsim_dbg_cli *c, const struct hexsim_dbg_stop *stop)
{
    hexsim_dbg_print_stop(c->d, stop, c->d->out);
    c->list_line = 0;   // list starts again around the new location
    hexsim_cli_show_displays(c);
}

static bool cmd_continue(struct hexsim_dbg_cli *c, const char *a, const char *m)
{
    (void)a, (void)m;
    if (not_running(c))
        return false;
    struct hexsim_dbg_stop stop;
    fprintf(c->d->out, "Continuing.\n");
    hexsim_dbg_continue(c->d, &stop);
    report(c, &stop);
    return false;
}

// step/next [N] by source line (gdb's); where PC has no line information, by packet as
// stepi/nexti. nexti: by packet.
static bool step_common(struct hexsim_dbg_cli *c, const char *a, int how)
{
    uint64_t n;
    if (!count_arg(c, a, &n) || not_running(c) || n == 0 || !thread_can_step(c))
        return false;
    struct hexsim_dbg_stop stop;
    for (uint64_t i = 0; i < n; i++) {
        if (how < 0 || hexsim_dbg_step_line(c->d, how, &stop)) {
            if (how == HEXSIM_DBG_LINE_STEP)
                hexsim_dbg_stepi(c->d, NULL, &stop);
            else
                hexsim_dbg_next(c->d, &stop);
        }
        if (stop.kind != HEXSIM_DBG_STOP_STEP)
            break;
    }
    report(c, &stop);
    return false;
}

static bool cmd_step(struct hexsim_dbg_cli *c, const char *a, const char *m)
{
    (void)m;
    return step_common(c, a, HEXSIM_DBG_LINE_STEP);
}

static bool cmd_stepi(struct hexsim_dbg_cli *c, const char *a, const char *m)
{
    (void)m;
    uint64_t n;
    if (!count_arg(c, a, &n) || not_running(c) || n == 0 || !thread_can_step(c))
        return false;
    struct hexsim_dbg_stop stop;
    struct hexsim_dbg_step_info *info = malloc(sizeof(*info));
    if (!info)
        return false;
    for (uint64_t i = 0; i < n; i++) {
        hexsim_dbg_stepi(c->d, info, &stop);
        if (stop.packets)
            hexsim_dbg_print_step(c->d, info, c->d->out);
        if (stop.kind != HEXSIM_DBG_STOP_STEP)
            break;
    }
    free(info);
    report(c, &stop);
    return false;
}

static bool cmd_next(struct hexsim_dbg_cli *c, const char *a, const char *m)
{
    (void)m;
    return step_common(c, a, HEXSIM_DBG_LINE_NEXT);
}

static bool cmd_nexti(struct hexsim_dbg_cli *c, const char *a, const char *m)
{
    (void)m;
    return step_common(c, a, -1);
}

static int frame_reg(void *d, unsigned r, uint32_t *v)
{
    return hexsim_dbg_frame_reg(d, r, v);
}

static bool cmd_finish(struct hexsim_dbg_cli *c, const char *a, const char *m)
{
    (void)a, (void)m;
    struct hexsim_debugger *d = c->d;
    if (not_running(c))
        return false;
    struct hexsim_dbg_frame f[HEXSIM_DBG_MAX_FRAMES];
    if (d->frame + 1 >= hexsim_dbg_frames(d, f, HEXSIM_DBG_MAX_FRAMES)) {
        fprintf(d->out, "\"finish\" not meaningful in the outermost frame.\n");
        return false;
    }
    // the function's return type (DWARF), looked up before it returns
    uint32_t lookup;
    hexsim_dbg_frame_pc(d, &lookup);
    struct hexsim_dwarf_func fn;
    struct hexsim_dwarf_var fv;
    const struct hexsim_dtype *ret = NULL;
    bool typed = false;
    if (hexsim_dwarf_func_at(hexsim_dbg_dwarf(d), lookup, &fn) == 0 &&
        hexsim_dwarf_var(d->dw, &d->types, fn.name, lookup, frame_reg, d, &fv) == 0 &&
        fv.loc == HEXSIM_DW_FUNC) {
        typed = true;
        ret = hexsim_dtype_strip(fv.type)->target;
    }
    fprintf(d->out, "Run till exit from #%-2u ", d->frame);
    hexsim_dbg_describe_frame(d, d->frame, d->out);
    fputc('\n', d->out);
    struct hexsim_dbg_stop stop;
    if (hexsim_dbg_finish(d, &stop)) {
        fprintf(d->out, "\"finish\" not meaningful in the outermost frame.\n");
        return false;
    }
    report(c, &stop);
    if (stop.kind != HEXSIM_DBG_STOP_STEP)
        return false;
    uint64_t r0 = 0, r1 = 0;
    hexsim_dbg_reg_read(d, 0, &r0);
    hexsim_dbg_reg_read(d, 1, &r1);
    const struct hexsim_dtype *rt = hexsim_dtype_strip(ret);
    if (typed && rt && hexsim_dtype_is_scalar(rt)) {
        struct hexsim_dval v = { .type = ret, .where = HEXSIM_V_VALUE,
                                 .bits = hexsim_dtype_extend(ret, r0 | r1 << 32) };
        fprintf(d->out, "Value returned is $%u = ", ++d->values);
        hexsim_dval_print(d, &v, 0, d->out);
        fputc('\n', d->out);
    } else if (!typed) {
        fprintf(d->out, "Value returned: r0 = 0x%08x (%d)\n", (uint32_t)r0, (int32_t)r0);
    }
    return false;
}

static bool cmd_until(struct hexsim_dbg_cli *c, const char *a, const char *m)
{
    (void)m;
    uint32_t addr = 0;
    const char *file;
    unsigned line;
    bool has = *skip_ws(a) != '\0';
    if (not_running(c) || (has && !hexsim_cli_code_location(c, a, &addr, &file, &line)))
        return false;
    struct hexsim_dbg_stop stop;
    hexsim_dbg_until(c->d, has, addr, &stop);
    report(c, &stop);
    return false;
}

// ---- registers and data

static void print_usr(FILE *out, uint32_t v)
{
    fprintf(out, " [ OVF=%u FPINVF=%u FPDBZF=%u FPOVFF=%u FPUNFF=%u FPINPF=%u LPCFG=%u "
            "FPRND=%u ]", v & 1, v >> 1 & 1, v >> 2 & 1, v >> 3 & 1, v >> 4 & 1, v >> 5 & 1,
            (v & HX_USR_LPCFG_MASK) >> HX_USR_LPCFG_SHIFT,
            (v & HX_USR_FPRND_MASK) >> HX_USR_FPRND_SHIFT);
}

static void print_reg(struct hexsim_dbg_cli *c, const char *name, unsigned num)
{
    uint64_t v = 0;
    char sym[160];
    FILE *out = c->d->out;
    if (c->d->frame && (num < 32 || num == HEXSIM_DBG_REG_PC)) {
        // a caller's frame: its PC, and the registers as unwound (gdb's <not saved>)
        uint32_t r;
        if (num == HEXSIM_DBG_REG_PC) {
            v = hexsim_dbg_frame_pc(c->d, NULL);
        } else if (hexsim_dbg_frame_reg(c->d, num, &r)) {
            fprintf(out, "%-11s<not saved>\n", name);
            return;
        } else {
            v = r;
        }
    } else if (hexsim_dbg_reg_read(c->d, num, &v)) {
        fprintf(out, "%-11s<unavailable>\n", name);
        return;
    }
    if (num >= 1000) {
        fprintf(out, "%-11s0x%02x\n", name, (unsigned)v);
        return;
    }
    fprintf(out, "%-11s0x%08x", name, (uint32_t)v);
    if (num == HEXSIM_DBG_REG_PC || num == HEXSIM_DBG_REG_LR) {
        if (hexsim_dbg_symbolize(c->d, (uint32_t)v, sym, sizeof(sym))[0])
            fprintf(out, "  %s", sym);
    }
    else if (num == HEXSIM_DBG_REG_USR)
        print_usr(out, (uint32_t)v);
    else if (num < 32)
        fprintf(out, "  %d", (int32_t)v);
    fputc('\n', out);
}

static void info_registers(struct hexsim_dbg_cli *c, const char *args, bool all)
{
    args = skip_ws(args);
    if (*args) {
        while (*args) {
            char name[32];
            size_t n = strcspn(args, " \t");
            snprintf(name, sizeof(name), "%.*s", (int)n, args);
            const char *nm = name[0] == '$' ? name + 1 : name;
            unsigned num;
            if (hexsim_dbg_reg_lookup(c->d, nm, &num))
                fprintf(c->d->out, "Invalid register `%s'\n", nm);
            else if (num >= HEXSIM_DBG_REG_V0 && num < HEXSIM_DBG_REG_Q0 + 4)
                hexsim_dbg_info_vector(c->d, nm, c->d->out);   // (vreg.h)
            else
                print_reg(c, nm, num);
            args = skip_ws(args + n);
        }
        return;
    }
    unsigned count;
    const struct hexsim_dbg_reg_desc *r = c->d->t.ops->regs(c->d->t.ctx, &count);
    for (unsigned i = 0; i < count; i++) {
        if (r[i].group != HEXSIM_DBG_GRP_GENERAL)
            continue;
        char name[32];
        snprintf(name, sizeof(name), "%s%s%s%s", r[i].name, r[i].alt ? " (" : "",
                 r[i].alt ? r[i].alt : "", r[i].alt ? ")" : "");
        print_reg(c, name, r[i].num);
    }
    for (unsigned p = 0; p < 4; p++) {
        char name[4] = { 'p', (char)('0' + p), 0, 0 };
        print_reg(c, name, 1000 + p);
    }
    for (unsigned i = 0; i < count; i++) {
        if (r[i].group == HEXSIM_DBG_GRP_GENERAL || r[i].group == HEXSIM_DBG_GRP_VECTOR)
            continue;
        // the unnamed, reserved control registers only with "info all-registers"
        if (!all && r[i].name[0] == 'c' && isdigit((unsigned char)r[i].name[1]))
            continue;
        print_reg(c, r[i].name, r[i].num);
    }
    for (unsigned i = 0; i < count && all; i++)
        if (r[i].group == HEXSIM_DBG_GRP_VECTOR) {   // then the HVX registers, as info vector
            hexsim_dbg_info_vector(c->d, "", c->d->out);
            break;
        }
}

static bool cmd_info(struct hexsim_dbg_cli *c, const char *a, const char *m)
{
    (void)m;
    a = skip_ws(a);
    size_t n = strcspn(a, " \t");
    const char *rest = skip_ws(a + n);
    FILE *out = c->d->out;
#define IS(word, min) (n >= (min) && n <= strlen(word) && strncmp(a, word, n) == 0)
    if (IS("registers", 1)) {
        info_registers(c, rest, false);
    } else if (IS("all-registers", 2)) {
        info_registers(c, rest, true);
    } else if (IS("vector", 2)) {
        hexsim_dbg_info_vector(c->d, rest, out);
    } else if (IS("breakpoints", 1)) {
        info_breakpoints(c, false);
    } else if (IS("watchpoints", 3)) {
        info_breakpoints(c, true);
    } else if (IS("frame", 1)) {
        if (!not_running(c))
            hexsim_cli_info_frame(c);
    } else if (IS("line", 2)) {
        hexsim_cli_info_line(c, rest);
    } else if (IS("locals", 2)) {
        if (!not_running(c))
            hexsim_cli_info_vars(c, false);
    } else if (IS("args", 2)) {
        if (!not_running(c))
            hexsim_cli_info_vars(c, true);
    } else if (IS("display", 1)) {
        hexsim_cli_info_display(c);
    } else if (IS("symbol", 2)) {
        uint32_t v;
        if (!hexsim_cli_eval_addr(c, rest, &v))
            return false;
        const struct hexsim_sym *s = hexsim_symtab_lookup(hexsim_dbg_symtab(c->d), v);
        if (!s)
            fprintf(out, "No symbol matches %s.\n", rest);
        else if (v == s->addr)
            fprintf(out, "%s\n", s->name);
        else
            fprintf(out, "%s + %u\n", s->name, v - s->addr);
    } else if (IS("address", 2)) {
        const struct hexsim_sym *s = hexsim_symtab_find(hexsim_dbg_symtab(c->d), rest);
        if (!s)
            fprintf(out, "No symbol \"%s\".\n", rest);
        else
            fprintf(out, "Symbol \"%s\" is at 0x%08x (%s, %u bytes).\n", s->name, s->addr,
                    s->type == 'F' ? "function" : s->type == 'O' ? "object" : "label", s->size);
    } else if (IS("threads", 2)) {
        unsigned ids[64];
        unsigned nt = c->d->t.ops->threads(c->d->t.ctx, ids, 64);
        unsigned keep = c->d->thread;
        fprintf(out, "  Id   PC          Where\n");
        for (unsigned i = 0; i < nt && i < 64; i++) {
            char sym[160];
            c->d->thread = ids[i];
            uint32_t pc = hexsim_dbg_pc(c->d);
            const char *why = c->d->t.ops->thread_state ?
                              c->d->t.ops->thread_state(c->d->t.ctx, ids[i]) : NULL;
            fprintf(out, "%c %-4u 0x%08x  %s%s%s\n", ids[i] == keep ? '*' : ' ', ids[i], pc,
                    hexsim_dbg_symbolize(c->d, pc, sym, sizeof(sym)), why ? "  " : "",
                    why ? why : "");
        }
        c->d->thread = keep;
    } else if (n) {
        char what[32];
        snprintf(what, sizeof(what), "%.*s", (int)n, a);
        if (!c->d->t.ops->info || c->d->t.ops->info(c->d->t.ctx, what, out))
            fprintf(out, "No \"info %s\" in %s mode.\n", what, c->d->t.ops->name);
    } else {
        fprintf(out, "info: registers, all-registers, vector [REG...], breakpoints, watchpoints, frame, line "
                "[LOC], locals, args, display, symbol ADDR, address SYM, threads, tlb, irq, "
                "devices, hvm\n");
    }
#undef IS
    return false;
}

static bool cmd_thread(struct hexsim_dbg_cli *c, const char *a, const char *m)
{
    (void)m;
    struct hexsim_debugger *d = c->d;
    a = skip_ws(a);
    if (!*a) {
        fprintf(d->out, "[Current thread is %u]\n", d->thread);
        return false;
    }
    unsigned ids[64];
    unsigned nt = d->t.ops->threads(d->t.ctx, ids, 64);
    char *end;
    unsigned long want = strtoul(a, &end, 10);
    for (unsigned i = 0; i < nt && i < 64 && !*skip_ws(end); i++)
        if (ids[i] == want) {
            d->thread = ids[i];
            d->frame = 0;
            c->list_line = 0;
            fprintf(d->out, "[Switching to thread %u]\n", ids[i]);
            const char *why = d->t.ops->thread_state ? d->t.ops->thread_state(d->t.ctx, ids[i])
                                                     : NULL;
            if (why)
                fprintf(d->out, "Thread %u is %s; step and next run nothing on it until the "
                        "guest starts it.\n", ids[i], why);
            hexsim_dbg_print_location(d, d->out);
            return false;
        }
    fprintf(d->out, "Invalid thread ID: %s (threads 1-%u)\n", a, nt);
    return false;
}

static bool cmd_trace(struct hexsim_dbg_cli *c, const char *a, const char *m)
{
    (void)m;
    a = skip_ws(a);
    struct hexsim_debugger *d = c->d;
    if (strncmp(a, "off", 3) == 0) {
        hexsim_dbg_trace_close(d);
        fprintf(d->out, "Packet trace off.\n");
        return false;
    }
    if (strncmp(a, "on", 2) != 0) {
        fprintf(d->out, "Error: usage: trace on [FILE] | trace off\n");
        return false;
    }
    const char *file = skip_ws(a + 2);
    hexsim_dbg_trace_close(d);
    if (!*file || strcmp(file, "-") == 0) {
        d->trace = d->out;
        fprintf(d->out, "Packet trace on (to the debugger output).\n");
        return false;
    }
    d->trace = fopen(file, "w");
    if (!d->trace)
        fprintf(d->out, "Error: cannot open %s\n", file);
    else
        fprintf(d->out, "Packet trace on, to %s.\n", file);
    return false;
}

// What a snapshot holds on this target.
static const char *what_vm(const struct hexsim_dbg_cli *c)
{
    return strcmp(c->d->t.ops->name, "user") == 0 ? "process" : "machine";
}

// savevm FILE / loadvm FILE: the target's snapshot ops.
static bool vm_command(struct hexsim_dbg_cli *c, const char *a, bool load)
{
    char msg[768];
    a = skip_ws(a);
    if (!*a) {
        fprintf(c->d->out, "Error: usage: %s FILE\n", load ? "loadvm" : "savevm");
        return false;
    }
    if (!load && not_running(c))
        return false;
    if ((load ? hexsim_dbg_loadvm : hexsim_dbg_savevm)(c->d, a, msg, sizeof(msg))) {
        fprintf(c->d->out, "Error: %s\n", msg);
        return false;
    }
    fprintf(c->d->out, "%s the %s %s %s.\n", load ? "Loaded" : "Saved", what_vm(c),
            load ? "from" : "to", a);
    if (load)
        hexsim_dbg_print_location(c->d, c->d->out);
    return false;
}

static bool cmd_savevm(struct hexsim_dbg_cli *c, const char *a, const char *m)
{
    (void)m;
    return vm_command(c, a, false);
}

static bool cmd_loadvm(struct hexsim_dbg_cli *c, const char *a, const char *m)
{
    (void)m;
    return vm_command(c, a, true);
}

static bool cmd_echo(struct hexsim_dbg_cli *c, const char *a, const char *m)
{
    (void)m;
    fprintf(c->d->out, "%s\n", a);
    return false;
}

static bool cmd_quit(struct hexsim_dbg_cli *c, const char *a, const char *m)
{
    (void)c, (void)a, (void)m;
    return true;
}

// ---- the Linux guest (kernel.h)

static bool cmd_ps(struct hexsim_dbg_cli *c, const char *a, const char *m)
{
    (void)a, (void)m;
    hexsim_kernel_ps(c->d, c->d->out);
    return false;
}

static bool cmd_dmesg(struct hexsim_dbg_cli *c, const char *a, const char *m)
{
    (void)a, (void)m;
    hexsim_kernel_dmesg(c->d, c->d->out);
    return false;
}

static bool cmd_vtop(struct hexsim_dbg_cli *c, const char *a, const char *m)
{
    (void)m;
    char *end;
    long pid = strtol(skip_ws(a), &end, 10);
    uint32_t va;
    if (!*skip_ws(a)) {
        fprintf(c->d->out, "Usage: vtop [PID] ADDR\n");
        return false;
    }
    if (end == skip_ws(a) || !isspace((unsigned char)*end) || !*skip_ws(end)) {
        end = (char *)a;   // ADDR alone: the current task's address space
        pid = -1;
    }
    if (hexsim_cli_eval_addr(c, end, &va))
        hexsim_kernel_vtop(c->d, (int)pid, va, c->d->out);
    return false;
}

static bool cmd_add_symbol_file(struct hexsim_dbg_cli *c, const char *a, const char *m)
{
    (void)m;
    char path[1024];
    snprintf(path, sizeof(path), "%s", skip_ws(a));
    for (size_t n = strlen(path); n && isspace((unsigned char)path[n - 1]);)
        path[--n] = '\0';
    if (!path[0]) {
        fprintf(c->d->out, "add-symbol-file takes a file name\n");
        return false;
    }
    size_t before = c->d->extra_syms.n;
    if (hexsim_dbg_add_symbols(c->d, path)) {
        fprintf(c->d->out, "%s: cannot read its ELF symbols.\n", path);
        return false;
    }
    fprintf(c->d->out, "Reading symbols from %s... (%zu symbols)\n", path,
            c->d->extra_syms.n - before);
    return false;
}

static bool cmd_help(struct hexsim_dbg_cli *c, const char *a, const char *m);

static const struct command commands[] = {
    { "break", "b", cmd_break, "break [LOC] [if EXPR]  breakpoint at LOC (FUNC, FILE:LINE, LINE, SYM+OFF, *ADDR; default PC), stopping only if EXPR" },
    { "tbreak", NULL, cmd_tbreak, "tbreak LOC        temporary breakpoint" },
    { "condition", NULL, hexsim_cli_cmd_condition, "condition N [EXPR]  stop at breakpoint N only if EXPR is true (none: always)" },
    { "ignore", NULL, hexsim_cli_cmd_ignore, "ignore N COUNT    do not stop at breakpoint N the next COUNT times" },
    { "delete", "d", cmd_delete, "delete [N...]     delete breakpoints/watchpoints (all without N)" },
    { "clear", NULL, cmd_clear, "clear [LOC]       delete the breakpoints at LOC (default: this frame's PC)" },
    { "disable", NULL, cmd_disable, "disable [N...]    disable breakpoints/watchpoints" },
    { "enable", NULL, cmd_enable, "enable [N...]     enable breakpoints/watchpoints" },
    { "watch", NULL, cmd_watch, "watch SYM|*ADDR   stop after a store to it" },
    { "rwatch", NULL, cmd_rwatch, "rwatch SYM|*ADDR  stop after a load from it" },
    { "awatch", NULL, cmd_awatch, "awatch SYM|*ADDR  stop after a load or store" },
    { "continue", "c", cmd_continue, "continue          run until a breakpoint, watchpoint or the end" },
    { "run", "r", hexsim_cli_cmd_run, "run               start the program (at its entry: continue; after it ran or ended: again from its entry)" },
    { "step", "s", cmd_step, "step [N]          run N source lines, into calls (no line information: N packets)" },
    { "stepi", "si", cmd_stepi, "stepi [N]         run N packets, showing each instruction and what it committed" },
    { "next", "n", cmd_next, "next [N]          N source lines, running calls to their return (no line information: as nexti)" },
    { "nexti", "ni", cmd_nexti, "nexti [N]         N packets, running calls to their return" },
    { "finish", "fin", cmd_finish, "finish            run until the current function returns" },
    { "until", "u", cmd_until, "until [LOC]       run to LOC, or next without going back (leaves loops)" },
    { "advance", NULL, cmd_until, "advance LOC       run to LOC" },
    { "info", "i", cmd_info, "info WHAT         registers, vector, breakpoints, watchpoints, frame, line, locals, args, display, symbol, threads, tlb, irq, devices, hvm" },
    { "print", "p", hexsim_cli_cmd_print, "print[/F] EXPR    C expression with types (variables, $reg, casts, * & [] . ->); F: x d u o t c a" },
    { "ptype", NULL, hexsim_cli_cmd_ptype, "ptype EXPR|TYPE   the type, structs expanded" },
    { "whatis", NULL, hexsim_cli_cmd_whatis, "whatis EXPR|TYPE  the type's name" },
    { "display", NULL, hexsim_cli_cmd_display, "display[/F] EXPR  print EXPR after every stop (F i: x/i)" },
    { "undisplay", NULL, hexsim_cli_cmd_undisplay, "undisplay [N...]  stop displaying (all without N)" },
    { "list", "l", hexsim_cli_cmd_list, "list [LOC|N]      ten source lines around LOC (FUNC, FILE:LINE), or the next ten" },
    { "set", NULL, hexsim_cli_cmd_set, "set $REG = EXPR | set *ADDR = EXPR | set {byte|half|word|dword} ADDR = EXPR" },
    { "x", NULL, hexsim_cli_cmd_x, "x/NFU ADDR        examine memory: F x d u o t c a s i, U b h w g, /p physical" },
    { "disassemble", "disas", hexsim_cli_cmd_disassemble, "disassemble [ADDR[,+LEN]|START,END]" },
    { "backtrace", "bt", hexsim_cli_cmd_bt, "backtrace [N]     frame chain through FP/LR" },
    { "where", NULL, hexsim_cli_cmd_bt, "where             same as backtrace" },
    { "frame", "f", hexsim_cli_cmd_frame, "frame [N]         select frame N and show it" },
    { "up", NULL, hexsim_cli_cmd_up, "up [N]            select the caller's frame (N frames up)" },
    { "down", NULL, hexsim_cli_cmd_down, "down [N]          select the callee's frame" },
    { "add-symbol-file", NULL, cmd_add_symbol_file, "add-symbol-file FILE  FILE's ELF symbols name the addresses the image's do not (system mode: a user program)" },
    { "ps", NULL, cmd_ps, "ps                the guest kernel's tasks (system mode; the kernel's DWARF)" },
    { "dmesg", NULL, cmd_dmesg, "dmesg             the guest kernel's log buffer (system mode; the kernel's DWARF)" },
    { "vtop", NULL, cmd_vtop, "vtop [PID] ADDR   ADDR in process PID (default: the current task) by its page tables: the physical address (read it with x/...p)" },
    { "thread", NULL, cmd_thread, "thread [N]        select thread (vCPU) N" },
    { "trace", NULL, cmd_trace, "trace on [FILE]|off  write each packet run to FILE" },
    { "savevm", NULL, cmd_savevm, "savevm FILE       write the whole machine (process) to the snapshot FILE" },
    { "loadvm", NULL, cmd_loadvm, "loadvm FILE       continue from the snapshot FILE (same configuration)" },
    { "echo", NULL, cmd_echo, "echo TEXT         print TEXT" },
    { "help", "h", cmd_help, "help              this list" },
    { "quit", "q", cmd_quit, "quit              end the session" },
    { "kill", NULL, cmd_quit, "kill              end the session (the program ends with it)" },
};
#define NCOMMANDS (sizeof(commands) / sizeof(commands[0]))

static bool cmd_help(struct hexsim_dbg_cli *c, const char *a, const char *m)
{
    (void)a, (void)m;
    for (size_t i = 0; i < NCOMMANDS; i++)
        fprintf(c->d->out, "  %s\n", commands[i].help);
    return false;
}

const char *hexsim_dbg_cli_command(unsigned i)
{
    return i < NCOMMANDS ? commands[i].name : NULL;
}

void hexsim_dbg_cli_init(struct hexsim_dbg_cli *c, struct hexsim_debugger *d, bool interactive)
{
    memset(c, 0, sizeof(*c));
    c->d = d;
    c->interactive = interactive;
}

bool hexsim_dbg_cli_exec(struct hexsim_dbg_cli *c, const char *line)
{
    char buf[sizeof(c->last)];
    line = skip_ws(line);
    if (!*line) {
        if (!c->interactive || !c->last[0])
            return false;
        line = c->last;   // an empty line repeats the last command
    }
    if (*line == '#')
        return false;
    snprintf(buf, sizeof(buf), "%s", line);
    size_t len = strlen(buf);
    while (len && isspace((unsigned char)buf[len - 1]))
        buf[--len] = '\0';
    snprintf(c->last, sizeof(c->last), "%s", buf);
    // the command word ends at a blank or a '/' (print/x, x/4w)
    size_t n = strcspn(buf, " \t/");
    char mod[32] = "";
    const char *args = buf + n;
    if (*args == '/') {
        size_t k = strcspn(args + 1, " \t");
        snprintf(mod, sizeof(mod), "%.*s", (int)k, args + 1);
        args += 1 + k;
    }
    args = skip_ws(args);
    const struct command *hit = NULL;
    unsigned matches = 0;
    for (size_t i = 0; i < NCOMMANDS; i++) {
        const struct command *cmd = &commands[i];
        if ((strlen(cmd->name) == n && strncmp(cmd->name, buf, n) == 0) ||
            (cmd->alias && strlen(cmd->alias) == n && strncmp(cmd->alias, buf, n) == 0)) {
            hit = cmd;
            matches = 1;
            break;
        }
        if (strncmp(cmd->name, buf, n) == 0) {
            if (!hit)
                hit = cmd;
            matches++;
        }
    }
    if (!hit) {
        fprintf(c->d->out, "Undefined command: \"%.*s\".  Try \"help\".\n", (int)n, buf);
        return false;
    }
    if (matches > 1) {
        fprintf(c->d->out, "Ambiguous command \"%.*s\".\n", (int)n, buf);
        return false;
    }
    // repeating a step or examine continues; repeating a breakpoint would not
    if (hit->fn != cmd_stepi && hit->fn != cmd_step && hit->fn != cmd_next &&
        hit->fn != cmd_nexti &&
        hit->fn != hexsim_cli_cmd_x && hit->fn != cmd_continue)
        c->last[0] = '\0';
    bool quit = hit->fn(c, args, mod);
    fflush(c->d->out);
    c->quit = quit;
    return quit;
}

bool hexsim_dbg_cli_source(struct hexsim_dbg_cli *c, FILE *f, bool echo)
{
    char *line = NULL;
    size_t cap = 0;
    ssize_t n;
    bool quit = false;
    while (!quit && (n = getline(&line, &cap, f)) >= 0) {
        if (n && line[n - 1] == '\n')
            line[n - 1] = '\0';
        if (echo)
            fprintf(c->d->out, HEXSIM_DBG_PROMPT "%s\n", line);
        quit = hexsim_dbg_cli_exec(c, line);
    }
    free(line);
    return quit;
}
