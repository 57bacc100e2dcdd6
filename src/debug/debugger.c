// SPDX-License-Identifier: MIT
// Debugger core: see debugger.h. Breakpoints stop before the packet at their address runs
// (the simulator checks PC between packets, so guest code is never patched); watchpoints
// stop after the packet that accessed the range has committed. next/finish/until are built
// from one-packet steps and temporary internal breakpoints qualified by the stack pointer, so
// recursion does not stop them early. Frame facts: PRM 7.3 (allocframe/deallocframe: the
// frame record [FP] = caller's FP, [FP+4] = LR).
#include "debugger.h"

#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cpu/isa.h"
#include "hexsim/disasm.h"
#include "kernel.h"
#include "value.h"

void hexsim_dbg_init(struct hexsim_debugger *d, const struct hexsim_dbg_target *t, FILE *out)
{
    memset(d, 0, sizeof(*d));
    d->t = *t;
    d->thread = 1;
    d->next_id = 1;
    d->out = out;
}

void hexsim_dbg_free(struct hexsim_debugger *d)
{
    hexsim_dbg_trace_close(d);
    hexsim_dwarf_close(d->dw);
    d->dw = NULL;
    d->dw_tried = false;
    hexsim_cfi_close(d->cfi);
    d->cfi = NULL;
    d->cfi_tried = false;
    hexsim_dtypes_free(&d->types);
    hexsim_symtab_free(&d->extra_syms);
    memset(&d->extra_syms, 0, sizeof(d->extra_syms));
    if (d->start_snap) {
        close(d->start_fd);
        free(d->start_snap);
        d->start_snap = NULL;
    }
}

void hexsim_dbg_trace_close(struct hexsim_debugger *d)
{
    if (d->trace && d->trace != d->out && d->trace != stdout && d->trace != stderr)
        fclose(d->trace);
    d->trace = NULL;
}

struct hexsim_dwarf *hexsim_dbg_dwarf(struct hexsim_debugger *d)
{
    if (!d->dw_tried) {
        d->dw_tried = true;
        const struct hexsim_symtab *st = hexsim_dbg_symtab(d);
        d->dw = st && st->path ? hexsim_dwarf_open(st->path) : NULL;
    }
    return d->dw;
}

struct hexsim_cfi *hexsim_dbg_cfi(struct hexsim_debugger *d)
{
    if (!d->cfi_tried) {
        d->cfi_tried = true;
        const struct hexsim_symtab *st = hexsim_dbg_symtab(d);
        d->cfi = st && st->path ? hexsim_cfi_open(st->path) : NULL;
    }
    return d->cfi;
}

int hexsim_dbg_line(struct hexsim_debugger *d, uint32_t addr, const char **file,
                    unsigned *line)
{
    struct hexsim_dwarf *dw = hexsim_dbg_dwarf(d);
    return dw ? hexsim_dwarf_addr_line(dw, addr, file, line) : -1;
}

// ---- registers, memory, symbols

int hexsim_dbg_reg_lookup(const struct hexsim_debugger *d, const char *name, unsigned *num)
{
    if (name[0] == 'p' && name[1] >= '0' && name[1] <= '3' && !name[2]) {
        *num = 1000u + (unsigned)(name[1] - '0');
        return 0;
    }
    unsigned n;
    const struct hexsim_dbg_reg_desc *r = d->t.ops->regs(d->t.ctx, &n);
    for (unsigned i = 0; i < n; i++)
        if (strcmp(r[i].name, name) == 0 || (r[i].alt && strcmp(r[i].alt, name) == 0)) {
            *num = r[i].num;
            return 0;
        }
    if (strcmp(name, "p3:0") == 0) {
        *num = HEXSIM_DBG_REG_P3_0;
        return 0;
    }
    return -1;
}

int hexsim_dbg_reg_read(struct hexsim_debugger *d, unsigned num, uint64_t *val)
{
    if (num >= 1000 && num < 1004) {
        uint64_t p;
        if (d->t.ops->read_reg(d->t.ctx, d->thread, HEXSIM_DBG_REG_P3_0, &p))
            return -1;
        *val = (p >> (8 * (num - 1000))) & 0xff;
        return 0;
    }
    return d->t.ops->read_reg(d->t.ctx, d->thread, num, val);
}

int hexsim_dbg_reg_write(struct hexsim_debugger *d, unsigned num, uint64_t val)
{
    if (num >= 1000 && num < 1004) {
        uint64_t p;
        unsigned sh = 8 * (num - 1000);
        if (d->t.ops->read_reg(d->t.ctx, d->thread, HEXSIM_DBG_REG_P3_0, &p))
            return -1;
        p = (p & ~(0xffull << sh)) | (val & 0xff) << sh;
        return d->t.ops->write_reg(d->t.ctx, d->thread, HEXSIM_DBG_REG_P3_0, p);
    }
    return d->t.ops->write_reg(d->t.ctx, d->thread, num, val);
}

static uint32_t reg32(struct hexsim_debugger *d, unsigned num)
{
    uint64_t v = 0;
    hexsim_dbg_reg_read(d, num, &v);
    return (uint32_t)v;
}

uint32_t hexsim_dbg_pc(struct hexsim_debugger *d)
{
    return reg32(d, HEXSIM_DBG_REG_PC);
}

