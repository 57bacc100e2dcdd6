// SPDX-License-Identifier: MIT
// --profile (profile.h). Packets are counted by address in an open-addressing hash table;
// call stacks are a tree of (caller node, callee address) nodes, one current node per
// thread. Calls are packets whose taken branch is a call instruction (ISA table attribute
// call); returns are packets that left through a return (attribute return) or jumpr r31.
#include "profile.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/flamegraph.h"
#include "core/speedscope.h"
#include "cpu/decode.h"
#include "cpu/isa.h"
#include "debug/symtab.h"

#define MAX_NODES (1u << 20)   // beyond: packets stay with their current node

struct pc_slot {
    uint32_t pc;
    uint8_t task;               // the guest task of user code (system mode), else 0
    bool used;
    uint64_t pcycles, packets;
    uint64_t hvx_packets, hvx_insns;
};

struct node {
    uint32_t parent, first_child, next_sibling;
    uint32_t func;              // the callee's address (the root: 0)
    uint8_t task;               // its task (user code in system mode), else 0
    bool root;                  // a task's (or the kernel's) root frame, system mode
    uint64_t pcycles;
};

#define MAX_STACK (1u << 20)   // beyond: calls are only counted, so returns still match

// A thread's call stack: the tree node of each active call (stack[0] is the root), so a
// return goes back to exactly the node the call left, however deep the recursion.
struct thread_stack {
    uint32_t *node;
    unsigned depth, cap;
    uint64_t lost;              // calls past MAX_STACK (or out of memory) not yet returned
};

// Stacks: st[2t] is thread t's (user mode: its only one; system mode: its kernel code's),
// st[2t + 1] its guest user code's, whose task is stask[t].
struct hexsim_profile {
    struct pc_slot *slot;
    size_t nslot, used;
    struct node *node;
    uint32_t nnode, cap;
    struct thread_stack st[2 * HEXSIM_PROFILE_THREADS];
    uint32_t root_func[HEXSIM_PROFILE_THREADS];
    bool system;                // hexsim_profile_set_task was called
    unsigned cur_task[HEXSIM_PROFILE_THREADS];
    bool cur_user[HEXSIM_PROFILE_THREADS];
    unsigned stask[HEXSIM_PROFILE_THREADS];
    unsigned ntask;             // task names in use (index 0: unknown)
    char task_name[HEXSIM_PROFILE_TASKS][16];
    uint64_t task_pcycles[HEXSIM_PROFILE_TASKS][2];   // [kernel, user]
    uint64_t task_packets[HEXSIM_PROFILE_TASKS][2];
};

struct hexsim_profile *hexsim_profile_new(void)
{
    struct hexsim_profile *p = calloc(1, sizeof(*p));
    if (!p)
        return NULL;
    p->nslot = 1u << 14;
    p->slot = calloc(p->nslot, sizeof(*p->slot));
    p->cap = 1024;
    p->node = calloc(p->cap, sizeof(*p->node));
    if (!p->slot || !p->node) {
        hexsim_profile_free(p);
        return NULL;
    }
    p->nnode = 1;               // node 0: the root of every thread
    for (unsigned t = 0; t < HEXSIM_PROFILE_THREADS; t++)
        p->root_func[t] = UINT32_MAX;
    return p;
}

void hexsim_profile_free(struct hexsim_profile *p)
{
    if (!p)
        return;
    free(p->slot);
    free(p->node);
    for (unsigned t = 0; t < 2 * HEXSIM_PROFILE_THREADS; t++)
        free(p->st[t].node);
    free(p);
}

static bool is_return(const struct hexsim_insn *in, const struct hexsim_insn_desc *d)
{
    if (d->flags & HX_F_RETURN)
        return true;
    // jumpr r31 (and its predicated forms): a jump through r31
    if ((d->flags & HX_F_JUMP) && !(d->flags & HX_F_CALL))
        for (unsigned k = 0; k < d->nops; k++)
            if (d->ops[k].kind == HX_OPK_R && !d->ops[k].written && in->op[k] == 31)
                return true;
    return false;
}

