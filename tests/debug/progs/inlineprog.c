// SPDX-License-Identifier: MIT
// Guest program for breakpoints on an inlined function (tests/debug/debug_test.py, built
// with -g -O2): scale() has no code of its own, only the copies the compiler inlined into
// twice() and thrice() (DWARF inlined-subroutine entries); `break scale` must stop in both.
// Built with clang-16 --target=hexagon-unknown-linux-musl -mv67 -g -O2 -nostdlib.
volatile int sink;

static inline int scale(int x, int k)
{
    int s = 0;
    for (int i = 0; i < x; i++)
        s += i * k;
    return s;
}

__attribute__((noinline)) int twice(int a)
{
    return scale(a, 2) + sink;
}

__attribute__((noinline)) int thrice(int a)
{
    return scale(a + 1, 3) - sink;
}

int main(void)
{
    int r = twice(sink + 4) + thrice(sink + 2) + twice(sink + 1);
    register long r0 __asm__("r0") = r & 0x7f;
    register long r6 __asm__("r6") = 93;
    __asm__ volatile("trap0(#1)" : "+r"(r0) : "r"(r6) : "memory");
    return 0;
}
__asm__(".globl _start\n_start:\n  allocframe(#0)\n  call main\n");
