// SPDX-License-Identifier: MIT
// The user-mode run loop: fetch and decode the packet at PC (through a small decoded-packet
// cache that is dropped whenever guest code memory changes), execute it, and turn events into
// Linux behaviour: trap0(#1) is a system call; faults end the process as the matching signal
// would (SIGSEGV for unmapped or protected memory, SIGBUS for a misaligned access, SIGILL for
// an invalid, privileged or not yet implemented instruction), with a report on stderr.
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cpu/block.h"
#include "cpu/check.h"
#include "cpu/exec.h"
#include "cpu/exec_step.h"
#include "core/perf_map.h"
#include "core/profile.h"
#include "core/stats.h"
#include "cpu/isa.h"
#include "hexsim/disasm.h"
#include "proc.h"
#include "sys.h"
#include "user.h"

#define PCACHE_SIZE 4096

struct pcache_entry {
    uint32_t key;             // the packet's address + 1 (never 0: addresses are 4-aligned);
    struct hexsim_packet pkt; // 0: empty
};

struct hexsim_user_pcache {
    uint64_t gen;
    struct hx_block_table *blocks;   // runs of packets (cpu/block.h), kept with e[]
    struct pcache_entry e[PCACHE_SIZE];
};

int hexsim_user_load(struct hexsim_user *u, const char *path, int argc, char **argv,
                     char **envp, char *err, size_t errlen)
{
    hexsim_mem_init(&u->mem);
    memset(&u->cpu, 0, sizeof(u->cpu));
    snprintf(u->path, sizeof(u->path), "%s", path);
    for (unsigned i = 0; i < 64; i++)
        u->guest_fd_map[i] = i < 3 ? (int)i : -1;
    if (!u->err)
        u->err = stderr;
    int rc = hexsim_user_load_elf(u, path, err, errlen);
    if (rc)
        return rc;
    if (hexsim_user_setup_stack(u, argc, argv, envp, err, errlen))
        return -1;
    u->cpu.pc = u->interp_entry ? u->interp_entry : u->entry;
    u->mmap_next = HEXSIM_USER_MMAP_BASE;
    return 0;
}

void hexsim_user_free(struct hexsim_user *u)
{
    hx_proc_free(u);
    hexsim_user_os_free(u);
    hexsim_mem_free(&u->mem);
    if (u->caches_made) {
        hexsim_caches_free(&u->caches);
        hexsim_cache_free(&u->l2);
        u->caches_made = false;
    }
}

// Empties the decoded-packet cache if a page holding cached code was written since it was
// filled (mem.h: code_gen).
static inline void pcache_sync(struct hexsim_user *u, struct hexsim_user_pcache *pc)
{
    if (__builtin_expect(pc->gen != u->mem.code_gen, 0)) {
        for (unsigned i = 0; i < PCACHE_SIZE; i++)
            pc->e[i].key = 0;
        hx_block_flush(pc->blocks);
        pc->gen = u->mem.code_gen;
    }
}

static const struct hexsim_packet *fetch_decode(struct hexsim_user *u,
                                                struct hexsim_user_pcache *pc,
                                                uint32_t addr, struct hexsim_packet *tmp,
                                                int *fetch_fault)
{
    pcache_sync(u, pc);
    struct pcache_entry *e = &pc->e[(addr >> 2) & (PCACHE_SIZE - 1)];
    if (e->key == addr + 1)
        return &e->pkt;
    uint32_t words[HX_PACKET_MAX_WORDS];
    int f;
    size_t n = hexsim_mem_fetch(&u->mem, addr, words, HX_PACKET_MAX_WORDS, &f);
    *fetch_fault = n == 0 ? f : 0;
    if (n == 0)
        return NULL;
    hexsim_decode_packet(words, n, addr, u->arch, tmp);
    if (tmp->status != HX_DECODE_OK)
        return tmp;
    e->key = addr + 1;
    e->pkt = *tmp;
    return &e->pkt;
}