int hexsim_profile_flow(const struct hexsim_packet *pkt, uint32_t next_pc)
{
    if (next_pc == pkt->addr + 4u * pkt->nwords)
        return HEXSIM_PROFILE_FLOW_NONE;
    int flow = HEXSIM_PROFILE_FLOW_NONE;
    for (unsigned i = 0; i < pkt->ninsns; i++) {
        const struct hexsim_insn_desc *d = &hexsim_isa_table[pkt->insn[i].tag];
        if (d->flags & HX_F_CALL)
            flow = HEXSIM_PROFILE_FLOW_CALL;
        else if (flow == HEXSIM_PROFILE_FLOW_NONE && is_return(&pkt->insn[i], d))
            flow = HEXSIM_PROFILE_FLOW_RETURN;
    }
    return flow;
}

static size_t slot_hash(uint32_t pc, unsigned task)
{
    return (size_t)(pc * 2654435761u) ^ (size_t)task * 40503u;
}

static void grow_slots(struct hexsim_profile *p)
{
    size_t n = p->nslot * 2;
    struct pc_slot *s = calloc(n, sizeof(*s));
    if (!s)
        return;                 // keep the full table: lookups still work, inserts stop
    for (size_t i = 0; i < p->nslot; i++) {
        if (!p->slot[i].used)
            continue;
        size_t h = slot_hash(p->slot[i].pc, p->slot[i].task) & (n - 1);
        while (s[h].used)
            h = (h + 1) & (n - 1);
        s[h] = p->slot[i];
    }
    free(p->slot);
    p->slot = s;
    p->nslot = n;
}

static struct pc_slot *slot_of(struct hexsim_profile *p, uint32_t pc, unsigned task)
{
    if (p->used * 2 >= p->nslot)
        grow_slots(p);
    size_t h = slot_hash(pc, task) & (p->nslot - 1);
    for (size_t n = 0; n < p->nslot; n++, h = (h + 1) & (p->nslot - 1)) {
        if (p->slot[h].used && p->slot[h].pc == pc && p->slot[h].task == task)
            return &p->slot[h];
        if (!p->slot[h].used) {
            if (p->used + 1 >= p->nslot)
                return NULL;
            p->slot[h].used = true;
            p->slot[h].pc = pc;
            p->slot[h].task = (uint8_t)task;
            p->used++;
            return &p->slot[h];
        }
    }
    return NULL;
}

static uint32_t child(struct hexsim_profile *p, uint32_t parent, uint32_t func, unsigned task,
                      bool root)
{
    for (uint32_t c = p->node[parent].first_child; c; c = p->node[c].next_sibling)
        if (p->node[c].func == func && p->node[c].task == task && p->node[c].root == root)
            return c;
    if (p->nnode >= MAX_NODES)
        return parent;
    if (p->nnode == p->cap) {
        struct node *n = realloc(p->node, 2 * (size_t)p->cap * sizeof(*n));
        if (!n)
            return parent;
        p->node = n;
        p->cap *= 2;
    }
    uint32_t c = p->nnode++;
    p->node[c] = (struct node){ parent, 0, p->node[parent].first_child, func, (uint8_t)task,
                                root, 0 };
    p->node[parent].first_child = c;
    return c;
}

// Room for one more frame in ts (its root: the common root node 0). 0, or -1.
static int grow_stack(struct thread_stack *ts)
{
    unsigned cap = ts->cap ? 2 * ts->cap : 256;
    uint32_t *n = realloc(ts->node, cap * sizeof(*n));
    if (!n)
        return -1;
    if (!ts->cap)
        n[0] = 0;
    ts->node = n;
    ts->cap = cap;
    return 0;
}

