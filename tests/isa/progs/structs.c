// SPDX-License-Identifier: MIT
// Guest program for the disassembly tests: structures passed and returned by value, linked
// lists, function pointers, recursion (Fibonacci, Ackermann-style, a recursive sort).
#include "progs.h"

struct point { int x, y; };
struct rect { struct point a, b; short tag; char name[6]; };
struct node { struct node *next; int value; };

struct point pt_add(struct point p, struct point q)
{
    struct point r = { p.x + q.x, p.y + q.y };
    return r;
}

int rect_area(const struct rect *r)
{
    return (r->b.x - r->a.x) * (r->b.y - r->a.y) + r->tag + r->name[0];
}

int list_sum(const struct node *n) { return n ? n->value + list_sum(n->next) : 0; }

int fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }

static int ack(int m, int n)
{
    if (m == 0)
        return n + 1;
    if (n == 0)
        return ack(m - 1, 1);
    return ack(m - 1, ack(m, n - 1));
}

static void sort(int *a, int lo, int hi)
{
    if (lo >= hi)
        return;
    int p = a[(lo + hi) / 2], i = lo, j = hi;
    while (i <= j) {
        while (a[i] < p) i++;
        while (a[j] > p) j--;
        if (i <= j) {
            int t = a[i];
            a[i++] = a[j];
            a[j--] = t;
        }
    }
    sort(a, lo, j);
    sort(a, i, hi);
}

static int twice(int (*f)(int), int v) { return f(f(v)); }

int st_main(void)
{
    struct node n3 = { 0, 3 }, n2 = { &n3, 2 }, n1 = { &n2, 1 };
    struct rect r = { { 1, 2 }, { 11, 7 }, 5, "box" };
    struct point p = pt_add(r.a, r.b);
    int a[10] = { 5, 3, 9, 1, 7, 2, 8, 6, 4, 0 };
    sort(a, 0, 9);
    return p.x + p.y + rect_area(&r) + list_sum(&n1) + fib(12) + ack(2, 3) + a[4] + twice(fib, 5);
}
