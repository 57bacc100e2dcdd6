// SPDX-License-Identifier: MIT
// Tiny freestanding runtime for the tests/user guest programs: a six-argument system call
// (trap0(#1), number in r6), decimal output, and _start passing argc/argv/envp to main;
// with URT_CLONE defined first, uclone for the programs that make threads.
#ifndef URT_H
#define URT_H
typedef unsigned int u32;

static inline long sys(long nr, long a, long b, long c, long d, long e, long f)
{
    register long r0 __asm__("r0") = a;
    register long r1 __asm__("r1") = b;
    register long r2 __asm__("r2") = c;
    register long r3 __asm__("r3") = d;
    register long r4 __asm__("r4") = e;
    register long r5 __asm__("r5") = f;
    register long r6 __asm__("r6") = nr;
    __asm__ volatile("trap0(#1)" : "+r"(r0) : "r"(r1), "r"(r2), "r"(r3), "r"(r4), "r"(r5), "r"(r6)
                     : "memory");
    return r0;
}
static long slen(const char *s) { long n = 0; while (s[n]) n++; return n; }
static void put_str(const char *s) { sys(64, 1, (long)s, slen(s), 0, 0, 0); }
static void put_dec(long v)
{
    char b[16]; int i = 15; int neg = v < 0; unsigned long u = neg ? -(unsigned long)v : (unsigned long)v;
    b[i] = 0;
    do { b[--i] = (char)('0' + u % 10); u /= 10; } while (u);
    if (neg) b[--i] = '-';
    put_str(b + i);
}
static int starts(const char *s, const char *p) { while (*p) if (*s++ != *p++) return 0; return 1; }
static int to_int(const char *s) { int v = 0; while (*s >= '0' && *s <= '9') v = v * 10 + (*s++ - '0'); return v; }
__attribute__((used)) unsigned __hexagon_udivsi3(unsigned n, unsigned d)
{ unsigned q = 0, r = 0; for (int i = 31; i >= 0; i--) { r = r << 1 | (n >> i & 1); if (r >= d) { r -= d; q |= 1u << i; } } return q; }
__attribute__((used)) unsigned __hexagon_umodsi3(unsigned n, unsigned d) { return n - __hexagon_udivsi3(n, d) * d; }

int main(int argc, char **argv, char **envp);
__attribute__((noreturn, used)) void urt_start(long *sp)
{
    int argc = (int)sp[0];
    char **argv = (char **)(sp + 1);
    sys(93, main(argc, argv, argv + argc + 1), 0, 0, 0, 0, 0);
    __builtin_unreachable();
}
__asm__(".globl _start\n_start:\n  r0 = r29\n  allocframe(#0)\n  call urt_start\n");

#ifdef URT_CLONE
// uclone(flags, stack, ptid, ctid, tls): clone; the child takes fn and arg from its new stack
// (fn at sp, arg at sp + 4), runs fn(arg) and exits with its result.
long uclone(long flags, void *stack, int *ptid, int *ctid, void *tls);
__asm__(".globl uclone\nuclone:\n"
        "  r6 = #220\n  trap0(#1)\n"
        "  p0 = cmp.eq(r0, #0)\n"
        "  if (!p0) jumpr r31\n"
        "  r1 = memw(r29+#0)\n  r0 = memw(r29+#4)\n"
        "  callr r1\n"
        "  r6 = #93\n  trap0(#1)\n");
#endif
#endif