int hexsim_dbg_read_uint(struct hexsim_debugger *d, uint64_t addr, unsigned size, unsigned flags,
                         uint64_t *val)
{
    uint8_t b[8];
    if (!(flags & HEXSIM_DBG_MEM_PHYS))
        addr = (uint32_t)addr;   // a guest virtual address is 32 bits
    if (size > 8 || d->t.ops->read_mem(d->t.ctx, d->thread, addr, b, size, flags) != size)
        return -1;
    uint64_t v = 0;
    for (unsigned i = 0; i < size; i++)
        v |= (uint64_t)b[i] << (8 * i);
    *val = v;
    return 0;
}

int hexsim_dbg_write_uint(struct hexsim_debugger *d, uint64_t addr, unsigned size,
                          unsigned flags, uint64_t val)
{
    uint8_t b[8];
    if (size > 8)
        return -1;
    for (unsigned i = 0; i < size; i++)
        b[i] = (uint8_t)(val >> (8 * i));
    if (!(flags & HEXSIM_DBG_MEM_PHYS))
        addr = (uint32_t)addr;
    return d->t.ops->write_mem(d->t.ctx, d->thread, addr, b, size, flags) == size ? 0 : -1;
}

const struct hexsim_symtab *hexsim_dbg_symtab(struct hexsim_debugger *d)
{
    return d->t.ops->symtab ? d->t.ops->symtab(d->t.ctx) : NULL;
}

const struct hexsim_sym *hexsim_dbg_sym_at(struct hexsim_debugger *d, uint32_t addr)
{
    const struct hexsim_sym *s = hexsim_symtab_lookup(hexsim_dbg_symtab(d), addr);
    return s || !d->extra_syms.n ? s : hexsim_symtab_lookup(&d->extra_syms, addr);
}

int hexsim_dbg_add_symbols(struct hexsim_debugger *d, const char *path)
{
    return hexsim_symtab_load(&d->extra_syms, path);
}

const char *hexsim_dbg_symbolize(struct hexsim_debugger *d, uint32_t addr, char *buf, size_t len)
{
    const struct hexsim_sym *s = hexsim_dbg_sym_at(d, addr);
    if (!s)
        snprintf(buf, len, "%s", "");
    else if (addr == s->addr)
        snprintf(buf, len, "<%s>", s->name);
    else
        snprintf(buf, len, "<%s+%u>", s->name, addr - s->addr);
    return buf;
}

// ---- breakpoints and watchpoints

int hexsim_dbg_break_add(struct hexsim_debugger *d, uint32_t addr, bool temp, bool remote,
                         const char *loc)
{
    if (d->nbp >= HEXSIM_DBG_MAX_BP)
        return -1;
    struct hexsim_dbg_bp *b = &d->bp[d->nbp++];
    memset(b, 0, sizeof(*b));
    b->id = d->next_id++;
    b->addr = addr;
    b->enabled = true;
    b->temp = temp;
    b->remote = remote;
    snprintf(b->loc, sizeof(b->loc), "%s", loc ? loc : "");
    return b->id;
}

int hexsim_dbg_watch_add(struct hexsim_debugger *d, uint32_t addr, uint32_t len, unsigned kind,
                         bool remote, const char *expr)
{
    if (d->nwp >= HEXSIM_DBG_MAX_WP || len == 0)
        return -1;
    struct hexsim_dbg_wp *w = &d->wp[d->nwp++];
    memset(w, 0, sizeof(*w));
    w->id = d->next_id++;
    w->w.addr = addr;
    w->w.len = len;
    w->w.kind = (uint8_t)kind;
    w->enabled = true;
    w->remote = remote;
    if (len <= 8)
        hexsim_dbg_read_uint(d, addr, len, 0, &w->old);
    snprintf(w->expr, sizeof(w->expr), "%s", expr ? expr : "");
    return w->id;
}

int hexsim_dbg_savevm(struct hexsim_debugger *d, const char *path, char *msg, size_t msglen)
{
    if (!d->t.ops->save) {
        snprintf(msg, msglen, "the %s target cannot save snapshots", d->t.ops->name);
        return -1;
    }
    return d->t.ops->save(d->t.ctx, path, msg, msglen);
}

int hexsim_dbg_loadvm(struct hexsim_debugger *d, const char *path, char *msg, size_t msglen)
{
    if (!d->t.ops->load) {
        snprintf(msg, msglen, "the %s target cannot load snapshots", d->t.ops->name);
        return -1;
    }
    if (d->t.ops->load(d->t.ctx, path, msg, msglen))
        return -1;
    d->ended = false;                    // the loaded program runs again
    d->frame = 0;
    d->exit_status = 0;
    for (unsigned i = 0; i < d->nwp; i++)   // watched values as the loaded state has them
        if (d->wp[i].w.len <= 8)
            hexsim_dbg_read_uint(d, d->wp[i].w.addr, d->wp[i].w.len, 0, &d->wp[i].old);
    return 0;
}

int hexsim_dbg_delete(struct hexsim_debugger *d, int id)
{
    int found = -1;
    unsigned j = 0;
    for (unsigned i = 0; i < d->nbp; i++)
        if ((id < 0 && !d->bp[i].remote) || d->bp[i].id == id)
            found = 0;
        else
            d->bp[j++] = d->bp[i];
    d->nbp = j;
    j = 0;
    for (unsigned i = 0; i < d->nwp; i++)
        if ((id < 0 && !d->wp[i].remote) || d->wp[i].id == id)
            found = 0;
        else
            d->wp[j++] = d->wp[i];
    d->nwp = j;
    return id < 0 ? 0 : found;
}

