// SPDX-License-Identifier: MIT
// Guest program for the user-mode fault reports (tests/debug/debug_test.py): with argument
// "null" it stores through a null pointer two calls deep; with "deep" it recurses without
// end until the stack overflows. Built with clang-16 -g -O0 -nostdlib, and without -g.
static long sys3(long nr, long a, long b, long c)
{
    register long r0 __asm__("r0") = a;
    register long r1 __asm__("r1") = b;
    register long r2 __asm__("r2") = c;
    register long r6 __asm__("r6") = nr;
    __asm__ volatile("trap0(#1)" : "+r"(r0) : "r"(r1), "r"(r2), "r"(r6) : "memory");
    return r0;
}

__attribute__((noinline)) void poke(int *p, int v)
{
    *p = v;
}

__attribute__((noinline)) void store_via(int *p)
{
    poke(p, 42);
}

__attribute__((noinline)) int deep(int n)
{
    volatile int pad[64];
    pad[n & 63] = n;
    return deep(n + 1) + pad[(n + 1) & 63];
}

int main(int argc, char **argv)
{
    if (argc > 1 && argv[1][0] == 'n')
        store_via(0);
    if (argc > 1 && argv[1][0] == 'd')
        return deep(0);
    return 0;
}

__attribute__((noreturn, used)) void start_c(long *sp)
{
    sys3(93, main((int)sp[0], (char **)(sp + 1)), 0, 0);
    __builtin_unreachable();
}
__asm__(".globl _start\n_start:\n  r0 = r29\n  jump start_c\n");
