// SPDX-License-Identifier: MIT
// Check suite for blocks of packets (src/cpu/block.h): where a block ends (a branch, a loop
// end, a trap, a packet that cannot be in one, the size limit, a gap), that a flush drops it,
// that running a block leaves exactly the state packet-by-packet execution leaves: registers,
// predicates, sticky USR bits, loop registers, PC, memory, the packet count and every timing
// figure (multiply and load latency stalls included), and that it stops where packet-by-packet
// execution would see something else: a fault (that packet commits nothing), a trap, a store
// into cached code; the code cache: blocks at addresses that would share a slot of a
// direct-mapped table all stay, a cache too small for the code is flushed whole and goes on
// working, compiled blocks go on into each other through patched links (a block returns to
// be linked to each new successor until its links are taken). Instruction words
// from llvm-mc-16.
#include "../check_main.h"
#include <check.h>
#include <string.h>

#include "cpu/block.h"
#include "cpu/decode.h"
#include "cpu/exec.h"
#include "cpu/stencil.h"

#define CODE 0x10000u

// { r6 = mpyi(r6,r3) }
static const uint32_t MPYI[] = { 0xed06c306u };
// { r7 = add(r6,#1) } (waits for the multiply)
static const uint32_t ADD_R6[] = { 0xb006c027u };
// { r0 = add(r1,r2):sat }
static const uint32_t ADD_SAT[] = { 0xf641c200u };
// { p0 = cmp.gtu(r2,#1); r2 = add(r2,#-1) }
static const uint32_t CMP_DEC[] = { 0x75824020u, 0xbfe2ffe2u };
// { nop; r5 = add(r5,#2); r4 = add(r4,#1) }:endloop0
static const uint32_t ALU_LOOP[] = { 0x7f008000u, 0x20253144u };
// { r8 = add(r8,#3) }
static const uint32_t ADD_R8[] = { 0xb008c068u };
// { jump .+0x100; r4 = add(r4,#1) }
static const uint32_t JUMP_ADD[] = { 0x58004080u, 0xb004c024u };
// { r4 = add(r4,#1); memw(r2+#0) = r3 }
static const uint32_t ADD_STORE[] = { 0x71440023u };
// { r4 = add(r4,#1); r5 = add(r5,r4) } (staged: not `alu`)
static const uint32_t ADD_ADD[] = { 0x31443845u };
// { r4 = add(r4,#1); r5 = memw(r2+#0) }
static const uint32_t ADD_LOAD[] = { 0x51440025u };
// { memw(r9+#0) = r4 }
static const uint32_t STORE_R9[] = { 0xa189c400u };
// { r6 = add(r5,r4) } (waits for the load)
static const uint32_t ADD_R5_R4[] = { 0xf305c406u };
// { jumpr r0 }
static const uint32_t JUMPR_R0[] = { 0x5280c000u };
// { trap0(#1) }
static const uint32_t TRAP0[] = { 0x5400c004u };
// { r7 = add(r6,#1) } with parse bits saying the packet goes on (cut short: not well formed)
static const uint32_t CUT[] = { 0xb0064027u };
#define DATA 0x20000u

struct prog {
    unsigned n;
    uint32_t base;            // the first packet's address (0: CODE)
    struct hexsim_packet pkt[HX_BLOCK_MAX_PKTS + 8];
};

// Decodes the packets one after another from CODE.
static void prog_add(struct prog *p, const uint32_t *w, size_t n)
{
    ck_assert_uint_lt(p->n, sizeof(p->pkt) / sizeof(p->pkt[0]));
    uint32_t addr = p->n ? p->pkt[p->n - 1].addr + 4u * p->pkt[p->n - 1].nwords
                         : p->base ? p->base : CODE;
    ck_assert_int_eq(hexsim_decode_packet(w, n, addr, 68, &p->pkt[p->n]), HX_DECODE_OK);
    p->n++;
}

static const struct hexsim_packet *prog_at(const struct prog *p, uint32_t addr)
{
    for (unsigned i = 0; i < p->n; i++)
        if (p->pkt[i].addr == addr)
            return &p->pkt[i];
    return NULL;
}

static void cpu_init(struct hexsim_cpu *c)
{
    memset(c, 0, sizeof(*c));
    c->pc = CODE;
    c->r[1] = 0x7fffffffu;   // add:sat overflows
    c->r[2] = 5;
    c->r[3] = 7;
    c->r[6] = 3;
    c->c[HX_LC0] = 3;
    c->c[HX_SA0] = CODE;
}

