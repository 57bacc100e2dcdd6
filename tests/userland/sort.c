// SPDX-License-Identifier: MIT
// qsort and bsearch: integers (including already sorted, reversed and equal runs),
// strings, and structures ordered by two keys; bsearch finds every present key and
// no absent one.
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int cmp_int(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

struct rec {
    int key;
    int id;
    char name[12];
};

static int cmp_rec(const void *a, const void *b)
{
    const struct rec *x = a, *y = b;
    if (x->key != y->key)
        return (x->key > y->key) - (x->key < y->key);
    return (x->id > y->id) - (x->id < y->id);
}

static unsigned seed = 7;
static int rnd(void)
{
    seed = seed * 1664525u + 1013904223u;
    return (int)(seed >> 9);
}

static uint32_t digest(const int *v, int n)
{
    uint32_t h = 5381;
    for (int i = 0; i < n; i++)
        h = h * 33 + (unsigned)v[i];
    return h;
}

static int sorted(const int *v, int n)
{
    for (int i = 1; i < n; i++)
        if (v[i - 1] > v[i])
            return 0;
    return 1;
}

int main(void)
{
    enum { N = 20000 };
    static int v[N];
    for (int kind = 0; kind < 5; kind++) {
        for (int i = 0; i < N; i++) {
            switch (kind) {
            case 0: v[i] = rnd() % 1000000; break;
            case 1: v[i] = i; break;
            case 2: v[i] = N - i; break;
            case 3: v[i] = rnd() % 4; break;
            default: v[i] = (i % 2) ? -i : i; break;
            }
        }
        qsort(v, N, sizeof v[0], cmp_int);
        printf("ints kind %d sorted %d digest %u min %d max %d\n", kind, sorted(v, N),
               digest(v, N), v[0], v[N - 1]);
    }
    // bsearch over distinct even numbers.
    static int ev[5000];
    for (int i = 0; i < 5000; i++)
        ev[i] = 2 * i;
    int found = 0, wrong = 0;
    for (int k = -3; k < 10003; k++) {
        int *p = bsearch(&k, ev, 5000, sizeof ev[0], cmp_int);
        if (p) {
            found++;
            wrong += *p != k;
        } else {
            wrong += (k % 2 == 0 && k >= 0 && k < 10000);
        }
    }
    printf("bsearch found %d wrong %d\n", found, wrong);
    const char *words[] = { "pear", "apple", "fig", "banana", "cherry", "date", "elderberry",
                            "grape", "apple2", "Apple", "", "kiwi" };
    int nw = sizeof words / sizeof words[0];
    qsort(words, (size_t)nw, sizeof words[0], cmp_str);
    for (int i = 0; i < nw; i++)
        printf("%s%s", i ? " " : "words: ", words[i]);
    printf("\n");
    const char *key = "date";
    const char **hit = bsearch(&key, words, (size_t)nw, sizeof words[0], cmp_str);
    printf("bsearch date -> index %td\n", hit ? hit - words : (ptrdiff_t)-1);
    static struct rec recs[1000];
    for (int i = 0; i < 1000; i++) {
        recs[i].key = rnd() % 50;
        recs[i].id = i;
        snprintf(recs[i].name, sizeof recs[i].name, "r%d", i);
    }
    qsort(recs, 1000, sizeof recs[0], cmp_rec);
    uint32_t h = 0;
    int ok = 1;
    for (int i = 0; i < 1000; i++) {
        h = h * 131 + (uint32_t)recs[i].id;
        if (i && cmp_rec(&recs[i - 1], &recs[i]) > 0)
            ok = 0;
    }
    printf("records ordered %d digest %u first %s last %s\n", ok, h, recs[0].name, recs[999].name);
    qsort(NULL, 0, sizeof(int), cmp_int);
    printf("empty ok\n");
    return 0;
}
