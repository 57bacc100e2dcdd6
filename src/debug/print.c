// SPDX-License-Identifier: MIT
// Debugger output shared by the front ends (debugger.h): packets as text with braces and
// symbolized branch targets, the current location, a stepped packet's committed values, and
// stop reports. The formats are stable: scripted sessions and tests compare them.
#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include "cpu/isa.h"
#include "debugger.h"
#include "hexsim/disasm.h"
#include "kernel.h"
#include "value.h"
#include "vreg.h"

const char *hexsim_dbg_signal_name(int sig)
{
    switch (sig) {
    case SIGSEGV: return "SIGSEGV";
    case SIGBUS: return "SIGBUS";
    case SIGILL: return "SIGILL";
    case SIGTRAP: return "SIGTRAP";
    case SIGINT: return "SIGINT";
    case SIGKILL: return "SIGKILL";
    case SIGABRT: return "SIGABRT";
    default: return "signal";
    }
}

static void disasm_at(struct hexsim_debugger *d, uint32_t addr, struct hexsim_disasm_packet *out,
                      size_t *nread)
{
    uint32_t words[HX_PACKET_MAX_WORDS];
    uint8_t b[4 * HX_PACKET_MAX_WORDS];
    size_t got = d->t.ops->read_mem(d->t.ctx, d->thread, addr, b, sizeof(b), 0) / 4;
    for (size_t i = 0; i < got; i++)
        words[i] = (uint32_t)b[4 * i] | (uint32_t)b[4 * i + 1] << 8 |
                   (uint32_t)b[4 * i + 2] << 16 | (uint32_t)b[4 * i + 3] << 24;
    *nread = got;
    memset(out, 0, sizeof(*out));
    if (got)
        hexsim_disasm_packet_arch(words, got, addr, d->t.ops->arch(d->t.ctx), out);
}

// Appends printf-style text to buf[*pos..len).
static void add(char *buf, size_t len, size_t *pos, const char *s)
{
    size_t n = strlen(s);
    if (*pos + 1 >= len)
        return;
    if (n > len - 1 - *pos)
        n = len - 1 - *pos;
    memcpy(buf + *pos, s, n);
    *pos += n;
    buf[*pos] = '\0';
}

// The text of word w with its branch target symbolized.
static void word_text(struct hexsim_debugger *d, const struct hexsim_disasm_packet *p, unsigned w,
                      char *buf, size_t len)
{
    // the disassembler separates a duplex's halves with "; \t" (llvm-objdump's layout)
    size_t o = 0;
    for (const char *s = p->text[w]; *s && o + 1 < len; s++)
        if (*s != '\t')
            buf[o++] = *s;
    buf[o] = '\0';
    if (p->has_target[w]) {
        char sym[160];
        hexsim_dbg_symbolize(d, p->target[w], sym, sizeof(sym));
        if (sym[0]) {
            size_t pos = strlen(buf);
            add(buf, len, &pos, " ");
            add(buf, len, &pos, sym);
        }
    }
}

unsigned hexsim_dbg_format_packet(struct hexsim_debugger *d, uint32_t addr, char *buf, size_t len)
{
    struct hexsim_disasm_packet p;
    size_t got, pos = 0;
    buf[0] = '\0';
    disasm_at(d, addr, &p, &got);
    if (!got) {
        snprintf(buf, len, "<unreadable>");
        return 4;
    }
    if (!p.valid) {
        snprintf(buf, len, "<invalid packet>");
        return 4 * (p.nwords ? p.nwords : 1);
    }
    add(buf, len, &pos, "{");
    for (unsigned w = 0; w < p.nwords; w++) {
        char t[HEXSIM_DISASM_TEXT + 160];
        if (!p.text[w][0])
            continue;   // a constant extender: folded into the next word's text
        word_text(d, &p, w, t, sizeof(t));
        add(buf, len, &pos, " ");
        add(buf, len, &pos, t);
        add(buf, len, &pos, ";");
    }
    if (pos > 1 && buf[pos - 1] == ';')
        buf[--pos] = '\0';
    add(buf, len, &pos, " }");
    add(buf, len, &pos, p.endloop ? p.endloop : "");
    return 4 * p.nwords;
}