static void assert_same(const struct hexsim_cpu *a, const struct hexsim_cpu *b)
{
    for (unsigned i = 0; i < 32; i++)
        ck_assert_uint_eq(a->r[i], b->r[i]);
    for (unsigned i = 0; i < 4; i++)
        ck_assert_uint_eq(a->p[i], b->p[i]);
    ck_assert_uint_eq(a->c[HX_USR], b->c[HX_USR]);
    ck_assert_uint_eq(a->c[HX_LC0], b->c[HX_LC0]);
    ck_assert_uint_eq(a->pc, b->pc);
    ck_assert_uint_eq(a->packets, b->packets);
    ck_assert_uint_eq(a->pcycles, b->pcycles);
    ck_assert_int_eq(memcmp(&a->tm.st, &b->tm.st, sizeof(a->tm.st)), 0);
}

static struct hx_block *build(struct hx_block_table *t, const struct prog *p)
{
    struct hx_block *b = hx_block_start(t, p->pkt[0].addr);
    for (unsigned i = 0; i < p->n && hx_block_append(b, &p->pkt[i]); i++)
        ;
    b = hx_block_seal(t, b);
    ck_assert_ptr_nonnull(b);
    ck_assert_ptr_eq(hx_block_find(t, p->pkt[0].addr), b);
    hx_block_compile(t, b);
    ck_assert(!t->jit || b->jit);   // a compiling table compiled it
#if defined(__x86_64__) && defined(__linux__)
    ck_assert_int_eq(t->jit != NULL, b->jit != NULL);
#endif
    return b;
}

START_TEST(test_block_matches_packets)
{
    struct prog p = { 0 };
    prog_add(&p, MPYI, 1);
    prog_add(&p, ADD_R6, 1);
    prog_add(&p, ADD_SAT, 1);
    prog_add(&p, CMP_DEC, 2);
    prog_add(&p, ALU_LOOP, 2);
    struct hx_block_table *t = hx_block_table_new((enum hx_block_mode)_i, 0);
    ck_assert_ptr_nonnull(t);
    struct hx_block *b = build(t, &p);
    ck_assert_uint_eq(b->npk, 5);
    ck_assert(b->closed);
    for (unsigned i = 0; i < b->npk; i++)   // all on the short path
        ck_assert_uint_ne(b->pk[i].alu, HX_ALU_NONE);
    ck_assert_ptr_eq(hx_block_find(t, CODE), b);

    struct hexsim_cpu ca, cb;
    cpu_init(&ca);
    cpu_init(&cb);
    struct hexsim_mem mem;
    hexsim_mem_init(&mem);
    struct hexsim_exec_env ea = { .cpu = &ca, .mem = &mem, .arch = 68, .user_mode = 1 };
    struct hexsim_exec_env eb = { .cpu = &cb, .mem = &mem, .arch = 68, .user_mode = 1 };
    struct hexsim_event_info eva, evb;
    struct hx_exec x;
    hx_exec_begin(&x, &ea, &eva);
    for (int i = 0; i < 3; i++) {   // LC0 = 3: three times round
        ck_assert_uint_eq(ca.pc, CODE);
        hx_run_block(&x, b);
    }
    ck_assert_uint_eq(ca.pc, CODE + 28);
    for (int i = 0; i < 15; i++) {
        const struct hexsim_packet *pkt = prog_at(&p, cb.pc);
        ck_assert_ptr_nonnull(pkt);
        ck_assert_int_eq(hexsim_exec_packet(&eb, pkt, &evb), HX_EV_NONE);
    }
    assert_same(&ca, &cb);
    ck_assert_uint_eq(ca.c[HX_USR] & HX_USR_OVF, HX_USR_OVF);
    ck_assert_uint_eq(ca.r[2], 2);
    ck_assert_uint_eq(ca.tm.st.stall[HX_STALL_MPY] != 0, 1);   // the latency was modelled
    hexsim_mem_free(&mem);
    hx_block_table_free(t);
}
END_TEST

START_TEST(test_block_jump_ends)
{
    struct prog p = { 0 };
    prog_add(&p, ADD_R8, 1);
    prog_add(&p, JUMP_ADD, 2);
    prog_add(&p, ADD_R8, 1);
    struct hx_block_table *t = hx_block_table_new((enum hx_block_mode)_i, 0);
    struct hx_block *b = build(t, &p);
    ck_assert_uint_eq(b->npk, 2);
    ck_assert(b->closed && !hx_block_open(b));
    ck_assert(!hx_block_append(b, &p.pkt[2]));

    struct hexsim_cpu ca, cb;
    cpu_init(&ca);
    cpu_init(&cb);
    struct hexsim_mem mem;
    hexsim_mem_init(&mem);
    struct hexsim_exec_env ea = { .cpu = &ca, .mem = &mem, .arch = 68, .user_mode = 1 };
    struct hexsim_exec_env eb = { .cpu = &cb, .mem = &mem, .arch = 68, .user_mode = 1 };
    struct hexsim_event_info eva, evb;
    struct hx_exec x;
    hx_exec_begin(&x, &ea, &eva);
    hx_run_block(&x, b);
    for (int i = 0; i < 2; i++)
        ck_assert_int_eq(hexsim_exec_packet(&eb, prog_at(&p, cb.pc), &evb), HX_EV_NONE);
    assert_same(&ca, &cb);
    ck_assert_uint_eq(ca.pc, CODE + 4 + 0x100);
    ck_assert_uint_eq(ca.r[8], 3);
    ck_assert_uint_eq(ca.r[4], 1);
    hexsim_mem_free(&mem);
    hx_block_table_free(t);
}
END_TEST

