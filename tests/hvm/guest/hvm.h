// SPDX-License-Identifier: MIT
// Runtime for the freestanding HVM test kernels (tests/hvm): trap1 wrappers in the calling
// convention of Linux's vm_ops.S (arguments r0-r4, result r0, r1:0 for 64 bits), angel
// console output, and pass/fail reporting. crt.S gives the entry, the event vector table
// and the event handler that calls hvm_event() (each test defines it).
#ifndef HVM_TEST_H
#define HVM_TEST_H

typedef unsigned int u32;
typedef int s32;
typedef unsigned long long u64;

#define TRAP1_0(n) ({ register u32 r0 __asm__("r0"); __asm__ volatile("trap1(#" #n ")" : "=r"(r0) : : "r1", "r2", "r3", "memory"); r0; })
#define TRAP1_1(n, a) ({ register u32 r0 __asm__("r0") = (u32)(a); __asm__ volatile("trap1(#" #n ")" : "+r"(r0) : : "r1", "r2", "r3", "memory"); r0; })
#define TRAP1_2(n, a, b) ({ register u32 r0 __asm__("r0") = (u32)(a); register u32 r1 __asm__("r1") = (u32)(b); __asm__ volatile("trap1(#" #n ")" : "+r"(r0), "+r"(r1) : : "r2", "r3", "memory"); r0; })
#define TRAP1_3(n, a, b, c) ({ register u32 r0 __asm__("r0") = (u32)(a); register u32 r1 __asm__("r1") = (u32)(b); register u32 r2 __asm__("r2") = (u32)(c); __asm__ volatile("trap1(#" #n ")" : "+r"(r0), "+r"(r1), "+r"(r2) : : "r3", "memory"); r0; })

static inline s32 vmversion(void) { return (s32)TRAP1_1(0, 0x700); }
static inline void vmsetvec(void *v) { TRAP1_1(2, v); }
static inline s32 vmsetie(u32 on) { return (s32)TRAP1_1(3, on); }
static inline s32 vmgetie(void) { return (s32)TRAP1_0(4); }
static inline s32 vmintop(u32 op, u32 a, u32 b) { return (s32)TRAP1_3(5, op, a, b); }
static inline s32 vmclrmap(u32 va, u32 len) { return (s32)TRAP1_2(10, va, len); }
static inline s32 vmnewmap(void *pt) { return (s32)TRAP1_2(11, pt, 1); }
static inline s32 vmcache(u32 op, u32 a, u32 len) { return (s32)TRAP1_3(13, op, a, len); }
static inline u64 vmgettime(void)
{
    register u32 r0 __asm__("r0");
    register u32 r1 __asm__("r1");
    __asm__ volatile("trap1(#14)" : "=r"(r0), "=r"(r1) : : "r2", "r3", "memory");
    return (u64)r1 << 32 | r0;
}
static inline s32 vmsettime(u64 t) { return (s32)TRAP1_2(15, (u32)t, (u32)(t >> 32)); }
static inline s32 vmwait(void) { return (s32)TRAP1_0(16); }
static inline void vmyield(void) { TRAP1_0(17); }
static inline s32 vmstart(void *pc, void *sp) { return (s32)TRAP1_2(18, pc, sp); }
static inline void vmstop(void) { TRAP1_0(19); }
static inline s32 vmvpid(void) { return (s32)TRAP1_0(20); }
static inline void vmsetregs(u32 elr, u32 gsr, u32 osp, u32 badva)
{
    register u32 r0 __asm__("r0") = elr;
    register u32 r1 __asm__("r1") = gsr;
    register u32 r2 __asm__("r2") = osp;
    register u32 r3 __asm__("r3") = badva;
    __asm__ volatile("trap1(#21)" : "+r"(r0), "+r"(r1), "+r"(r2), "+r"(r3) : : "memory");
}
static inline void vmgetregs(u32 *rr)
{
    register u32 r0 __asm__("r0");
    register u32 r1 __asm__("r1");
    register u32 r2 __asm__("r2");
    register u32 r3 __asm__("r3");
    __asm__ volatile("trap1(#22)" : "=r"(r0), "=r"(r1), "=r"(r2), "=r"(r3) : : "memory");
    rr[0] = r0; rr[1] = r1; rr[2] = r2; rr[3] = r3;
}

enum { NOP, GLOBEN, GLOBDIS, LOCEN, LOCDIS, AFFINITY, GET, PEEK, STATUS, POST, CLEAR };

static inline s32 angel(u32 op, u32 arg)
{
    register u32 r0 __asm__("r0") = op;
    register u32 r1 __asm__("r1") = arg;
    __asm__ volatile("trap0(#0)" : "+r"(r0), "+r"(r1) : : "memory");
    return (s32)r0;
}

static inline void putc_(char c) { angel(0x43, (unsigned char)c); }
static inline void puts_(const char *s) { while (*s) putc_(*s++); }
static inline void puthex(u32 v)
{
    puts_("0x");
    for (int i = 28; i >= 0; i -= 4)
        putc_("0123456789abcdef"[(v >> i) & 15]);
}

