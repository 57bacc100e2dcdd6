/* b13_lz: a compression-like kernel: LZ77 with hash chains (3-byte hashes, a 32 KiB window,
 * lazy matching off) over 256 KiB of generated text-like data into a byte-oriented format,
 * the decompressor, a check that the round trip gives the input back, and an adaptive
 * order-0 range coder's model updates (bit by bit, as in LZMA-style coders).
 * Expected output: lz=0x1988b7a7 size=0x0001b441 rc=0x64ce6a1d */
#include "rt.h"
#define IN_SIZE (256 * 1024)
#define WIN 32768
#define HBITS 15
static unsigned char in[IN_SIZE], out[IN_SIZE + IN_SIZE / 8 + 16], back[IN_SIZE];
static int head[1 << HBITS], prev[WIN];
static u32 seed = 2024;
static u32 rnd(void) { seed = seed * 1103515245u + 12345u; return seed >> 8; }
static void gen(void)
{
    static const char *w[] = { "the ", "of ", "and ", "compression ", "window ", "match ",
        "literal ", "a ", "is ", "data ", "length ", "distance ", "hash ", "chain ", "\n",
        "simulator ", "packet ", "hexagon ", "block ", "cache " };
    u32 n = 0;
    while (n < IN_SIZE) {
        const char *s = w[rnd() % 20];
        if (rnd() % 16 == 0) { in[n++] = (unsigned char)('A' + rnd() % 26); continue; }
        while (*s && n < IN_SIZE) in[n++] = (unsigned char)*s++;
    }
}
static u32 hash3(const unsigned char *p) { return ((p[0] << 10) ^ (p[1] << 5) ^ p[2]) & ((1 << HBITS) - 1); }
static u32 compress(void)
{
    u32 o = 0, i = 0;
    for (u32 k = 0; k < (1u << HBITS); k++) head[k] = -1;
    while (i < IN_SIZE) {
        u32 best = 0, bdist = 0;
        if (i + 3 <= IN_SIZE) {
            u32 h = hash3(in + i);
            int cand = head[h];
            for (int chain = 0; cand >= 0 && chain < 16 && i - (u32)cand < WIN; chain++) {
                u32 l = 0, max = IN_SIZE - i < 258 ? IN_SIZE - i : 258;
                while (l < max && in[cand + l] == in[i + l]) l++;
                if (l > best) { best = l; bdist = i - (u32)cand; }
                cand = prev[cand & (WIN - 1)];
            }
            prev[i & (WIN - 1)] = head[h];
            head[h] = (int)i;
        }
        if (best >= 4) {
            out[o++] = (unsigned char)(0x80 | (best - 4) >> 8 << 0);
            out[o++] = (unsigned char)(best - 4);
            out[o++] = (unsigned char)(bdist >> 8);
            out[o++] = (unsigned char)bdist;
            for (u32 k = 1; k < best; k++) {   /* the skipped positions into the chains */
                u32 j = i + k;
                if (j + 3 <= IN_SIZE) {
                    u32 h = hash3(in + j);
                    prev[j & (WIN - 1)] = head[h];
                    head[h] = (int)j;
                }
            }
            i += best;
        } else {
            u32 run = 1;   /* literals: a count byte then up to 127 bytes */
            out[o++] = 0;
            out[o++] = in[i++];
            u32 at = o - 2;
            while (run < 127 && i < IN_SIZE && (i + 3 > IN_SIZE || head[hash3(in + i)] < 0 ||
                                                 in[head[hash3(in + i)]] != in[i])) {
                if (i + 3 <= IN_SIZE) {
                    u32 h = hash3(in + i);
                    prev[i & (WIN - 1)] = head[h];
                    head[h] = (int)i;
                }
                out[o++] = in[i++];
                run++;
            }
            out[at] = (unsigned char)run;
        }
    }
    return o;
}
static u32 decompress(u32 n)
{
    u32 i = 0, o = 0;
    while (i < n) {
        unsigned char c = out[i++];
        if (c & 0x80) {
            u32 len = ((u32)(c & 0x7f) << 8 | out[i]) + 4, dist = (u32)out[i + 1] << 8 | out[i + 2];
            i += 3;
            for (u32 k = 0; k < len; k++, o++) back[o] = back[o - dist];
        } else {
            for (u32 k = 0; k < c; k++) back[o++] = out[i++];
        }
    }
    return o;
}
static u32 model(void)
{
    unsigned short prob[256 * 8];
    for (u32 k = 0; k < 256 * 8; k++) prob[k] = 2048;
    u32 low = 0, range = 0xffffffffu, h = 0;
    for (u32 i = 0; i < IN_SIZE / 2; i++) {
        u32 ctx = 1, c = in[i];
        for (int b = 7; b >= 0; b--) {
            u32 bit = (c >> b) & 1, pi = (ctx & 255) * 8 + (u32)b;
            u32 bound = (range >> 12) * prob[pi];
            if (bit) { low += bound; range -= bound; prob[pi] -= prob[pi] >> 5; }
            else { range = bound; prob[pi] += (4096 - prob[pi]) >> 5; }
            while (range < (1u << 24)) { h = h * 31 + (low >> 24); low <<= 8; range <<= 8; }
            ctx = ctx << 1 | bit;
        }
    }
    return h ^ low;
}
int main(void)
{
    gen();
    u32 n = 0, h = 0;
    for (int r = 0; r < 3; r++) {
        n = compress();
        u32 m = decompress(n);
        if (m != IN_SIZE) { put_str("bad size\n"); return 1; }
        for (u32 i = 0; i < IN_SIZE; i++)
            if (back[i] != in[i]) { put_str("bad data\n"); return 1; }
        for (u32 i = 0; i < n; i++) h = h * 16777619u ^ out[i];
        in[r * 1000 + 7] ^= 0x20;
    }
    u32 rc = model();
    put_str("lz="); put_hex(h); put_str(" size="); put_hex(n); put_str(" rc="); put_hex(rc);
    put_str("\n");
    return 0;
}