START_TEST(test_block_limits)
{
    struct hx_block_table *t = hx_block_table_new((enum hx_block_mode)_i, 0);
    // not well formed: never in a block
    struct hexsim_packet cut;
    ck_assert_int_ne(hexsim_decode_packet(CUT, 1, CODE, 68, &cut), HX_DECODE_OK);
    ck_assert(!hx_block_can_hold(&cut));
    struct hx_block *b = hx_block_start(t, CODE);
    ck_assert(!hx_block_append(b, &cut));
    ck_assert_ptr_null(hx_block_seal(t, b));
    ck_assert_ptr_null(hx_block_find(t, CODE));   // an empty block is never found
    // the size limit
    struct prog r = { 0 };
    for (int i = 0; i < HX_BLOCK_MAX_PKTS + 1; i++)
        prog_add(&r, ADD_R8, 1);
    b = build(t, &r);
    ck_assert_uint_eq(b->npk, HX_BLOCK_MAX_PKTS);
    ck_assert_uint_eq(hx_block_next(b), CODE + 4 * HX_BLOCK_MAX_PKTS);
    // a packet that does not follow
    b = hx_block_start(t, CODE);
    ck_assert(hx_block_append(b, &r.pkt[0]));
    ck_assert(!hx_block_append(b, &r.pkt[2]));
    b = hx_block_seal(t, b);   // in place of the first one at CODE
    ck_assert_ptr_eq(hx_block_find(t, CODE), b);
    ck_assert_uint_eq(b->npk, 1);
    ck_assert_ptr_null(hx_block_find(t, CODE + 8192));
    hx_block_flush(t);
    ck_assert_ptr_null(hx_block_find(t, CODE));
    hx_block_table_free(t);
}
END_TEST

// Two machines with the same memory layout: CODE holds the program's words (an executable
// page, fetched so that it holds cached code), DATA a writable page.
struct pair {
    struct hexsim_cpu ca, cb;
    struct hexsim_mem ma, mb;
    struct hexsim_exec_env ea, eb;
    struct hexsim_event_info eva, evb;
};

static void pair_init(struct pair *q, const struct prog *p)
{
    memset(q, 0, sizeof(*q));
    cpu_init(&q->ca);
    cpu_init(&q->cb);
    struct hexsim_mem *m[2] = { &q->ma, &q->mb };
    for (int i = 0; i < 2; i++) {
        hexsim_mem_init(m[i]);
        ck_assert_int_eq(hexsim_mem_map(m[i], CODE, HEXSIM_PAGE_SIZE,
                                        HEXSIM_PROT_R | HEXSIM_PROT_W | HEXSIM_PROT_X), 0);
        ck_assert_int_eq(hexsim_mem_map(m[i], DATA, HEXSIM_PAGE_SIZE,
                                        HEXSIM_PROT_R | HEXSIM_PROT_W), 0);
        for (unsigned k = 0; k < p->n; k++)
            for (unsigned w = 0; w < p->pkt[k].nwords; w++)
                ck_assert_int_eq(hexsim_mem_write(m[i], p->pkt[k].addr + 4 * w, 4,
                                                  p->pkt[k].words[w]), 0);
        uint32_t words[4];
        int f;
        ck_assert_uint_eq(hexsim_mem_fetch(m[i], CODE, words, 1, &f), 1);   // cached code
        ck_assert_int_eq(hexsim_mem_write(m[i], DATA, 4, 0x1234u), 0);
    }
    q->ca.r[2] = q->cb.r[2] = DATA;
    q->ca.r[9] = q->cb.r[9] = DATA + 8;
    q->ea = (struct hexsim_exec_env){ .cpu = &q->ca, .mem = &q->ma, .arch = 68, .user_mode = 1 };
    q->eb = (struct hexsim_exec_env){ .cpu = &q->cb, .mem = &q->mb, .arch = 68, .user_mode = 1 };
}

