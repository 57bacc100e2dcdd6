// SPDX-License-Identifier: MIT
// The system-mode run loop. vCPUs run round-robin in time slices of packets (deterministic:
// no host threads, no host time), straight runs of them as blocks where they may
// (run_jit.c: the same results as packet by packet); every running vCPU's slice covers the
// same window of guest time, side by side (each vCPU is a core of its own unless the timing
// model's core_threads makes several take turns on one), and the machine clock moves to the
// window's end; a slice ends early when a vCPU waits, yields or stops, or when interrupt or
// device state changed (the vCPU then goes on in its window: run_window). Between slices
// the loop advances the devices
// whose time has come, wakes waiting vCPUs that have an interrupt pending, and delivers
// interrupts to vCPUs that have them enabled. When every live vCPU waits (vmwait), the
// clock moves to the next device event instead of spinning: at once with the virtual
// clock (the default for scripts and pipes: the run depends only on its input), or, with
// the wall clock (--clock wall, interactive), when the host's clock gets there: from the
// first idle round on, pcycles follow host time at HEXSIM_PCYCLE_HZ, and a guest that fell
// behind (it computed slower than real time, or the debugger held it) starts over from
// where it is. The idle hook waits for host input meanwhile; when some may have come, the
// ports' receivers, quiet while they found nothing (so that an idle guest is not woken
// every character time), are woken; a running vCPU wakes them too. Either way the clock
// only ever stops at device events, so a run recorded with --record under the wall clock
// replays under the virtual one. Executor events become HVM
// events: trap0 (angel calls in guest mode), trap1 calls, faults and illegal or privileged
// instructions as general exceptions with their cause and BADVA, an invalid page table as a
// machine check (HVM spec 7.5). An event before vmsetvec terminates its vCPU (spec 5.2);
// when no vCPU is left the run ends, with status 3 if one was lost that way.
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/profile.h"
#include "cpu/decode.h"
#include "cpu/isa.h"
#include "hexsim/machine.h"
#include "prof_task.h"
#include "run_jit.h"

#define PCACHE_SIZE 8192
#define SLICE 10000u
// A machine of one vCPU runs longer rounds: what happens between two rounds (devices
// advanced at their events, interrupts delivered, input ports woken) has nothing to do
// between two of its slices unless an event came due or it changed interrupt or device
// state (m->attention), and both end a round at once; so a round boundary without either
// changes nothing, and fewer of them save the packets run one by one at each slice's end
// (run_jit.c: a block runs only if it surely ends before `until`). With several vCPUs
// (even while the others are off) the rounds stay SLICE long.
#define LONE_SLICE (1u << 20)
// A running vCPU of a one-vCPU machine wakes the serial ports' receivers (quiet: their last sample found no
// host input) for a sample at the next multiple of this many pcycles (437 us): a guest
// computing is not interrupted every character time to look for input that a script gives
// only when it waits, and typed input still comes within a fraction of a millisecond. With
// several vCPUs the samples' events end their rounds, whose lengths decide how the vCPUs
// interleave: a recorded run (--record: quiet between samples) would not replay (--replay:
// a sample every character time), so they are woken for now, each round, as ever.
#define RUN_INPUT_GRID (1u << 18)
#define IDLE_WAIT_NS 50000000ull     // an idle wait for input returns at least this often
#define WALL_SLACK_NS 50000000ull    // behind the wall clock by more: start over from now
_Static_assert(HEXSIM_PCYCLE_HZ == 600000000ull, "pcycles <-> ns below assume 600 MHz");

struct pcache_entry {
    const uint8_t *host;      // host address of the packet's first word, NULL invalid
    uint32_t wgen;            // its page's wgen then (mem.h: a store since makes it stale)
    struct hexsim_packet pkt; // decoded at pkt.addr (virtual)
};

struct hexsim_pcache {
    struct pcache_entry e[PCACHE_SIZE];
};