static void describe_packet(struct hexsim_user *u, uint32_t addr)
{
    uint32_t words[HX_PACKET_MAX_WORDS];
    int f;
    size_t n = hexsim_mem_fetch(&u->mem, addr, words, HX_PACKET_MAX_WORDS, &f);
    if (!n)
        return;
    struct hexsim_disasm_packet d;
    hexsim_disasm_packet_arch(words, n, addr, u->arch, &d);
    fprintf(u->err, "hexsim:   packet at 0x%08x:", addr);
    for (unsigned i = 0; i < d.nwords && i < n; i++)
        fprintf(u->err, " %08x", words[i]);
    fprintf(u->err, "\nhexsim:   {");
    for (unsigned i = 0; i < d.nwords && i < n; i++)
        if (d.text[i][0])
            fprintf(u->err, " %s;", d.text[i]);
    fprintf(u->err, " }%s\n", d.valid ? d.endloop : " (invalid)");
}

static int fault_exit(struct hexsim_user *u, const struct hexsim_event_info *ev)
{
    int sig = SIGILL;
    const char *tag = ev->tag >= 0 ? hexsim_isa_table[ev->tag].tag : NULL;
    switch (ev->kind) {
    case HX_EV_FAULT_READ:
    case HX_EV_FAULT_WRITE:
    case HX_EV_FAULT_FETCH:
        sig = ev->detail == HEXSIM_MEM_MISALIGNED || ev->detail == HEXSIM_MEM_PAGE_CROSS
              ? SIGBUS : SIGSEGV;
        fprintf(u->err, "hexsim: %s fault at PC 0x%08x: address 0x%08x: %s%s%s (signal %s)\n",
                ev->kind == HX_EV_FAULT_READ ? "load" : ev->kind == HX_EV_FAULT_WRITE ? "store"
                : "instruction fetch", u->cpu.pc, ev->addr, hexsim_mem_fault_str(ev->detail),
                tag ? " in " : "", tag ? tag : "", sig == SIGBUS ? "SIGBUS" : "SIGSEGV");
        break;
    case HX_EV_INVALID:
        fprintf(u->err, "hexsim: invalid packet at PC 0x%08x: %s%s%s (signal SIGILL)\n",
                u->cpu.pc, hexsim_decode_status_str(ev->detail), ev->imm ? ": " : "",
                ev->imm ? hexsim_packet_rule_str((int)ev->imm) : "");
        break;
    case HX_EV_PRIVILEGED:
        fprintf(u->err, "hexsim: privileged instruction %s in user mode at PC 0x%08x (signal "
                "SIGILL)\n", tag, u->cpu.pc);
        break;
    case HX_EV_UNIMPLEMENTED:
        fprintf(u->err, "hexsim: unimplemented instruction %s at PC 0x%08x (signal SIGILL)\n",
                tag, u->cpu.pc);
        break;
    default:
        break;
    }
    if (ev->kind != HX_EV_FAULT_FETCH)
        describe_packet(u, u->cpu.pc);
    return 128 + sig;
}

// One packet of the run loop: fetch and decode at PC, execute, and handle a system call.
// Returns HEXSIM_USER_STEP_OK (go on), _EXIT (the program exited) or _FAULT (*ev says why;
// the packet committed nothing unless it was a trap). Inlined into the run loop below, and
// exported for debuggers as hexsim_user_step, so the loop pays nothing for them.
static inline int step_packet(struct hexsim_user *u, struct hexsim_user_exec *x,
                              struct hexsim_event_info *ev, const struct hexsim_packet **pkt_out)
{
    int ff = 0;
    const struct hexsim_packet *pkt = fetch_decode(u, x->pcache, u->cpu.pc, &x->tmp, &ff);
    *pkt_out = pkt;
    if (!pkt) {
        memset(ev, 0, sizeof(*ev));
        ev->kind = HX_EV_FAULT_FETCH;
        ev->addr = u->cpu.pc;
        ev->detail = ff;
        ev->tag = -1;
        return HEXSIM_USER_STEP_FAULT;
    }
    int k = hexsim_exec_packet(&x->env, pkt, ev);
    if (k == HX_EV_TRAP0 && ev->imm == 1) {
        hexsim_user_syscall(u);
        return u->exited ? HEXSIM_USER_STEP_EXIT : HEXSIM_USER_STEP_OK;
    }
    if (k != HX_EV_NONE) {
        ev->addr = k == HX_EV_TRAP0 || k == HX_EV_TRAP1 ? pkt->addr : ev->addr;
        return HEXSIM_USER_STEP_FAULT;
    }
    return HEXSIM_USER_STEP_OK;
}