static void pair_free(struct pair *q)
{
    hexsim_mem_free(&q->ma);
    hexsim_mem_free(&q->mb);
}

// Runs machine b packet by packet until an event or n packets; returns the last event.
static int run_packets(struct pair *q, const struct prog *p, unsigned n)
{
    int k = HX_EV_NONE;
    for (unsigned i = 0; i < n && k == HX_EV_NONE; i++) {
        const struct hexsim_packet *pkt = prog_at(p, q->cb.pc);
        ck_assert_ptr_nonnull(pkt);
        k = hexsim_exec_packet(&q->eb, pkt, &q->evb);
    }
    return k;
}

static void assert_same_mem(struct pair *q, uint32_t addr)
{
    uint64_t a, b;
    ck_assert_int_eq(hexsim_mem_read(&q->ma, addr, 8, HEXSIM_PROT_R, &a), 0);
    ck_assert_int_eq(hexsim_mem_read(&q->mb, addr, 8, HEXSIM_PROT_R, &b), 0);
    ck_assert_uint_eq(a, b);
}

// A block of one-word packets built from CODE, and the two machines to run it on: a
// (through the block) and b (packet by packet).
struct fixture {
    struct prog p;
    struct hx_block_table *t;
    struct hx_block *b;
    struct pair q;
    struct hx_exec x;
};

static void fixture_init(struct fixture *f, const uint32_t *const *words, unsigned n,
                         enum hx_block_mode mode)
{
    memset(f, 0, sizeof(*f));
    for (unsigned i = 0; i < n; i++)
        prog_add(&f->p, words[i], 1);
    f->t = hx_block_table_new(mode, 0);
    ck_assert_ptr_nonnull(f->t);
    f->b = build(f->t, &f->p);
    pair_init(&f->q, &f->p);
}

// After the test's changes to the machines' registers.
static int fixture_run(struct fixture *f)
{
    hx_exec_begin(&f->x, &f->q.ea, &f->q.eva);
    return hx_run_block(&f->x, f->b);
}

static void fixture_free(struct fixture *f)
{
    pair_free(&f->q);
    hx_block_table_free(f->t);
}

START_TEST(test_block_memory_packets)
{
    // loads, stores and staged packets beside `alu` ones, a load latency stall, a trap
    static const uint32_t *const w[] = { ADD_LOAD, ADD_R5_R4, STORE_R9, ADD_ADD, ADD_STORE,
                                         TRAP0, ADD_R8 };
    struct fixture f;
    fixture_init(&f, w, 7, (enum hx_block_mode)_i);
    struct pair *q = &f.q;
    ck_assert_uint_eq(f.b->npk, 6);   // the trap closes it
    ck_assert(f.b->closed);
    ck_assert_uint_eq(f.b->pk[0].alu, HX_ALU_NONE);   // the load: the staged path
    ck_assert_int_eq(fixture_run(&f), HX_EV_TRAP0);
    ck_assert_uint_eq(f.x.pc, CODE + 20);   // the trap's packet
    ck_assert_int_eq(run_packets(q, &f.p, 6), HX_EV_TRAP0);
    ck_assert_uint_eq(q->eva.imm, q->evb.imm);
    assert_same(&q->ca, &q->cb);
    ck_assert_uint_eq(q->ca.pc, CODE + 24);   // the trap committed
    ck_assert_uint_eq(q->ca.r[5], 0x1234u + 1);
    ck_assert_uint_eq(q->ca.r[6], 0x1234u + 1);
    ck_assert_uint_eq(q->ca.tm.st.stall[HX_STALL_LOAD] != 0, 1);
    assert_same_mem(q, DATA);
    assert_same_mem(q, DATA + 8);
    fixture_free(&f);
}
END_TEST

START_TEST(test_block_fault_stops)
{
    // the store of the third packet faults: the first two commit, the third nothing
    static const uint32_t *const w[] = { ADD_R8, ADD_ADD, ADD_STORE, ADD_R8 };
    struct fixture f;
    fixture_init(&f, w, 4, (enum hx_block_mode)_i);
    struct pair *q = &f.q;
    ck_assert_uint_eq(f.b->npk, 4);
    q->ca.r[2] = q->cb.r[2] = 0x40000;   // unmapped
    ck_assert_int_eq(fixture_run(&f), HX_EV_FAULT_WRITE);
    ck_assert_int_eq(run_packets(q, &f.p, 4), HX_EV_FAULT_WRITE);
    assert_same(&q->ca, &q->cb);
    ck_assert_uint_eq(q->ca.pc, CODE + 8);
    ck_assert_uint_eq(q->ca.packets, 2);
    ck_assert_uint_eq(q->ca.r[4], 1);   // the faulting packet's add did not commit
    ck_assert_uint_eq(q->eva.addr, 0x40000);
    ck_assert_uint_eq(q->eva.tag, q->evb.tag);
    ck_assert_int_ge(q->eva.tag, 0);
    fixture_free(&f);
}
END_TEST