static int xlat_fetch(struct hexsim_vcpu *v, uint32_t va, struct hexsim_page **pg)
{
    const struct hexsim_tlb_entry *e = &v->xlat.tlb->e[(va >> 12) & (HEXSIM_TLB_SIZE - 1)];
    if (e->vpage == va >> 12 && (e->prot & HEXSIM_PROT_X)) {
        *pg = e->page;
        return 0;
    }
    struct hexsim_xlat_result r;
    int f = v->xlat.translate(v->xlat.ctx, va, HEXSIM_PROT_X, &r);
    if (!f && !r.page)
        f = HEXSIM_MEM_UNMAPPED;   // no execution from MMIO
    *pg = r.page;
    return f;
}

// Fetches and decodes the packet at PC. Returns NULL with *fault and *faddr on a fetch fault.
static const struct hexsim_packet *fetch(struct hexsim_vcpu *v, struct hexsim_packet *tmp,
                                         int *fault, uint32_t *faddr)
{
    struct hexsim_machine *m = v->m;
    struct hexsim_pcache *pc = m->pcache;
    uint32_t addr = v->cpu.pc;
    *faddr = addr;
    if (addr & 3) {
        *fault = HEXSIM_MEM_MISALIGNED;
        return NULL;
    }
    struct hexsim_page *pg;
    *fault = xlat_fetch(v, addr, &pg);
    if (*fault)
        return NULL;
    uint32_t off = addr & (HEXSIM_PAGE_SIZE - 1);
    const uint8_t *host = pg->data + off;
    struct pcache_entry *e = &pc->e[(addr >> 2) & (PCACHE_SIZE - 1)];
    if (e->host == host && e->pkt.addr == addr && e->wgen == pg->wgen)
        return &e->pkt;
    struct hexsim_page *first = pg;
    uint32_t words[HX_PACKET_MAX_WORDS];
    size_t n = 0;
    int next_fault = 0;
    for (; n < HX_PACKET_MAX_WORDS; n++) {
        uint32_t a = addr + 4 * (uint32_t)n;
        if ((a & (HEXSIM_PAGE_SIZE - 1)) == 0 && n > 0) {
            next_fault = xlat_fetch(v, a, &pg);
            if (next_fault)
                break;
        }
        words[n] = (uint32_t)hexsim_page_load(pg, a & (HEXSIM_PAGE_SIZE - 1), 4);
    }
    hexsim_code_page(m, first);   // a store into the page makes the decode stale (wgen)
    hexsim_decode_packet(words, n, addr, m->arch, tmp);
    if (tmp->status == HX_DECODE_TRUNCATED && next_fault) {
        *fault = next_fault;
        *faddr = addr + 4 * (uint32_t)n;
        return NULL;
    }
    // Invalid, or its words reach into the next page: not cached (the key is the first
    // page, so neither a store into the second nor a change of its mapping would be seen).
    if (tmp->status != HX_DECODE_OK || off + 4u * tmp->nwords > HEXSIM_PAGE_SIZE)
        return tmp;
    e->host = host;
    e->wgen = first->wgen;
    e->pkt = *tmp;
    return &e->pkt;
}

static unsigned fault_cause(int kind, int detail)
{
    if (detail == HEXSIM_HVM_BAD_TABLE)
        return HEXSIM_HVM_BAD_TABLE;
    if (detail == HEXSIM_MEM_PAGE_CROSS)   // (hvx_mem.c: taken as a misaligned access)
        detail = HEXSIM_MEM_MISALIGNED;
    switch (kind) {
    case HX_EV_FAULT_READ:
        return detail == HEXSIM_MEM_MISALIGNED ? HVM_GE_RMAL
             : detail == HEXSIM_MEM_PRIV ? HVM_GE_RUSER : HVM_GE_RPROT;
    case HX_EV_FAULT_WRITE:
        return detail == HEXSIM_MEM_MISALIGNED ? HVM_GE_WMAL
             : detail == HEXSIM_MEM_PRIV ? HVM_GE_WUSER : HVM_GE_WPROT;
    default:
        return detail == HEXSIM_MEM_MISALIGNED ? HVM_GE_XMAL
             : detail == HEXSIM_MEM_PRIV ? HVM_GE_XUSER : HVM_GE_XPROT;
    }
}