int hexsim_dbg_enable(struct hexsim_debugger *d, int id, bool on)
{
    int found = id < 0 ? 0 : -1;
    for (unsigned i = 0; i < d->nbp; i++)
        if ((id < 0 && !d->bp[i].remote) || d->bp[i].id == id) {
            d->bp[i].enabled = on;
            found = 0;
        }
    for (unsigned i = 0; i < d->nwp; i++)
        if ((id < 0 && !d->wp[i].remote) || d->wp[i].id == id) {
            d->wp[i].enabled = on;
            found = 0;
        }
    return found;
}

struct hexsim_dbg_bp *hexsim_dbg_break_find(struct hexsim_debugger *d, int id)
{
    for (unsigned i = 0; i < d->nbp; i++)
        if (d->bp[i].id == id)
            return &d->bp[i];
    return NULL;
}

int hexsim_dbg_mark_start(struct hexsim_debugger *d)
{
    if (!d->t.ops->restartable || !d->t.ops->save || !d->t.ops->load || d->start_snap)
        return -1;
    const char *dir = getenv("TMPDIR");
    size_t n = strlen(dir && *dir ? dir : "/tmp") + 32;
    char *path = malloc(n);
    if (!path)
        return -1;
    snprintf(path, n, "%s/hexsim-start-XXXXXX", dir && *dir ? dir : "/tmp");
    int fd = mkstemp(path);   // a fresh name (the save may write it anew and rename)
    char msg[256];
    bool ok = fd >= 0 && close(fd) == 0 &&
              d->t.ops->save(d->t.ctx, path, msg, sizeof(msg)) == 0;
    fd = ok ? open(path, O_RDONLY | O_CLOEXEC) : -1;
    remove(path);   // no file left behind however hexsim ends: the descriptor keeps it
    if (fd < 0) {
        free(path);
        return -1;
    }
    snprintf(path, n, "/proc/self/fd/%d", fd);   // (Linux) the snapshot, reopened by path
    d->start_snap = path;
    d->start_fd = fd;
    return 0;
}

int hexsim_dbg_restart(struct hexsim_debugger *d, char *msg, size_t msglen)
{
    if (!d->start_snap) {
        snprintf(msg, msglen, "the %s target cannot start the program again", d->t.ops->name);
        return -1;
    }
    if (hexsim_dbg_loadvm(d, d->start_snap, msg, msglen))
        return -1;
    d->started = false;
    d->thread = 1;
    return 0;
}

int hexsim_dbg_remote_remove(struct hexsim_debugger *d, bool watch, uint32_t addr)
{
    if (watch) {
        for (unsigned i = 0; i < d->nwp; i++)
            if (d->wp[i].remote && d->wp[i].w.addr == addr)
                return hexsim_dbg_delete(d, d->wp[i].id);
    } else {
        for (unsigned i = 0; i < d->nbp; i++)
            if (d->bp[i].remote && d->bp[i].addr == addr)
                return hexsim_dbg_delete(d, d->bp[i].id);
    }
    return -1;
}

// ---- run control

static void note_end(struct hexsim_debugger *d, const struct hexsim_dbg_stop *stop)
{
    d->frame = 0;   // a stop selects the innermost frame
    if (stop->thread && stop->kind != HEXSIM_DBG_STOP_INTERRUPT &&
        stop->kind != HEXSIM_DBG_STOP_LIMIT)
        d->thread = stop->thread;   // the thread (vCPU) that stopped becomes the current one
    if (stop->kind == HEXSIM_DBG_STOP_EXIT) {
        d->ended = true;
        d->exit_status = stop->exit_status;
    }
}

// One run of the target (run_to's): what stopped it.
enum { RUN_USER_STOP, RUN_INTERNAL, RUN_RESUME };

int hexsim_dbg_break_add_loc(struct hexsim_debugger *d, int id, uint32_t addr)
{
    struct hexsim_dbg_bp *b = hexsim_dbg_break_find(d, id);
    if (!b || d->nbp >= HEXSIM_DBG_MAX_BP)
        return -1;
    d->bp[d->nbp] = *b;
    d->bp[d->nbp++].addr = addr;
    return 0;
}

void hexsim_dbg_break_sync(struct hexsim_debugger *d, const struct hexsim_dbg_bp *b)
{
    for (unsigned i = 0; i < d->nbp; i++)
        if (d->bp[i].id == b->id && &d->bp[i] != b) {
            d->bp[i].enabled = b->enabled;
            d->bp[i].hits = b->hits;
            d->bp[i].ignore = b->ignore;
            memcpy(d->bp[i].cond, b->cond, sizeof(b->cond));
        }
}

// A user breakpoint was reached: its condition and ignore count say whether it stops.
static bool break_counts(struct hexsim_debugger *d, struct hexsim_dbg_bp *b);

static bool break_stops(struct hexsim_debugger *d, struct hexsim_dbg_bp *b)
{
    bool stops = break_counts(d, b);
    hexsim_dbg_break_sync(d, b);   // one count for all locations of the breakpoint
    return stops;
}