START_TEST(test_block_load_fault_undone)
{
    // the load of the second packet faults after the packet's add and the load itself have
    // written their registers in place: both are put back
    static const uint32_t *const w[] = { ADD_R8, ADD_LOAD, ADD_R8 };
    struct fixture f;
    fixture_init(&f, w, 3, (enum hx_block_mode)_i);
    struct pair *q = &f.q;
    ck_assert(f.b->pk[1].undo && f.b->pk[1].direct);
    q->ca.r[2] = q->cb.r[2] = 0x40000;   // unmapped
    q->ca.r[5] = q->cb.r[5] = 0x55;
    ck_assert_int_eq(fixture_run(&f), HX_EV_FAULT_READ);
    ck_assert_int_eq(run_packets(q, &f.p, 3), HX_EV_FAULT_READ);
    assert_same(&q->ca, &q->cb);
    ck_assert_uint_eq(q->ca.pc, CODE + 4);
    ck_assert_uint_eq(q->ca.r[4], 0);
    ck_assert_uint_eq(q->ca.r[5], 0x55);
    ck_assert_uint_eq(q->ca.r[8], 3);
    ck_assert_uint_eq(q->eva.tag, q->evb.tag);
    fixture_free(&f);
}
END_TEST

START_TEST(test_block_code_write_stops)
{
    // a store into the page holding cached code: the block stops after that packet
    static const uint32_t *const w[] = { ADD_R8, STORE_R9, ADD_R8, ADD_R8 };
    struct fixture f;
    fixture_init(&f, w, 4, (enum hx_block_mode)_i);
    struct pair *q = &f.q;
    ck_assert_uint_eq(f.b->npk, 4);
    q->ca.r[9] = CODE + 0x100;
    uint64_t gen = q->ma.code_gen;
    ck_assert_int_eq(fixture_run(&f), HX_EV_NONE);
    ck_assert_uint_gt(q->ma.code_gen, gen);
    ck_assert_uint_eq(q->ca.pc, CODE + 8);
    ck_assert_uint_eq(q->ca.packets, 2);
    // elsewhere it runs to the end
    q->ca.pc = CODE;
    q->ca.r[9] = DATA;
    ck_assert_int_eq(fixture_run(&f), HX_EV_NONE);
    ck_assert_uint_eq(q->ca.pc, CODE + 16);
    ck_assert_uint_eq(q->ca.packets, 6);
    fixture_free(&f);
}
END_TEST

// A build that compiles stencils (src/cpu/sources.cmake) has one for nearly every semantic
// function: tools/stencils.py refusing them wholesale (a new compiler, a new relocation)
// would leave compiled code calling them, right but slow, without anything else noticing.
// (HVX rows have none by design: tools/isa_sem.py; compiled code calls them.)
START_TEST(test_stencils_present)
{
#ifdef HEXSIM_HAVE_STENCILS
    unsigned fns = 0, with = 0;
    for (unsigned t = 0; t < HX_NUM_TAGS; t++) {
        if (hexsim_isa_sem[t] && !(hexsim_isa_table[t].flags & HX_F_HVX)) {
            fns++;
            with += hexsim_isa_stencil[t].code != NULL;
        }
    }
    ck_assert_uint_gt(fns, 0);
    ck_assert_msg(with * 100 >= fns * 95, "%u of %u semantic functions have stencils", with,
                  fns);
#endif
}
END_TEST