// Calls deeper than HEXSIM_PROFILE_DEPTH get nodes directly under the call at that depth
// (one per callee), so the tree stays HEXSIM_PROFILE_DEPTH + 1 deep while every function's
// own pcycles stay exact; their returns pop them like any other.
static void push_call(struct hexsim_profile *p, struct thread_stack *ts, uint32_t func,
                      unsigned task)
{
    if (ts->lost || ts->depth + 1 >= MAX_STACK) {
        ts->lost++;
        return;
    }
    if (ts->depth + 1 >= ts->cap && grow_stack(ts)) {
        ts->lost++;
        return;
    }
    uint32_t parent = ts->node[ts->depth < HEXSIM_PROFILE_DEPTH ? ts->depth
                                                                 : HEXSIM_PROFILE_DEPTH];
    ts->node[++ts->depth] = child(p, parent, func, task, false);
}

unsigned hexsim_profile_task(struct hexsim_profile *p, const char *name)
{
    for (unsigned k = 1; k <= p->ntask; k++)
        if (strncmp(p->task_name[k], name, sizeof p->task_name[k] - 1) == 0)
            return k;
    if (p->ntask + 1 >= HEXSIM_PROFILE_TASKS)
        return 0;
    p->ntask++;
    snprintf(p->task_name[p->ntask], sizeof p->task_name[p->ntask], "%s", name);
    return p->ntask;
}

// A task's user code's root frame in system mode (func 1), or the kernel's (func 0).
static uint32_t task_root(struct hexsim_profile *p, unsigned task, bool user)
{
    return child(p, 0, user, task, true);
}

void hexsim_profile_set_task(struct hexsim_profile *p, unsigned t, unsigned task, bool user)
{
    t %= HEXSIM_PROFILE_THREADS;
    task = task < HEXSIM_PROFILE_TASKS ? task : 0;
    if (!p->system) {
        p->system = true;
        for (unsigned k = 0; k < HEXSIM_PROFILE_THREADS; k++) {
            p->stask[k] = UINT32_MAX;
            if (!grow_stack(&p->st[2 * k]))
                p->st[2 * k].node[0] = task_root(p, 0, false);
        }
    }
    p->cur_task[t] = task;
    p->cur_user[t] = user;
    if (user && p->stask[t] != task) {
        // another task's user code: its call stack is not this one (a task switch or an
        // exec happened in the kernel), so its frames start again at the task's root
        struct thread_stack *ts = &p->st[2 * t + 1];
        p->stask[t] = task;
        ts->depth = 0;
        ts->lost = 0;
        if (ts->cap || !grow_stack(ts))
            ts->node[0] = task_root(p, task, true);
    }
}

void hexsim_profile_packet(struct hexsim_profile *p, unsigned t, uint32_t pc, uint64_t pcycles,
                           unsigned hvx_insns, int flow, uint32_t next_pc)
{
    t %= HEXSIM_PROFILE_THREADS;
    bool user = p->cur_user[t];
    unsigned task = p->cur_task[t], ptask = user ? task : 0;
    struct thread_stack *ts = &p->st[2 * t + user];
    struct pc_slot *s = slot_of(p, pc, ptask);
    if (s) {
        s->pcycles += pcycles;
        s->packets++;
        if (hvx_insns) {
            s->hvx_packets++;
            s->hvx_insns += hvx_insns;
        }
    }
    if (p->root_func[t] == UINT32_MAX)
        p->root_func[t] = pc;
    p->task_pcycles[task][user] += pcycles;
    p->task_packets[task][user]++;
    p->node[ts->cap ? ts->node[ts->depth] : 0].pcycles += pcycles;
    if (flow == HEXSIM_PROFILE_FLOW_CALL)
        push_call(p, ts, next_pc, ptask);
    else if (flow == HEXSIM_PROFILE_FLOW_RETURN && ts->lost)
        ts->lost--;
    else if (flow == HEXSIM_PROFILE_FLOW_RETURN && ts->depth > 0)
        ts->depth--;
}

// ---- output

// The symbols to name code by: the kernel's (or the user-mode program's) for task 0, and
// for each task whose name is the base name of one of --profile-symbols' programs, its own.
struct names {
    const struct hexsim_symtab *sym[HEXSIM_PROFILE_TASKS];
    struct hexsim_symtab tab[HEXSIM_PROFILE_MAX_PROGS + 1];
    bool loaded[HEXSIM_PROFILE_MAX_PROGS + 1];
};

