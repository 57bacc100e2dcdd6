// SPDX-License-Identifier: MIT
// Guest program for the disassembly tests: counted and nested loops (hardware loops at -O2),
// array walks, a byte copy and a search loop with an early exit.
#include "progs.h"

static int table[64];

int loops_sum(const int *a, int n)
{
    int s = 0;
    for (int i = 0; i < n; i++)
        s += a[i] * (i & 3);
    return s;
}

void loops_copy(unsigned char *dst, const unsigned char *src, unsigned n)
{
    while (n--)
        *dst++ = *src++;
}

int loops_find(const int *a, int n, int key)
{
    for (int i = 0; i < n; i++)
        if (a[i] == key)
            return i;
    return -1;
}

int loops_matrix(void)
{
    int m[8][8], acc = 0;
    for (int i = 0; i < 8; i++)
        for (int j = 0; j < 8; j++)
            m[i][j] = i * 8 + j;
    for (int i = 0; i < 8; i++)
        for (int j = 0; j < 8; j++)
            acc += m[i][j] * m[j][i];
    return acc;
}

int loops_main(void)
{
    for (int i = 0; i < 64; i++)
        table[i] = i * i - 7;
    unsigned char a[32], b[32];
    for (int i = 0; i < 32; i++)
        a[i] = (unsigned char)(i * 13);
    loops_copy(b, a, sizeof(b));
    return loops_sum(table, 64) + loops_find(table, 64, 93) + b[7] + loops_matrix();
}