// A general exception, or the machine check of an invalid page table (HVM spec 7.5)
static void genex(struct hexsim_vcpu *v, uint32_t cause, uint32_t badva)
{
    if (cause == HEXSIM_HVM_BAD_TABLE)
        hexsim_hvm_event(v, HVM_EV_MACHCHECK, HVM_MC_BAD_PT, v->cpu.pc, badva);
    else
        hexsim_hvm_event(v, HVM_EV_GENEX, cause, v->cpu.pc, badva);
}

static void report_unimplemented(struct hexsim_vcpu *v, const struct hexsim_packet *pkt, int tag)
{
    struct hexsim_machine *m = v->m;
    fprintf(m->err, "hexsim: cpu%u: unimplemented instruction %s at PC 0x%08x (packet", v->id,
            tag >= 0 ? hexsim_isa_table[tag].tag : "?", pkt->addr);
    for (unsigned i = 0; i < pkt->nwords; i++)
        fprintf(m->err, " %08x", pkt->words[i]);
    fprintf(m->err, "): hexsim cannot continue\n");
    hexsim_machine_halt(m, HEXSIM_SYS_EXIT_ERROR);
}

// Runs v until its clock reaches `until` or it ran `budget` packets (the packet limits).
static void run_slice(struct hexsim_vcpu *v, uint64_t budget, uint64_t until)
{
    struct hexsim_machine *m = v->m;
    struct hexsim_packet tmp;
    struct hexsim_event_info ev;
    v->yield = false;
    bool alone = false;   // the next packet runs on its own (run_jit.h)
    for (uint64_t i = 0; i < budget && v->cpu.pcycles < until && !m->halted; i++) {
        const struct hexsim_machine_hook *hook = m->hook;
        if (m->sysblocks && !alone && !hook && !m->profile) {
            uint64_t n = hexsim_sysjit_run(v, budget - i, until, &alone);
            if (n) {   // nothing in a block ends a slice (run_jit.c)
                m->packets += n;
                i += n - 1;
                continue;
            }
        }
        alone = false;
        uint32_t pc0 = v->cpu.pc;
        if (__builtin_expect(hook != NULL, 0)) {
            int h = hook->before(hook->ctx, v);
            if (h != HEXSIM_DBG_HOOK_RUN) {
                m->hook_stop |= h == HEXSIM_DBG_HOOK_STOP;
                break;
            }
        }
        int k = -1;
        int fault;
        uint32_t faddr;
        const struct hexsim_packet *pkt = fetch(v, &tmp, &fault, &faddr);
        m->packets++;
        if (!pkt) {
            v->cpu.pcycles++;
            genex(v, fault_cause(HX_EV_FAULT_FETCH, fault), faddr);
        } else {
            uint64_t c0 = v->cpu.pcycles;
            k = hexsim_exec_packet(&v->env, pkt, &ev);
            if (__builtin_expect(m->profile != NULL, 0) && k <= HX_EV_TRAP1)
                hexsim_hvm_profile_packet(v, pkt, v->cpu.pcycles - c0);
            switch (k) {
            case HX_EV_NONE:
                break;
            case HX_EV_TRAP0:
                if (!v->user && ev.imm == 0)
                    hexsim_hvm_angel(v);
                else
                    hexsim_hvm_event(v, HVM_EV_TRAP0, ev.imm, v->cpu.pc, 0);
                break;
            case HX_EV_TRAP1:
                if (v->user) {
                    v->cpu.pc = pkt->addr;
                    genex(v, HVM_GE_PRIVI, pkt->addr);
                } else {
                    hexsim_hvm_trap1(v, ev.imm, pkt->addr);
                }
                break;
            case HX_EV_FAULT_READ:
            case HX_EV_FAULT_WRITE:
            case HX_EV_FAULT_FETCH:
                v->cpu.pcycles++;
                genex(v, fault_cause(k, ev.detail), ev.addr);
                break;
            case HX_EV_INVALID:
                v->cpu.pcycles++;
                genex(v, HVM_GE_INVI, pkt->addr);
                break;
            case HX_EV_PRIVILEGED:
                v->cpu.pcycles++;
                genex(v, HVM_GE_PRIVI, pkt->addr);
                break;
            default:
                report_unimplemented(v, pkt, ev.tag);
                break;
            }
        }
        if (__builtin_expect(hook != NULL, 0) && hook->after(hook->ctx, v, pc0, k)) {
            m->hook_stop = true;
            break;
        }
        if (m->attention || v->yield || v->state != HEXSIM_VCPU_RUN)
            break;
    }
}