// The name Linux gives a task that ran path: its base name cut to TASK_COMM_LEN - 1 (15).
static bool comm_matches(const char *comm, const char *path)
{
    const char *b = strrchr(path, '/');
    b = b ? b + 1 : path;
    return strncmp(comm, b, 15) == 0 && (strlen(b) <= 15 ? comm[strlen(b)] == '\0'
                                                         : strlen(comm) == 15);
}

static void names_load(struct names *nm, const struct hexsim_profile *p, const char *elf,
                       const char *const *progs, unsigned nprogs)
{
    memset(nm, 0, sizeof(*nm));
    if (elf && hexsim_symtab_load(&nm->tab[0], elf) == 0 && nm->tab[0].n > 0)
        nm->sym[0] = &nm->tab[0];
    nm->loaded[0] = true;
    if (nprogs > HEXSIM_PROFILE_MAX_PROGS)
        nprogs = HEXSIM_PROFILE_MAX_PROGS;
    for (unsigned k = 1; k <= p->ntask; k++)
        for (unsigned j = 0; j < nprogs; j++) {
            if (!comm_matches(p->task_name[k], progs[j]))
                continue;
            if (!nm->loaded[j + 1]) {   // once per program (tab stays empty on failure)
                nm->loaded[j + 1] = true;
                if (hexsim_symtab_load(&nm->tab[j + 1], progs[j]))
                    nm->tab[j + 1].n = 0;
            }
            if (nm->tab[j + 1].n > 0)
                nm->sym[k] = &nm->tab[j + 1];
            break;
        }
}

static void names_free(struct names *nm)
{
    for (unsigned j = 0; j <= HEXSIM_PROFILE_MAX_PROGS; j++)
        if (nm->loaded[j])
            hexsim_symtab_free(&nm->tab[j]);
}

struct func_total {
    const char *name;
    uint32_t addr;
    unsigned task;
    uint64_t pcycles, packets;
    uint64_t hvx_packets, hvx_insns;
};

static int by_addr(const void *a, const void *b)
{
    const struct func_total *x = a, *y = b;
    if (x->task != y->task)
        return x->task < y->task ? -1 : 1;
    return x->addr < y->addr ? -1 : x->addr > y->addr;
}

static int by_pcycles(const void *a, const void *b)
{
    const struct func_total *x = a, *y = b;
    if (x->pcycles != y->pcycles)
        return x->pcycles < y->pcycles ? 1 : -1;
    return by_addr(a, b);
}

static void func_name(const struct hexsim_symtab *st, uint32_t addr, char *buf, size_t n)
{
    const struct hexsim_sym *s = st ? hexsim_symtab_lookup(st, addr) : NULL;
    if (s && s->addr == addr)
        snprintf(buf, n, "%s", s->name);
    else if (s)
        snprintf(buf, n, "%s+0x%" PRIx32, s->name, addr - s->addr);
    else
        snprintf(buf, n, "0x%08" PRIx32, addr);
}

// A table row's function: its symbol or address, and in system mode the task of user code.
static void total_name(const struct hexsim_profile *p, const struct func_total *ft, char *buf,
                       size_t n)
{
    char a[24];
    snprintf(a, sizeof a, "0x%08" PRIx32, ft->addr);
    if (ft->task)
        snprintf(buf, n, "%s [%s]", ft->name ? ft->name : a, p->task_name[ft->task]);
    else
        snprintf(buf, n, "%s", ft->name ? ft->name : a);
}

