// SPDX-License-Identifier: MIT
// Guest program for the debugger's DWARF tests (tests/debug, session_dwarf.gdb): globals
// of base, array, struct, pointer, enum, bit-field and floating types, functions with
// parameters and locals, a recursion, and a call that never returns as main's last act.
// Built with clang-16 --target=hexagon-unknown-linux-musl -mv67 -g -O0 -nostdlib.
typedef unsigned int u32;

struct point {
    int x, y;
};

enum color { RED, GREEN, BLUE };

struct shape {
    const char *name;
    struct point corner[2];
    enum color color;
    unsigned flags : 3;
    unsigned wide : 1;
    struct shape *next;
};

volatile u32 counter;
int table[4] = { 1, 2, 3, 4 };
char greeting[16] = "hello\n";
short zeros[12];
struct shape box = { "box", { { 1, 2 }, { 4, 6 } }, GREEN, 5, 1, 0 };
struct shape *list_head = &box;
double ratio = 1.5;

static long sys3(long nr, long a, long b, long c)
{
    register long r0 __asm__("r0") = a;
    register long r1 __asm__("r1") = b;
    register long r2 __asm__("r2") = c;
    register long r6 __asm__("r6") = nr;
    __asm__ volatile("trap0(#1)" : "+r"(r0) : "r"(r1), "r"(r2), "r"(r6) : "memory");
    return r0;
}

__attribute__((noinline)) int area(const struct shape *s)
{
    int w = s->corner[1].x - s->corner[0].x;
    int h = s->corner[1].y - s->corner[0].y;
    return w * h;
}

__attribute__((noinline)) u32 fact(u32 n)
{
    if (n <= 1)
        return 1;
    return n * fact(n - 1);
}

__attribute__((noreturn, noinline)) void finish_prog(int code)
{
    sys3(93, code, 0, 0);
    __builtin_unreachable();
}

int main(void)
{
    int a = area(&box);
    u32 f = fact(5);
    counter = a + f;
    sys3(64, 1, (long)greeting, 6);
    finish_prog((int)((a + f) & 0x7f));
}

__attribute__((used)) int after_main(void)
{
    return 0;
}
__asm__(".globl _start\n_start:\n  allocframe(#0)\n  call main\n");
