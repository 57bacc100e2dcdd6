// SPDX-License-Identifier: MIT
// Static construction and destruction (the .init_array musl's static start runs, and
// libc++abi's __cxa_atexit/__cxa_guard): globals constructed in definition order
// before main, function-local statics on first use only and once, destructors in the
// reverse order of construction completing, interleaved with atexit handlers by
// registration order, a static object built from another's value, constructor
// attributes with priorities, and operator new/delete (replaced here, counted).
// Printed with write() only (formatted with snprintf), so the order of the lines does
// not depend on when stdio flushes.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <new>
#include <string>
#include <unistd.h>
#include <vector>

namespace {

void say(const char *s)
{
    ssize_t r = write(1, s, std::strlen(s));
    (void)r;
}

int news, deletes;

struct Global {
    const char *name;
    int value;
    explicit Global(const char *n, int v = 0) : name(n), value(v)
    {
        char buf[80];
        std::snprintf(buf, sizeof buf, "construct %s (%d)\n", name, value);
        say(buf);
    }
    ~Global()
    {
        char buf[80];
        std::snprintf(buf, sizeof buf, "destroy %s\n", name);
        say(buf);
    }
};

__attribute__((constructor(101))) void early() { say("constructor(101) function\n"); }
__attribute__((constructor(200))) void later() { say("constructor(200) function\n"); }
__attribute__((destructor)) void fini_function() { say("destructor function\n"); }

Global first("first", 1);
Global second("second", first.value + 1);
std::vector<int> table{1, 2, 3, 4};
Global third("third", static_cast<int>(table.size()));

Global &lazy()
{
    static Global g("function-local", 10);
    return g;
}

void handler_a() { say("atexit handler A\n"); }
void handler_b() { say("atexit handler B\n"); }

} // namespace

void *operator new(std::size_t n)
{
    news++;
    void *p = std::malloc(n ? n : 1);
    if (!p)
        throw std::bad_alloc();
    return p;
}

void operator delete(void *p) noexcept
{
    if (p)
        deletes++;
    std::free(p);
}

void operator delete(void *p, std::size_t) noexcept
{
    ::operator delete(p);
}

int main()
{
    say("main starts\n");
    std::atexit(handler_a);
    char buf[100];
    std::snprintf(buf, sizeof buf, "lazy value %d\n", lazy().value);
    say(buf);
    std::snprintf(buf, sizeof buf, "lazy again %d\n", lazy().value);
    say(buf);
    std::atexit(handler_b);
    static Global in_main("static in main", 20);
    {
        int before = news, before_del = deletes;
        std::string s(100, 'z');
        auto *v = new std::vector<int>(50, 7);
        std::snprintf(buf, sizeof buf, "string %zu, vector %zu, new calls during this block: %d\n",
                      s.size(), v->size(), news - before);
        say(buf);
        delete v;
        std::snprintf(buf, sizeof buf, "delete calls for the vector: %d\n", deletes - before_del);
        say(buf);
    }
    say("main returns\n");
    return 0;
}
