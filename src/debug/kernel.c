// SPDX-License-Identifier: MIT
// Linux-aware debugging of the Hexagon guest (kernel.h). Facts from the Linux 6.1 Hexagon
// port: the HVM event vectors (arch/hexagon/kernel/vm_entry.S) make room for a struct
// pt_regs on the kernel stack, save every register into it (R29 as the interrupted SP, the
// HVM's event record at its end: ELR, the pre-event GSR with the user-mode bit 31, the
// previous SP, BADVA), set R30 = 0 and call the C handler from event_dispatch with SP (and
// R0) at the pt_regs; struct pt_regs (uapi/asm/registers.h) is 14 words of control
// registers (restart_r0, syscall_nr, usr, preds, m0, m1, sa1, lc1, sa0, lc0, ugp, gp, cs0,
// cs1), then R0-R31, then the event record. That layout is the user ABI (ptrace), fixed.
#include "kernel.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "debugger.h"

#define PT_SYSCALL_NR 4
#define PT_R0 56
#define PT_VMEL 184                 // the interrupted PC
#define PT_VMEST 188                // GSR at the event: bit 31 user mode
#define VMEST_UM (1u << 31)

static const char *sym_at(struct hexsim_debugger *d, uint32_t addr)
{
    const struct hexsim_sym *s = hexsim_symtab_lookup(hexsim_dbg_symtab(d), addr);
    return s ? s->name : "";
}

static int read32(struct hexsim_debugger *d, uint32_t addr, uint32_t *val)
{
    uint64_t v;
    if (hexsim_dbg_read_uint(d, addr, 4, 0, &v))
        return -1;
    *val = (uint32_t)v;
    return 0;
}

bool hexsim_kernel_event_frame(struct hexsim_debugger *d, const struct hexsim_dbg_frame *f,
                               struct hexsim_dbg_frame *next, uint32_t *lr)
{
    if (strcmp(sym_at(d, f->pc - 1), "event_dispatch") != 0)
        return false;
    uint32_t regs = f->sp, pc, sp, fp;
    if (read32(d, regs + PT_VMEL, &pc) || read32(d, regs + PT_R0 + 4 * 29, &sp) ||
        read32(d, regs + PT_R0 + 4 * 30, &fp) || read32(d, regs + PT_R0 + 4 * 31, lr) || !pc)
        return false;
    *next = (struct hexsim_dbg_frame){ .pc = pc, .fp = fp, .sp = sp, .regs = regs };
    return true;
}

int hexsim_kernel_saved_reg(struct hexsim_debugger *d, uint32_t regs, unsigned r,
                            uint32_t *val)
{
    if (r < 32)
        return read32(d, regs + PT_R0 + 4 * r, val);
    if (r == HEXSIM_DBG_REG_PC)
        return read32(d, regs + PT_VMEL, val);
    return -1;
}

void hexsim_kernel_print_boundary(struct hexsim_debugger *d, const struct hexsim_dbg_frame *f,
                                  const struct hexsim_dbg_frame *handler, FILE *out)
{
    uint32_t est = 0, nr = 0;
    read32(d, f->regs + PT_VMEST, &est);
    const char *h = handler ? sym_at(d, handler->pc) : "";
    char what[64];
    if (strcmp(h, "do_trap0") == 0 && read32(d, f->regs + PT_SYSCALL_NR, &nr) == 0)
        snprintf(what, sizeof what, "system call %d", (int)nr);
    else if (strcmp(h, "arch_do_IRQ") == 0)
        snprintf(what, sizeof what, "interrupt");
    else if (strcmp(h, "do_genex") == 0)
        snprintf(what, sizeof what, "exception, cause 0x%02x", est & 0xffffu);
    else
        snprintf(what, sizeof what, "event %s", h[0] ? h : "?");
    fprintf(out, "--- %s from %s mode, pt_regs at 0x%08x ---\n", what,
            est & VMEST_UM ? "user" : "kernel", f->regs);
}