START_TEST(test_block_chains)
{
    // a compiled block ending in a jump goes on into the compiled block at its target while
    // the packet limit allows, once it is linked to it (its first run returns to be linked);
    // interpreted blocks return to the caller
    struct prog p = { 0 }, q = { .base = CODE + 4 + 0x100 };
    prog_add(&p, ADD_R8, 1);
    prog_add(&p, JUMP_ADD, 2);
    prog_add(&q, ADD_R8, 1);
    prog_add(&q, ADD_R8, 1);
    struct hx_block_table *t = hx_block_table_new((enum hx_block_mode)_i, 0);
    struct hx_block *a = build(t, &p);
    build(t, &q);
    ck_assert_ptr_eq(hx_block_find(t, CODE), a);
    for (int limit = -1; limit < 2; limit++) {   // -1: the run that links
        struct hexsim_cpu c;
        cpu_init(&c);
        struct hexsim_mem mem;
        hexsim_mem_init(&mem);
        struct hexsim_exec_env env = { .cpu = &c, .mem = &mem, .arch = 68, .user_mode = 1 };
        struct hexsim_event_info ev;
        struct hx_exec x;
        hx_exec_begin(&x, &env, &ev);
        x.stop = limit > 0 ? 3 : 100;   // 3: room for the first block only
        ck_assert_int_eq(hx_run_block(&x, a), HX_EV_NONE);
        bool chained = t->jit && !limit;
        ck_assert_uint_eq(c.packets, chained ? 4 : 2);
        ck_assert_uint_eq(c.pc, chained ? CODE + 4 + 0x108 : CODE + 4 + 0x100);
        ck_assert_uint_eq(c.r[8], chained ? 9 : 3);
        ck_assert(limit >= 0 || t->exit_from == (t->jit ? a : NULL));
        if (t->exit_from)
            hx_block_link(t, c.pc);
        hexsim_mem_free(&mem);
    }
    hx_block_table_free(t);
}
END_TEST

static struct hx_block *add_block(struct hx_block_table *t, uint32_t addr, unsigned n);

// Runs block a from CODE with r0 = r0 and x.stop = 100 (the run loop's part: links the block
// that left for one it is not linked to); returns the block that did (NULL: none).
static struct hx_block *run_jumpr(struct hx_block_table *t, struct hx_block *a, uint32_t r0,
                                  struct hexsim_cpu *c)
{
    cpu_init(c);
    c->r[0] = r0;
    struct hexsim_mem mem;
    hexsim_mem_init(&mem);
    struct hexsim_exec_env env = { .cpu = c, .mem = &mem, .arch = 68, .user_mode = 1 };
    struct hexsim_event_info ev;
    struct hx_exec x;
    hx_exec_begin(&x, &env, &ev);
    x.stop = 100;
    ck_assert_int_eq(hx_run_block(&x, a), HX_EV_NONE);
    hexsim_mem_free(&mem);
    struct hx_block *from = t->exit_from;
    if (from)
        hx_block_link(t, c->pc);
    ck_assert_ptr_null(t->exit_from);
    return from;
}

START_TEST(test_block_link_gate)
{
    // a compiled block ending in an indirect jump (a return is one: jumpr r31) to targets
    // that change: for each new target it returns to be linked until its links are all
    // taken, and goes on into the linked ones; then (the gate open) it goes on through the
    // jump cache into a compiled block at another target, and still returns for a target
    // with no compiled block (or none at all), with cpu.pc there
    struct prog p = { 0 };
    prog_add(&p, ADD_R8, 1);
    prog_add(&p, JUMPR_R0, 1);
    struct hx_block_table *t = hx_block_table_new((enum hx_block_mode)_i, 0);
    struct hx_block *a = build(t, &p);
    const uint32_t to[4] = { CODE + 0x100, CODE + 0x200, CODE + 0x300, CODE + 0x400 };
    struct hx_block *b[4];
    for (unsigned i = 0; i < 4; i++) {
        struct prog q = { .base = to[i] };
        prog_add(&q, ADD_R8, 1);
        prog_add(&q, ADD_R8, 1);
        b[i] = build(t, &q);
    }
    struct hx_block *b4 = add_block(t, CODE + 0x500, 1);   // interpreted: not hot yet
    const bool jit = t->jit != NULL;
    _Static_assert(HX_BLOCK_LINKS == 2, "the targets below");
    struct hexsim_cpu c;
    // (after b[i], no block follows: it returns naming itself)
    const struct { unsigned target; bool chained; } run[] = {
        { 0, false }, { 0, true }, { 1, false }, { 1, true }, { 0, true },
        { 2, true }, { 3, true }, { 2, true }, { 1, true },
    };
    for (unsigned k = 0; k < sizeof(run) / sizeof(run[0]); k++) {
        const unsigned i = run[k].target;
        const bool chained = jit && run[k].chained;
        struct hx_block *from = run_jumpr(t, a, to[i], &c);
        ck_assert_ptr_eq(from, jit ? chained ? b[i] : a : NULL);
        ck_assert_uint_eq(c.packets, chained ? 4 : 2);
        ck_assert_uint_eq(c.pc, chained ? to[i] + 8 : to[i]);
        ck_assert_uint_eq(c.r[8], chained ? 9 : 3);
        ck_assert_uint_eq(a->nlinks, jit ? (k < 2 ? 1 : 2) : 0);
    }
    // no compiled block there, or none at all: back to the caller at the target
    const uint32_t cold[2] = { b4->addr, CODE + 0x600 };
    for (unsigned i = 0; i < 2; i++) {
        ck_assert_ptr_eq(run_jumpr(t, a, cold[i], &c), jit ? a : NULL);
        ck_assert_uint_eq(c.packets, 2);
        ck_assert_uint_eq(c.pc, cold[i]);
    }
    // a flush forgets links and the jump cache: the block built again returns to be linked
    hx_block_flush(t);
    a = build(t, &p);
    struct prog q = { .base = to[2] };
    prog_add(&q, ADD_R8, 1);
    prog_add(&q, ADD_R8, 1);
    build(t, &q);
    ck_assert_ptr_eq(run_jumpr(t, a, to[2], &c), jit ? a : NULL);
    ck_assert_uint_eq(c.packets, 2);
    ck_assert_ptr_eq(run_jumpr(t, a, to[2], &c), jit ? hx_block_find(t, to[2]) : NULL);
    ck_assert_uint_eq(c.packets, jit ? 4 : 2);
    hx_block_table_free(t);
}
END_TEST