// Wakes waiting vCPUs with a pending interrupt and delivers interrupts where enabled.
static void interrupts(struct hexsim_machine *m)
{
    for (unsigned i = 0; i < m->nvcpu && !m->halted; i++) {
        struct hexsim_vcpu *v = &m->vcpu[i];
        if (v->state == HEXSIM_VCPU_OFF)
            continue;
        uint32_t d = hexsim_intc_deliverable(&m->intc, v->id);
        if (!d)
            continue;
        unsigned n = (unsigned)__builtin_ctz(d);
        if (v->state == HEXSIM_VCPU_WAIT) {
            v->state = HEXSIM_VCPU_RUN;
            v->cpu.r[0] = n;           // vmwait answers the interrupt that ended it
            if (v->cpu.pcycles < m->now)
                v->cpu.pcycles = m->now;
        }
        if (v->ie) {
            hexsim_intc_accept(&m->intc, n);
            hexsim_hvm_event(v, HVM_EV_INTR, n, v->cpu.pc, 0);
        }
    }
}

// Runs v through the round's window (to pcycle `until`, at most `budget` packets): slice
// after slice while it keeps running. What ends a slice early and still lets v run on (a
// vmrte, an interrupt controller or device change: m->attention) is handled in between:
// interrupts are delivered, and a device event that became due before `until` ends the
// window (the round loop advances the devices). So a vCPU that returns from a system call
// keeps the rest of its window instead of idling while the others run to its end.
static void run_window(struct hexsim_machine *m, struct hexsim_vcpu *v, uint64_t budget,
                       uint64_t until)
{
    uint64_t p0 = m->packets;
    for (;;) {
        run_slice(v, budget - (m->packets - p0), until > v->cpu.pcycles ? until
                                                                        : v->cpu.pcycles + 1);
        if (m->halted || m->hook_stop || v->yield || v->state != HEXSIM_VCPU_RUN ||
            v->cpu.pcycles >= until || m->packets - p0 >= budget || !m->attention)
            return;
        uint64_t next = hexsim_bus_next_event(&m->bus);
        if (next <= v->cpu.pcycles)
            return;
        if (next < until)
            until = next;
        m->attention = false;
        interrupts(m);
    }
}

// How many vCPUs take turns on each vCPU's core this round: its core's running vCPUs (the
// timing model's core_threads groups vCPUs k to a core, 0..k-1, k..2k-1, ...; the default 1
// gives each vCPU a core of its own, so vCPUs run side by side in guest time).
static void core_turns(const struct hexsim_machine *m, unsigned turns[HEXSIM_MAX_VCPUS])
{
    unsigned k = m->tparams.core_threads ? m->tparams.core_threads : 1;
    for (unsigned i = 0; i < m->nvcpu; i++) {
        turns[i] = 0;
        for (unsigned j = i / k * k; j < i / k * k + k && j < m->nvcpu; j++)
            turns[i] += m->vcpu[j].state == HEXSIM_VCPU_RUN;
    }
}

static double host_seconds(const struct timespec *t0)
{
    struct timespec t1;
    clock_gettime(CLOCK_MONOTONIC, &t1);
    return (double)(t1.tv_sec - t0->tv_sec) + (t1.tv_nsec - t0->tv_nsec) * 1e-9;
}

// Console input released: the host CPU time then (--stats), so that a script's command
// can be timed without the boot before it (tools/bench/bench.py --guest).
static void input_released(struct hexsim_machine *m)
{
    struct timespec cpu;
    double t = clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &cpu) == 0
               ? (double)cpu.tv_sec + cpu.tv_nsec * 1e-9 : 0.0;
    if (m->inputs++ == 0)
        m->input_cpu_first = t;
    m->input_cpu_last = t;
}

