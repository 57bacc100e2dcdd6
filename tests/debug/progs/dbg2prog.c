// SPDX-License-Identifier: MIT
// Guest program for the debugger's second DWARF session (tests/debug, session_dbg2.gdb):
// data at a guest address above 0x80000000 (an anonymous page mapped there with mmap2) that
// a register points to, a loop calling a function whose argument a conditional breakpoint
// tests, arrays for gdb's artificial arrays (v@n), and an array of structs with an anonymous
// struct and union inside for ptype. Built with clang-16
// --target=hexagon-unknown-linux-musl -mv67 -g -O0 -nostdlib.
struct point {
    int x, y;
};

struct rec {
    const char *name;
    struct point pts[2];
    union {
        int i;
        unsigned u;
    } v;
    struct {
        short a, b;
    } pair;
};

struct rec recs[3] = { { "one", { { 1, 2 }, { 3, 4 } }, { 5 }, { 6, 7 } },
                       { "two", { { 11, 12 }, { 13, 14 } }, { 15 }, { 16, 17 } },
                       { "three", { { 21, 22 }, { 23, 24 } }, { 25 }, { 26, 27 } } };
int nums[10] = { 10, 20, 30, 40, 50, 60, 70, 80, 90, 100 };
int *nump = nums;
volatile int total;
char *high;

static long sys6(long nr, long a, long b, long c, long d, long e, long f)
{
    register long r0 __asm__("r0") = a;
    register long r1 __asm__("r1") = b;
    register long r2 __asm__("r2") = c;
    register long r3 __asm__("r3") = d;
    register long r4 __asm__("r4") = e;
    register long r5 __asm__("r5") = f;
    register long r6 __asm__("r6") = nr;
    __asm__ volatile("trap0(#1)" : "+r"(r0) : "r"(r1), "r"(r2), "r"(r3), "r"(r4), "r"(r5),
                     "r"(r6) : "memory");
    return r0;
}

__attribute__((noinline)) void hold(char *p)
{
    ((volatile int *)p)[4] += 1;
}

__attribute__((noinline)) int step(int i)
{
    total += nums[i];
    return total;
}

int main(void)
{
    // mmap2(0xa0100000, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS |
    // MAP_FIXED, -1, 0)
    high = (char *)sys6(222, 0xa0100000, 4096, 3, 0x32, -1, 0);
    const char *text = "high memory";
    for (int k = 0; text[k]; k++)
        high[k] = text[k];
    ((int *)high)[4] = 0x12345678;
    hold(high);
    for (int i = 0; i < 10; i++)
        step(i);
    sys6(93, total & 0x7f, 0, 0, 0, 0, 0);
    return 0;
}
__asm__(".globl _start\n_start:\n  allocframe(#0)\n  call main\n");