static bool break_counts(struct hexsim_debugger *d, struct hexsim_dbg_bp *b)
{
    d->cond_err[0] = '\0';
    if (b->cond[0]) {
        struct hexsim_dval v;
        uint64_t x = 1;
        char err[160];
        if (hexsim_dbg_eval_value(d, b->cond, &v, err, sizeof(err)) ||
            hexsim_dval_scalar(d, &v, &x, err, sizeof(err))) {
            snprintf(d->cond_err, sizeof(d->cond_err), "%s", err);
            return true;   // gdb stops when the condition cannot be tested
        }
        if (!x)
            return false;
    }
    b->hits++;
    if (b->ignore) {
        b->ignore--;
        return false;
    }
    return true;
}

static int run_once(struct hexsim_debugger *d, const uint32_t *extra, unsigned nextra,
                    bool step_over, struct hexsim_dbg_stop *stop)
{
    uint32_t bps[HEXSIM_DBG_MAX_BP + 4];
    int bpi[HEXSIM_DBG_MAX_BP + 4];
    struct hexsim_dbg_watch wps[HEXSIM_DBG_MAX_WP];
    int wpi[HEXSIM_DBG_MAX_WP];
    unsigned nb = 0, nw = 0;
    for (unsigned i = 0; i < d->nbp; i++)
        if (d->bp[i].enabled) {
            bpi[nb] = (int)i;
            bps[nb++] = d->bp[i].addr;
        }
    for (unsigned i = 0; i < nextra && i < 4; i++) {
        bpi[nb] = -1;
        bps[nb++] = extra[i];
    }
    for (unsigned i = 0; i < d->nwp; i++)
        if (d->wp[i].enabled) {
            wpi[nw] = (int)i;
            wps[nw++] = d->wp[i].w;
        }
    struct hexsim_dbg_run c = { bps, nb, step_over, wps, nw, 0, d->poll, d->poll_ctx };
    if (!d->trace) {
        d->t.ops->run(d->t.ctx, &c, stop);
    } else {
        // trace on: one packet per run call, each written to the trace before it runs
        c.max_packets = 1;
        for (uint64_t n = 0;; n++) {
            char text[512];
            uint32_t pc = hexsim_dbg_pc(d);
            c.step_over_bp = n == 0 && step_over;
            c.poll = NULL;
            if (d->poll && n && n % HEXSIM_DBG_POLL_PACKETS == 0 && d->poll(d->poll_ctx)) {
                stop->kind = HEXSIM_DBG_STOP_INTERRUPT;
                stop->pc = pc;
                break;
            }
            d->t.ops->run(d->t.ctx, &c, stop);
            if (stop->kind == HEXSIM_DBG_STOP_LIMIT || stop->kind == HEXSIM_DBG_STOP_BREAK) {
                if (stop->kind == HEXSIM_DBG_STOP_BREAK && stop->packets == 0)
                    break;
                // the packet ran
                hexsim_dbg_format_packet(d, pc, text, sizeof(text));
                char sym[160];
                fprintf(d->trace, "0x%08x %-24s %s\n", pc, hexsim_dbg_symbolize(d, pc, sym,
                        sizeof(sym)), text);
                if (stop->kind == HEXSIM_DBG_STOP_BREAK)
                    break;
                continue;
            }
            if (stop->kind == HEXSIM_DBG_STOP_WATCH || stop->kind == HEXSIM_DBG_STOP_EXIT) {
                hexsim_dbg_format_packet(d, pc, text, sizeof(text));
                fprintf(d->trace, "0x%08x %s\n", pc, text);
            }
            break;
        }
    }
    note_end(d, stop);
    if (stop->packets)
        d->started = true;
    if (stop->kind == HEXSIM_DBG_STOP_BREAK) {
        int i = stop->index >= 0 && (unsigned)stop->index < nb ? bpi[stop->index] : -1;
        if (i < 0) {
            stop->index = -1;
            return RUN_INTERNAL;
        }
        struct hexsim_dbg_bp *b = &d->bp[i];
        if (!break_stops(d, b)) {
            for (unsigned k = 0; k < nextra; k++)
                if (extra[k] == stop->pc) {   // an internal stop at the same place
                    stop->index = -1;
                    return RUN_INTERNAL;
                }
            return RUN_RESUME;
        }
        stop->index = b->id;
        d->stop_temp = b->temp;
        if (b->temp)
            hexsim_dbg_delete(d, b->id);
    } else if (stop->kind == HEXSIM_DBG_STOP_WATCH) {
        int i = stop->index >= 0 && (unsigned)stop->index < nw ? wpi[stop->index] : -1;
        if (i >= 0) {
            struct hexsim_dbg_wp *w = &d->wp[i];
            w->hits++;
            w->prev = w->old;
            if (w->w.len <= 8)
                hexsim_dbg_read_uint(d, w->w.addr, w->w.len, 0, &w->old);
            stop->index = w->id;
        }
    }
    return RUN_USER_STOP;
}