int hexsim_user_step(struct hexsim_user *u, struct hexsim_user_exec *x,
                     struct hexsim_event_info *ev, const struct hexsim_packet **pkt)
{
    int r = step_packet(u, x, ev, pkt);
    if (x->image != u->image) {   // execve: the new program's decoder and blocks
        *pkt = NULL;
        hexsim_user_exec_free(x);
        if (hexsim_user_exec_init(u, x)) {
            fprintf(u->err, "hexsim: out of memory\n");
            u->exited = true;
            u->exit_status = 1;
            return HEXSIM_USER_STEP_EXIT;
        }
    }
    if (r == HEXSIM_USER_STEP_OK && u->cpu.packets >= hexsim_user_os_stop(u)) {
        hexsim_user_os_tick(u);   // the next thread's turn, timers
        if (u->exited)
            return HEXSIM_USER_STEP_EXIT;
    }
    return r;
}

int hexsim_user_make_caches(struct hexsim_user *u)
{
    if (u->opts.timing != HEXSIM_TIMING_CACHE || u->caches_made)
        return 0;
    const struct hexsim_timing_params *p = u->opts.timing_params ? u->opts.timing_params
                                           : &hexsim_timing_default_params;
    if (hexsim_cache_init(&u->l2, p->l2_size, p->l2_ways, p->line) ||
        hexsim_caches_init(&u->caches, &u->l2, p)) {
        hexsim_caches_free(&u->caches);
        hexsim_cache_free(&u->l2);
        return -1;
    }
    u->caches_made = true;
    return 0;
}

int hexsim_user_exec_init(struct hexsim_user *u, struct hexsim_user_exec *x)
{
    memset(x, 0, sizeof(*x));
    x->pcache = calloc(1, sizeof(*x->pcache));
    if (x->pcache)
        x->pcache->blocks = hx_block_table_new(
            u->opts.no_jit ? HX_BLOCKS_INTERPRET
                           : u->opts.no_stencils ? HX_BLOCKS_COMPILE_CALLS : HX_BLOCKS_COMPILE,
            u->opts.code_cache);
    if (!x->pcache || !x->pcache->blocks || hexsim_user_make_caches(u)) {
        hexsim_user_exec_free(x);
        return -1;
    }
    if (u->opts.jit_threshold)
        x->pcache->blocks->hot = u->opts.jit_threshold;
    if (u->opts.perf_map && x->pcache->blocks->jit) {   // named from this image's program
        x->perf_map = hexsim_perf_map_new(u->path, NULL);
        if (!x->perf_map) {
            hexsim_user_exec_free(x);
            return -1;
        }
        x->pcache->blocks->on_compiled = hexsim_perf_map_block;
        x->pcache->blocks->on_compiled_ctx = x->perf_map;
    }
    x->pcache->gen = u->mem.code_gen;   // empty, so in step (a flush would touch every page)
    x->image = u->image;
    x->env.cpu = &u->cpu;
    x->env.mem = &u->mem;
    x->env.arch = u->arch;
    x->env.user_mode = 1;
    x->env.timing = u->opts.timing_params ? u->opts.timing_params
                                          : &hexsim_timing_default_params;
    x->env.caches = u->caches_made ? &u->caches : NULL;
    return 0;
}

void hexsim_user_exec_free(struct hexsim_user_exec *x)
{
    if (x->pcache)
        hx_block_table_free(x->pcache->blocks);
    free(x->pcache);
    x->pcache = NULL;
    hexsim_perf_map_free(x->perf_map);
    x->perf_map = NULL;
    x->env.caches = NULL;
}

int hexsim_user_fault(struct hexsim_user *u, const struct hexsim_event_info *ev)
{
    int status = hexsim_user_fault_line(u, ev);
    hexsim_user_fault_context(u, ev);
    return status;
}

