// SPDX-License-Identifier: MIT
// Check suite of guest memory (src/mem/mem.c): mapping zero-filled pages singly and in
// blocks, reads and writes through the checked accessors, permission and unmapped faults,
// unmapping and remapping pages of a block (zero again; the range stays the block's), the
// page limit, freeing, and the executor's page TLB (filled only where the access is allowed,
// emptied by every mapping or protection change, a page becoming code leaving the write TLB,
// misaligned accesses and a zeroed TLB matching nothing), and the host spans of a guest
// range for system calls' readv/writev (merged where pages lie back to back, stopping at an
// unreachable page or after the spans given, writes through them making code stale).
#include "../check_main.h"
#include <check.h>
#include <stdlib.h>

#include "hexsim/mem.h"

#define PG HEXSIM_PAGE_SIZE

START_TEST(block_map_unmap_remap)
{
    struct hexsim_mem m;
    hexsim_mem_init(&m);
    const uint32_t base = 0x10000000u;
    ck_assert_int_eq(hexsim_mem_map(&m, base, 64 * PG, HEXSIM_PROT_R | HEXSIM_PROT_W),
                     HEXSIM_MEM_OK);
    ck_assert_uint_eq(m.mapped_pages, 64);
    ck_assert_uint_eq(m.nblocks, 1);
    uint64_t v = 1;
    for (unsigned i = 0; i < 64; i++) {
        ck_assert_int_eq(hexsim_mem_read(&m, base + i * PG + 8, 4, HEXSIM_PROT_R, &v), 0);
        ck_assert_uint_eq(v, 0);
        ck_assert_int_eq(hexsim_mem_write(&m, base + i * PG + 8, 4, 0xA0000000u + i), 0);
    }
    ck_assert_int_eq(hexsim_mem_read(&m, base + 63 * PG + 8, 4, HEXSIM_PROT_R, &v), 0);
    ck_assert_uint_eq(v, 0xA0000000u + 63);
    hexsim_mem_unmap(&m, base + 10 * PG, 2 * PG);
    ck_assert_uint_eq(m.mapped_pages, 62);
    ck_assert_int_eq(hexsim_mem_read(&m, base + 10 * PG, 4, HEXSIM_PROT_R, &v),
                     HEXSIM_MEM_UNMAPPED);
    ck_assert_int_eq(hexsim_mem_read(&m, base + 12 * PG + 8, 4, HEXSIM_PROT_R, &v), 0);
    ck_assert_uint_eq(v, 0xA0000000u + 12);                // neighbours keep their data
    ck_assert_int_eq(hexsim_mem_map(&m, base, 64 * PG, HEXSIM_PROT_R), HEXSIM_MEM_OK);
    ck_assert_uint_eq(m.mapped_pages, 64);
    ck_assert_int_eq(hexsim_mem_read(&m, base + 10 * PG + 8, 4, HEXSIM_PROT_R, &v), 0);
    ck_assert_uint_eq(v, 0);                               // remapped: zero-filled again
    ck_assert_int_eq(hexsim_mem_read(&m, base + 20 * PG + 8, 4, HEXSIM_PROT_R, &v), 0);
    ck_assert_uint_eq(v, 0xA0000000u + 20);                // the others kept their data
    ck_assert_int_eq(hexsim_mem_write(&m, base + 20 * PG, 4, 1), HEXSIM_MEM_PROT);
    hexsim_mem_free(&m);
    ck_assert_uint_eq(m.mapped_pages, 0);
    ck_assert_ptr_null(m.blocks);
}
END_TEST

// Regression (issue 13 audit): unmapping a block's pages once gave their host range back,
// the host reused it for the next block (another memory's), and freeing the first memory
// unmapped that block under the second one.
START_TEST(unmapped_block_range_not_reused)
{
    struct hexsim_mem a, b;
    hexsim_mem_init(&a);
    hexsim_mem_init(&b);
    ck_assert_int_eq(hexsim_mem_map(&a, 0x10000000u, 64 * PG, HEXSIM_PROT_R | HEXSIM_PROT_W),
                     HEXSIM_MEM_OK);
    ck_assert_int_eq(hexsim_mem_write(&a, 0x10000000u, 4, 1), 0);
    hexsim_mem_unmap(&a, 0x10000000u, 64 * PG);
    ck_assert_uint_eq(a.mapped_pages, 0);
    ck_assert_int_eq(hexsim_mem_map(&b, 0x20000000u, 64 * PG, HEXSIM_PROT_R | HEXSIM_PROT_W),
                     HEXSIM_MEM_OK);
    for (unsigned i = 0; i < 64; i++)
        ck_assert_int_eq(hexsim_mem_write(&b, 0x20000000u + i * PG, 4, 0xB0000000u + i), 0);
    hexsim_mem_free(&a);
    for (unsigned i = 0; i < 64; i++) {
        uint64_t v = 0;
        ck_assert_int_eq(hexsim_mem_read(&b, 0x20000000u + i * PG, 4, HEXSIM_PROT_R, &v), 0);
        ck_assert_uint_eq(v, 0xB0000000u + i);
    }
    hexsim_mem_free(&b);
}
END_TEST