// Runs until a user breakpoint or watchpoint stops (conditions and ignore counts applied),
// one of the `nextra` internal addresses, or the end. Returns true when an internal address
// stopped it (stop->kind BREAK, index -1). Otherwise a BREAK/WATCH stop's index is rewritten
// to the breakpoint's id.
static bool run_to(struct hexsim_debugger *d, const uint32_t *extra, unsigned nextra,
                   bool step_over, struct hexsim_dbg_stop *stop)
{
    uint64_t packets = 0;
    for (;;) {
        int r = run_once(d, extra, nextra, step_over, stop);
        packets += stop->packets;
        if (r != RUN_RESUME) {
            stop->packets = packets;
            return r == RUN_INTERNAL;
        }
        step_over = true;   // past the breakpoint that did not stop
    }
}

void hexsim_dbg_continue(struct hexsim_debugger *d, struct hexsim_dbg_stop *stop)
{
    run_to(d, NULL, 0, true, stop);
}

static void stepi_into(struct hexsim_debugger *d, struct hexsim_dbg_step_info *info,
                       struct hexsim_dbg_stop *stop)
{
    uint32_t pc = hexsim_dbg_pc(d);
    d->t.ops->step(d->t.ctx, d->thread, info, stop);
    note_end(d, stop);
    if (stop->packets)
        d->started = true;
    if (d->trace && stop->packets) {
        char text[512], sym[160];
        hexsim_dbg_format_packet(d, pc, text, sizeof(text));
        fprintf(d->trace, "0x%08x %-24s %s\n", pc, hexsim_dbg_symbolize(d, pc, sym, sizeof(sym)),
                text);
    }
    if (stop->kind == HEXSIM_DBG_STOP_STEP && d->nwp && info->trace.committed) {
        // a watched range the packet touched stops a step too
        for (unsigned i = 0; i < d->nwp; i++) {
            struct hexsim_dbg_wp *w = &d->wp[i];
            if (!w->enabled)
                continue;
            if (hexsim_dbg_trace_hit(&info->trace, &w->w, &stop->addr, &stop->write)) {
                w->hits++;
                w->prev = w->old;
                if (w->w.len <= 8)
                    hexsim_dbg_read_uint(d, w->w.addr, w->w.len, 0, &w->old);
                stop->kind = HEXSIM_DBG_STOP_WATCH;
                stop->index = w->id;
                break;
            }
        }
    }
}

void hexsim_dbg_stepi(struct hexsim_debugger *d, struct hexsim_dbg_step_info *info,
                      struct hexsim_dbg_stop *stop)
{
    struct hexsim_dbg_step_info local;
    stepi_into(d, info ? info : &local, stop);
}

static bool packet_calls(const struct hexsim_dbg_step_info *info)
{
    if (!info->decoded || info->pkt.status != HX_DECODE_OK)
        return false;
    for (unsigned i = 0; i < info->pkt.ninsns; i++)
        if (hexsim_isa_table[info->pkt.insn[i].tag].flags & HX_F_CALL)
            return true;
    return false;
}

// Runs to `ret` reached with SP above (or, with `or_equal`, at) `sp`.
static void run_to_frame(struct hexsim_debugger *d, uint32_t ret, uint32_t sp, bool or_equal,
                         bool step_over, struct hexsim_dbg_stop *stop)
{
    for (;;) {
        if (!run_to(d, &ret, 1, step_over, stop))
            return;
        uint32_t now = reg32(d, HEXSIM_DBG_REG_SP);
        if (now > sp || (or_equal && now == sp)) {
            stop->kind = HEXSIM_DBG_STOP_STEP;
            return;
        }
        step_over = true;   // a deeper activation got there first
    }
}

void hexsim_dbg_next(struct hexsim_debugger *d, struct hexsim_dbg_stop *stop)
{
    struct hexsim_dbg_step_info info;
    uint32_t sp = reg32(d, HEXSIM_DBG_REG_SP);
    stepi_into(d, &info, stop);
    if (stop->kind != HEXSIM_DBG_STOP_STEP || !packet_calls(&info))
        return;
    uint32_t ret = info.pc + 4u * info.pkt.nwords;
    if (hexsim_dbg_pc(d) == ret)   // the call was predicated off
        return;
    run_to_frame(d, ret, sp, true, false, stop);
}

// ---- stepping by source line (gdb's step/next/until): packets run one at a time while PC
// stays in the statement's line-table row; a call is run to its return (next, or step into a
// function without line information) or stopped in after its prologue (step); leaving the
// row for the start of a row of another line ends the step, and landing inside a row (a
// return into the middle of the caller's line, a jump into a line's middle) makes that row
// the one to leave, as gdb does.

static bool func_low(struct hexsim_debugger *d, uint32_t pc, uint32_t *low)
{
    struct hexsim_dwarf_func f;
    if (hexsim_dwarf_func_at(hexsim_dbg_dwarf(d), pc, &f))
        return false;
    *low = f.low;
    return true;
}

static bool has_frame(struct hexsim_debugger *d, uint32_t pc);

// After a packet of a step: an enabled breakpoint at the new PC stops the step as continue
// would have stopped there (counted; a temporary one deleted).
static bool hit_breakpoint(struct hexsim_debugger *d, struct hexsim_dbg_stop *stop)
{
    uint32_t pc = hexsim_dbg_pc(d);
    for (unsigned i = 0; i < d->nbp; i++) {
        struct hexsim_dbg_bp *b = &d->bp[i];
        if (!b->enabled || b->addr != pc)
            continue;
        b->hits++;
        stop->kind = HEXSIM_DBG_STOP_BREAK;
        stop->index = b->id;
        stop->pc = pc;
        d->stop_temp = b->temp;
        if (b->temp)
            hexsim_dbg_delete(d, b->id);
        return true;
    }
    return false;
}