void hexsim_kernel_print_task(struct hexsim_debugger *d, FILE *out)
{
    const struct hexsim_dbg_target_ops *ops = d->t.ops;
    uint32_t task;
    char comm[32], expr[64], err[160];
    if (!ops->current_task || ops->current_task(d->t.ctx, d->thread, &task, comm, sizeof comm))
        return;
    uint64_t pid;
    snprintf(expr, sizeof expr, "((struct task_struct *)0x%08x)->pid", task);
    if (hexsim_dbg_dwarf(d) && hexsim_dbg_eval(d, expr, &pid, err, sizeof err) == 0)
        fprintf(out, "[task %s, pid %d]\n", comm, (int)(int32_t)pid);
    else
        fprintf(out, "[task %s]\n", comm);
}

// ---- the task list, the log buffer and page tables: layouts from DWARF

// An expression's value (DWARF's layouts through the debugger's C expressions); false
// with the message written to out.
static bool kval(struct hexsim_debugger *d, FILE *out, uint64_t *v, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static bool kval(struct hexsim_debugger *d, FILE *out, uint64_t *v, const char *fmt, ...)
{
    char expr[256], err[200];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(expr, sizeof expr, fmt, ap);
    va_end(ap);
    if (hexsim_dbg_eval(d, expr, v, err, sizeof err) == 0)
        return true;
    if (out)
        fprintf(out, "Error: cannot read the kernel's %s: %s\n", expr, err);
    return false;
}

// The kernel's DWARF and init_task, or false with a message.
static bool linux_dwarf(struct hexsim_debugger *d, FILE *out)
{
    if (!hexsim_symtab_find(hexsim_dbg_symtab(d), "init_task")) {
        fprintf(out, "Error: no init_task symbol: the image is not a Linux kernel\n");
        return false;
    }
    if (!hexsim_dbg_dwarf(d)) {
        fprintf(out, "Error: the kernel has no DWARF, which gives the layouts of its "
                "structures: build one with guest/linux/build.sh --debug-info and debug "
                "with that vmlinux\n");
        return false;
    }
    return true;
}

struct task_layout {
    uint64_t tasks, pid, comm, state, exit_state, mm, pgd;
};

static bool task_layout(struct hexsim_debugger *d, FILE *out, struct task_layout *l)
{
    static const char base[] = "(unsigned long)&init_task";
    return kval(d, out, &l->tasks, "(unsigned long)&init_task.tasks - %s", base) &&
           kval(d, out, &l->pid, "(unsigned long)&init_task.pid - %s", base) &&
           kval(d, out, &l->comm, "(unsigned long)&init_task.comm - %s", base) &&
           kval(d, out, &l->state, "(unsigned long)&init_task.__state - %s", base) &&
           kval(d, out, &l->exit_state, "(unsigned long)&init_task.exit_state - %s", base) &&
           kval(d, out, &l->mm, "(unsigned long)&init_task.mm - %s", base) &&
           kval(d, out, &l->pgd, "(unsigned long)&init_mm.pgd - (unsigned long)&init_mm");
}

// ps's state letter for a task's __state and exit_state, as /proc shows it
// (fs/proc/array.c, include/linux/sched.h): TASK_IDLE (0x402) is I, else the highest of
// the reported bits 0x7f names it, R S D T t X Z P.
static char state_letter(uint32_t state, uint32_t exit_state)
{
    if (state == 0x402 && !exit_state)
        return 'I';
    uint32_t bits = (state | exit_state) & 0x7fu;
    unsigned k = 0;
    while (bits) {
        k++;
        bits >>= 1;
    }
    return "RSDTtXZP"[k];
}

// Calls fn for each task on init_task.tasks (the thread group leaders, as ps lists them),
// init_task first; stops early when fn returns true. false when the list cannot be read.
static bool each_task(struct hexsim_debugger *d, const struct task_layout *l,
                      bool (*fn)(void *ctx, uint32_t task), void *ctx)
{
    const struct hexsim_sym *it = hexsim_symtab_find(hexsim_dbg_symtab(d), "init_task");
    uint32_t head = it->addr + (uint32_t)l->tasks, node = head;
    for (unsigned n = 0; n < 65536; n++) {
        if (fn(ctx, node - (uint32_t)l->tasks))
            return true;
        if (read32(d, node, &node))
            return false;
        if (node == head)
            return true;
    }
    return false;
}

struct ps_ctx {
    struct hexsim_debugger *d;
    const struct task_layout *l;
    FILE *out;
    uint32_t current;
    int want_pid;        // find: the pid looked for
    uint32_t found;      // find: its task_struct
};

static bool ps_line(void *ctx, uint32_t task)
{
    struct ps_ctx *p = ctx;
    uint32_t pid = 0, state = 0, exit_state = 0, mm = 0;
    char comm[17] = "";
    read32(p->d, task + (uint32_t)p->l->pid, &pid);
    read32(p->d, task + (uint32_t)p->l->state, &state);
    read32(p->d, task + (uint32_t)p->l->exit_state, &exit_state);
    read32(p->d, task + (uint32_t)p->l->mm, &mm);
    p->d->t.ops->read_mem(p->d->t.ctx, p->d->thread, task + p->l->comm, comm, 16, 0);
    comm[16] = '\0';
    fprintf(p->out, "%c %5d  %c  0x%08x  %s%s%s\n", task == p->current ? '>' : ' ', (int)pid,
            state_letter(state, exit_state), task, mm ? "" : "[", comm, mm ? "" : "]");
    return false;
}

void hexsim_kernel_ps(struct hexsim_debugger *d, FILE *out)
{
    struct task_layout l;
    if (!linux_dwarf(d, out) || !task_layout(d, out, &l))
        return;
    struct ps_ctx p = { d, &l, out, 0, 0, 0 };
    char comm[32];
    if (d->t.ops->current_task)
        d->t.ops->current_task(d->t.ctx, d->thread, &p.current, comm, sizeof comm);
    fprintf(out, "    PID  S  TASK        COMM\n");
    if (!each_task(d, &l, ps_line, &p))
        fprintf(out, "Error: the task list is unreadable past here\n");
}

static bool find_pid(void *ctx, uint32_t task)
{
    struct ps_ctx *p = ctx;
    uint32_t pid;
    if (read32(p->d, task + (uint32_t)p->l->pid, &pid) == 0 && (int)pid == p->want_pid) {
        p->found = task;
        return true;
    }
    return false;
}

void hexsim_kernel_vtop(struct hexsim_debugger *d, int pid, uint32_t va, FILE *out)
{
    struct task_layout l;
    if (!linux_dwarf(d, out) || !task_layout(d, out, &l))
        return;
    if (!d->t.ops->walk) {
        fprintf(out, "Error: the target has no page tables\n");
        return;
    }
    struct ps_ctx p = { d, &l, out, 0, pid, 0 };
    char comm[32];
    uint32_t mm, pgd, pid32;
    uint64_t phys_offset = 0;
    if (pid >= 0) {
        each_task(d, &l, find_pid, &p);
    } else if (d->t.ops->current_task &&
               d->t.ops->current_task(d->t.ctx, d->thread, &p.found, comm, sizeof comm) == 0 &&
               read32(d, p.found + (uint32_t)l.pid, &pid32) == 0) {
        pid = (int)pid32;
    } else {
        fprintf(out, "Error: the current task is not known\n");
        return;
    }
    if (!p.found) {
        fprintf(out, "No process with pid %d.\n", pid);
        return;
    }
    if (read32(d, p.found + (uint32_t)l.mm, &mm) || !mm) {
        fprintf(out, "Process %d is a kernel thread: it has no user address space.\n", pid);
        return;
    }
    if (read32(d, mm + (uint32_t)l.pgd, &pgd)) {
        fprintf(out, "Error: cannot read process %d's mm at 0x%08x\n", pid, mm);
        return;
    }
    // the L1 table by its physical address: the linear map's __pa (asm/page.h:
    // PAGE_OFFSET 0xc0000000 maps PHYS_OFFSET, the variable __phys_offset)
    kval(d, NULL, &phys_offset, "*(unsigned long *)&__phys_offset");
    uint32_t ptbase = pgd - 0xc0000000u + (uint32_t)phys_offset, pa;
    if (d->t.ops->walk(d->t.ctx, ptbase, va, &pa)) {
        fprintf(out, "0x%08x is not mapped in process %d (page table at physical 0x%08x)\n",
                va, pid, ptbase);
        return;
    }
    fprintf(out, "0x%08x in process %d is physical 0x%08x (page table at physical 0x%08x)\n",
            va, pid, pa, ptbase);
}

// ---- the log buffer: 6.1's lockless printk ringbuffer (kernel/printk/printk_ringbuffer.h):
// prb points to a descriptor ring (2^count_bits descriptors, their printk_info records, the
// head and tail ids) and a text data ring (2^size_bits bytes). A descriptor's state_var
// holds its id in bits 29:0 and its state in 31:30 (1 committed, 2 finalized); its
// text_blk_lpos gives the logical positions [begin, next) of its block, which starts with
// the block's id (one unsigned long) before the text; a block that would wrap past the end
// of the data ring starts at offset 0 instead. The text is info.text_len bytes.

void hexsim_kernel_dmesg(struct hexsim_debugger *d, FILE *out)
{
    uint64_t prb, count_bits, descs, infos, head, tail, size_bits, data, dsize, isize,
             sv_off, begin_off, next_off, ts_off, len_off;
    if (!linux_dwarf(d, out))
        return;
    if (!kval(d, out, &prb, "(unsigned long)prb") ||
        !kval(d, out, &count_bits, "prb->desc_ring.count_bits") ||
        !kval(d, out, &descs, "(unsigned long)prb->desc_ring.descs") ||
        !kval(d, out, &infos, "(unsigned long)prb->desc_ring.infos") ||
        !kval(d, out, &head, "prb->desc_ring.head_id.counter") ||
        !kval(d, out, &tail, "prb->desc_ring.tail_id.counter") ||
        !kval(d, out, &size_bits, "prb->text_data_ring.size_bits") ||
        !kval(d, out, &data, "(unsigned long)prb->text_data_ring.data") ||
        !kval(d, out, &dsize, "sizeof(struct prb_desc)") ||
        !kval(d, out, &isize, "sizeof(struct printk_info)") ||
        !kval(d, out, &sv_off, "(unsigned long)&prb->desc_ring.descs->state_var - %llu",
              (unsigned long long)descs) ||
        !kval(d, out, &begin_off, "(unsigned long)&prb->desc_ring.descs->text_blk_lpos.begin"
              " - %llu", (unsigned long long)descs) ||
        !kval(d, out, &next_off, "(unsigned long)&prb->desc_ring.descs->text_blk_lpos.next"
              " - %llu", (unsigned long long)descs) ||
        !kval(d, out, &ts_off, "(unsigned long)&prb->desc_ring.infos->ts_nsec - %llu",
              (unsigned long long)infos) ||
        !kval(d, out, &len_off, "(unsigned long)&prb->desc_ring.infos->text_len - %llu",
              (unsigned long long)infos))
        return;
    if (count_bits > 24 || size_bits > 28) {
        fprintf(out, "Error: the printk ring buffer at 0x%08llx looks damaged\n",
                (unsigned long long)prb);
        return;
    }
    const uint32_t id_mask = 0x3fffffffu, count = 1u << count_bits, size = 1u << size_bits;
    char *text = malloc(size);
    if (!text)
        return;
    for (uint32_t id = (uint32_t)tail & id_mask, n = 0; n <= count; id = (id + 1) & id_mask, n++) {
        uint32_t idx = id & (count - 1), sv, begin, next, len;
        uint64_t len64;
        uint32_t desc = (uint32_t)(descs + idx * dsize), info = (uint32_t)(infos + idx * isize);
        uint64_t ts;
        if (read32(d, desc + (uint32_t)sv_off, &sv) || read32(d, desc + (uint32_t)begin_off,
            &begin) || read32(d, desc + (uint32_t)next_off, &next) ||
            hexsim_dbg_read_uint(d, info + ts_off, 8, 0, &ts) ||
            hexsim_dbg_read_uint(d, info + len_off, 2, 0, &len64))
            break;
        len = (uint32_t)len64;
        unsigned state = sv >> 30;
        if ((sv & id_mask) == id && (state == 1 || state == 2) && !(begin & 1) && len < size) {
            uint32_t off = (begin >> size_bits) == (next >> size_bits) ? begin & (size - 1) : 0;
            off += 4;   // the block's id
            size_t got = off + len <= size ? d->t.ops->read_mem(d->t.ctx, d->thread,
                                                                  (uint32_t)data + off, text,
                                                                  len, 0) : 0;
            fprintf(out, "[%5llu.%06llu] %.*s\n", (unsigned long long)(ts / 1000000000u),
                    (unsigned long long)(ts % 1000000000u / 1000u), (int)got, text);
        }
        if (id == ((uint32_t)head & id_mask))
            break;
    }
    free(text);
}