// A block of n packets { r8 = add(r8,#3) } at addr, sealed (NULL if not).
static struct hx_block *add_block(struct hx_block_table *t, uint32_t addr, unsigned n)
{
    struct hx_block *b = hx_block_start(t, addr);
    for (unsigned i = 0; i < n; i++) {
        struct hexsim_packet pkt;
        ck_assert_int_eq(hexsim_decode_packet(ADD_R8, 1, addr + 4 * i, 68, &pkt),
                         HX_DECODE_OK);
        ck_assert(hx_block_append(b, &pkt));
    }
    return hx_block_seal(t, b);
}

START_TEST(test_block_many)
{
    // 8000 blocks 8 KiB apart (a direct-mapped table by address bits would keep one of
    // them) and 8000 at neighbouring addresses: all stay, none is built twice
    struct hx_block_table *t = hx_block_table_new((enum hx_block_mode)_i, 0);
    ck_assert_ptr_nonnull(t);
    uint64_t flushes = t->flushes;
    for (uint32_t i = 0; i < 8000; i++) {
        add_block(t, CODE + 8192 * i, 1);
        add_block(t, 0x40000000u + 4 * i, 1);
    }
    for (uint32_t i = 0; i < 8000; i++) {
        struct hx_block *a = hx_block_find(t, CODE + 8192 * i);
        struct hx_block *b = hx_block_find(t, 0x40000000u + 4 * i);
        ck_assert(a && a->addr == CODE + 8192 * i && b && b->addr == 0x40000000u + 4 * i);
    }
    ck_assert_ptr_null(hx_block_find(t, CODE + 4));
    ck_assert_uint_eq(t->built, 16000);
    ck_assert_uint_eq(t->flushes, flushes);
    ck_assert_uint_ge(t->nslots, 2 * 16000);
    hx_block_flush(t);
    ck_assert_ptr_null(hx_block_find(t, CODE));
    ck_assert_ptr_null(hx_block_find(t, 0x40000000u));
    hx_block_table_free(t);
}
END_TEST

START_TEST(test_block_pressure)
{
    // the smallest code cache and more code than it holds: it is flushed whole when full
    // (blocks of before the flush are gone, the others stay) and every block still runs as
    // packet-by-packet execution would
    struct hx_block_table *t = hx_block_table_new((enum hx_block_mode)_i, HX_BLOCK_CACHE_MIN);
    ck_assert_ptr_nonnull(t);
    uint64_t flushes = t->flushes;
    uint32_t first = CODE;   // the first block since the last flush
    struct hexsim_mem mem;
    hexsim_mem_init(&mem);
    for (uint32_t i = 0; i < 150; i++) {
        const uint32_t addr = CODE + 0x100 * i;
        uint64_t f = t->flushes;
        struct hx_block *b = add_block(t, addr, HX_BLOCK_MAX_PKTS);
        ck_assert_ptr_nonnull(b);
        if (t->flushes != f)   // the blocks' arena was full: b is the first in the new one
            first = addr;
        f = t->flushes;
        hx_block_compile(t, b);
        if (t->flushes != f) {   // b went too: built again, into the empty cache
            first = addr;
            ck_assert_ptr_null(hx_block_find(t, addr));
            b = add_block(t, addr, HX_BLOCK_MAX_PKTS);
            hx_block_compile(t, b);
        }
        ck_assert(!t->jit || b->jit);
        ck_assert_ptr_eq(hx_block_find(t, addr), b);
        ck_assert_ptr_nonnull(hx_block_find(t, first));
        if (first >= CODE + 0x100)
            ck_assert_ptr_null(hx_block_find(t, first - 0x100));
        struct hexsim_cpu c;
        cpu_init(&c);
        c.pc = addr;
        struct hexsim_exec_env env = { .cpu = &c, .mem = &mem, .arch = 68, .user_mode = 1 };
        struct hexsim_event_info ev;
        struct hx_exec x;
        hx_exec_begin(&x, &env, &ev);
        x.stop = HX_BLOCK_MAX_PKTS;
        ck_assert_int_eq(hx_run_block(&x, b), HX_EV_NONE);
        ck_assert_uint_eq(c.packets, HX_BLOCK_MAX_PKTS);
        ck_assert_uint_eq(c.pc, addr + 4 * HX_BLOCK_MAX_PKTS);
        ck_assert_uint_eq(c.r[8], 3 * HX_BLOCK_MAX_PKTS);
    }
    hexsim_mem_free(&mem);
    // 150 blocks of 16 packets: more than the least cache holds, compiled or not
    ck_assert_uint_gt(t->flushes, flushes);
    hx_block_table_free(t);
}
END_TEST

