// SPDX-License-Identifier: MIT
// Fuzz target: random packets executed in user mode. No ELF: the input becomes a fresh
// process (fuzz_user.h) whose code page holds the input's code bytes, with registers taken
// from the input, and at most MAX_PACKETS packets run through hexsim_user_step (the run loop
// hexsim --user uses, with its decoded-packet cache and system calls, sandboxed). Every
// fault must end as a clean event reported by hexsim_user_fault, never a host crash; a
// faulting packet must leave the registers as they were (the packet commits nothing). The
// same process then runs again from the start through hexsim_user_run, with its blocks
// interpreted (--no-jit) and compiled (cpu/jit.h), limited to the same number of packets:
// both must end with the registers, clock, count and data memory of the packet-by-packet run.
//
// Input layout (missing bytes read as zero):
//   0      flags: bit 0 code page writable (self-modifying code), bit 1 debugger write log,
//          bits 4-6 core version (5, 55, 60, 62, 65, 66, 67, 68)
//   1-4    mask: bit i set = R[i] takes the next 4-byte value below, else it points into
//          the data area (DATA_BASE + 0x100 * i; R29 the stack, R31 the code)
//   5-8    P0-P3
//   9-12   USR
//   13-    the masked register values, then the code (whole words, at most CODE_MAX bytes)
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_user.h"

#define CHECK(c) do { if (!(c)) abort(); } while (0)

#define CODE_BASE 0x00010000u
#define CODE_MAX 0x2000u
#define DATA_BASE 0x00020000u
#define DATA_SIZE 0x00010000u
#define RODATA_BASE 0x00030000u   // one read-only page after the data, then nothing
#define STACK_BASE 0xbfff0000u
#define STACK_SIZE 0x00010000u
#define MAX_PACKETS 512

static const unsigned archs[8] = { 5, 55, 60, 62, 65, 66, 67, 68 };

static uint32_t get32(const uint8_t *d, size_t size, size_t *pos)
{
    uint32_t v = 0;
    for (unsigned i = 0; i < 4; i++, (*pos)++)
        if (*pos < size)
            v |= (uint32_t)d[*pos] << (8 * i);
    return v;
}

static bool same_regs(const struct hexsim_cpu *a, const struct hexsim_cpu *b)
{
    return !memcmp(a->r, b->r, sizeof a->r) && !memcmp(a->c, b->c, sizeof a->c) &&
           !memcmp(a->p, b->p, sizeof a->p) && a->pc == b->pc && a->pcycles == b->pcycles &&
           a->packets == b->packets;
}

// The process the input describes (see the top).
static void setup(struct hexsim_user *u, const uint8_t *data, size_t size)
{
    size_t pos = 0;
    uint8_t flags = data[pos++];
    uint32_t mask = get32(data, size, &pos);
    uint32_t preds = get32(data, size, &pos);
    uint32_t usr = get32(data, size, &pos);

    fuzz_user_init(u, FUZZ_MAX_PAGES);
    u->arch = archs[(flags >> 4) & 7];
    unsigned code_prot = HEXSIM_PROT_R | HEXSIM_PROT_X | (flags & 1 ? HEXSIM_PROT_W : 0);
    CHECK(!hexsim_mem_map(&u->mem, CODE_BASE, CODE_MAX, code_prot));
    CHECK(!hexsim_mem_map(&u->mem, DATA_BASE, DATA_SIZE, HEXSIM_PROT_R | HEXSIM_PROT_W));
    CHECK(!hexsim_mem_map(&u->mem, RODATA_BASE, HEXSIM_PAGE_SIZE, HEXSIM_PROT_R));
    CHECK(!hexsim_mem_map(&u->mem, STACK_BASE, STACK_SIZE, HEXSIM_PROT_R | HEXSIM_PROT_W));
    u->brk_start = u->brk_cur = RODATA_BASE + HEXSIM_PAGE_SIZE;

    for (unsigned i = 0; i < 32; i++) {
        uint32_t v = DATA_BASE + 0x100 * i;
        if (i == 29 || i == 30)
            v = STACK_BASE + STACK_SIZE / 2;
        if (i == 31)
            v = CODE_BASE;
        u->cpu.r[i] = mask >> i & 1 ? get32(data, size, &pos) : v;
    }
    for (unsigned i = 0; i < 4; i++)
        u->cpu.p[i] = (uint8_t)(preds >> (8 * i));
    u->cpu.c[HX_USR] = usr;
    u->cpu.c[HX_SA0] = u->cpu.c[HX_SA1] = CODE_BASE;
    u->cpu.c[HX_LC0] = u->cpu.c[HX_LC1] = 3;
    u->cpu.pc = CODE_BASE;

    size_t code = pos < size ? (size - pos) & ~(size_t)3 : 0;
    if (code > CODE_MAX)
        code = CODE_MAX;
    if (code)
        hexsim_mem_copy_in(&u->mem, CODE_BASE, data + pos, code, true, NULL);
    // The data area starts with the whole input, so loads see varied values.
    hexsim_mem_copy_in(&u->mem, DATA_BASE, data, size < DATA_SIZE ? size : DATA_SIZE, true, NULL);
}

