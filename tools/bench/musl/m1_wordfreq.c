/* SPDX-License-Identifier: MIT
 * Benchmark (musl, bench.py USERLAND): word frequencies of a text file. Reads it through
 * stdio (getc), lower-cases each word, counts it in a chained hash table of malloc'd
 * nodes, sorts the distinct words with qsort by count then spelling, and prints the
 * totals and the 25 most frequent: stdio, malloc, string and qsort work of the C library.
 * Usage: m1_wordfreq FILE */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct word {
    struct word *next;
    unsigned long count;
    char text[];
};

static unsigned hash(const char *s)
{
    unsigned h = 2166136261u;
    while (*s)
        h = (h ^ (unsigned char)*s++) * 16777619u;
    return h;
}

static int by_count(const void *a, const void *b)
{
    const struct word *x = *(const struct word *const *)a, *y = *(const struct word *const *)b;
    if (x->count != y->count)
        return x->count < y->count ? 1 : -1;
    return strcmp(x->text, y->text);
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: %s FILE\n", argv[0]);
        return 2;
    }
    FILE *f = fopen(argv[1], "r");
    if (!f) {
        perror(argv[1]);
        return 1;
    }
    unsigned nbuckets = 1u << 12, ndistinct = 0;
    struct word **table = calloc(nbuckets, sizeof *table);
    char buf[64];
    size_t len = 0;
    unsigned long nwords = 0, nchars = 0;
    int c;
    if (!table)
        return 1;
    do {
        c = getc(f);
        if (c != EOF)
            nchars++;
        if (c != EOF && isalpha(c)) {
            if (len < sizeof buf - 1)
                buf[len++] = (char)tolower(c);
            continue;
        }
        if (!len)
            continue;
        buf[len] = 0;
        len = 0;
        nwords++;
        unsigned h = hash(buf) & (nbuckets - 1);
        struct word *w;
        for (w = table[h]; w && strcmp(w->text, buf); w = w->next)
            ;
        if (w) {
            w->count++;
            continue;
        }
        w = malloc(sizeof *w + strlen(buf) + 1);
        if (!w)
            return 1;
        strcpy(w->text, buf);
        w->count = 1;
        w->next = table[h];
        table[h] = w;
        ndistinct++;
    } while (c != EOF);
    fclose(f);
    struct word **all = malloc(ndistinct * sizeof *all);
    unsigned n = 0;
    if (!all)
        return 1;
    for (unsigned i = 0; i < nbuckets; i++)
        for (struct word *w = table[i]; w; w = w->next)
            all[n++] = w;
    qsort(all, n, sizeof *all, by_count);
    printf("%lu characters, %lu words, %u distinct\n", nchars, nwords, ndistinct);
    for (unsigned i = 0; i < n && i < 25; i++)
        printf("%7lu %5.2f%% %s\n", all[i]->count, 100.0 * all[i]->count / nwords, all[i]->text);
    return 0;
}
