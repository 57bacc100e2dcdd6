// SPDX-License-Identifier: MIT
// Guest program for the disassembly tests: dense switches (jump tables), sparse switches
// (compare trees), a tiny state machine over a string and character classification.
#include "progs.h"

int sw_dense(int op, int a, int b)
{
    switch (op) {
    case 0: return a + b;
    case 1: return a - b;
    case 2: return a * b;
    case 3: return a & b;
    case 4: return a | b;
    case 5: return a ^ b;
    case 6: return a << (b & 31);
    case 7: return a >> (b & 31);
    case 8: return a < b;
    case 9: return -a;
    default: return 0;
    }
}

int sw_sparse(int key)
{
    switch (key) {
    case 3: return 10;
    case 100: return 20;
    case 1000: return 30;
    case -7: return 40;
    case 65536: return 50;
    default: return key & 0xff;
    }
}

int sw_words(const char *s)
{
    int words = 0, in = 0;
    for (; *s; s++) {
        switch (*s) {
        case ' ': case '\t': case '\n':
            in = 0;
            break;
        default:
            if (!in)
                words++;
            in = 1;
        }
    }
    return words;
}

int sw_main(void)
{
    int acc = 0;
    for (int op = 0; op < 11; op++)
        acc += sw_dense(op, 1234, 5);
    acc += sw_sparse(1000) + sw_sparse(-7) + sw_sparse(77777);
    return acc + sw_words("the quick  brown\tfox\njumps");
}