static int failures;
#define CHECK(cond) do { if (!(cond)) { failures++; puts_("FAIL " __FILE__ ":"); \
    puthex(__LINE__); puts_(" " #cond "\n"); } } while (0)
#define CHECK_EQ(a, b) do { u32 a_ = (u32)(a), b_ = (u32)(b); if (a_ != b_) { failures++; \
    puts_("FAIL " __FILE__ ":"); puthex(__LINE__); puts_(" " #a " = "); puthex(a_); \
    puts_(", expected "); puthex(b_); putc_('\n'); } } while (0)

// Ends the test: prints the verdict and stops the vCPU.
// A word load and a word store, one packet each, that the compiler neither drops nor moves
// (a test's event handler may skip a faulting one: a skipped load gives 0xdead).
static inline __attribute__((always_inline)) u32 load(u32 a)
{
    register u32 r0 __asm__("r0") = 0xdead;
    register u32 r1 __asm__("r1") = a;
    __asm__ volatile("{ r0 = memw(r1+#0) }" : "+r"(r0) : "r"(r1) : "memory");
    return r0;
}

static inline __attribute__((always_inline)) void store(u32 a, u32 v)
{
    register u32 r0 __asm__("r0") = v;
    register u32 r1 __asm__("r1") = a;
    __asm__ volatile("{ memw(r1+#0) = r0 }" : : "r"(r0), "r"(r1) : "memory");
}

static inline void finish(const char *name)
{
    puts_(failures ? "FAILED " : "PASSED ");
    puts_(name);
    putc_('\n');
    vmstop();
}

// crt.S
extern char vectors[];
void enter_user(void (*fn)(void), void *usp);   // runs fn in user mode until user_exit
void user_return(void);                          // guest-mode continuation of enter_user
// Provided by each test: the C half of the event handler; record = elr, gsr, osp, badva.
void hvm_event(u32 slot, u32 *rec);
int main(void);

#define GSR_UM (1u << 31)
#define GSR_IE (1u << 30)
#define GSR_RESERVED(g) ((g) & 0x3fff0000u)   // bits 29:16 (HVM spec 5.3.2)
#define GSR_CAUSE(g) ((g) & 0xffff)

// Page table bits (HVM spec 9.4)
#define PTE_U (1u << 5)
#define PTE_R (1u << 9)
#define PTE_W (1u << 10)
#define PTE_X (1u << 11)
#define PTE_C(c) ((u32)(c) << 6)
#define PDE_4M 5u
#define PDE_16M 6u
#define PDE_INVALID 7u

// l1 as a page directory with VA = PA for the first 64 MiB (RAM: read/write/execute, cached,
// plus the PTE bits extra, e.g. PTE_U) in 4 MiB pages, and nothing else.
static inline void map_low(u32 *l1, u32 extra)
{
    for (u32 i = 0; i < 1024; i++)
        l1[i] = PDE_INVALID;
    for (u32 i = 0; i < 16; i++)
        l1[i] = (i << 22) | PTE_R | PTE_W | PTE_X | extra | PTE_C(7) | PDE_4M;
}

// A VA = PA map of the first 64 MiB (RAM, read/write/execute, cached) and of the Comet
// device windows (0x84000000 Ethernet, 0xA8000000-0xABFFFFFF peripherals; device access) in
// 4 MiB pages, activated with vmnewmap: the boot map covers RAM only (HVM spec 4.5).
static u32 board_l1[1024] __attribute__((aligned(4096)));
static inline s32 map_board(void)
{
    map_low(board_l1, 0);
    board_l1[0x84000000u >> 22] = 0x84000000u | PTE_R | PTE_W | PTE_C(4) | PDE_4M;
    for (u32 a = 0xA8000000u; a < 0xAC000000u; a += 0x400000u)
        board_l1[a >> 22] = a | PTE_R | PTE_W | PTE_C(4) | PDE_4M;
    return vmnewmap(board_l1);
}

// Runs trap1(#n) with r0-r5 = in[0..5] and stores r0-r5 as they are after it in out[0..5]
// (both 8-byte aligned): what a call writes, and which registers it leaves alone.
#define TRAP1_REGS(n, in, out) __asm__ volatile(                                   \
    "r6 = %0\n r1:0 = memd(r6+#0)\n r3:2 = memd(r6+#8)\n r5:4 = memd(r6+#16)\n"    \
    "trap1(#" #n ")\n"                                                              \
    "r6 = %1\n memd(r6+#0) = r1:0\n memd(r6+#8) = r3:2\n memd(r6+#16) = r5:4\n"    \
    : : "r"(in), "r"(out) : "r0", "r1", "r2", "r3", "r4", "r5", "r6", "memory")

// Conformance cases: CASE("section", "statement") { checks } prints "ok   section |
// statement" or "FAIL section | statement" (hvm_test.py collects them).
static int case_fail0_;
static const char *case_sec_, *case_what_;
static inline int case_begin_(const char *sec, const char *what)
{
    case_sec_ = sec;
    case_what_ = what;
    case_fail0_ = failures;
    return 1;
}
static inline void case_end_(void)
{
    puts_(failures == case_fail0_ ? "ok   " : "FAIL ");
    puts_(case_sec_);
    puts_(" | ");
    puts_(case_what_);
    putc_('\n');
}
#define CASE(sec, what) for (int once_ = case_begin_(sec, what); once_; once_ = 0, case_end_())

#endif
