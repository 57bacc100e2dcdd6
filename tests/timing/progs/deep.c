// SPDX-License-Identifier: MIT
// Timing micro-program (tests/timing): a recursion 300 calls deep (deeper than --profile's
// 128 kept frames) between two stretches of main's own work. --profile must give each
// function, in the folded stacks, the pcycles the flat table gives it.
__attribute__((noinline)) static unsigned rec(unsigned n)
{
    return n ? rec(n - 1) + (n & 3) : 0;
}

__attribute__((noinline)) static unsigned spin(unsigned n)
{
    unsigned x = 1;
    for (unsigned i = 0; i < n; i++)
        x = x * 3 + i;
    return x;
}

__attribute__((used)) int main(void)
{
    unsigned s = 0;
    for (unsigned i = 0; i < 3000; i++)
        s += i ^ (s >> 3);
    for (unsigned k = 0; k < 4; k++)
        s += rec(300);
    for (unsigned i = 0; i < 3000; i++)
        s += i ^ (s << 1);
    return (int)(s + spin(1000)) & 1;
}

__asm__(".globl _start\n_start:\n  call main\n  r6 = #93\n  trap0(#1)\n");