void hexsim_dbg_print_location(struct hexsim_debugger *d, FILE *out)
{
    char text[1024], sym[160];
    uint32_t pc = hexsim_dbg_pc(d);
    hexsim_dbg_format_packet(d, pc, text, sizeof(text));
    hexsim_dbg_symbolize(d, pc, sym, sizeof(sym));
    fprintf(out, "=> 0x%08x%s%s: %s\n", pc, sym[0] ? " " : "", sym, text);
}

static const char *creg_name(struct hexsim_debugger *d, unsigned n)
{
    unsigned count;
    const struct hexsim_dbg_reg_desc *r = d->t.ops->regs(d->t.ctx, &count);
    for (unsigned i = 0; i < count; i++)
        if (r[i].num == HEXSIM_DBG_REG_C0 + n)
            return r[i].name;
    return "c?";
}

static const char *store_name(unsigned size)
{
    switch (size) {
    case 1: return "memb";
    case 2: return "memh";
    case 8: return "memd";
    case 32: return "line";
    default: return "memw";
    }
}

// The writes instruction entry `e` of the trace staged, as "r0 = 0x00000001, ...".
static void insn_writes(struct hexsim_debugger *d, const struct hexsim_exec_trace *t, unsigned e,
                        char *buf, size_t len)
{
    size_t pos = 0;
    char item[96];
    buf[0] = '\0';
    for (uint32_t m = t->insn[e].rmask; m; m &= m - 1) {
        unsigned r = (unsigned)__builtin_ctz(m);
        snprintf(item, sizeof(item), "%sr%u = 0x%08x", pos ? ", " : "", r, t->new_r[r]);
        add(buf, len, &pos, item);
    }
    for (unsigned i = 0; i < 4; i++)
        if (t->insn[e].pmask >> i & 1) {
            snprintf(item, sizeof(item), "%sp%u = 0x%02x", pos ? ", " : "", i, t->new_p[i]);
            add(buf, len, &pos, item);
        }
    for (uint32_t m = t->insn[e].cmask; m; m &= m - 1) {
        unsigned r = (unsigned)__builtin_ctz(m);
        snprintf(item, sizeof(item), "%s%s = 0x%08x", pos ? ", " : "", creg_name(d, r),
                 t->new_c[r]);
        add(buf, len, &pos, item);
    }
    for (unsigned k = t->insn[e].st_first; k < t->insn[e].st_end && k < 2; k++) {
        if (t->st[k].size == 32)
            snprintf(item, sizeof(item), "%sline[0x%08x] = 0", pos ? ", " : "", t->st[k].addr);
        else
            snprintf(item, sizeof(item), "%s%s[0x%08x] = 0x%0*llx", pos ? ", " : "",
                     store_name(t->st[k].size), t->st[k].addr, 2 * t->st[k].size,
                     (unsigned long long)t->st[k].val);
        add(buf, len, &pos, item);
    }
}

// The HVX writes of instruction entry e, a line each under the instruction: vector
// registers as words in hex, vector predicates in hex, the vector store's byte range.
static void vector_writes(const struct hexsim_exec_trace *t, unsigned e, FILE *out)
{
    for (uint32_t m = t->insn[e].vmask; m; m &= m - 1) {
        unsigned r = (unsigned)__builtin_ctz(m);
        fprintf(out, "        v%u.w = ", r);
        hexsim_dbg_vlanes_print(t->new_v[r].ub, HX_VBYTES, 4, false, 'z', out);
        fputc('\n', out);
    }
    for (unsigned q = 0; q < 4; q++)
        if (t->insn[e].qmask >> q & 1) {
            fprintf(out, "        q%u = 0x", q);
            for (unsigned i = sizeof(t->new_q[q].b); i-- > 0;)
                fprintf(out, "%02x", t->new_q[q].b[i]);
            fputc('\n', out);
        }
    if (t->insn[e].vst && t->vst_len)
        fprintf(out, "        vmem[0x%08x..0x%08x] (%u bytes written)\n", t->vst_addr,
                t->vst_addr + t->vst_len - 1, t->vst_len);
    else if (t->insn[e].vst)
        fprintf(out, "        vmem: no byte enabled, nothing written\n");
}