START_TEST(page_limit)
{
    struct hexsim_mem m;
    hexsim_mem_init(&m);
    m.max_pages = 40;
    ck_assert_int_eq(hexsim_mem_map(&m, 0, 32 * PG, HEXSIM_PROT_R), HEXSIM_MEM_OK);
    ck_assert_int_eq(hexsim_mem_map(&m, 0x100000u, 32 * PG, HEXSIM_PROT_R), HEXSIM_MEM_NOMEM);
    ck_assert_uint_eq(m.mapped_pages, 40);                 // mapped up to the limit
    ck_assert(hexsim_mem_is_mapped(&m, 0x100000u + 7 * PG));
    ck_assert(!hexsim_mem_is_mapped(&m, 0x100000u + 8 * PG));
    hexsim_mem_unmap(&m, 0, 32 * PG);
    ck_assert_uint_eq(m.mapped_pages, 8);
    hexsim_mem_free(&m);
}
END_TEST

// Whether an access of size bytes at addr would hit the TLB (as the fast paths look).
static bool tlb_hit(const struct hexsim_mem *m, uint32_t addr, unsigned size, bool write)
{
    const struct hexsim_mem_tlb *e = &(write ? m->wtlb : m->rtlb)[(addr >> 12) &
                                                                   (HEXSIM_MEM_TLB_SIZE - 1)];
    return e->tag == hexsim_mem_tlb_key(addr, size);
}

START_TEST(tlb_fill_and_flush)
{
    struct hexsim_mem m;
    hexsim_mem_init(&m);
    const uint32_t a = 0x20000u, ro = 0x30000u;
    ck_assert(!tlb_hit(&m, 0, 4, false) && !tlb_hit(&m, 0, 4, true));   // zeroed: empty
    ck_assert_int_eq(hexsim_mem_map(&m, a, PG, HEXSIM_PROT_R | HEXSIM_PROT_W | HEXSIM_PROT_X), 0);
    ck_assert_int_eq(hexsim_mem_map(&m, ro, PG, HEXSIM_PROT_R), 0);
    hexsim_mem_tlb_fill(&m, a + 8, false);
    hexsim_mem_tlb_fill(&m, a + 8, true);
    hexsim_mem_tlb_fill(&m, ro, true);                 // not writable: not entered
    hexsim_mem_tlb_fill(&m, 0x40000u, false);          // unmapped: not entered
    ck_assert(tlb_hit(&m, a + 0xffc, 4, false) && tlb_hit(&m, a, 8, true));
    ck_assert_ptr_eq(m.rtlb[(a >> 12) & (HEXSIM_MEM_TLB_SIZE - 1)].data,
                     hexsim_mem_page(&m, a)->data);
    ck_assert(!tlb_hit(&m, a + 2, 4, false) && !tlb_hit(&m, a + 1, 2, true));  // misaligned
    ck_assert(tlb_hit(&m, a + 1, 1, false));
    ck_assert(!tlb_hit(&m, ro, 4, true) && !tlb_hit(&m, 0x40000u, 4, false));
    ck_assert(!tlb_hit(&m, a + HEXSIM_MEM_TLB_SIZE * PG, 4, false));   // same slot
    // fetching code from the page takes it out of the write TLB only
    uint32_t w;
    int f;
    ck_assert_uint_eq(hexsim_mem_fetch(&m, a, &w, 1, &f), 1);
    ck_assert(tlb_hit(&m, a, 4, false) && !tlb_hit(&m, a, 4, true));
    hexsim_mem_tlb_fill(&m, a, true);                  // code: not entered again
    ck_assert(!tlb_hit(&m, a, 4, true));
    // a protection change, an unmap, a map: all empty it
    hexsim_mem_tlb_fill(&m, ro, false);
    ck_assert_int_eq(hexsim_mem_protect(&m, ro, PG, HEXSIM_PROT_W), 0);
    ck_assert(!tlb_hit(&m, a, 4, false) && !tlb_hit(&m, ro, 4, false));
    hexsim_mem_tlb_fill(&m, a, false);
    hexsim_mem_unmap(&m, ro, PG);
    ck_assert(!tlb_hit(&m, a, 4, false));
    hexsim_mem_tlb_fill(&m, a, false);
    ck_assert_int_eq(hexsim_mem_map(&m, ro, PG, HEXSIM_PROT_R), 0);
    ck_assert(!tlb_hit(&m, a, 4, false));
    hexsim_mem_free(&m);
}
END_TEST

