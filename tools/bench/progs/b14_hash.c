/* b14_hash: hash and crypto-like kernels: SHA-256 over 128 KiB blocks (rotates, the
 * message schedule, 64 rounds), ChaCha20's quarter rounds as a keystream generator, CRC-32
 * by a 256-entry table, and an open-addressing hash table (FNV-1a keys, linear probing) with
 * inserts and lookups.
 * Expected output: sha=0x8e64edff chacha=0xc4a59a3d crc=0xc2c1a711 table=0x6b495cd0 */
#include "rt.h"
static unsigned char buf[128 * 1024];
static u32 crct[256];
static u32 tkeys[1 << 16], tvals[1 << 16];
static const u32 K[64] = {
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2 };
static inline u32 ror(u32 x, int n) { return (x >> n) | (x << (32 - n)); }
static inline u32 rol(u32 x, int n) { return (x << n) | (x >> (32 - n)); }
static void sha256(const unsigned char *p, u32 n, u32 hs[8])
{
    static const u32 init[8] = { 0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f,
                                 0x9b05688c, 0x1f83d9ab, 0x5be0cd19 };
    for (int i = 0; i < 8; i++) hs[i] = init[i];
    for (u32 off = 0; off + 64 <= n; off += 64) {
        u32 w[64];
        for (int i = 0; i < 16; i++)
            w[i] = (u32)p[off + 4 * i] << 24 | (u32)p[off + 4 * i + 1] << 16 |
                   (u32)p[off + 4 * i + 2] << 8 | p[off + 4 * i + 3];
        for (int i = 16; i < 64; i++) {
            u32 s0 = ror(w[i - 15], 7) ^ ror(w[i - 15], 18) ^ (w[i - 15] >> 3);
            u32 s1 = ror(w[i - 2], 17) ^ ror(w[i - 2], 19) ^ (w[i - 2] >> 10);
            w[i] = w[i - 16] + s0 + w[i - 7] + s1;
        }
        u32 a = hs[0], b = hs[1], c = hs[2], d = hs[3], e = hs[4], f = hs[5], g = hs[6], h = hs[7];
        for (int i = 0; i < 64; i++) {
            u32 t1 = h + (ror(e, 6) ^ ror(e, 11) ^ ror(e, 25)) + ((e & f) ^ (~e & g)) + K[i] + w[i];
            u32 t2 = (ror(a, 2) ^ ror(a, 13) ^ ror(a, 22)) + ((a & b) ^ (a & c) ^ (b & c));
            h = g; g = f; f = e; e = d + t1; d = c; c = b; b = a; a = t1 + t2;
        }
        hs[0] += a; hs[1] += b; hs[2] += c; hs[3] += d; hs[4] += e; hs[5] += f; hs[6] += g; hs[7] += h;
    }
}
#define QR(a, b, c, d) a += b; d = rol(d ^ a, 16); c += d; b = rol(b ^ c, 12); \
                       a += b; d = rol(d ^ a, 8); c += d; b = rol(b ^ c, 7)
static u32 chacha(u32 blocks)
{
    u32 s[16], x[16], h = 0;
    for (int i = 0; i < 16; i++) s[i] = 0x61707865u * (u32)(i + 1);
    for (u32 n = 0; n < blocks; n++) {
        s[12] = n;
        for (int i = 0; i < 16; i++) x[i] = s[i];
        for (int r = 0; r < 10; r++) {
            QR(x[0], x[4], x[8], x[12]); QR(x[1], x[5], x[9], x[13]);
            QR(x[2], x[6], x[10], x[14]); QR(x[3], x[7], x[11], x[15]);
            QR(x[0], x[5], x[10], x[15]); QR(x[1], x[6], x[11], x[12]);
            QR(x[2], x[7], x[8], x[13]); QR(x[3], x[4], x[9], x[14]);
        }
        for (int i = 0; i < 16; i++) h = rol(h, 5) ^ (x[i] + s[i]);
    }
    return h;
}
int main(void)
{
    u32 seed = 5;
    for (u32 i = 0; i < sizeof(buf); i++) { seed = seed * 1103515245u + 12345u; buf[i] = (unsigned char)(seed >> 16); }
    u32 hs[8], sh = 0;
    for (int r = 0; r < 12; r++) { sha256(buf, sizeof(buf), hs); sh = sh * 3 ^ hs[0] ^ hs[7]; buf[r] ^= 1; }
    u32 ch = chacha(20000);
    for (u32 i = 0; i < 256; i++) {
        u32 c = i;
        for (int k = 0; k < 8; k++) c = c & 1 ? 0xedb88320u ^ (c >> 1) : c >> 1;
        crct[i] = c;
    }
    u32 crc = 0xffffffffu;
    for (int r = 0; r < 12; r++)
        for (u32 i = 0; i < sizeof(buf); i++) crc = crct[(crc ^ buf[i]) & 255] ^ (crc >> 8);
    u32 th = 0;
    for (u32 i = 0; i < 40000; i++) {
        u32 k = 2166136261u;
        u32 v = i * 7u;
        for (int b = 0; b < 4; b++) { k ^= (v >> (8 * b)) & 255; k *= 16777619u; }
        k |= 1;
        u32 at = k & 0xffff;
        while (tkeys[at] && tkeys[at] != k) at = (at + 1) & 0xffff;
        tkeys[at] = k; tvals[at] += i;
    }
    for (u32 i = 0; i < 120000; i++) {
        u32 k = 2166136261u, v = (i % 50000) * 7u;
        for (int b = 0; b < 4; b++) { k ^= (v >> (8 * b)) & 255; k *= 16777619u; }
        k |= 1;
        u32 at = k & 0xffff;
        while (tkeys[at] && tkeys[at] != k) at = (at + 1) & 0xffff;
        th += tkeys[at] ? tvals[at] : 1;
    }
    put_str("sha="); put_hex(sh); put_str(" chacha="); put_hex(ch); put_str(" crc="); put_hex(~crc);
    put_str(" table="); put_hex(th); put_str("\n");
    return 0;
}