// The registers, clock and count of a run's end, and its data area (if the guest left it
// all readable).
struct end_state {
    struct hexsim_cpu cpu;
    int data_fault;
    uint8_t data[DATA_SIZE];
};

static void end_state(struct hexsim_user *u, struct end_state *e)
{
    e->cpu = u->cpu;
    e->data_fault = hexsim_mem_copy_out(&u->mem, DATA_BASE, e->data, DATA_SIZE, HEXSIM_PROT_R,
                                        NULL);
}

// Run-loop state for hexsim_user_run_with, blocks interpreted (0), compiled with the
// semantics' stencils (1) or compiled calling the semantic functions (2), made once
// (its caches and block table are large) and given a code generation no earlier run had, so
// that nothing cached survives from one run to the next.
static struct hexsim_user_exec *run_exec(struct hexsim_user *u, int jit)
{
    static struct hexsim_user_exec xs[3];
    static bool ready[3];
    static uint64_t runs;
    u->opts.no_jit = jit == 0;
    u->opts.no_stencils = jit == 2;
    u->opts.jit_threshold = 1;   // compiled from the first run, or most would not be
    if (!ready[jit]) {
        CHECK(!hexsim_user_exec_init(u, &xs[jit]));
        ready[jit] = true;
    }
    u->mem.code_gen = 1ull << 63 | ++runs << 32;   // fuzz_user_exec's are below 2^63
    return &xs[jit];
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 13)
        return 0;
    uint8_t flags = data[0];
    static struct hexsim_user u;   // harness state (large); fully reset by setup
    static struct end_state stepped, ran;
    setup(&u, data, size);
    struct hexsim_user_exec *x = fuzz_user_exec(&u);
    struct hexsim_exec_trace trace;
    if (flags & 2)
        x->env.trace = &trace;
    for (unsigned n = 0; n < MAX_PACKETS; n++) {
        struct hexsim_cpu before = u.cpu;
        struct hexsim_event_info ev;
        const struct hexsim_packet *pkt;
        int r = hexsim_user_step(&u, x, &ev, &pkt);
        if (r == HEXSIM_USER_STEP_EXIT)
            break;
        if (r == HEXSIM_USER_STEP_FAULT) {
            CHECK(ev.kind > HX_EV_NONE && ev.kind <= HX_EV_UNIMPLEMENTED);
            if (ev.kind != HX_EV_TRAP0 && ev.kind != HX_EV_TRAP1)
                CHECK(same_regs(&before, &u.cpu));
            int status = hexsim_user_fault(&u, &ev);
            CHECK(status > 128 && status < 128 + 32);
            break;
        }
        CHECK(r == HEXSIM_USER_STEP_OK);
    }
    end_state(&u, &stepped);
    fuzz_user_free(&u);
    // the run loop, blocks interpreted and compiled (two ways): the same end
    for (int jit = 0; jit < 3; jit++) {
        setup(&u, data, size);
        u.opts.max_packets = MAX_PACKETS;
        int status = hexsim_user_run_with(&u, run_exec(&u, jit));
        CHECK(status == 124 || u.exited || (status > 128 && status < 128 + 32));
        end_state(&u, &ran);
        CHECK(same_regs(&stepped.cpu, &ran.cpu));
        CHECK(stepped.data_fault == ran.data_fault);
        CHECK(stepped.data_fault || !memcmp(stepped.data, ran.data, DATA_SIZE));
        fuzz_user_free(&u);
    }
    return 0;
}
