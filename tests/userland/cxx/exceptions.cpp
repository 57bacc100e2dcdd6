// SPDX-License-Identifier: MIT
// C++ exceptions (libc++abi over libunwind's DWARF unwinder): thrown and caught across
// functions and through several frames, destructors of the frames passed run in order,
// catch by base class, by reference and by pointer, rethrow, nested try blocks, an
// exception from a constructor, std::exception_ptr and std::nested_exception, the
// standard library's own exceptions (types only: their what() texts differ between
// libc++ and the host's libstdc++), exceptions through std::function and a
// lambda, noexcept and uncaught_exceptions. Output is the same on any conforming
// implementation.
#include <cstdio>
#include <exception>
#include <functional>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <typeinfo>
#include <vector>

namespace {

int depth_seen;

struct Noisy {
    const char *name;
    explicit Noisy(const char *n) : name(n) { std::printf("  enter %s\n", name); }
    ~Noisy() { std::printf("  leave %s (uncaught %d)\n", name, std::uncaught_exceptions()); }
};

struct MyError : std::runtime_error {
    int code;
    MyError(const std::string &what, int c) : std::runtime_error(what), code(c) {}
};

struct Derived : MyError {
    Derived() : MyError("derived", 42) {}
};

[[noreturn]] void thrower(int kind)
{
    Noisy n("thrower");
    switch (kind) {
    case 0: throw 7;
    case 1: throw MyError("custom", 3);
    case 2: throw Derived();
    case 3: throw std::string("a string");
    case 4: throw 2.5;
    default: throw &depth_seen;
    }
}

int recurse(int n, int kind)
{
    Noisy guard(n % 2 ? "odd frame" : "even frame");
    depth_seen = n;
    if (n > 0)
        return recurse(n - 1, kind) + 1;
    thrower(kind);
}

void test_kinds()
{
    for (int kind = 0; kind < 6; kind++) {
        std::printf("kind %d\n", kind);
        try {
            recurse(2, kind);
        } catch (int v) {
            std::printf("caught int %d\n", v);
        } catch (const Derived &d) {
            std::printf("caught Derived %s %d\n", d.what(), d.code);
        } catch (const MyError &e) {
            std::printf("caught MyError %s %d\n", e.what(), e.code);
        } catch (const std::string &s) {
            std::printf("caught string '%s'\n", s.c_str());
        } catch (double d) {
            std::printf("caught double %g\n", d);
        } catch (int *p) {
            std::printf("caught pointer %s, depth %d\n", p == &depth_seen ? "ok" : "bad", *p);
        }
    }
}

void test_rethrow()
{
    try {
        try {
            throw MyError("inner", 1);
        } catch (std::exception &e) {
            std::printf("inner handler: %s\n", e.what());
            throw;
        }
    } catch (const MyError &e) {
        std::printf("outer handler after rethrow: %s code %d\n", e.what(), e.code);
    }
    try {
        try {
            throw 5;
        } catch (...) {
            std::printf("catch-all, rethrowing as a new type\n");
            throw std::logic_error("replaced");
        }
    } catch (const std::logic_error &e) {
        std::printf("got %s\n", e.what());
    }
}

struct Part {
    int id;
    explicit Part(int i) : id(i) { std::printf("  part %d built\n", id); }
    ~Part() { std::printf("  part %d destroyed\n", id); }
};

struct Whole {
    Part a, b, c;
    Whole() : a(1), b(2), c((throw std::runtime_error("ctor failed"), 3)) {}
};

void test_constructor()
{
    try {
        Whole w;
        std::printf("not reached %d\n", w.a.id);
    } catch (const std::runtime_error &e) {
        std::printf("constructor threw: %s\n", e.what());
    }
    try {
        Part parts[3] = {Part(10), Part(11), Part(12)};
        auto owned = std::make_unique<Part>(13);
        throw std::out_of_range("array scope");
    } catch (const std::out_of_range &e) {
        std::printf("array and unique_ptr freed before handler: %s\n", e.what());
    }
}

void test_library()
{
    std::vector<int> v{1, 2, 3};
    try {
        v.at(10);
    } catch (const std::out_of_range &) {
        std::printf("vector::at threw out_of_range\n");
    }
    try {
        std::stoi("not a number");
    } catch (const std::invalid_argument &) {
        std::printf("stoi threw invalid_argument\n");
    }
    std::map<std::string, int> m;
    try {
        m.at("missing");
    } catch (const std::out_of_range &) {
        std::printf("map::at threw out_of_range\n");
    }
    try {
        std::function<void()> empty;
        empty();
    } catch (const std::bad_function_call &) {
        std::printf("empty std::function threw bad_function_call\n");
    }
    try {
        std::string s("abc");
        s.substr(9);
    } catch (const std::out_of_range &) {
        std::printf("string::substr threw out_of_range\n");
    }
    try {
        std::vector<int> big;
        big.reserve(big.max_size() + 1);
    } catch (const std::length_error &) {
        std::printf("reserve beyond max_size threw length_error\n");
    }
}

void test_exception_ptr()
{
    std::exception_ptr saved;
    try {
        throw MyError("saved for later", 9);
    } catch (...) {
        saved = std::current_exception();
    }
    std::printf("exception_ptr held: %d\n", saved != nullptr);
    try {
        std::rethrow_exception(saved);
    } catch (const MyError &e) {
        std::printf("rethrown from exception_ptr: %s %d\n", e.what(), e.code);
    }
    auto made = std::make_exception_ptr(std::runtime_error("made"));
    try {
        std::rethrow_exception(made);
    } catch (const std::runtime_error &e) {
        std::printf("make_exception_ptr: %s\n", e.what());
    }
    try {
        try {
            throw std::runtime_error("low level");
        } catch (...) {
            std::throw_with_nested(std::logic_error("high level"));
        }
    } catch (const std::logic_error &e) {
        std::printf("outer: %s\n", e.what());
        try {
            std::rethrow_if_nested(e);
        } catch (const std::runtime_error &inner) {
            std::printf("nested: %s\n", inner.what());
        }
    }
}

int through_function(const std::function<int(int)> &f, int x)
{
    Noisy n("through_function");
    return f(x) + 1;
}

void test_callables()
{
    auto lambda = [](int x) -> int {
        if (x > 3)
            throw std::domain_error("x too big");
        return x * 2;
    };
    for (int x : {2, 5}) {
        try {
            std::printf("result %d\n", through_function(lambda, x));
        } catch (const std::domain_error &e) {
            std::printf("lambda threw through std::function: %s\n", e.what());
        }
    }
}

int no_throw(int x) noexcept { return x + 1; }

void test_misc()
{
    std::printf("noexcept(no_throw(1)) = %d, noexcept(thrower(0)) = %d, no_throw(1) = %d\n",
                noexcept(no_throw(1)), noexcept(thrower(0)), no_throw(1));
    int caught = 0;
    for (int i = 0; i < 1000; i++) {
        try {
            if (i % 3 == 0)
                throw i;
        } catch (int v) {
            caught += v;
        }
    }
    std::printf("1000 iterations, sum of thrown values %d\n", caught);
}

} // namespace

int main()
{
    test_kinds();
    test_rethrow();
    test_constructor();
    test_library();
    test_exception_ptr();
    test_callables();
    test_misc();
    std::printf("ok\n");
    return 0;
}
