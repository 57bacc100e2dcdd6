// SPDX-License-Identifier: MIT
// Check suite for the executor's short paths (src/cpu/exec_step.h, decode.c): a packet whose
// one store writes memory at once (store_direct), faults checked once per packet, ALU-only
// packets with in-place writes and loop ends (alu), event fields set with the kind, and an
// HVX store's commit in system mode (one translation per page, hvx_mem.c). Each
// case checks the architectural rule the path must keep (PRM 3.3: a packet that faults
// commits nothing; 7.2: loop ends; 8.7: branches). Instruction words from llvm-mc-16.
#include "../check_main.h"
#include <check.h>
#include <string.h>

#include "cpu/decode.h"
#include "cpu/exec.h"
#include "cpu/isa.h"
#include "hexsim/arch.h"
#include "hexsim/mem.h"

#define CODE 0x10000u
#define DATA 0x20000u
#define RODATA 0x30000u
#define NOWHERE 0x50000u   // never mapped

struct rig {
    struct hexsim_mem mem;
    struct hexsim_cpu cpu;
    struct hexsim_exec_env env;
    struct hexsim_packet pkt;
    struct hexsim_event_info ev;
};

static void rig_init(struct rig *g)
{
    memset(g, 0, sizeof *g);
    hexsim_mem_init(&g->mem);
    ck_assert_int_eq(hexsim_mem_map(&g->mem, CODE, HEXSIM_PAGE_SIZE,
                                    HEXSIM_PROT_R | HEXSIM_PROT_X), 0);
    ck_assert_int_eq(hexsim_mem_map(&g->mem, DATA, HEXSIM_PAGE_SIZE,
                                    HEXSIM_PROT_R | HEXSIM_PROT_W), 0);
    ck_assert_int_eq(hexsim_mem_map(&g->mem, RODATA, HEXSIM_PAGE_SIZE, HEXSIM_PROT_R), 0);
    g->env.cpu = &g->cpu;
    g->env.mem = &g->mem;
    g->env.arch = 68;
    g->env.user_mode = 1;
    g->cpu.pc = CODE;
}

// Decodes words as the packet at CODE and runs it.
static int run(struct rig *g, const uint32_t *w, size_t n)
{
    ck_assert_int_eq(hexsim_decode_packet(w, n, CODE, 68, &g->pkt), HX_DECODE_OK);
    g->cpu.pc = CODE;
    return hexsim_exec_packet(&g->env, &g->pkt, &g->ev);
}

static uint32_t peek(struct rig *g, uint32_t addr)
{
    uint64_t v = 0;
    ck_assert_int_eq(hexsim_mem_read(&g->mem, addr, 4, HEXSIM_PROT_R, &v), 0);
    return (uint32_t)v;
}

// { r0 = memw(r1+#0); memw(r2+#0) = r3 } (a duplex: the load runs first)
static const uint32_t LOAD_STORE[] = { 0x80100023u };
// { r4 = add(r4,#1); memw(r2+#0) = r3 }
static const uint32_t ADD_STORE[] = { 0x71440023u };
// { nop; r5 = add(r5,#2); r4 = add(r4,#1) }:endloop0
static const uint32_t ALU_LOOP[] = { 0x7f008000u, 0x20253144u };
// { r4 = add(r4,#1); r5 = add(r5,r4) } (the second reads what the first writes)
static const uint32_t ADD_ADD[] = { 0x31443845u };
// { r0 = add(r1,r2):sat }
static const uint32_t ADD_SAT[] = { 0xf641c200u };
// { jump .+0x100; r4 = add(r4,#1) }
static const uint32_t JUMP_ADD[] = { 0x58004080u, 0xb004c024u };
// { p0 = cmp.eq(r4,#11); if (!p0.new) jump:nt .+0x40 }
static const uint32_t CMP_JUMP[] = { 0x1044cb20u };
// { r0 = sfadd(r1,r2) }
static const uint32_t SFADD[] = { 0xeb01c200u };
// { trap0(#1) }
static const uint32_t TRAP0[] = { 0x5400c004u };
// { vmemu(r2+#0) = v1 }
static const uint32_t VMEMU_STORE[] = { 0x2822c0e1u };

// System mode (exec.h: struct hexsim_xlat) over the rig's pages, one to one, with an empty
// soft TLB, so that every check of an access calls translate: the calls are counted.
struct counting_xlat {
    struct hexsim_xlat xlat;
    struct hexsim_tlb tlb;
    struct hexsim_mem *mem;
    unsigned calls;
};

