// SPDX-License-Identifier: MIT
// Guest program for stepping by source line and for callers' registers (tests/debug:
// session_line.gdb on a -g -O0 build; debug_test.py's CFI checks on a -g -O2 build, where
// main keeps k and mid keeps keep in callee-saved registers (r16-r27) across calls, and mid's
// prologue saves main's registers on the stack: only the call frame information says where).
// Built with clang-16 --target=hexagon-unknown-linux-musl -mv67 -g -nostdlib; with
// -DHVM_KERNEL it is a system-mode test kernel instead (tests/hvm/guest/crt.S starts it and
// stops the vCPU when main returns; sys3 only returns its argument).
#ifdef HVM_KERNEL
void hvm_event(unsigned slot, unsigned *rec)
{
    (void)slot, (void)rec;
}

static long sys3(long nr, long a, long b, long c)
{
    (void)nr, (void)b, (void)c;
    return a;
}
#else
static long sys3(long nr, long a, long b, long c)
{
    register long r0 __asm__("r0") = a;
    register long r1 __asm__("r1") = b;
    register long r2 __asm__("r2") = c;
    register long r6 __asm__("r6") = nr;
    __asm__ volatile("trap0(#1)" : "+r"(r0) : "r"(r1), "r"(r2), "r"(r6) : "memory");
    return r0;
}
#endif

volatile int sink;

__attribute__((noinline)) int leaf(int x)
{
    sink = x;
    return x * 3 + 1;
}

__attribute__((noinline)) int mid(int a, int b)
{
    int keep = a * 7 + b;
    int r = leaf(b);
    r += leaf(keep);
    return r + keep;
}

__attribute__((noinline)) int loop(int n)
{
    int s = 0;
    for (int i = 0; i < n; i++)
        s += i;
    return s;
}

int main(void)
{
    int k = sink + 5;
    int m = mid(k, 2);
    int t = loop(4);
    k += m + t;
    sys3(93, k & 0x7f, 0, 0);
    return 0;
}
#ifndef HVM_KERNEL
__asm__(".globl _start\n_start:\n  allocframe(#0)\n  call main\n");
#endif
