// SPDX-License-Identifier: MIT
// Check suite for the HVM's guest MMU walker (every page size, permissions, user pages,
// invalid entries, the reserved top 16 MiB, L2 tables outside RAM) and the vmintop
// interrupt controller (edges, levels, enables, priority, affinity as local enables on
// three vCPUs), driven directly without a guest.
#include "../check_main.h"
#include <check.h>
#include <stdlib.h>

#include "hexsim/hvm.h"
#include "hexsim/mem.h"

#define PT 0x10000u
#define L2 0x20000u

static void w32(struct hexsim_mem *m, uint32_t a, uint32_t v)
{
    ck_assert_int_eq(hexsim_mem_write(m, a, 4, v), 0);
}

START_TEST(walk_sizes)
{
    struct hexsim_mem m;
    hexsim_mem_init(&m);
    hexsim_mem_map(&m, 0, 0x100000, HEXSIM_PROT_R | HEXSIM_PROT_W);
    for (uint32_t i = 0; i < 1024; i++)
        w32(&m, PT + 4 * i, HVM_PDE_INVALID);
    uint32_t rwx = HVM_PTE_R | HVM_PTE_W | HVM_PTE_X;
    w32(&m, PT + 4 * 0x300, 0x01000000u | rwx | 6);           // 16M at 0xc0000000
    w32(&m, PT + 4 * 0x301, 0x01400000u | HVM_PTE_R | 5);     // 4M at 0xc0400000
    w32(&m, PT + 4 * 0x100, L2 | 0);                          // 4K table at 0x40000000
    w32(&m, L2 + 4 * 5, 0x00abc000u | HVM_PTE_R | HVM_PTE_U);
    w32(&m, PT + 4 * 0x101, (L2 + 0x1000) | 4);               // 1M table at 0x40400000
    w32(&m, L2 + 0x1000 + 4 * 2, 0x00900000u | HVM_PTE_W);
    w32(&m, PT + 4 * 0x102, (L2 + 0x2000) | 1);               // 16K table at 0x40800000
    w32(&m, L2 + 0x2000 + 4 * 3, 0x00504000u | HVM_PTE_X);
    uint32_t pa;
    unsigned prot;
    ck_assert_int_eq(hexsim_hvm_walk(&m, PT, 0xc0123456u, false, &pa, &prot), 0);
    ck_assert_uint_eq(pa, 0x01123456u);
    ck_assert_uint_eq(prot, HEXSIM_PROT_R | HEXSIM_PROT_W | HEXSIM_PROT_X);
    ck_assert_int_eq(hexsim_hvm_walk(&m, PT, 0xc0412345u, false, &pa, &prot), 0);
    ck_assert_uint_eq(pa, 0x01412345u);
    ck_assert_uint_eq(prot, HEXSIM_PROT_R);
    ck_assert_int_eq(hexsim_hvm_walk(&m, PT, 0x40005678u, true, &pa, &prot), 0);
    ck_assert_uint_eq(pa, 0x00abc678u);
    ck_assert_int_eq(hexsim_hvm_walk(&m, PT, 0x40612345u, false, &pa, &prot), 0);
    ck_assert_uint_eq(pa, 0x00912345u);
    ck_assert_uint_eq(prot, HEXSIM_PROT_W);
    ck_assert_int_eq(hexsim_hvm_walk(&m, PT, 0x4080c123u, false, &pa, &prot), 0);
    ck_assert_uint_eq(pa, 0x00504123u);
    // user mode: supervisor pages are PRIV; absent entries UNMAPPED
    ck_assert_int_eq(hexsim_hvm_walk(&m, PT, 0xc0000000u, true, &pa, &prot), HEXSIM_MEM_PRIV);
    ck_assert_int_eq(hexsim_hvm_walk(&m, PT, 0x40006000u, false, &pa, &prot),
                     HEXSIM_MEM_UNMAPPED);
    ck_assert_int_eq(hexsim_hvm_walk(&m, PT, 0x00000000u, false, &pa, &prot),
                     HEXSIM_MEM_UNMAPPED);
    // HVM spec 3.3.1: the top 16 MiB are the VMM's even when the L1 table maps them
    w32(&m, PT + 4 * 0x3fc, 0x00000000u | rwx | 5);
    ck_assert_int_eq(hexsim_hvm_walk(&m, PT, 0xff000000u, false, &pa, &prot), HEXSIM_MEM_PROT);
    ck_assert_int_eq(hexsim_hvm_walk(&m, PT, 0xfeffffffu, false, &pa, &prot), HEXSIM_MEM_UNMAPPED);
    // an L2 table outside RAM is an invalid page table (machine check, spec 7.5)
    w32(&m, PT + 4 * 0x103, 0x00f00000u | 0);
    ck_assert_int_eq(hexsim_hvm_walk(&m, PT, 0x40c00000u, false, &pa, &prot),
                     HEXSIM_HVM_BAD_TABLE);
    hexsim_mem_free(&m);
}
END_TEST