static int count_translate(void *ctx, uint32_t ea, unsigned access, struct hexsim_xlat_result *r)
{
    struct counting_xlat *c = ctx;
    c->calls++;
    r->page = hexsim_mem_page(c->mem, ea);
    r->pa = ea;
    return hexsim_mem_check(c->mem, ea & ~7u, 1, access);
}

START_TEST(test_load_fault_stops_later_store)
{
    struct rig g;
    rig_init(&g);
    g.cpu.r[0] = 0x11u;
    g.cpu.r[1] = NOWHERE;
    g.cpu.r[2] = DATA;
    g.cpu.r[3] = 0xdeadbeefu;
    int k = run(&g, LOAD_STORE, 1);
    ck_assert(g.pkt.store_direct);   // the path under test
    ck_assert_int_eq(k, HX_EV_FAULT_READ);
    ck_assert_uint_eq(g.ev.addr, NOWHERE);
    ck_assert_int_eq(g.ev.tag, HX_SL1_loadri_io);
    ck_assert_uint_eq(peek(&g, DATA), 0);       // the store did not happen
    ck_assert_uint_eq(g.cpu.r[0], 0x11u);       // nor the load's write
    ck_assert_uint_eq(g.cpu.pc, CODE);
    ck_assert_uint_eq(g.cpu.packets, 0);
    hexsim_mem_free(&g.mem);
}
END_TEST

START_TEST(test_store_fault_commits_nothing)
{
    struct rig g;
    rig_init(&g);
    g.cpu.r[1] = DATA;
    g.cpu.r[2] = RODATA;
    g.cpu.r[4] = 41;
    ck_assert_int_eq(run(&g, LOAD_STORE, 1), HX_EV_FAULT_WRITE);
    ck_assert_int_eq(g.ev.tag, HX_SS1_storew_io);
    ck_assert_uint_eq(g.cpu.r[0], 0);
    ck_assert_int_eq(run(&g, ADD_STORE, 1), HX_EV_FAULT_WRITE);
    ck_assert(g.pkt.store_direct);
    ck_assert_uint_eq(g.ev.addr, RODATA);
    ck_assert_uint_eq(g.cpu.r[4], 41);          // the add before the store is not committed
    ck_assert_uint_eq(g.cpu.packets, 0);
    hexsim_mem_free(&g.mem);
}
END_TEST

START_TEST(test_store_direct_commits)
{
    struct rig g;
    rig_init(&g);
    ck_assert_int_eq(hexsim_mem_write(&g.mem, DATA + 8, 4, 0x12345678u), 0);
    g.cpu.r[1] = DATA + 8;
    g.cpu.r[2] = DATA;
    g.cpu.r[3] = 0xcafef00du;
    ck_assert_int_eq(run(&g, LOAD_STORE, 1), HX_EV_NONE);
    ck_assert_uint_eq(g.cpu.r[0], 0x12345678u);
    ck_assert_uint_eq(peek(&g, DATA), 0xcafef00du);
    g.cpu.r[4] = 41;
    g.cpu.r[2] = DATA + 4;
    ck_assert_int_eq(run(&g, ADD_STORE, 1), HX_EV_NONE);
    ck_assert_uint_eq(g.cpu.r[4], 42);
    ck_assert_uint_eq(peek(&g, DATA + 4), 0xcafef00du);
    ck_assert_uint_eq(g.cpu.pc, CODE + 4);
    ck_assert_uint_eq(g.cpu.packets, 2);
    hexsim_mem_free(&g.mem);
}
END_TEST

START_TEST(test_alu_loop_end)
{
    struct rig g;
    rig_init(&g);
    g.cpu.c[HX_SA0] = 0x12340u;
    g.cpu.c[HX_LC0] = 3;
    g.cpu.r[4] = 10;
    g.cpu.r[5] = 100;
    ck_assert_int_eq(run(&g, ALU_LOOP, 2), HX_EV_NONE);
    ck_assert(g.pkt.alu);
    ck_assert_uint_eq(g.cpu.r[4], 11);
    ck_assert_uint_eq(g.cpu.r[5], 102);
    ck_assert_uint_eq(g.cpu.pc, 0x12340u);      // back to the loop start
    ck_assert_uint_eq(g.cpu.c[HX_LC0], 2);
    g.cpu.c[HX_LC0] = 1;                        // last iteration: falls through
    ck_assert_int_eq(run(&g, ALU_LOOP, 2), HX_EV_NONE);
    ck_assert_uint_eq(g.cpu.pc, CODE + 8);
    ck_assert_uint_eq(g.cpu.c[HX_LC0], 1);
    // with USR:LPCFG set the general commit runs: LPCFG counts down, P3 becomes true at 1
    g.cpu.c[HX_LC0] = 5;
    g.cpu.c[HX_USR] = 1u << HX_USR_LPCFG_SHIFT;
    g.cpu.p[3] = 0;
    ck_assert_int_eq(run(&g, ALU_LOOP, 2), HX_EV_NONE);
    ck_assert_uint_eq(g.cpu.c[HX_USR] & HX_USR_LPCFG_MASK, 0);
    ck_assert_uint_eq(g.cpu.p[3], 0xff);
    ck_assert_uint_eq(g.cpu.c[HX_LC0], 4);
    ck_assert_uint_eq(g.cpu.pc, 0x12340u);
    ck_assert_uint_eq(g.cpu.packets, 3);
    hexsim_mem_free(&g.mem);
}
END_TEST