// The innermost frame's identity, stable across its prologue: the SP its caller had (FP+8
// once allocframe ran, SP before).
static uint32_t frame_id(struct hexsim_debugger *d)
{
    return has_frame(d, hexsim_dbg_pc(d)) ? reg32(d, HEXSIM_DBG_REG_FP) + 8u
                                          : reg32(d, HEXSIM_DBG_REG_SP);
}

int hexsim_dbg_step_line(struct hexsim_debugger *d, int how, struct hexsim_dbg_stop *stop)
{
    struct hexsim_dwarf *dw = hexsim_dbg_dwarf(d);
    uint32_t pc = hexsim_dbg_pc(d), start, end, fn0 = 0;
    const char *file;
    unsigned line;
    if (!dw || hexsim_dwarf_addr_line(dw, pc, &file, &line) ||
        hexsim_dwarf_line_range(dw, pc, &start, &end) || end <= start)
        return -1;
    bool has_fn0 = func_low(d, pc, &fn0);
    uint32_t id0 = frame_id(d);
    if (how == HEXSIM_DBG_LINE_UNTIL && has_fn0)
        start = fn0;   // until: a jump back within the function does not end the step
    d->step_report = HEXSIM_DBG_REPORT_NONE;
    for (uint64_t n = 1;; n++) {
        if (d->poll && n % HEXSIM_DBG_POLL_PACKETS == 0 && d->poll(d->poll_ctx)) {
            stop->kind = HEXSIM_DBG_STOP_INTERRUPT;
            stop->pc = hexsim_dbg_pc(d);
            return 0;
        }
        struct hexsim_dbg_step_info info;
        uint32_t sp = reg32(d, HEXSIM_DBG_REG_SP);
        stepi_into(d, &info, stop);
        if (stop->kind != HEXSIM_DBG_STOP_STEP || hit_breakpoint(d, stop))
            return 0;
        uint32_t now = hexsim_dbg_pc(d);
        uint32_t ret = info.pc + 4u * info.pkt.nwords;
        if (packet_calls(&info) && now != ret) {
            struct hexsim_dwarf_func f;
            const char *cf;
            unsigned cl;
            if (how == HEXSIM_DBG_LINE_STEP && hexsim_dwarf_func_at(dw, now, &f) == 0 &&
                hexsim_dwarf_addr_line(dw, now, &cf, &cl) == 0) {
                // into a function with line information: stop after its prologue
                if (f.body > now && f.body < f.high && !run_to(d, &f.body, 1, false, stop))
                    return 0;   // a breakpoint, watchpoint or the end came first
                stop->kind = HEXSIM_DBG_STOP_STEP;
                stop->pc = hexsim_dbg_pc(d);
                break;
            }
            run_to_frame(d, ret, sp, true, false, stop);   // over the call
            if (stop->kind != HEXSIM_DBG_STOP_STEP)
                return 0;
            now = hexsim_dbg_pc(d);
        }
        if (now >= start && now < end)
            continue;
        const char *f2;
        unsigned l2;
        uint32_t s2, e2;
        if (hexsim_dwarf_addr_line(dw, now, &f2, &l2) ||
            hexsim_dwarf_line_range(dw, now, &s2, &e2))
            return 0;   // code without line information: stop there (reported by packet)
        if (now == s2 && (l2 != line || strcmp(f2, file) != 0))
            break;      // the start of another line
        // the middle of a row, or another row of the same line: step out of that one
        uint32_t low;
        start = how == HEXSIM_DBG_LINE_UNTIL && func_low(d, now, &low) && low <= s2 ? low : s2;
        end = e2 > s2 ? e2 : s2 + 1;
        line = l2;
        file = f2;
    }
    uint32_t fn1;
    bool same = has_fn0 && func_low(d, hexsim_dbg_pc(d), &fn1) && fn1 == fn0 &&
                frame_id(d) == id0;
    d->step_report = same ? HEXSIM_DBG_REPORT_LINE : HEXSIM_DBG_REPORT_FRAME;
    return 0;
}

// Whether the function around pc has its own frame yet: an allocframe in a packet between
// the function's symbol and pc. Without one (a leaf, or before the prologue) the return
// address is still in LR and FP is the caller's. Without a symbol, assume a frame.
static bool has_frame(struct hexsim_debugger *d, uint32_t pc)
{
    struct hexsim_cfi_row row;   // with CFI: LR saved on the stack (allocframe) or not
    if (hexsim_cfi_row(hexsim_dbg_cfi(d), pc, &row) == 0)
        return row.reg[HEXSIM_DBG_REG_LR].rule == HEXSIM_CFI_OFFSET;
    const struct hexsim_sym *s = hexsim_symtab_lookup(hexsim_dbg_symtab(d), pc);
    if (!s)
        return true;
    unsigned arch = d->t.ops->arch(d->t.ctx);
    for (uint32_t a = s->addr; a < pc && a - s->addr < 4096;) {
        uint8_t b[4 * HX_PACKET_MAX_WORDS];
        uint32_t w[HX_PACKET_MAX_WORDS];
        size_t n = d->t.ops->read_mem(d->t.ctx, d->thread, a, b, sizeof(b), 0) / 4;
        struct hexsim_packet pkt;
        for (size_t i = 0; i < n; i++)
            w[i] = (uint32_t)b[4 * i] | (uint32_t)b[4 * i + 1] << 8 |
                   (uint32_t)b[4 * i + 2] << 16 | (uint32_t)b[4 * i + 3] << 24;
        if (!n || hexsim_decode_packet(w, n, a, arch, &pkt) != HX_DECODE_OK)
            return true;
        for (unsigned i = 0; i < pkt.ninsns; i++)
            if (strstr(hexsim_isa_table[pkt.insn[i].tag].tag, "allocframe"))
                return true;
        a += 4u * pkt.nwords;
    }
    return false;
}

