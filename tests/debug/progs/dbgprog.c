// SPDX-License-Identifier: MIT
// Guest program for the debugger tests (tests/debug): a global the tests watch, a leaf
// function, a recursive one (for bt/finish), a loop (for until) and output through write(2).
// Built freestanding: clang-16 --target=hexagon-unknown-linux-musl -mv67 -O1 -nostdlib.
typedef unsigned int u32;

static long sys3(long nr, long a, long b, long c)
{
    register long r0 __asm__("r0") = a;
    register long r1 __asm__("r1") = b;
    register long r2 __asm__("r2") = c;
    register long r6 __asm__("r6") = nr;
    __asm__ volatile("trap0(#1)" : "+r"(r0) : "r"(r1), "r"(r2), "r"(r6) : "memory");
    return r0;
}

volatile u32 counter;
u32 table[4] = { 1, 2, 3, 4 };

__attribute__((noinline)) u32 add3(u32 a, u32 b, u32 c)
{
    return a + b + c;
}

__attribute__((noinline)) u32 fact(u32 n)
{
    if (n <= 1)
        return 1;
    return n * fact(n - 1);
}

__attribute__((noinline)) void bump(void)
{
    counter = counter + 1;
}

int main(void)
{
    u32 s = 0;
    for (u32 i = 0; i < 4; i++)
        s += table[i];
    bump();
    s += add3(s, 10, 20);
    s += fact(5);
    bump();
    sys3(64, 1, (long)"done\n", 5);
    return (int)(s & 0x7f);
}

__attribute__((noreturn, used)) void start_c(void)
{
    sys3(93, main(), 0, 0);
    __builtin_unreachable();
}
__asm__(".globl _start\n_start:\n  allocframe(#0)\n  call start_c\n");