START_TEST(test_alu_overflow_sets_usr)
{
    struct rig g;
    rig_init(&g);
    g.cpu.r[1] = 0x7fffffffu;
    g.cpu.r[2] = 1;
    ck_assert_int_eq(run(&g, ADD_SAT, 1), HX_EV_NONE);
    ck_assert(g.pkt.alu);
    ck_assert_uint_eq(g.cpu.r[0], 0x7fffffffu);
    ck_assert_uint_eq(g.cpu.c[HX_USR] & HX_USR_OVF, HX_USR_OVF);
    ck_assert_uint_eq(g.cpu.pc, CODE + 4);
    // the next packet does not inherit the sticky bit to set again or anything else
    g.cpu.c[HX_USR] = 0;
    g.cpu.r[1] = 1;
    ck_assert_int_eq(run(&g, ADD_SAT, 1), HX_EV_NONE);
    ck_assert_uint_eq(g.cpu.r[0], 2);
    ck_assert_uint_eq(g.cpu.c[HX_USR], 0);
    hexsim_mem_free(&g.mem);
}
END_TEST

START_TEST(test_alu_jumps)
{
    struct rig g;
    rig_init(&g);
    g.cpu.r[4] = 10;
    ck_assert_int_eq(run(&g, JUMP_ADD, 2), HX_EV_NONE);
    ck_assert_int_eq(g.pkt.alu, HX_ALU_JUMPS);
    ck_assert_uint_eq(g.cpu.r[4], 11);
    ck_assert_uint_eq(g.cpu.pc, CODE + 0x100);
    ck_assert_uint_eq(g.cpu.tm.st.taken, 1);
    ck_assert_int_eq(run(&g, CMP_JUMP, 1), HX_EV_NONE);   // r4 == 11: falls through
    ck_assert_int_eq(g.pkt.alu, HX_ALU_JUMPS);
    ck_assert_uint_eq(g.cpu.p[0], 0xff);
    ck_assert_uint_eq(g.cpu.pc, CODE + 4);
    g.cpu.r[4] = 12;
    ck_assert_int_eq(run(&g, CMP_JUMP, 1), HX_EV_NONE);
    ck_assert_uint_eq(g.cpu.p[0], 0);
    ck_assert_uint_eq(g.cpu.pc, CODE + 0x40);
    ck_assert_uint_eq(g.cpu.tm.st.taken, 2);
    ck_assert_uint_eq(g.cpu.packets, 3);
    hexsim_mem_free(&g.mem);
}
END_TEST

// A floating-point result's sticky flags reach USR from the short path.
START_TEST(test_alu_fp_flags)
{
    struct rig g;
    rig_init(&g);
    g.cpu.r[1] = 0x3f800000u;   // 1.0f
    g.cpu.r[2] = 0x2edbe6ffu;   // 1e-10f: the sum is inexact
    ck_assert_int_eq(run(&g, SFADD, 1), HX_EV_NONE);
    ck_assert_int_eq(g.pkt.alu, HX_ALU_PLAIN);
    ck_assert_uint_eq(g.cpu.r[0], 0x3f800000u);
    ck_assert_uint_eq(g.cpu.c[HX_USR], HX_USR_FPINPF);
    g.cpu.r[2] = 0x3f800000u;   // 1.0f + 1.0f is exact; the sticky bit stays
    ck_assert_int_eq(run(&g, SFADD, 1), HX_EV_NONE);
    ck_assert_uint_eq(g.cpu.r[0], 0x40000000u);
    ck_assert_uint_eq(g.cpu.c[HX_USR], HX_USR_FPINPF);
    hexsim_mem_free(&g.mem);
}
END_TEST