int hexsim_dbg_finish(struct hexsim_debugger *d, struct hexsim_dbg_stop *stop)
{
    struct hexsim_dbg_frame f[HEXSIM_DBG_MAX_FRAMES];
    unsigned n = hexsim_dbg_frames(d, f, HEXSIM_DBG_MAX_FRAMES);
    if (d->frame + 1 >= n)
        return -1;   // the outermost frame returns to nothing
    if (d->frame > 0) {   // the selected frame returns when SP rises above its FP
        run_to_frame(d, f[d->frame + 1].pc, f[d->frame].fp, false, true, stop);
        return 0;
    }
    uint32_t pc = hexsim_dbg_pc(d), sp = reg32(d, HEXSIM_DBG_REG_SP);
    run_to_frame(d, f[1].pc, sp, !has_frame(d, pc) || reg32(d, HEXSIM_DBG_REG_FP) == 0, true,
                 stop);
    return 0;
}

void hexsim_dbg_until(struct hexsim_debugger *d, bool has_addr, uint32_t addr,
                      struct hexsim_dbg_stop *stop)
{
    uint32_t pc = hexsim_dbg_pc(d), sp = reg32(d, HEXSIM_DBG_REG_SP);
    if (has_addr) {   // LOC in this frame or a caller, or the return of this frame (gdb's)
        struct hexsim_dbg_frame f[2];
        uint32_t at[2] = { addr, 0 };
        unsigned n = hexsim_dbg_frames(d, f, 2) > 1 ? 2 : 1;
        if (n == 2)
            at[1] = f[1].pc;
        for (bool over = true;; over = true) {
            if (!run_to(d, at, n, over, stop))
                return;
            uint32_t now = hexsim_dbg_pc(d), nsp = reg32(d, HEXSIM_DBG_REG_SP);
            if ((now == addr && nsp >= sp) || (n == 2 && now == at[1] && nsp > sp)) {
                stop->kind = HEXSIM_DBG_STOP_STEP;
                return;
            }
        }
    }
    if (hexsim_dbg_step_line(d, HEXSIM_DBG_LINE_UNTIL, stop) == 0)
        return;
    for (unsigned n = 0; n < 10000000; n++) {
        hexsim_dbg_next(d, stop);
        if (stop->kind != HEXSIM_DBG_STOP_STEP)
            return;
        if (hexsim_dbg_pc(d) > pc || reg32(d, HEXSIM_DBG_REG_SP) > sp)
            return;
    }
}

// Appends to f[n..max) the frames of one context whose innermost frame is *top (LR its
// link register); returns the new count.
static unsigned chain(struct hexsim_debugger *d, struct hexsim_dbg_frame *f, unsigned n,
                      unsigned max, struct hexsim_dbg_frame top, uint32_t lr)
{
    uint32_t fp = top.fp;
    f[n++] = top;
    if (n < max && !has_frame(d, top.pc)) {   // before allocframe: the return address is in LR
        if (!lr)
            return n;
        f[n++] = (struct hexsim_dbg_frame){ lr, fp, top.sp, 0 };
    }
    while (n < max && fp && !(fp & 7)) {
        uint64_t ret, next;
        if (hexsim_dbg_read_uint(d, fp + 4u, 4, 0, &ret) || hexsim_dbg_read_uint(d, fp, 4, 0, &next))
            break;
        if (!ret)
            break;
        f[n++] = (struct hexsim_dbg_frame){ (uint32_t)ret, (uint32_t)next, fp + 8u, 0 };
        if (next <= fp)
            break;
        fp = (uint32_t)next;
    }
    return n;
}

unsigned hexsim_dbg_frames(struct hexsim_debugger *d, struct hexsim_dbg_frame *f, unsigned max)
{
    if (!max)
        return 0;
    struct hexsim_dbg_frame top = { hexsim_dbg_pc(d), reg32(d, HEXSIM_DBG_REG_FP),
                                    reg32(d, HEXSIM_DBG_REG_SP), 0 };
    uint32_t lr = reg32(d, HEXSIM_DBG_REG_LR);
    unsigned n = chain(d, f, 0, max, top, lr);
    // a chain that ends in the kernel's event entry goes on in the context it interrupted
    // (at most as many times as there are frames: a damaged stack must not loop)
    while (n > 1 && n < max && hexsim_kernel_event_frame(d, &f[n - 1], &top, &lr))
        n = chain(d, f, n, max, top, lr);
    return n;
}

int hexsim_dbg_select_frame(struct hexsim_debugger *d, unsigned n)
{
    struct hexsim_dbg_frame f[HEXSIM_DBG_MAX_FRAMES];
    if (n >= hexsim_dbg_frames(d, f, HEXSIM_DBG_MAX_FRAMES))
        return -1;
    d->frame = n;
    return 0;
}