int hexsim_user_fault_line(struct hexsim_user *u, const struct hexsim_event_info *ev)
{
    if (ev->kind == HX_EV_TRAP0) {
        fprintf(u->err, "hexsim: trap0(#%u) at PC 0x%08x is not a Linux system call "
                "(signal SIGTRAP)\n", ev->imm, ev->addr);
        return 128 + SIGTRAP;
    }
    if (ev->kind == HX_EV_TRAP1) {
        fprintf(u->err, "hexsim: trap1(#%u) at PC 0x%08x in user mode (signal SIGILL)\n",
                ev->imm, ev->addr);
        return 128 + SIGILL;
    }
    return fault_exit(u, ev);
}

static double seconds_since(const struct timespec *t0)
{
    struct timespec t1;
    clock_gettime(CLOCK_MONOTONIC, &t1);
    return (double)(t1.tv_sec - t0->tv_sec) + (t1.tv_nsec - t0->tv_nsec) * 1e-9;
}

// --stats and --stats-json: what the run did, on stderr at exit and as JSON.
static void report_stats(struct hexsim_user *u, const struct hx_block_table *bt, double secs)
{
    struct hexsim_stats s = { 0 };
    hexsim_stats_add_timing(&s, u->cpu.packets, u->cpu.pcycles, &u->cpu.tm.st,
                            u->opts.timing == HEXSIM_TIMING_CACHE);
    hexsim_stats_add(&s, "system_calls", "system calls", u->syscalls);
    uint64_t threads, switches, handled;
    hexsim_user_os_stats(u, &threads, &switches, &handled);
    hexsim_stats_add(&s, "threads", "threads", threads);
    hexsim_stats_add(&s, "thread_switches", "thread switches", switches);
    hexsim_stats_add(&s, "signals_handled", "signals handled", handled);
    hexsim_stats_add_host(&s, u->cpu.packets, secs);
    // how the host ran it (they depend on --no-jit and the code cache, not on the program)
    hexsim_stats_add(&s, "host_blocks_built", "blocks built (host)", bt->built);
    hexsim_stats_add(&s, "host_blocks_compiled", "blocks compiled (host)", bt->compiled);
    hexsim_stats_add(&s, "host_code_cache_flushes", "code cache flushes (host)", bt->flushes);
    if (u->opts.stats && u->proc && u->proc->forked)
        fprintf(u->err, "hexsim: process %d (%s):\n", hx_getpid(u), u->path);
    if (u->opts.stats)
        hexsim_stats_print(u->err, &s);
    char msg[600];
    if (u->opts.stats_json && hexsim_stats_write_json(u->opts.stats_json, &s, msg, sizeof msg))
        fprintf(u->err, "hexsim: --stats-json: %s\n", msg);
}

enum span_end { SPAN_LIMIT, SPAN_EXIT, SPAN_FAULT };

// Makes the block of packets starting with pkt (at addr): it and the packets after it while
// they may be in a block and the block has room (a packet that cannot be fetched or decoded
// ends it too; running it will report that).
static __attribute__((noinline)) void build_block(struct hexsim_user *u, struct hexsim_user_exec *x,
                                                  uint32_t addr, const struct hexsim_packet *pkt)
{
    struct hexsim_user_pcache *pc = x->pcache;
    struct hx_block *b = hx_block_start(pc->blocks, addr);
    while (pkt && hx_block_append(b, pkt) && hx_block_open(b)) {
        int ff = 0;
        pkt = fetch_decode(u, pc, hx_block_next(b), &x->tmp, &ff);
    }
    hx_block_seal(pc->blocks, b);
}

// An event k raised by the packet at addr (the packet committed if it was a trap): a system
// call is made; a fault goes to the program's handler or ends the process. Returns -1 (go
// on), SPAN_LIMIT (go on after the run loop has looked at the threads and timers) or
// SPAN_EXIT/SPAN_FAULT.
static int span_event(struct hexsim_user *u, struct hexsim_event_info *ev, int k, uint32_t addr,
                      int *status)
{
    if (k == HX_EV_TRAP0 && ev->imm == 1) {
        hexsim_user_syscall(u);
        if (u->exited)
            return SPAN_EXIT;
        if (u->os_resched) {   // (also after an execve: the run loop remakes its state)
            u->os_resched = false;
            return SPAN_LIMIT;
        }
        return -1;
    }
    if (k == HX_EV_TRAP0 || k == HX_EV_TRAP1)
        ev->addr = addr;
    if (hexsim_user_fault_signal(u, ev))
        return SPAN_LIMIT;   // (the frame went to memory: the packet cache is checked)
    if (u->exited)
        return SPAN_EXIT;
    struct hx_siginfo info;
    int sig = u->opts.strace ? hx_fault_siginfo(ev, &info) : 0;
    if (sig)
        hx_strace_signal(u, sig, &info);
    *status = hexsim_user_fault(u, ev);
    u->term_sig = *status > 128 ? *status - 128 : 0;
    if (u->opts.strace && *status > 128)
        hx_strace_killed(u, *status - 128);
    return SPAN_FAULT;
}