START_TEST(test_block_links)
{
    // a compiled block whose successor is not in the jump cache returns, naming itself in
    // exit_from; hx_block_link patches a link to the successor, and from then on the block
    // goes on into it through the link alone (the jump cache emptied); a flush forgets it
    struct prog p = { 0 }, q = { .base = CODE + 4 + 0x100 };
    prog_add(&p, ADD_R8, 1);
    prog_add(&p, JUMP_ADD, 2);
    prog_add(&q, ADD_R8, 1);
    prog_add(&q, ADD_R8, 1);
    struct hx_block_table *t = hx_block_table_new((enum hx_block_mode)_i, 0);
    struct hx_block *a = build(t, &p);
    struct hx_block *b = build(t, &q);
    for (int round = 0; round < 3; round++) {
        memset(t->jc, 0, sizeof(t->jc));
        struct hexsim_cpu c;
        cpu_init(&c);
        struct hexsim_mem mem;
        hexsim_mem_init(&mem);
        struct hexsim_exec_env env = { .cpu = &c, .mem = &mem, .arch = 68, .user_mode = 1 };
        struct hexsim_event_info ev;
        struct hx_exec x;
        hx_exec_begin(&x, &env, &ev);
        x.stop = 100;
        ck_assert_int_eq(hx_run_block(&x, a), HX_EV_NONE);
        bool chained = t->jit && round > 0;
        ck_assert_uint_eq(c.packets, chained ? 4 : 2);
        ck_assert_uint_eq(c.pc, chained ? CODE + 4 + 0x108 : CODE + 4 + 0x100);
        ck_assert_uint_eq(c.r[8], chained ? 9 : 3);
        // (after b, no block follows)
        ck_assert_ptr_eq(t->exit_from, (t->jit ? chained ? b : a : NULL));
        if (t->exit_from)
            hx_block_link(t, c.pc);
        ck_assert_ptr_null(t->exit_from);
        ck_assert_uint_eq(a->nlinks, t->jit ? 1 : 0);
        hexsim_mem_free(&mem);
    }
    hx_block_flush(t);
    ck_assert_ptr_null(hx_block_find(t, CODE));
    hx_block_table_free(t);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("block");
    TCase *tc = tcase_create("block");
    tcase_set_timeout(tc, 60);   // the sanitizers on a loaded machine (the cache tests)
    tcase_add_loop_test(tc, test_block_matches_packets, 0, 3);   // enum hx_block_mode
    tcase_add_loop_test(tc, test_block_jump_ends, 0, 3);   // enum hx_block_mode
    tcase_add_loop_test(tc, test_block_limits, 0, 3);   // enum hx_block_mode
    tcase_add_loop_test(tc, test_block_memory_packets, 0, 3);   // enum hx_block_mode
    tcase_add_loop_test(tc, test_block_fault_stops, 0, 3);   // enum hx_block_mode
    tcase_add_loop_test(tc, test_block_code_write_stops, 0, 3);   // enum hx_block_mode
    tcase_add_loop_test(tc, test_block_chains, 0, 3);   // enum hx_block_mode
    tcase_add_loop_test(tc, test_block_load_fault_undone, 0, 3);   // enum hx_block_mode
    tcase_add_loop_test(tc, test_block_many, 0, 3);   // enum hx_block_mode
    tcase_add_loop_test(tc, test_block_pressure, 0, 3);   // enum hx_block_mode
    tcase_add_loop_test(tc, test_block_links, 0, 3);   // enum hx_block_mode
    tcase_add_loop_test(tc, test_block_link_gate, 0, 3);   // enum hx_block_mode
    tcase_add_test(tc, test_stencils_present);
    suite_add_tcase(s, tc);
    return hexsim_check_run(s);
}
