// SPDX-License-Identifier: MIT
// HVM test kernel (built with -mhvx): the vgather/vscatter region rule in system mode. The
// PRM ("Vector gather", "Vector scatter") says the region Rt..Rt+Mu "cannot cross a page
// boundary"; the page is the one the guest's translation maps Rt with (src/cpu/hvx_mem.c),
// so a region inside one 64K or 16 MiB page may cross 4 KiB boundaries, and one that crosses
// the end of its page is refused as a misaligned access (RMAL for a gather, WMAL for a
// scatter, BADVA Rt, the packet writing nothing) even when the next page is mapped.
#include "hvm.h"

#define R (1u << 9)
#define W (1u << 10)
#define WB (7u << 6)

static u32 l1[1024] __attribute__((aligned(4096)));
static u32 l2[1024] __attribute__((aligned(4096)));
static u32 l2_64k[64] __attribute__((aligned(256)));
static unsigned short offs[64] __attribute__((aligned(128)));
static unsigned short vals[64] __attribute__((aligned(128)));
static unsigned short out[64] __attribute__((aligned(128)));
static volatile u32 ev_count, ev_cause, ev_badva, skip;

void hvm_event(u32 slot, u32 *rec)
{
    (void)slot;
    ev_count++;
    ev_cause = GSR_CAUSE(rec[1]);
    ev_badva = rec[3];
    rec[0] += skip;   // past the faulting packet
}

// { vtmp.h = vgather(rt,m0,offs.h).h; vmem(out) = vtmp.new }: two words
static void gather(u32 rt, u32 mu)
{
    skip = 8;
    __asm__ volatile("v0 = vmem(%2+#0)\n"
                     "m0 = %1\n"
                     "{ vtmp.h = vgather(%0,m0,v0.h).h\n"
                     "  vmem(%3+#0) = vtmp.new }\n"
                     : : "r"(rt), "r"(mu), "r"(offs), "r"(out) : "v0", "m0", "memory");
}

// vscatter(rt,m0,offs.h).h = vals: one word
static void scatter(u32 rt, u32 mu)
{
    skip = 4;
    __asm__ volatile("v0 = vmem(%2+#0)\n"
                     "v1 = vmem(%3+#0)\n"
                     "m0 = %1\n"
                     "{ vscatter(%0,m0,v0.h).h = v1 }\n"
                     : : "r"(rt), "r"(mu), "r"(offs), "r"(vals) : "v0", "v1", "m0", "memory");
}

static u32 half(u32 pa) { return *(volatile unsigned short *)pa; }

// A gather of halfwords 4 bytes apart from va (PA pa), which must run: 64 elements over
// 256 bytes.
static void gather_ok(u32 va, u32 pa)
{
    for (u32 i = 0; i < 128; i++)
        *(volatile unsigned short *)(pa + 2 * i) = (unsigned short)(0x5000 + i);
    for (u32 i = 0; i < 64; i++) {
        offs[i] = (unsigned short)(4 * i);
        out[i] = 0;
    }
    u32 before = ev_count;
    gather(va, 255);
    CHECK_EQ(ev_count, before);
    for (u32 i = 0; i < 64; i++)
        CHECK_EQ(out[i], 0x5000 + 2 * i);
}

// A gather whose region crosses the end of va's page: refused, out unchanged.
static void gather_refused(u32 va)
{
    for (u32 i = 0; i < 64; i++) {
        offs[i] = 0;   // (every element in va's page: the region alone is at fault)
        out[i] = 0x1111;
    }
    u32 before = ev_count;
    gather(va, 255);
    CHECK_EQ(ev_count, before + 1);
    CHECK_EQ(ev_cause, 0x20);   // RMAL
    CHECK_EQ(ev_badva, va);
    for (u32 i = 0; i < 64; i++)
        CHECK_EQ(out[i], 0x1111);
}

int main(void)
{
    for (u32 i = 0; i < 1024; i++)
        l1[i] = 7;                                        // no translation
    for (u32 i = 0; i < 4; i++)                           // 16 MiB VA = PA in 4 MiB pages
        l1[i] = (i << 22) | R | W | (1u << 11) | WB | 5;
    l1[0x40000000 >> 22] = (u32)l2 | 0;                   // 4K pages
    l1[0x41000000 >> 22] = (u32)l2_64k | 2;               // 64K pages
    for (u32 i = 0; i < 4; i++)                           // a 16 MiB page mapping PA 0
        l1[(0x80000000 >> 22) + i] = 0x00000000 | R | W | WB | 6;
    l2[0] = 0x00800000 | R | W | WB;                      // two 4K pages, contiguous
    l2[1] = 0x00801000 | R | W | WB;
    l2_64k[1] = 0x00810000 | R | W | WB;                  // VA 0x41010000: 64K
    l2_64k[2] = 0x00820000 | R | W | WB;                  // VA 0x41020000: 64K
    CHECK_EQ(vmnewmap(l1), 0);

    // inside one 64K page, across a 4 KiB boundary (0x41011000)
    gather_ok(0x41010f80, 0x00810f80);
    // inside the 16 MiB page, across 4 KiB boundaries
    gather_ok(0x80800f80, 0x00800f80);
    // across the end of a 64K page (the next one is mapped)
    gather_refused(0x4101ff80);
    // across the end of a 4K page (the next one is mapped)
    gather_refused(0x40000f80);

    // a scatter inside the 64K page across 0x41011000: element i to 4*i
    for (u32 i = 0; i < 64; i++) {
        offs[i] = (unsigned short)(4 * i);
        vals[i] = (unsigned short)(0xa000 + i);
    }
    u32 before = ev_count;
    scatter(0x41010fc0, 255);
    CHECK_EQ(ev_count, before);
    for (u32 i = 0; i < 64; i++)
        CHECK_EQ(half(0x00810fc0 + 4 * i), 0xa000 + i);
    // one across the end of the 4K page 0x40000000: refused, nothing written
    for (u32 i = 0; i < 64; i++)
        offs[i] = 0;
    *(volatile unsigned short *)0x00800f80 = 0x7777;
    scatter(0x40000f80, 255);
    CHECK_EQ(ev_count, before + 1);
    CHECK_EQ(ev_cause, 0x21);   // WMAL
    CHECK_EQ(ev_badva, 0x40000f80);
    CHECK_EQ(half(0x00800f80), 0x7777);
    finish("hvx_region");
    return 0;
}