void hexsim_dbg_print_step(struct hexsim_debugger *d, const struct hexsim_dbg_step_info *info,
                           FILE *out)
{
    char sym[160];
    hexsim_dbg_symbolize(d, info->pc, sym, sizeof(sym));
    fprintf(out, "0x%08x%s%s:\n", info->pc, sym[0] ? " " : "", sym);
    if (!info->decoded) {
        fprintf(out, "    (instruction fetch failed)\n");
        return;
    }
    struct hexsim_disasm_packet p;
    size_t got;
    disasm_at(d, info->pc, &p, &got);
    const struct hexsim_exec_trace *t = &info->trace;
    for (unsigned w = 0; w < p.nwords && got; w++) {
        char text[HEXSIM_DISASM_TEXT + 160], writes[512];
        if (!p.text[w][0])
            continue;
        word_text(d, &p, w, text, sizeof(text));
        writes[0] = '\0';
        size_t pos = 0;
        for (unsigned e = 0; e < t->ninsns && t->committed; e++) {
            if (info->pkt.insn[t->insn[e].index].word != w)
                continue;
            char one[400];
            insn_writes(d, t, e, one, sizeof(one));
            if (one[0]) {
                add(writes, sizeof(writes), &pos, pos ? ", " : "");
                add(writes, sizeof(writes), &pos, one);
            }
        }
        if (writes[0])
            fprintf(out, "    %-36s  %s\n", text, writes);
        else
            fprintf(out, "    %s\n", text);
        for (unsigned e = 0; e < t->ninsns && t->committed; e++)
            if (info->pkt.insn[t->insn[e].index].word == w)
                vector_writes(t, e, out);
    }
    if (!t->committed)
        fprintf(out, "    (the packet faulted: nothing committed)\n");
    else if (p.endloop && p.endloop[0])
        fprintf(out, "    %s\n", p.endloop + 1);
}

// ---- frames and source

static const char *base_name(const char *path)
{
    const char *s = strrchr(path, '/');
    return s ? s + 1 : path;
}

struct args_ctx {
    struct hexsim_debugger *d;
    FILE *out;
    unsigned n;
};

static void print_arg(void *ctx, const char *name)
{
    struct args_ctx *a = ctx;
    struct hexsim_dval v;
    char err[160];
    fprintf(a->out, "%s%s=", a->n++ ? ", " : "", name);
    if (hexsim_dbg_eval_value(a->d, name, &v, err, sizeof(err)))
        fprintf(a->out, "<%s>", err);
    else
        hexsim_dval_print(a->d, &v, 0, a->out);
}

