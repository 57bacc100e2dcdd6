// SPDX-License-Identifier: MIT
// Check suite of the packet-formation rules (src/cpu/check.c) through the decoder: one packet
// per rule, accepted or refused on V60 and V68 as llvm-objdump-16 does (the expected values
// were read from llvm-objdump-16 and llvm-mc-16; tests/isa compares whole random streams),
// the PC transfers the assembler refuses but the hardware executes (the write ignored), and
// the decoder's split of a compare-jump whose predicate another instruction writes; the HVX
// packet rules on V73 with HVX (the cases of tests/isa/hvx_packet_rules.txt, which
// tests/isa/hvx_packet_rules.py checks against llvm-mc-16 with many more), each illegal one
// with the rule an invalid packet's report names.
#include <check.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "cpu/check.h"
#include "cpu/decode.h"
#include "hexsim/arch.h"
#include "hexsim/disasm.h"

struct check_case {
    const char *what;
    uint32_t words[4];
    unsigned nwords;
    bool v60, v68;   // llvm-objdump-16 decodes the packet (default CPU; --mcpu=hexagonv68)
};

static const struct check_case cases[] = {
    { "two branches that both need slot 3", { 0x61b77bc6, 0x615fc142 }, 2, false, false },
    { "a compare-jump before a slot-3-only jump", { 0x15386378, 0x6189dd3a }, 2, false, false },
    { "loop1 set-up in a packet ending loop 0", { 0x69208893, 0x67d508d6 }, 2, true, true },
    { "loop0 set-up in a packet ending loop 0", { 0x60018400, 0xf303c402 }, 2, false, false },
    { "writes of r31:30 conditional on different predicates",
      { 0x31d0571f, 0x30c6f25e }, 2, true, true },
    { "carry predicate read as .new", { 0x333e403e, 0xc2cdd120 }, 2, false, false },
    { "dcfetch beside a store", { 0x9407410b, 0x35c2c217 }, 2, false, false },
    { "dcfetch beside a load", { 0x94014000, 0x9183c002 }, 2, true, true },
    { "solo memw_rl beside a load", { 0xa0b5540a, 0x30c5de41 }, 2, false, false },
    { "extract, tableidx and a compare-jump (compare-jumps in any slot from V62)",
      { 0x8de05017, 0x876c749f, 0x131bd978 }, 3, false, true },
    { "compare-jump .new predicate also written late by vacsh",
      { 0x15155522, 0xeaa8db36 }, 2, false, false },
    { "r29 written beside a duplex deallocframe", { 0xb7c3475d, 0x3f000851 }, 2, false, false },
    { "r19.l = #u16 as a new-value producer", { 0x71737771, 0x24a2e898 }, 2, true, true },
    { "decbin's late p0 beside a compare-jump on p0",
      { 0x1003518e, 0xbf4e7772, 0xc1c2cfc5 }, 3, false, false },
    { "saturating add beside a USR write", { 0xf6414200, 0x6223c008 }, 2, false, false },
    { "new-value store beside another store",
      { 0xf3024301, 0xa1a45200, 0xa185c600 }, 3, false, false },
    { "barrier beside a load", { 0xa8004000, 0x9182c001 }, 2, false, false },
    { "barrier beside an add", { 0xa8004000, 0xf302c301 }, 2, true, true },
    { "dccleana beside a load (slot 1 for ALU32 only)",
      { 0xa0014000, 0x9183c002 }, 2, false, false },
    { "dccleana beside an add", { 0xa0014000, 0xf303c402 }, 2, true, true },
    { "jump before a conditional jump", { 0x58004020, 0x5c00c040 }, 2, false, false },
    { "conditional jump before a jump", { 0x5c004020, 0x5800c040 }, 2, true, true },
    { "call before a conditional jump", { 0x5a004020, 0x5c00c040 }, 2, false, false },
    { "jumpr beside a conditional jump", { 0x5c004020, 0x5281c000 }, 2, false, false },
    { "three conditional jumps", { 0x5c004020, 0x5c004140, 0x5c00c260 }, 3, false, false },
    { "allocframe (slot 0 only) beside a store, which takes slot 1",
      { 0xa09d4001, 0xa181c200 }, 2, true, true },
    { "memw_aq beside a load (slot 0 only)", { 0x92024801, 0x9184c003 }, 2, false, true },
    { "p3:0 written beside a predicate write", { 0x62214004, 0xf202c300 }, 2, false, false },
    { "r1 = add(r2,r3) and the new-value store of r1", { 0xf3024301, 0xa1a4d200 }, 2, true, true },
    { "two decbin", { 0xc1c244c0, 0xc1c8cac6 }, 2, false, false },
};