START_TEST(spans_for_host_io)
{
    struct hexsim_mem m;
    hexsim_mem_init(&m);
    const uint32_t blk = 0x10000000u, one = 0x20000000u;
    ck_assert_int_eq(hexsim_mem_map(&m, blk, 32 * PG, HEXSIM_PROT_R | HEXSIM_PROT_W), 0);
    ck_assert_int_eq(hexsim_mem_map(&m, one, PG, HEXSIM_PROT_R | HEXSIM_PROT_W), 0);
    ck_assert_int_eq(hexsim_mem_map(&m, one + PG, PG, HEXSIM_PROT_R), 0);
    struct iovec iov[4];
    size_t got;
    int f;
    // a block's pages lie back to back: one span across page boundaries
    ck_assert_uint_eq(hexsim_mem_spans(&m, blk + 100, 20 * PG, HEXSIM_PROT_W, iov, 4, &got,
                                       &f), 1);
    ck_assert_uint_eq(got, 20 * PG);
    ck_assert_ptr_eq(iov[0].iov_base, hexsim_mem_page(&m, blk)->data + 100);
    ck_assert_uint_eq(iov[0].iov_len, 20 * PG);
    // to the end of the block, then unmapped: stops there (no fault: something was reached)
    ck_assert_uint_eq(hexsim_mem_spans(&m, blk + 31 * PG + 8, 2 * PG, HEXSIM_PROT_R, iov, 4,
                                       &got, &f), 1);
    ck_assert_uint_eq(got, PG - 8);
    ck_assert_int_eq(f, HEXSIM_MEM_OK);
    // single pages: one span each; the read-only second page ends a write's spans
    ck_assert_uint_eq(hexsim_mem_spans(&m, one + 16, 2 * PG, HEXSIM_PROT_R, iov, 4, &got, &f),
                      2);
    ck_assert_uint_eq(got, 2 * PG - 16);            // to the end of the second page
    ck_assert_uint_eq(iov[0].iov_len, PG - 16);
    ck_assert_uint_eq(iov[1].iov_len, PG);
    ck_assert_uint_eq(hexsim_mem_spans(&m, one + 16, 2 * PG, HEXSIM_PROT_W, iov, 4, &got, &f),
                      1);
    ck_assert_uint_eq(got, PG - 16);
    ck_assert_uint_eq(hexsim_mem_spans(&m, one + PG, 4, HEXSIM_PROT_W, iov, 4, &got, &f), 0);
    ck_assert_int_eq(f, HEXSIM_MEM_PROT);
    ck_assert_uint_eq(hexsim_mem_spans(&m, one + PG, 4, 0, iov, 4, &got, &f), 1);  // loader
    ck_assert_uint_eq(hexsim_mem_spans(&m, 0x30000000u, 4, HEXSIM_PROT_R, iov, 4, &got, &f),
                      0);
    ck_assert_int_eq(f, HEXSIM_MEM_UNMAPPED);
    ck_assert_uint_eq(hexsim_mem_spans(&m, 0xfffff000u, 2 * PG, HEXSIM_PROT_R, iov, 4, &got,
                                       &f), 0);   // no wrap-around past the top
    // out of spans: what they cover
    ck_assert_uint_eq(hexsim_mem_spans(&m, one, 2 * PG, HEXSIM_PROT_R, iov, 1, &got, &f), 1);
    ck_assert_uint_eq(got, PG);
    // a write through spans into a page code was fetched from: code_gen moves on
    uint32_t w;
    ck_assert_int_eq(hexsim_mem_protect(&m, one, PG, HEXSIM_PROT_R | HEXSIM_PROT_W |
                                        HEXSIM_PROT_X), 0);
    ck_assert_uint_eq(hexsim_mem_fetch(&m, one, &w, 1, &f), 1);
    uint64_t gen = m.code_gen;
    hexsim_mem_spans_written(&m, blk, 8);          // not code: no change
    ck_assert_uint_eq(m.code_gen, gen);
    hexsim_mem_spans_written(&m, one - 4, 8);      // reaches into the code page
    ck_assert_uint_gt(m.code_gen, gen);
    ck_assert(!hexsim_mem_page(&m, one)->code);
    hexsim_mem_free(&m);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("mem");
    TCase *t = tcase_create("core");
    tcase_add_test(t, block_map_unmap_remap);
    tcase_add_test(t, unmapped_block_range_not_reused);
    tcase_add_test(t, page_limit);
    tcase_add_test(t, tlb_fill_and_flush);
    tcase_add_test(t, spans_for_host_io);
    suite_add_tcase(s, t);
    return hexsim_check_run(s);
}