void hexsim_dbg_describe_frame(struct hexsim_debugger *d, unsigned n, FILE *out)
{
    struct hexsim_dbg_frame f[HEXSIM_DBG_MAX_FRAMES];
    unsigned count = hexsim_dbg_frames(d, f, HEXSIM_DBG_MAX_FRAMES);
    if (n >= count)
        return;
    uint32_t pc = f[n].pc, lookup = n ? pc - 1 : pc;
    struct hexsim_dwarf *dw = hexsim_dbg_dwarf(d);
    struct hexsim_dwarf_func fn;
    if (dw && hexsim_dwarf_func_at(dw, lookup, &fn) == 0) {
        const char *file;
        unsigned line;
        uint32_t start, end;
        bool has_line = hexsim_dwarf_addr_line(dw, lookup, &file, &line) == 0;
        if (n || !has_line || hexsim_dwarf_line_range(dw, pc, &start, &end) || start != pc)
            fprintf(out, "0x%08x in ", pc);
        fprintf(out, "%s (", fn.name);
        unsigned keep = d->frame;
        d->frame = n;
        struct args_ctx a = { d, out, 0 };
        hexsim_dwarf_locals(dw, lookup, true, print_arg, &a);
        d->frame = keep;
        fputc(')', out);
        if (has_line)
            fprintf(out, " at %s:%u", base_name(file), line);
        if (fn.inlined)   // the line is the inlined function's
            fprintf(out, ", inlined %s", fn.inlined);
        return;
    }
    const struct hexsim_sym *s = hexsim_dbg_sym_at(d, lookup);
    fprintf(out, "0x%08x", pc);
    if (s && pc == s->addr)
        fprintf(out, " <%s>", s->name);
    else if (s)
        fprintf(out, " <%s+%u>", s->name, pc - s->addr);
}

bool hexsim_dbg_print_source_line(struct hexsim_debugger *d, const char *file, unsigned line,
                                  FILE *out)
{
    (void)d;
    FILE *f = fopen(file, "r");
    if (!f)
        return false;
    char *text = NULL;
    size_t cap = 0;
    ssize_t len = 0;
    bool found = false;
    for (unsigned n = 1; (len = getline(&text, &cap, f)) >= 0; n++)
        if (n == line) {
            found = true;
            break;
        }
    if (found) {
        while (len > 0 && (text[len - 1] == '\n' || text[len - 1] == '\r'))
            text[--len] = '\0';
        fprintf(out, "%u\t%s\n", line, text);
    }
    free(text);
    fclose(f);
    return found;
}

// With DWARF for PC: "add3 (a=10, ...) at dbgprog.c:22" and the source line; else the
// symbolized address. `what` ("Breakpoint 1, ") goes first.
static void stop_header(struct hexsim_debugger *d, const char *what, uint32_t pc, FILE *out)
{
    const char *file;
    unsigned line;
    struct hexsim_dwarf_func fn;
    struct hexsim_dwarf *dw = hexsim_dbg_dwarf(d);
    if (dw && hexsim_dwarf_func_at(dw, pc, &fn) == 0) {
        fputs(what, out);
        hexsim_dbg_describe_frame(d, 0, out);
        fputc('\n', out);
        if (hexsim_dwarf_addr_line(dw, pc, &file, &line) == 0)
            hexsim_dbg_print_source_line(d, file, line, out);
        return;
    }
    if (what[0]) {
        char sym[160];
        fprintf(out, "%s0x%08x %s\n", what, pc, hexsim_dbg_symbolize(d, pc, sym, sizeof(sym)));
    }
}

// "Thread N hit " when the target has several threads (vCPUs), as gdb says which thread
// stopped; "" with one.
static const char *stop_thread(struct hexsim_debugger *d, const struct hexsim_dbg_stop *stop,
                               char *buf, size_t len)
{
    unsigned ids[2];
    buf[0] = 0;
    if (stop->thread && d->t.ops->threads && d->t.ops->threads(d->t.ctx, ids, 2) > 1)
        snprintf(buf, len, "Thread %u hit ", stop->thread);
    return buf;
}

// A stop after a step by source line, as gdb reports it: "add3 (a=1, ...) at f.c:20" when
// the function or frame changed, then the source line ("21\t    return a;", or "21\tin
// f.c" when the file cannot be read).
static void line_report(struct hexsim_debugger *d, bool frame, FILE *out)
{
    const char *file;
    unsigned line;
    uint32_t pc = hexsim_dbg_pc(d);
    if (frame) {
        hexsim_dbg_describe_frame(d, 0, out);
        fputc('\n', out);
    }
    if (hexsim_dbg_line(d, pc, &file, &line) == 0 &&
        !hexsim_dbg_print_source_line(d, file, line, out))
        fprintf(out, "%u\tin %s\n", line, file);
}

