/* b7_branchy: branchy code: a small bytecode interpreter (switch dispatch), a sieve of
 * Eratosthenes, binary searches and a string scanner with data-dependent branches.
 * Expected output: vm=0x122b5386 primes=0x00069e31 bs=0x0504209f scan=0x3e5bf740 */
#include "rt.h"
static unsigned char sieve[400000];
static u32 sorted[4096];
static char text[8192];
enum { OP_INC, OP_DEC, OP_ADD, OP_XOR, OP_JNZ, OP_SHL, OP_HALT };
static u32 run_vm(const unsigned char *code, u32 r0)
{
    u32 r1 = 0, pc = 0, acc = r0;
    for (;;) {
        unsigned char op = code[pc++];
        switch (op) {
        case OP_INC: acc++; break;
        case OP_DEC: r0--; break;
        case OP_ADD: r1 += acc; break;
        case OP_XOR: acc ^= r1 >> 3; break;
        case OP_SHL: r1 = (r1 << 1) | (r1 >> 31); break;
        case OP_JNZ: { unsigned char t = code[pc++]; if (r0) pc = t; break; }
        default: return acc ^ r1;
        }
    }
}
int main(void)
{
    static const unsigned char prog[] = { OP_INC, OP_ADD, OP_XOR, OP_SHL, OP_DEC, OP_JNZ, 0, OP_HALT };
    u32 vm = 0;
    for (u32 i = 0; i < 40; i++) vm += run_vm(prog, 20000 + i);
    u32 count = 0, last = 0;
    for (u32 i = 2; i < sizeof sieve; i++) {
        if (sieve[i]) continue;
        count++; last = i;
        for (u32 j = i * 2; j < sizeof sieve; j += i) sieve[j] = 1;
    }
    for (u32 i = 0; i < 4096; i++) sorted[i] = i * 7u + (i >> 3);
    u32 seed = 99, found = 0;
    for (int k = 0; k < 300000; k++) {
        seed = seed * 1664525u + 1013904223u;
        u32 key = seed % 30000u, lo = 0, hi = 4096;
        while (lo < hi) { u32 mid = (lo + hi) / 2; if (sorted[mid] < key) lo = mid + 1; else hi = mid; }
        found += (lo < 4096 && sorted[lo] == key) ? lo : 1;
    }
    for (u32 i = 0; i < sizeof text; i++) { seed = seed * 1664525u + 1013904223u; text[i] = " aeiouxyz.,\n"[(seed >> 20) % 12]; }
    u32 words = 0, vowels = 0, lines = 0, punct = 0;
    for (int r = 0; r < 60; r++) {
        int inword = 0;
        for (u32 i = 0; i < sizeof text; i++) {
            char c = text[i];
            if (c == ' ' || c == '\n') { if (c == '\n') lines++; inword = 0; }
            else if (c == '.' || c == ',') { punct++; inword = 0; }
            else { if (!inword) words++; inword = 1; if (c == 'a' || c == 'e' || c == 'i' || c == 'o' || c == 'u') vowels++; }
        }
    }
    put_str("vm="); put_hex(vm); put_str(" primes="); put_hex(count ^ last); put_str(" bs="); put_hex(found);
    put_str(" scan="); put_hex(words * 3u ^ vowels ^ lines << 8 ^ punct << 16); put_str("\n");
    return 0;
}