// One folded line per node with pcycles of its own: the names from the root down. In
// system mode each line starts at a task's frame "[name]" (its user code) or "[kernel]"
// (a guest whose tasks are not known: where its first thread began, as in user mode).
static void write_folded(FILE *f, const struct hexsim_profile *p, const struct names *nm,
                         uint32_t root_func)
{
    for (uint32_t i = 0; i < p->nnode; i++) {
        if (!p->node[i].pcycles)
            continue;
        uint32_t chain[HEXSIM_PROFILE_DEPTH + 2];
        unsigned n = 0;
        for (uint32_t k = i; k && n < HEXSIM_PROFILE_DEPTH + 2; k = p->node[k].parent)
            chain[n++] = k;
        char name[160];
        const struct hexsim_sym *rs = nm->sym[0] ? hexsim_symtab_lookup(nm->sym[0], root_func)
                                                 : NULL;
        const char *root_name = rs ? rs->name : "[start]";   // where the thread began
        if (!p->system) {
            fputs(root_name, f);
        } else if (!n) {
            fputs("[start]", f);
        }
        for (bool first = true; n--; first = false) {
            const struct node *d = &p->node[chain[n]];
            if (d->root && !d->func && !p->ntask)   // no tasks known: a bare-metal guest
                snprintf(name, sizeof name, "%s", root_name);
            else if (d->root)
                snprintf(name, sizeof name, "[%s]", !d->func ? "kernel" :
                         d->task ? p->task_name[d->task] : "unknown");
            else
                func_name(nm->sym[d->task], d->func, name, sizeof name);
            fprintf(f, "%s%s", first && p->system ? "" : ";", name);
        }
        fprintf(f, " %" PRIu64 "\n", p->node[i].pcycles);
    }
}

// path.tasks: the pcycles of each guest task, in its user code and in the kernel.
static int write_tasks(const struct hexsim_profile *p, const char *path)
{
    FILE *f = fopen(path, "w");
    if (!f)
        return -1;
    unsigned order[HEXSIM_PROFILE_TASKS], n = 0;
    uint64_t total = 0;
    for (unsigned k = 0; k <= p->ntask; k++) {
        uint64_t c = p->task_pcycles[k][0] + p->task_pcycles[k][1];
        total += c;
        if (!c)
            continue;
        unsigned j = n++;   // insertion sort, most pcycles first
        for (; j && p->task_pcycles[order[j - 1]][0] + p->task_pcycles[order[j - 1]][1] < c;
             j--)
            order[j] = order[j - 1];
        order[j] = k;
    }
    fprintf(f, "# hexsim --profile: pcycles of each guest task (by its name), most first\n"
            "%16s %8s %16s %16s  %s\n", "pcycles", "percent", "user pcycles",
            "kernel pcycles", "task");
    for (unsigned j = 0; j < n; j++) {
        unsigned k = order[j];
        uint64_t c = p->task_pcycles[k][0] + p->task_pcycles[k][1];
        fprintf(f, "%16" PRIu64 " %7.2f%% %16" PRIu64 " %16" PRIu64 "  %s\n", c,
                total ? 100.0 * (double)c / (double)total : 0.0, p->task_pcycles[k][1],
                p->task_pcycles[k][0], k ? p->task_name[k] : "[unknown]");
    }
    return fclose(f);
}