// A packet where one instruction reads a register an earlier one writes is staged: every
// instruction sees the registers as they were before the packet.
START_TEST(test_staged_when_read_after_write)
{
    struct rig g;
    rig_init(&g);
    g.cpu.r[4] = 10;
    g.cpu.r[5] = 100;
    ck_assert_int_eq(run(&g, ADD_ADD, 1), HX_EV_NONE);
    ck_assert(!g.pkt.alu && !g.pkt.direct);
    ck_assert_uint_eq(g.cpu.r[4], 11);
    ck_assert_uint_eq(g.cpu.r[5], 110);         // r5 + r4 as before the packet
    hexsim_mem_free(&g.mem);
}
END_TEST

// Only the kind is cleared per packet; an event sets every field, so nothing of an earlier
// event shows through.
START_TEST(test_event_fields_fresh)
{
    struct rig g;
    rig_init(&g);
    g.cpu.r[1] = NOWHERE;
    ck_assert_int_eq(run(&g, LOAD_STORE, 1), HX_EV_FAULT_READ);
    ck_assert_int_eq(run(&g, TRAP0, 1), HX_EV_TRAP0);
    ck_assert_uint_eq(g.ev.imm, 1);
    ck_assert_uint_eq(g.ev.addr, 0);
    ck_assert_int_eq(g.ev.detail, 0);
    ck_assert_int_eq(g.ev.tag, -1);
    ck_assert_int_eq(run(&g, ADD_SAT, 1), HX_EV_NONE);
    ck_assert_int_eq(g.ev.kind, HX_EV_NONE);
    hexsim_mem_free(&g.mem);
}
END_TEST

// An HVX store commits through one translation per page it writes, not one per byte (issue
// 34: a vmemu copy in the booted guest spent most of its time translating), and writes the
// same bytes: an unaligned vmemu across two pages, 128 bytes, checked when staged (one
// translation per aligned block) and written at the commit.
START_TEST(test_hvx_store_translates_per_page)
{
    struct rig g;
    rig_init(&g);
    ck_assert_int_eq(hexsim_mem_map(&g.mem, DATA + HEXSIM_PAGE_SIZE, HEXSIM_PAGE_SIZE,
                                    HEXSIM_PROT_R | HEXSIM_PROT_W), 0);
    struct counting_xlat c;
    memset(&c, 0, sizeof c);
    c.xlat.tlb = &c.tlb;
    c.xlat.ctx = &c;
    c.xlat.translate = count_translate;
    c.mem = &g.mem;
    for (unsigned i = 0; i < HEXSIM_TLB_SIZE; i++)
        c.tlb.e[i].vpage = ~0u;
    g.env.xlat = &c.xlat;
    g.env.user_mode = 0;
    uint32_t ea = DATA + HEXSIM_PAGE_SIZE - 40;   // 40 bytes in the first page, 88 in the next
    for (unsigned i = 0; i < 128; i++)
        g.cpu.hvx.v[1].ub[i] = (uint8_t)(3 * i + 1);
    g.cpu.r[2] = ea;
    g.env.arch = 68 | HEXSIM_ARCH_HVX;
    ck_assert_int_eq(hexsim_decode_packet(VMEMU_STORE, 1, CODE, g.env.arch, &g.pkt),
                     HX_DECODE_OK);
    ck_assert_int_eq(hexsim_exec_packet(&g.env, &g.pkt, &g.ev), HX_EV_NONE);
    for (unsigned i = 0; i < 128; i += 4) {
        uint32_t want = 0;
        for (unsigned k = 0; k < 4; k++)
            want |= (uint32_t)(uint8_t)(3 * (i + k) + 1) << (8 * k);
        ck_assert_uint_eq(peek(&g, ea + i), want);
    }
    ck_assert_uint_eq(peek(&g, ea - 4), 0);
    ck_assert_uint_eq(peek(&g, ea + 128), 0);
    ck_assert_uint_le(c.calls, 4);   // two blocks staged, two pages written
    hexsim_mem_free(&g.mem);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("exec_paths");
    TCase *tc = tcase_create("exec_paths");
    tcase_add_test(tc, test_load_fault_stops_later_store);
    tcase_add_test(tc, test_store_fault_commits_nothing);
    tcase_add_test(tc, test_store_direct_commits);
    tcase_add_test(tc, test_alu_loop_end);
    tcase_add_test(tc, test_alu_overflow_sets_usr);
    tcase_add_test(tc, test_event_fields_fresh);
    tcase_add_test(tc, test_staged_when_read_after_write);
    tcase_add_test(tc, test_alu_jumps);
    tcase_add_test(tc, test_alu_fp_flags);
    tcase_add_test(tc, test_hvx_store_translates_per_page);
    suite_add_tcase(s, tc);
    return hexsim_check_run(s);
}
