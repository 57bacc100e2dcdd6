/* b3_memcpy: memory copies: byte, word and doubleword copy loops, a memset and a checksum
 * over 256 KiB buffers, repeated (loads, stores, post-increment addressing).
 * Expected output: sum=0x20b7cd3a */
#include "rt.h"
#define N (256 * 1024)
static unsigned char a[N], b[N];
static void copy_bytes(unsigned char *d, const unsigned char *s, u32 n)
{
    for (u32 i = 0; i < n; i++) { d[i] = s[i]; __asm__ volatile("" ::: "memory"); }
}
static void copy_words(u32 *d, const u32 *s, u32 n)
{
    for (u32 i = 0; i < n; i++) { d[i] = s[i]; __asm__ volatile("" ::: "memory"); }
}
static void copy_dwords(u64 *d, const u64 *s, u32 n)
{
    for (u32 i = 0; i < n; i++) { d[i] = s[i] + 1; __asm__ volatile("" ::: "memory"); }
}
static void fill(unsigned char *d, unsigned char v, u32 n)
{
    for (u32 i = 0; i < n; i++) { d[i] = (unsigned char)(v + i * 7u + (i >> 9)); __asm__ volatile("" ::: "memory"); }
}
int main(void)
{
    u32 sum = 0;
    for (int r = 0; r < 60; r++) {
        fill(a, (unsigned char)r, N);
        copy_bytes(b, a, N);
        copy_words((u32 *)a, (const u32 *)b, N / 4);
        copy_dwords((u64 *)b, (const u64 *)a, N / 8);
        const u32 *w = (const u32 *)b;
        for (u32 i = 0; i < N / 4; i++) { sum = (sum ^ w[i]) * 16777619u; sum ^= sum >> 15; }
    }
    put_str("sum="); put_hex(sum); put_str("\n");
    return 0;
}