START_TEST(test_packet_rules)
{
    const struct check_case *c = &cases[_i];
    struct hexsim_packet pkt;
    int st60 = hexsim_decode_packet(c->words, c->nwords, 0x1000, 60, &pkt);
    int st68 = hexsim_decode_packet(c->words, c->nwords, 0x1000, 68, &pkt);
    ck_assert_msg((st60 == HX_DECODE_OK) == c->v60, "V60: %s: status %d", c->what, st60);
    ck_assert_msg((st68 == HX_DECODE_OK) == c->v68, "V68: %s: status %d", c->what, st68);
}
END_TEST

struct hvx_case {
    const char *what;
    uint32_t words[4];
    unsigned nwords;
    bool legal;
    const char *rule;   // illegal: the start of the rule its report names (check.c)
};

static const struct hvx_case hvx_cases[] = {
    { "4 x vadd (any unit each)", { 0x1c414001, 0x1c414102, 0x1c4141e3, 0x1c41c104 }, 4, true,
      NULL },
    { "3 x vadd and a double multiply", { 0x1c414001, 0x1c414102, 0x1c4141e3, 0x1c01c1c4 }, 4,
      false,
      "HVX: the vector instructions need more" },
    { "two double multiplies", { 0x1c0342c0, 0x1c07c6c4 }, 2, false,
      "HVX: the vector instructions need more" },
    { "double multiply and vunpack (xlane+shift)", { 0x1c0342c0, 0x1e01c644 }, 2, true, NULL },
    { "vdelta and vunpack (both xlane)", { 0x1f234221, 0x1e01c644 }, 2, false,
      "HVX: the vector instructions need more" },
    { "vdelta, vnormamt, two vmpyieo", { 0x1f234221, 0x1e0346a5, 0x1f694807, 0x1f69c80a }, 4,
      true, NULL },
    { "three vmpyieo", { 0x1f694801, 0x1f694802, 0x1f69c803 }, 3, false,
      "HVX: the vector instructions need more" },
    { "vhist beside vadd", { 0x1e006080, 0x1c43c201 }, 2, false,
      "HVX: the vector instructions need more" },
    { "vhist beside a .tmp load", { 0x28064041, 0x1e00e080 }, 2, true, NULL },
    { "vhist beside a vmem load", { 0x28064001, 0x1e00e080 }, 2, false,
      "HVX: the vector instructions need more" },
    { "two vector loads", { 0x28064005, 0x2807c006 }, 2, false,
      "HVX: more than one vector load" },
    { ".tmp and .cur loads", { 0x28064025, 0x2807c046 }, 2, false,
      "HVX: more than one vector load" },
    { "two vector stores on opposite predicates", { 0x28a64001, 0x28a7c022 }, 2, false,
      "HVX: more than one vector store" },
    { "vector load and vector store", { 0x28064001, 0x2827c002 }, 2, true, NULL },
    { "vmemu load beside three adds (slot 1 empty)",
      { 0x280640e5, 0xf3014204, 0xf3014203, 0xf301c208 }, 4, false,
      "HVX: an unaligned vector load or store (vmemu)" },
    { "vmemu load beside a scalar load", { 0x280640e5, 0x9187c003 }, 2, false,
      "HVX: an unaligned vector load or store (vmemu)" },
    { "vmemu load beside vdelta (both xlane)", { 0x280640e1, 0x1f24c322 }, 2, false,
      "HVX: the vector instructions need more" },
    { "vector store and 3 compute taking 4 units", { 0x28264002, 0x1c414001, 0x1c0141c4,
      0x1c41c1e3 }, 4, false,
      "HVX: the vector instructions need more" },
    { ".tmp load and a write of its register", { 0x28064041, 0x1c43c201 }, 2, true, NULL },
    { ".cur load and a write of its register", { 0x28064021, 0x1c43c201 }, 2, false,
      "a register is written by two instructions" },
    { "vextract beside an add (solo)", { 0x92024120, 0xf306c705 }, 2, false,
      "an instruction that must be alone" },
    { "vrmpy with Rtt (xlane or shift) beside vdelta and vnormamt",
      { 0x19c04280, 0x1f254423, 0x1e03c7a6 }, 3, false,
      "HVX: the vector instructions need more" },
    { "two .tmp destinations", { 0x28064041, 0x1e01c2c1 }, 2, false,
      "HVX: more than one .tmp destination" },
    { ".tmp load accumulated into", { 0x28064351, 0x1c0ff231 }, 2, false,
      "HVX: the register a .tmp load loads is accumulated into" },
    { ".tmp load read by an accumulation", { 0x28064351, 0x1c0ff130 }, 2, true, NULL },
};

