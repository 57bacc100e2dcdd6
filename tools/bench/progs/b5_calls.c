/* b5_calls: function calls and recursion: naive Fibonacci, Ackermann(2, n), a recursive
 * quicksort and calls through a table of function pointers (call/return, allocframe and
 * deallocframe, stack traffic).
 * Expected output: fib=0x0002ff42 ack=0x00009dd0 qs=0x0fe5fcea fp=0x5a4e2bff */
#include "rt.h"
__attribute__((noinline)) static u32 fib(u32 n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }
__attribute__((noinline)) static u32 ack(u32 m, u32 n)
{
    if (m == 0) return n + 1;
    if (n == 0) return ack(m - 1, 1);
    return ack(m - 1, ack(m, n - 1));
}
static int arr[30000];
__attribute__((noinline)) static void qsort_r(int *v, int lo, int hi)
{
    if (lo >= hi) return;
    int p = v[(lo + hi) / 2], i = lo, j = hi;
    while (i <= j) {
        while (v[i] < p) i++;
        while (v[j] > p) j--;
        if (i <= j) { int t = v[i]; v[i] = v[j]; v[j] = t; i++; j--; }
    }
    qsort_r(v, lo, j);
    qsort_r(v, i, hi);
}
__attribute__((noinline)) static u32 f_add(u32 a, u32 b) { return a + b; }
__attribute__((noinline)) static u32 f_xor(u32 a, u32 b) { return a ^ (b << 1); }
__attribute__((noinline)) static u32 f_mul(u32 a, u32 b) { return a * (b | 1); }
__attribute__((noinline)) static u32 f_sub(u32 a, u32 b) { return a - (b ^ (a >> 3)); }
static u32 (*const ftab[4])(u32, u32) = { f_add, f_xor, f_mul, f_sub };
int main(void)
{
    u32 f = fib(27);
    u32 a = 0;
    for (u32 n = 0; n < 200; n++) a += ack(2, n);
    u32 seed = 7;
    for (int i = 0; i < 30000; i++) { seed = seed * 1103515245u + 12345u; arr[i] = (int)(seed >> 4); }
    for (int r = 0; r < 3; r++) {
        qsort_r(arr, 0, 29999);
        for (int i = 0; i < 30000; i += 3) arr[i] ^= r * 977;
    }
    u32 h = 0;
    for (int i = 0; i < 30000; i++) h = h * 31u + (u32)arr[i];
    u32 x = 1;
    for (u32 i = 0; i < 1500000; i++) x = ftab[(x ^ i) & 3](x, i);
    put_str("fib="); put_hex(f); put_str(" ack="); put_hex(a); put_str(" qs="); put_hex(h);
    put_str(" fp="); put_hex(x); put_str("\n");
    return 0;
}