// The first wait for console input: every vCPU idle after user space has started, while
// the console UART (UART3) has an RX interrupt unmasked and nothing in its RX FIFO. On a
// boot to a shell that is the shell at its prompt (init does not wait for the console).
static bool waits_for_console(const struct hexsim_machine *m)
{
    const struct hexsim_msm_uart *u = &m->uart[2];
    return m->user_seen && (u->imr & (HEXSIM_MSM_UART_INT_RXLEV | HEXSIM_MSM_UART_INT_RXSTALE))
           && u->rx_n == 0;
}

static uint64_t host_ns(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (uint64_t)t.tv_sec * 1000000000ull + (uint64_t)t.tv_nsec;
}

// 600 MHz: 3 pcycles every 5 ns.
static uint64_t ns_to_pcycles(uint64_t ns)
{
    return ns / 5 * 3 + ns % 5 * 3 / 5;
}

static uint64_t pcycles_to_ns(uint64_t pc)
{
    return pc / 3 * 5 + pc % 3 * 5 / 3;
}

// The ports' receivers may have input to take by pcycle `from` (the idle hook said so: now;
// or a vCPU runs: the serial ports from the next point of a coarse grid, RUN_INPUT_GRID)
static void wake_inputs(struct hexsim_machine *m, uint64_t from)
{
    for (unsigned i = 0; i < 3; i++)
        hexsim_msm_uart_wake(&m->uart_dev[i], from);
    hexsim_smsc911x_wake(&m->eth_dev);
}

static int idle_hook(struct hexsim_machine *m, uint64_t timeout_ns)
{
    int r = m->opts.idle ? m->opts.idle(m->opts.idle_ctx, timeout_ns) : -1;
    if (r > 0)
        wake_inputs(m, m->now);
    return r;
}

// Every vCPU waits; next is the next device event. Moves the clock towards it (see the
// top of the file). Returns false when nothing can ever wake the guest.
static bool idle(struct hexsim_machine *m, uint64_t next)
{
    if (next == HEXSIM_TIME_NEVER) {
        // only input can wake the guest now: wait for it, if any can come
        int r = idle_hook(m, 0);
        if (r == 0)
            r = idle_hook(m, IDLE_WAIT_NS);
        m->wall_anchored = false;      // the clock stood still meanwhile
        return r >= 0 || m->halted;
    }
    if (!m->opts.wall_clock) {
        if (idle_hook(m, 0) > 0) {
            uint64_t n = hexsim_bus_next_event(&m->bus);   // a woken port samples first
            if (n < next)
                next = n;
        }
        m->now = next;
        return true;
    }
    uint64_t h = host_ns();
    if (m->wall_anchored) {
        uint64_t at = m->wall_host0 + pcycles_to_ns(m->now - m->wall_guest0);
        if (at + WALL_SLACK_NS < h || at > h + WALL_SLACK_NS)
            m->wall_anchored = false;
    }
    if (!m->wall_anchored) {
        m->wall_anchored = true;
        m->wall_host0 = h;
        m->wall_guest0 = m->now;
    }
    uint64_t due = m->wall_host0 + pcycles_to_ns(next - m->wall_guest0);
    if (idle_hook(m, due > h ? due - h : 0) > 0) {
        uint64_t n = hexsim_bus_next_event(&m->bus);
        if (n < next)
            next = n;
    }
    uint64_t g = m->wall_guest0 + ns_to_pcycles(host_ns() - m->wall_host0);
    if (g >= next)
        m->now = next;
    else if (g > m->now)
        m->now = g;                    // not there yet: the next round waits again
    return true;
}