// The selected frame (frame 0 when the chain has become shorter).
static struct hexsim_dbg_frame selected(struct hexsim_debugger *d)
{
    struct hexsim_dbg_frame f[HEXSIM_DBG_MAX_FRAMES];
    unsigned n = hexsim_dbg_frames(d, f, HEXSIM_DBG_MAX_FRAMES);
    if (d->frame >= n)
        d->frame = 0;
    return f[d->frame];
}

uint32_t hexsim_dbg_frame_pc(struct hexsim_debugger *d, uint32_t *lookup)
{
    if (d->frame == 0) {
        uint32_t pc = hexsim_dbg_pc(d);
        if (lookup)
            *lookup = pc;
        return pc;
    }
    struct hexsim_dbg_frame f = selected(d);
    if (lookup)
        *lookup = d->frame ? f.pc - 1 : f.pc;
    return f.pc;
}

// Register r of frame n of f[], unwound through frame n-1's CFI rules (frame 0: the
// target's registers). depth bounds chains of rules.
static int unwind_reg(struct hexsim_debugger *d, const struct hexsim_dbg_frame *f, unsigned n,
                      unsigned r, uint32_t *val, unsigned depth)
{
    if (n == 0) {
        uint64_t v;
        if (hexsim_dbg_reg_read(d, r, &v))
            return -1;
        *val = (uint32_t)v;
        return 0;
    }
    if (f[n].regs)   // an interrupted context: everything is in its pt_regs
        return hexsim_kernel_saved_reg(d, f[n].regs, r, val);
    if (r == HEXSIM_DBG_REG_SP || r == HEXSIM_DBG_REG_FP) {
        *val = r == HEXSIM_DBG_REG_SP ? f[n].sp : f[n].fp;
        return 0;
    }
    struct hexsim_cfi_row row;
    uint32_t callee_pc = n - 1 ? f[n - 1].pc - 1 : f[n - 1].pc;
    if (r >= HEXSIM_CFI_REGS || depth > 4 * HEXSIM_DBG_MAX_FRAMES ||
        hexsim_cfi_row(hexsim_dbg_cfi(d), callee_pc, &row))
        return -1;
    uint32_t cfa = 0;
    int rule = row.reg[r].rule;
    if (rule == HEXSIM_CFI_OFFSET || rule == HEXSIM_CFI_VAL_OFFSET) {
        if (row.cfa_reg >= HEXSIM_CFI_REGS ||
            unwind_reg(d, f, n - 1, row.cfa_reg, &cfa, depth + 1))
            return -1;
        cfa += (uint32_t)row.cfa_off;
    }
    switch (rule) {
    case HEXSIM_CFI_UNSPECIFIED:   // the ABI's callee-saved registers, and the return address
        if (!((r >= 16 && r <= 27) || r == row.ra_reg))
            return -1;
        return unwind_reg(d, f, n - 1, r, val, depth + 1);
    case HEXSIM_CFI_SAME:
        return unwind_reg(d, f, n - 1, r, val, depth + 1);
    case HEXSIM_CFI_OFFSET: {
        uint64_t v;
        if (hexsim_dbg_read_uint(d, cfa + (uint32_t)row.reg[r].off, 4, 0, &v))
            return -1;
        *val = (uint32_t)v;
        return 0;
    }
    case HEXSIM_CFI_VAL_OFFSET:
        *val = cfa + (uint32_t)row.reg[r].off;
        return 0;
    case HEXSIM_CFI_REGISTER:
        return unwind_reg(d, f, n - 1, (unsigned)row.reg[r].off, val, depth + 1);
    default:
        return -1;
    }
}

int hexsim_dbg_frame_reg(struct hexsim_debugger *d, unsigned r, uint32_t *val)
{
    if (d->frame == 0)
        return unwind_reg(d, NULL, 0, r, val, 0);
    struct hexsim_dbg_frame f[HEXSIM_DBG_MAX_FRAMES];
    unsigned n = hexsim_dbg_frames(d, f, HEXSIM_DBG_MAX_FRAMES);
    if (d->frame >= n)
        d->frame = 0;   // the chain has become shorter
    return unwind_reg(d, f, d->frame, r, val, 0);
}

int hexsim_dbg_frame_saved_at(struct hexsim_debugger *d, unsigned n, unsigned r,
                              uint32_t *addr)
{
    struct hexsim_dbg_frame f[HEXSIM_DBG_MAX_FRAMES];
    struct hexsim_cfi_row row;
    unsigned count = hexsim_dbg_frames(d, f, HEXSIM_DBG_MAX_FRAMES);
    uint32_t cfa;
    if (n >= count || r >= HEXSIM_CFI_REGS ||
        hexsim_cfi_row(hexsim_dbg_cfi(d), n ? f[n].pc - 1 : f[n].pc, &row) ||
        row.reg[r].rule != HEXSIM_CFI_OFFSET || row.cfa_reg >= HEXSIM_CFI_REGS ||
        unwind_reg(d, f, n, row.cfa_reg, &cfa, 0))
        return -1;
    *addr = cfa + (uint32_t)row.cfa_off + (uint32_t)row.reg[r].off;
    return 0;
}