int hexsim_profile_write(const struct hexsim_profile *p, const char *path, const char *elf,
                         const char *const *progs, unsigned nprogs, char *msg, size_t msglen)
{
    struct names *nm = malloc(sizeof(*nm));
    if (!nm) {
        snprintf(msg, msglen, "out of memory");
        return -1;
    }
    names_load(nm, p, elf, progs, nprogs);
    bool have_syms = nm->sym[0] != NULL;
    // sum packets into the symbol containing them (else their own address): sort by that
    // address, then merge neighbours
    struct func_total *ft = calloc(p->used ? p->used : 1, sizeof(*ft));
    size_t nf = 0;
    uint64_t total = 0;
    for (size_t i = 0; ft && i < p->nslot; i++) {
        const struct pc_slot *s = &p->slot[i];
        if (!s->used)
            continue;
        total += s->pcycles;
        const struct hexsim_symtab *sym = nm->sym[s->task];
        const struct hexsim_sym *y = sym ? hexsim_symtab_lookup(sym, s->pc) : NULL;
        ft[nf++] = (struct func_total){ y ? y->name : NULL, y ? y->addr : s->pc, s->task,
                                        s->pcycles, s->packets, s->hvx_packets, s->hvx_insns };
    }
    if (ft)
        qsort(ft, nf, sizeof(*ft), by_addr);
    size_t w = 0;
    for (size_t k = 0; k < nf; k++) {
        if (w && ft[w - 1].addr == ft[k].addr && ft[w - 1].name == ft[k].name &&
            ft[w - 1].task == ft[k].task) {
            ft[w - 1].pcycles += ft[k].pcycles;
            ft[w - 1].packets += ft[k].packets;
            ft[w - 1].hvx_packets += ft[k].hvx_packets;
            ft[w - 1].hvx_insns += ft[k].hvx_insns;
        } else {
            ft[w++] = ft[k];
        }
    }
    nf = w;
    int rc = -1;
    FILE *f = ft ? fopen(path, "w") : NULL;
    if (!f) {
        snprintf(msg, msglen, "cannot write %s: %s", path, ft ? strerror(errno) : "out of memory");
        goto out;
    }
    qsort(ft, nf, sizeof(*ft), by_pcycles);
    fprintf(f, "# hexsim --profile: pcycles spent in each function's own packets, most first\n"
            "# (symbols: %s)\n", have_syms ? elf : "none, addresses");
    fprintf(f, "%16s %8s %14s  %s\n", "pcycles", "percent", "packets", "function");
    for (size_t k = 0; k < nf; k++) {
        char name[200];
        total_name(p, &ft[k], name, sizeof name);
        fprintf(f, "%16" PRIu64 " %7.2f%% %14" PRIu64 "  %s\n", ft[k].pcycles,
                total ? 100.0 * (double)ft[k].pcycles / (double)total : 0.0, ft[k].packets, name);
    }
    bool hvx = false;   // then a table of the HVX work, when there was some
    for (size_t k = 0; k < nf && !hvx; k++)
        hvx = ft[k].hvx_packets != 0;
    if (hvx)
        fprintf(f, "\n# HVX packets and HVX instructions among each function's own packets "
                "(functions with any)\n%16s %18s  %s\n", "hvx packets", "hvx instructions",
                "function");
    for (size_t k = 0; k < nf && hvx; k++) {
        if (!ft[k].hvx_packets)
            continue;
        char name[200];
        total_name(p, &ft[k], name, sizeof name);
        fprintf(f, "%16" PRIu64 " %18" PRIu64 "  %s\n", ft[k].hvx_packets, ft[k].hvx_insns, name);
    }
    if (fclose(f) != 0) {
        snprintf(msg, msglen, "cannot write %s: %s", path, strerror(errno));
        goto out;
    }
    char fpath[4200];
    snprintf(fpath, sizeof fpath, "%s.folded", path);
    f = fopen(fpath, "w");
    if (!f) {
        snprintf(msg, msglen, "cannot write %s: %s", fpath, strerror(errno));
        goto out;
    }
    write_folded(f, p, nm, p->root_func[0] == UINT32_MAX ? 0 : p->root_func[0]);
    if (fclose(f) != 0) {
        snprintf(msg, msglen, "cannot write %s: %s", fpath, strerror(errno));
        goto out;
    }
    if (p->system && p->ntask) {
        char tpath[4200];
        snprintf(tpath, sizeof tpath, "%s.tasks", path);
        if (write_tasks(p, tpath)) {
            snprintf(msg, msglen, "cannot write %s: %s", tpath, strerror(errno));
            goto out;
        }
    }
    char spath[4200], title[4300];
    snprintf(spath, sizeof spath, "%s.svg", path);
    snprintf(title, sizeof title, "hexsim --profile %s", elf ? elf : "");
    if (hexsim_flamegraph_write(fpath, spath, title, msg, msglen))
        goto out;
    char jpath[4200];
    snprintf(jpath, sizeof jpath, "%s.speedscope.json", path);
    if (hexsim_speedscope_write(fpath, jpath, title, msg, msglen))
        goto out;
    rc = 0;
out:
    free(ft);
    names_free(nm);
    free(nm);
    return rc;
}