START_TEST(test_hvx_packet_rules)
{
    const struct hvx_case *c = &hvx_cases[_i];
    struct hexsim_packet pkt;
    int st = hexsim_decode_packet(c->words, c->nwords, 0x1000, 73 | HEXSIM_ARCH_HVX_ALL, &pkt);
    ck_assert_msg((st == HX_DECODE_OK) == c->legal, "V73 HVX: %s: status %d", c->what, st);
    if (!c->legal) {
        const char *r = hexsim_packet_rule_str(pkt.rule);
        ck_assert_msg(!strncmp(r, c->rule, strlen(c->rule)), "V73 HVX: %s: rule %d: %s", c->what,
                      pkt.rule, r);
    } else {
        ck_assert_int_eq(pkt.rule, 0);
    }
}
END_TEST

// `pc = r0` and `c9:8 = r1:0` decode (they execute, the PC write ignored: PRM 2.2.1) but
// disassemble as <unknown>, as llvm-objdump-16 prints them; `usr = r0` is a plain transfer.
START_TEST(test_pc_write)
{
    static const struct { uint32_t word; bool pc; } w[] = {
        { 0x6220c009, true }, { 0x6320c008, true }, { 0x6220c008, false },
    };
    for (unsigned i = 0; i < sizeof w / sizeof w[0]; i++) {
        struct hexsim_packet pkt;
        struct hexsim_disasm_packet d;
        ck_assert_int_eq(hexsim_decode_packet(&w[i].word, 1, 0x1000, 68, &pkt), HX_DECODE_OK);
        ck_assert_int_eq(pkt.writes_pc, w[i].pc);
        hexsim_disasm_packet(&w[i].word, 1, 0x1000, &d);
        ck_assert_int_eq(d.valid, !w[i].pc);
    }
}
END_TEST

// { p0 = cmp.eq(r5,#7); if (p0.new) jump:nt L; p0 = cmp.eq(r6,#7) }: the compare-jump is split
// into its compare half (with the other writer of p0) and its jump half (after both);
// beside `r1 = add(r1,#1)` it stays whole.
START_TEST(test_cmpjump_split)
{
    static const uint32_t split[] = { 0x10054706, 0x7506c0e0 };
    static const uint32_t whole[] = { 0x10054704, 0xb001c021 };
    struct hexsim_packet pkt;
    ck_assert_int_eq(hexsim_decode_packet(split, 2, 0x1000, 68, &pkt), HX_DECODE_OK);
    unsigned tag = pkt.insn[0].tag;
    ck_assert_int_eq(pkt.ninsns, 2);
    ck_assert_int_eq(pkt.nexec, 3);
    ck_assert_int_eq(pkt.order[0], 0);
    ck_assert_int_eq(pkt.order[1], 1);
    ck_assert_int_eq(pkt.order[2], 2);
    ck_assert(pkt.insn[0].fn == hexsim_isa_sem_cmp[tag]);
    ck_assert_int_eq(pkt.insn[2].tag, tag);
    ck_assert_int_eq(pkt.insn[2].idx, 0);
    ck_assert(pkt.insn[2].fn == hexsim_isa_sem_jump[tag]);
    ck_assert_int_eq(hexsim_decode_packet(whole, 2, 0x1000, 68, &pkt), HX_DECODE_OK);
    ck_assert_int_eq(pkt.nexec, 2);
    ck_assert(pkt.insn[0].fn == hexsim_isa_sem[pkt.insn[0].tag]);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("check");
    TCase *tc = tcase_create("packet_rules");
    tcase_add_loop_test(tc, test_packet_rules, 0, (int)(sizeof cases / sizeof cases[0]));
    tcase_add_loop_test(tc, test_hvx_packet_rules, 0,
                        (int)(sizeof hvx_cases / sizeof hvx_cases[0]));
    tcase_add_test(tc, test_pc_write);
    tcase_add_test(tc, test_cmpjump_split);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? 1 : 0;
}