START_TEST(intc_ops)
{
    bool att = false;
    struct hexsim_intc ic = { .attention = &att };
    hexsim_intc_reset(&ic);
    ck_assert_int_eq(hexsim_intc_op(&ic, 0, 2, HVMI_POST, 4, 0), 0);
    ck_assert(att);
    ck_assert_uint_eq(hexsim_intc_deliverable(&ic, 0), 0);       // not locally enabled
    hexsim_intc_op(&ic, 1, 2, HVMI_LOCEN, 4, 0);
    ck_assert_uint_eq(hexsim_intc_deliverable(&ic, 1), 1u << 4);
    hexsim_intc_op(&ic, 0, 2, HVMI_AFFINITY, 4, 0);
    ck_assert_uint_eq(hexsim_intc_deliverable(&ic, 1), 0);       // affinity to vCPU 0
    ck_assert_uint_eq(hexsim_intc_deliverable(&ic, 0), 1u << 4); // ... locally enabled there
    ck_assert_int_eq(hexsim_intc_op(&ic, 0, 2, HVMI_AFFINITY, 4, 5), -1);
    ck_assert_int_eq(hexsim_intc_op(&ic, 0, 2, HVMI_AFFINITY, 4, 2), -1);
    // a device line: edge latches pending; accept disables globally; globen re-latches
    // while the line is still high
    hexsim_intc_op(&ic, 0, 2, HVMI_LOCEN, 3, 0);
    hexsim_intc_set_line(&ic, 3, 1);
    ck_assert_int_eq(hexsim_intc_op(&ic, 0, 2, HVMI_PEEK, 0, 0), 3);   // 3 before 4
    ck_assert_int_eq(hexsim_intc_op(&ic, 0, 2, HVMI_GET, 0, 0), 3);
    ck_assert_int_eq(hexsim_intc_op(&ic, 0, 2, HVMI_STATUS, 3, 0), HVMI_STATUS_LOCAL);
    hexsim_intc_op(&ic, 0, 2, HVMI_GLOBEN, 3, 0);
    ck_assert_int_eq(hexsim_intc_op(&ic, 0, 2, HVMI_STATUS, 3, 0),
                     HVMI_STATUS_GLOBAL | HVMI_STATUS_PENDING | HVMI_STATUS_LOCAL);
    hexsim_intc_set_line(&ic, 3, 0);
    hexsim_intc_op(&ic, 0, 2, HVMI_CLEAR, 3, 0);
    hexsim_intc_op(&ic, 0, 2, HVMI_LOCEN, 4, 0);
    ck_assert_int_eq(hexsim_intc_op(&ic, 0, 2, HVMI_GET, 0, 0), 4);
    ck_assert_int_eq(hexsim_intc_op(&ic, 0, 2, HVMI_GET, 0, 0), -1);
    ck_assert_int_eq(hexsim_intc_op(&ic, 0, 2, HVMI_LOCEN, 32, 0), -1);
    ck_assert_int_eq(hexsim_intc_op(&ic, 0, 2, 11, 0, 0), -1);
}
END_TEST

// HVM spec 6.7: affinity locally enables the interrupt on the target vCPU and locally
// disables it on all others; STATUS bits are pending 0, local 1, global 2 (App. A VMINTOP)
START_TEST(intc_affinity_three)
{
    bool att = false;
    struct hexsim_intc ic = { .attention = &att };
    hexsim_intc_reset(&ic);
    for (unsigned c = 0; c < 3; c++)
        ck_assert_int_eq(hexsim_intc_op(&ic, c, 3, HVMI_LOCEN, 9, 0), 0);
    hexsim_intc_op(&ic, 0, 3, HVMI_LOCEN, 10, 0);
    ck_assert_int_eq(hexsim_intc_op(&ic, 0, 3, HVMI_AFFINITY, 9, 2), 0);
    ck_assert_int_eq(hexsim_intc_op(&ic, 0, 3, HVMI_STATUS, 9, 0), HVMI_STATUS_GLOBAL);
    ck_assert_int_eq(hexsim_intc_op(&ic, 1, 3, HVMI_STATUS, 9, 0), HVMI_STATUS_GLOBAL);
    ck_assert_int_eq(hexsim_intc_op(&ic, 2, 3, HVMI_STATUS, 9, 0),
                     HVMI_STATUS_GLOBAL | HVMI_STATUS_LOCAL);
    ck_assert_int_eq(hexsim_intc_op(&ic, 0, 3, HVMI_STATUS, 10, 0),
                     HVMI_STATUS_GLOBAL | HVMI_STATUS_LOCAL);   // other interrupts untouched
    hexsim_intc_op(&ic, 1, 3, HVMI_POST, 9, 0);
    ck_assert_int_eq(hexsim_intc_op(&ic, 2, 3, HVMI_STATUS, 9, 0),
                     HVMI_STATUS_GLOBAL | HVMI_STATUS_LOCAL | HVMI_STATUS_PENDING);
    ck_assert_uint_eq(hexsim_intc_deliverable(&ic, 0), 0);
    ck_assert_uint_eq(hexsim_intc_deliverable(&ic, 1), 0);
    ck_assert_uint_eq(hexsim_intc_deliverable(&ic, 2), 1u << 9);
    // a later locen elsewhere is not undone by the earlier affinity
    hexsim_intc_op(&ic, 0, 3, HVMI_LOCEN, 9, 0);
    ck_assert_uint_eq(hexsim_intc_deliverable(&ic, 0), 1u << 9);
    ck_assert_int_eq(hexsim_intc_op(&ic, 0, 3, HVMI_GET, 0, 0), 9);
    ck_assert_uint_eq(hexsim_intc_deliverable(&ic, 2), 0);          // taken once only
    ck_assert_int_eq(hexsim_intc_op(&ic, 2, 3, HVMI_STATUS, 9, 0), HVMI_STATUS_LOCAL);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("hvm");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, walk_sizes);
    tcase_add_test(tc, intc_ops);
    tcase_add_test(tc, intc_affinity_three);
    suite_add_tcase(s, tc);
    return hexsim_check_run(s);
}
