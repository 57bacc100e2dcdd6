// SPDX-License-Identifier: MIT
// Guest program for the debugger's HVX support (tests/debug/hvx_test.py): vec_step puts
// one HVX instruction in each packet (a splat, a vector load, a word add, a compare into a
// vector predicate, a vector store into the second half of buf), so stepi shows each write;
// vec_sum keeps a running sum in v7 for n packets (a hardware loop), so a snapshot taken in
// the middle of it holds HVX state that the rest of the run needs. The result (buf's second
// half) decides the exit status and, in user mode, is written to stdout in hex.
// Built with clang-16 --target=hexagon-unknown-linux-musl -mv68 -mhvx -mhvx-length=128b
// -nostdlib; with -DHVM_KERNEL it is a system-mode test kernel instead (tests/hvm/guest/crt.S
// starts it and stops the vCPU when main returns).
unsigned char buf[256] __attribute__((aligned(128)));
volatile unsigned sink;

#ifdef HVM_KERNEL
void hvm_event(unsigned slot, unsigned *rec)
{
    (void)slot, (void)rec;
}

static void finish(unsigned status)
{
    sink = status;
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

// Writes the result's 32 words in hex on a line, then exits with status.
static void finish(unsigned status)
{
    static char line[32 * 9];
    for (int i = 0; i < 32; i++) {
        unsigned w = (unsigned)buf[128 + 4 * i] | (unsigned)buf[129 + 4 * i] << 8 |
                     (unsigned)buf[130 + 4 * i] << 16 | (unsigned)buf[131 + 4 * i] << 24;
        for (int k = 0; k < 8; k++)
            line[9 * i + k] = "0123456789abcdef"[(w >> (28 - 4 * k)) & 15];
        line[9 * i + 8] = i == 31 ? '\n' : ' ';
    }
    sys3(64, 1, (long)line, sizeof(line));   // write
    sys3(93, (long)status, 0, 0);            // exit
}
#endif

__attribute__((noinline)) void vec_step(unsigned char *p)
{
    __asm__ volatile("r2 = #7\n"
                     "v3 = vsplat(r2)\n"
                     "v4 = vmem(%0+#0)\n"
                     "v5.w = vadd(v3.w,v4.w)\n"
                     "q0 = vcmp.gt(v5.w,v4.w)\n"
                     "vmem(%0+#1) = v5\n"
                     : : "r"(p) : "r2", "v3", "v4", "v5", "q0", "memory");
}

__attribute__((noinline)) void vec_sum(unsigned char *p, int n)
{
    __asm__ volatile("v6 = vmem(%0+#0)\n"
                     "v7 = vxor(v7,v7)\n"
                     "loop0(1f,%1)\n"
                     ".falign\n"
                     "1:\n"
                     "{ v7.w = vadd(v7.w,v6.w) }:endloop0\n"
                     "vmem(%0+#1) = v7\n"
                     : : "r"(p), "r"(n) : "v6", "v7", "memory", "lc0", "sa0");
}

__attribute__((noinline)) void done(unsigned status)
{
    sink = status;
}

int main(void)
{
    for (int i = 0; i < 128; i++)
        buf[i] = (unsigned char)(i * 3 + 1);
    vec_step(buf);
    unsigned r = buf[128 + 20];   // byte 20 of v5: 61 + 7
    vec_sum(buf, 3000);
    unsigned h = r;
    for (int i = 128; i < 256; i++)
        h = h * 31 + buf[i];
    done(h);
    finish(h & 0x7f);
    return 0;
}
#ifndef HVM_KERNEL
__asm__(".globl _start\n_start:\n  allocframe(#0)\n  call main\n");
#endif