int hexsim_machine_run(struct hexsim_machine *m)
{
    if (!m->pcache) {
        m->pcache = calloc(1, sizeof(*m->pcache));
        if (!m->pcache) {
            fprintf(m->err, "hexsim: out of memory\n");
            return HEXSIM_SYS_EXIT_ERROR;
        }
    }
    if (hexsim_sysjit_init(m)) {
        fprintf(m->err, "hexsim: out of memory\n");
        return HEXSIM_SYS_EXIT_ERROR;
    }
    if (m->opts.profile && !m->profile && !(m->profile = hexsim_profile_new())) {
        fprintf(m->err, "hexsim: out of memory\n");
        return HEXSIM_SYS_EXIT_ERROR;
    }
    if (!m->run_started) {          // a run continued after a pause keeps its start time
        clock_gettime(CLOCK_MONOTONIC, &m->run_t0);
        m->run_started = true;
    }
    const struct timespec t0 = m->run_t0;
    uint64_t rounds = 0;
    m->paused = false;
    m->hook_stop = false;
    while (!m->halted && !m->hook_stop) {
        if ((m->pause_at && m->packets >= m->pause_at) || m->pause_now) {
            m->paused = true;          // between two rounds: the state a snapshot saves
            break;
        }
        if (hexsim_bus_next_event(&m->bus) <= m->now)
            hexsim_bus_advance(&m->bus);
        m->attention = false;
        interrupts(m);
        if (m->halted)
            break;
        bool running = false, alive = false;
        const bool lone = m->nvcpu == 1;   // (LONE_SLICE, RUN_INPUT_GRID)
        for (unsigned i = 0; i < m->nvcpu; i++) {
            running |= m->vcpu[i].state == HEXSIM_VCPU_RUN;
            alive |= m->vcpu[i].state != HEXSIM_VCPU_OFF;
            if (m->vcpu[i].state != HEXSIM_VCPU_OFF)
                m->vcpus_seen |= 1u << i;
        }
        uint64_t next = hexsim_bus_next_event(&m->bus);
        if (!alive) {
            // the guest's last output first; a vCPU lost to an event is an error
            hexsim_machine_halt(m, m->vcpu_lost ? HEXSIM_SYS_EXIT_ERROR : HEXSIM_SYS_EXIT_OK);
            fprintf(m->err, "hexsim: every vCPU stopped (vmstop) after %llu packets\n",
                    (unsigned long long)m->packets);
            break;
        }
        if (!running && m->opts.max_seconds > 0 && host_seconds(&t0) >= m->opts.max_seconds) {
            // idle rounds count too: a guest waiting forever on a timer it never takes
            fprintf(m->err, "hexsim: stopped after %.1f s (--max-seconds), every vCPU idle\n",
                    host_seconds(&t0));
            hexsim_machine_halt(m, HEXSIM_SYS_EXIT_LIMIT);
            break;
        }
        if (!running) {
            if (waits_for_console(m)) {
                if (!m->prompt_seen) {
                    m->prompt_seen = true;
                    m->prompt_seconds = host_seconds(&t0);
                    m->prompt_pcycles = m->now;
                    m->prompt_packets = m->packets;
                }
                // a script's next line waits until the console output before it is out
                const struct hexsim_chardev *be = m->uart[2].be;
                if (be && be->wants_input && m->uart[2].tx_n == 0 &&
                    m->uart[2].tx_done == HEXSIM_TIME_NEVER) {
                    if (be->wants_input(be->ctx)) {
                        hexsim_msm_uart_wake(&m->uart_dev[2], m->now);   // it released input
                        input_released(m);
                        next = hexsim_bus_next_event(&m->bus);
                    }
                }
            }
            if (!idle(m, next)) {
                fprintf(m->err, "hexsim: every vCPU waits (vmwait) with no interrupt pending, "
                        "no timer event due and no more input: the guest cannot continue\n");
                hexsim_machine_halt(m, HEXSIM_SYS_EXIT_ERROR);
            }
            if (m->halted)
                break;
            continue;
        }
        // a running guest takes input as it comes (a terminal's: a script gives its lines
        // when the guest waits); a lone vCPU the serial ports' within RUN_INPUT_GRID pcycles
        wake_inputs(m, lone ? (m->now + RUN_INPUT_GRID - 1) &
                                     ~(uint64_t)(RUN_INPUT_GRID - 1) : m->now);
        next = hexsim_bus_next_event(&m->bus);
        const uint64_t len = lone ? LONE_SLICE : SLICE;
        uint64_t slice = len;         // packets a vCPU may run this round (the limits)
        if (m->opts.max_packets) {
            if (m->packets >= m->opts.max_packets) {
                fprintf(m->err, "hexsim: stopped after %llu packets (--max-packets) at PC "
                        "0x%08x\n", (unsigned long long)m->packets, m->vcpu[0].cpu.pc);
                hexsim_machine_halt(m, HEXSIM_SYS_EXIT_LIMIT);
                break;
            }
            if (m->opts.max_packets - m->packets < slice)
                slice = m->opts.max_packets - m->packets;
        }
        unsigned nrun = 0, turns[HEXSIM_MAX_VCPUS];
        for (unsigned i = 0; i < m->nvcpu; i++)
            nrun += m->vcpu[i].state == HEXSIM_VCPU_RUN;
        core_turns(m, turns);
        // A pause (--snapshot-at) cuts the round short only when one vCPU runs; with several,
        // the vCPUs after the cut would run their slices in another round than in a run
        // without the pause, so the pause waits for the end of the round instead.
        if (m->pause_at && nrun == 1 && m->pause_at - m->packets < slice)
            slice = m->pause_at - m->packets;
        uint64_t start = m->now;
        uint64_t until = start + len;   // a slice ends at the next device event
        if (next != HEXSIM_TIME_NEVER && next < until)
            until = next > start ? next : start + 1;
        for (unsigned i = 0; i < m->nvcpu && !m->halted && !m->hook_stop; i++) {
            struct hexsim_vcpu *v = &m->vcpu[i];
            if (v->state != HEXSIM_VCPU_RUN)
                continue;
            if (v->cpu.pcycles < start)
                v->cpu.pcycles = start;
            v->cpu.tm.interleave = turns[i];
            uint64_t mine = slice;     // --max-packets counts the packets of every vCPU
            if (m->opts.max_packets) {
                if (m->packets >= m->opts.max_packets)
                    break;
                if (m->opts.max_packets - m->packets < mine)
                    mine = m->opts.max_packets - m->packets;
            }
            run_window(m, v, mine, until);
            if (v->cpu.pcycles > m->now)
                m->now = v->cpu.pcycles;
        }
        if (m->opts.max_seconds > 0 && (++rounds & 0xff) == 0) {
            double el = host_seconds(&t0);
            if (el >= m->opts.max_seconds) {
                fprintf(m->err, "hexsim: stopped after %.1f s (--max-seconds) at PC 0x%08x\n", el,
                        m->vcpu[0].cpu.pc);
                hexsim_machine_halt(m, HEXSIM_SYS_EXIT_LIMIT);
            }
        }
    }
    if (m->console.flush)
        m->console.flush(m->console.ctx);
    if (m->paused)
        return HEXSIM_SYS_PAUSED;
    if (m->hook_stop && !m->halted) {
        m->hook_stop = false;
        return HEXSIM_MACHINE_STOPPED;
    }
    if (m->console.fresh_line)   // hexsim's last words start a line, not after a prompt
        m->console.fresh_line(m->console.ctx);
    if (m->prompt_seen && (m->opts.stats || m->opts.stats_json))   // quiet unless asked
        fprintf(m->err, "hexsim: the guest first waited for console input (the shell prompt) "
                "%.2f s after the start (host time; pcycle %llu, packet %llu)\n", m->prompt_seconds,
                (unsigned long long)m->prompt_pcycles, (unsigned long long)m->prompt_packets);
    unsigned started = (unsigned)__builtin_popcount(m->vcpus_seen);
    if (m->nvcpu > 1 && started < m->nvcpu)
        fprintf(m->err, "hexsim: --smp %u: the guest started %u of its %u vCPUs (vmstart); "
                "the others stayed off (a kernel without SMP brings up one)\n", m->nvcpu,
                started, m->nvcpu);
    if (m->opts.stats || m->opts.stats_json)
        hexsim_machine_report_stats(m, host_seconds(&t0));
    if (m->profile) {
        char msg[600];
        if (hexsim_hvm_profile_write(m, msg, sizeof msg))
            fprintf(m->err, "hexsim: --profile: %s\n", msg);
    }
    return m->exit_status;
}