void hexsim_dbg_print_stop(struct hexsim_debugger *d, const struct hexsim_dbg_stop *stop,
                           FILE *out)
{
    if (d->line_start) {
        fflush(out);
        d->line_start(d->line_start_ctx);
    }
    switch (stop->kind) {
    case HEXSIM_DBG_STOP_BREAK: {
        char what[96] = "", who[32];
        if (stop->index > 0 && d->cond_err[0])   // gdb's words when a condition failed
            fprintf(out, "Error in testing breakpoint condition:\n%s\n\n", d->cond_err);
        if (stop->index > 0)
            snprintf(what, sizeof(what), "%s%s %d, ", stop_thread(d, stop, who, sizeof(who)),
                     d->stop_temp ? "Temporary breakpoint" : "Breakpoint", stop->index);
        stop_header(d, what, stop->pc, out);
        hexsim_dbg_print_location(d, out);
        hexsim_kernel_print_task(d, out);
        break;
    }
    case HEXSIM_DBG_STOP_WATCH: {
        const struct hexsim_dbg_wp *w = NULL;
        for (unsigned i = 0; i < d->nwp; i++)
            if (d->wp[i].id == stop->index)
                w = &d->wp[i];
        if (w) {
            char who[32];
            fprintf(out, "%s%s %d: %s (%s at 0x%08x)\n", stop_thread(d, stop, who, sizeof(who)),
                    w->w.kind == HEXSIM_DBG_WATCH_WRITE ?
                    "Watchpoint" : w->w.kind == HEXSIM_DBG_WATCH_READ ? "Read watchpoint" :
                    "Access watchpoint", w->id, w->expr, stop->write ? "written" : "read",
                    stop->addr);
            if (w->w.len <= 8 && stop->write)
                fprintf(out, "Old value = 0x%llx\nNew value = 0x%llx\n",
                        (unsigned long long)w->prev, (unsigned long long)w->old);
            else if (w->w.len <= 8)
                fprintf(out, "Value = 0x%llx\n", (unsigned long long)w->old);
        }
        stop_header(d, "", hexsim_dbg_pc(d), out);
        hexsim_dbg_print_location(d, out);
        hexsim_kernel_print_task(d, out);
        break;
    }
    case HEXSIM_DBG_STOP_FAULT: {
        fprintf(out, "Program received signal %s.\n", hexsim_dbg_signal_name(stop->signal));
        const char *m = stop->msg;
        while (*m) {   // the simulator's report, without its "hexsim: " prefixes
            size_t n = strcspn(m, "\n");
            const char *line = m;
            if (strncmp(line, "hexsim: ", 8) == 0 && n >= 8) {
                line += 8;
                n -= 8;
            }
            fprintf(out, "%.*s\n", (int)n, line);
            m = line + n;
            if (*m == '\n')
                m++;
        }
        stop_header(d, "", hexsim_dbg_pc(d), out);
        hexsim_dbg_print_location(d, out);
        break;
    }
    case HEXSIM_DBG_STOP_EXIT:
        if (stop->signal)
            fprintf(out, "Program terminated with signal %s.\n",
                    hexsim_dbg_signal_name(stop->signal));
        else
            fprintf(out, "Program exited with code %d.\n", stop->exit_status);
        break;
    case HEXSIM_DBG_STOP_INTERRUPT:
        fprintf(out, "Program received signal SIGINT.\n");
        hexsim_dbg_print_location(d, out);
        hexsim_kernel_print_task(d, out);
        break;
    default:
        if (stop->kind == HEXSIM_DBG_STOP_STEP && d->step_report != HEXSIM_DBG_REPORT_NONE) {
            line_report(d, d->step_report == HEXSIM_DBG_REPORT_FRAME, out);
            break;
        }
        stop_header(d, "", hexsim_dbg_pc(d), out);
        hexsim_dbg_print_location(d, out);
        break;
    }
    d->step_report = HEXSIM_DBG_REPORT_NONE;
}