// Runs packets until cpu.packets reaches stop, the program exits (SPAN_EXIT) or an event
// ends it (SPAN_FAULT, *status set). Inline twice: with and without --profile, so that the
// common loop tests nothing for it.
static inline __attribute__((always_inline)) int
run_span(struct hexsim_user *u, struct hexsim_user_exec *x, struct hx_exec *hx,
         struct hexsim_event_info *ev, uint64_t stop, struct hexsim_profile *prof, int *status)
{
    struct hexsim_user_pcache *pc = x->pcache;
    struct hexsim_cpu *c = &u->cpu;
    // blocks (cpu/block.h) unless each packet is to be seen on its own
    const bool blocks = !prof && !hx->special;
    // the cache is kept in step with code_gen here and after every packet that may have
    // written memory (a store or a system call: not an `alu` packet), so a hit needs no test
    pcache_sync(u, pc);
    hx->stop = stop;
    while (c->packets < stop) {
        uint32_t addr = c->pc;
        struct hx_block *b = NULL;
        if (blocks) {
            b = hx_block_find(pc->blocks, addr);
            if (b && c->packets + b->npk <= stop) {
                if (!b->jit && hx_block_hot(pc->blocks, b)) {
                    hx_block_compile(pc->blocks, b);   // (which may drop every block)
                    continue;
                }
                int k = hx_run_block(hx, b);   // compiled ones may go on into others
                if (k == HX_EV_NONE && pc->blocks->exit_from)
                    hx_block_link(pc->blocks, c->pc);
                if (__builtin_expect(k != HX_EV_NONE, 0)) {
                    int end = span_event(u, ev, k, hx->pc, status);
                    if (end >= 0)
                        return end;
                }
                pcache_sync(u, pc);   // after its stores and a system call
                continue;
            }
        }
        // the decoded-packet cache lookup, inline (fetch_decode does the misses)
        const struct hexsim_packet *pkt;
        struct pcache_entry *e = &pc->e[(addr >> 2) & (PCACHE_SIZE - 1)];
        if (__builtin_expect(e->key == addr + 1, 1)) {
            pkt = &e->pkt;
        } else {
            int ff = 0;
            pkt = fetch_decode(u, pc, addr, &x->tmp, &ff);
            if (!pkt) {
                *ev = (struct hexsim_event_info){ .kind = HX_EV_FAULT_FETCH, .addr = addr,
                                                  .detail = ff, .tag = -1 };
                int end = span_event(u, ev, HX_EV_FAULT_FETCH, addr, status);
                return end >= 0 ? end : SPAN_LIMIT;
            }
        }
        if (blocks && !b && hx_block_can_hold(pkt)) {
            build_block(u, x, addr, pkt);   // and run it on the next turn
            continue;
        }
        uint64_t c0 = prof ? c->pcycles : 0;
        int k = hx_exec_step(hx, pkt);
        if (prof && (k == HX_EV_NONE || k == HX_EV_TRAP0))
            hexsim_profile_packet(prof, 0, pkt->addr, c->pcycles - c0, pkt->tm.hvx_insns,
                                  hexsim_profile_flow(pkt, c->pc), c->pc);
        if (__builtin_expect(k != HX_EV_NONE, 0)) {
            int end = span_event(u, ev, k, pkt->addr, status);
            if (end >= 0)
                return end;
        }
        if (!pkt->alu)
            pcache_sync(u, pc);
    }
    return SPAN_LIMIT;
}

// --max-seconds looks at the clock every this many packets
#define CLOCK_CHECK_PACKETS (1ull << 20)

int hexsim_user_run(struct hexsim_user *u)
{
    struct hexsim_user_exec x;
    if (hexsim_user_exec_init(u, &x)) {
        fprintf(u->err, "hexsim: out of memory\n");
        return 1;
    }
    int status = hexsim_user_run_with(u, &x);
    hexsim_user_exec_free(&x);
    return status;
}

int hexsim_user_run_with(struct hexsim_user *u, struct hexsim_user_exec *xp)
{
    struct hexsim_user_exec *const x = xp;
    struct hexsim_event_info ev;
    struct timespec t0;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    int status = 0;
    const uint64_t n0 = u->cpu.packets;   // a restored run goes on counting
    const uint64_t max_packets = u->opts.max_packets;
    // --snapshot-at: the run pauses there
    const uint64_t pause_at = u->pause_at > n0 ? u->pause_at : 0;
    const uint64_t limit = pause_at && (!max_packets || pause_at < max_packets) ? pause_at
                                                                                : max_packets;
    struct hexsim_profile *prof = u->opts.profile ? hexsim_profile_new() : NULL;
    struct hx_exec hx;   // the executor's state for the whole run (exec_step.h)
    hx_exec_begin(&hx, &x->env, &ev);
    hx_block_set_timing(x->pcache->blocks, hx.tp);   // compiled blocks fold them in
    while (!u->exited) {
        uint64_t stop = limit ? limit : UINT64_MAX;
        if (u->opts.max_seconds > 0) {
            uint64_t tick = (u->cpu.packets | (CLOCK_CHECK_PACKETS - 1)) + 1;
            stop = tick < stop ? tick : stop;
        }
        // threads and timers: the scheduler looks at the process every quantum
        const uint64_t os_stop = hexsim_user_os_stop(u);
        stop = os_stop < stop ? os_stop : stop;
        int end = prof ? run_span(u, x, &hx, &ev, stop, prof, &status)
                       : run_span(u, x, &hx, &ev, stop, NULL, &status);
        if (end != SPAN_LIMIT)
            break;
        if (x->image != u->image) {
            // execve: decoded packets, blocks and the core version are the new program's;
            // --profile starts afresh (it profiles the program the process ends with)
            hexsim_user_exec_free(x);
            if (hexsim_user_exec_init(u, x)) {
                fprintf(u->err, "hexsim: out of memory\n");
                hexsim_profile_free(prof);
                return 1;
            }
            hx_exec_begin(&hx, &x->env, &ev);
            hx_block_set_timing(x->pcache->blocks, hx.tp);
            if (prof) {
                hexsim_profile_free(prof);
                prof = hexsim_profile_new();
            }
            continue;
        }
        uint64_t n = u->cpu.packets;
        // (the turn's end as it is now: a thread switch in a system call moved it later,
        // and a span may end anywhere: --snapshot-at, --max-packets, a system call)
        if (n >= hexsim_user_os_stop(u)) {
            hexsim_user_os_tick(u);
            if (u->exited)
                break;
        }
        if (limit && n >= limit) {
            if (n == pause_at) {
                status = HEXSIM_USER_PAUSED;
                break;
            }
            fprintf(u->err, "hexsim: stopped after %llu packets (--max-packets) at PC 0x%08x\n",
                    (unsigned long long)n, u->cpu.pc);
            status = 124;
            break;
        }
        if (u->opts.max_seconds > 0 && (n & (CLOCK_CHECK_PACKETS - 1)) == 0) {
            double el = seconds_since(&t0);
            if (el >= u->opts.max_seconds) {
                fprintf(u->err, "hexsim: stopped after %.1f s (--max-seconds) at PC 0x%08x\n",
                        el, u->cpu.pc);
                status = 124;
                break;
            }
        }
    }
    if (status == HEXSIM_USER_PAUSED) {
        hexsim_profile_free(prof);
        return status;
    }
    if (u->opts.stats || u->opts.stats_json)
        report_stats(u, x->pcache->blocks, seconds_since(&t0));
    if (prof) {
        char msg[600];
        if (hexsim_profile_write(prof, u->opts.profile, u->path, NULL, 0, msg, sizeof msg))
            fprintf(u->err, "hexsim: --profile: %s\n", msg);
        hexsim_profile_free(prof);
    }
    return u->exited ? u->exit_status : status;
}
