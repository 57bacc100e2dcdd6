// SPDX-License-Identifier: MIT
// Run-time type information (libc++abi's type_info and __dynamic_cast): typeid of
// built-in, class, pointer and template types (Itanium ABI names, the same on every
// Itanium C++ ABI implementation), typeid through a base reference, dynamic_cast
// down, up, across (multiple inheritance) and through virtual bases, failed casts to
// null, std::bad_cast from a reference cast, std::bad_typeid from a null pointer,
// type_index in ordered and hashed containers, and catch matching by class hierarchy.
#include <cstdio>
#include <map>
#include <string>
#include <typeindex>
#include <typeinfo>
#include <unordered_set>
#include <vector>

namespace {

struct Base {
    virtual ~Base() = default;
    virtual const char *who() const { return "Base"; }
};
struct Left : virtual Base {
    const char *who() const override { return "Left"; }
};
struct Right : virtual Base {
    const char *who() const override { return "Right"; }
};
struct Diamond : Left, Right {
    const char *who() const override { return "Diamond"; }
};
struct Other {
    virtual ~Other() = default;
    int tag = 5;
};
struct Multi : Diamond, Other {};
struct Plain {};

template <typename T> struct Box { T value; };

void names()
{
    std::printf("int: %s\n", typeid(int).name());
    std::printf("unsigned long long: %s\n", typeid(unsigned long long).name());
    std::printf("const char *: %s\n", typeid(const char *).name());
    std::printf("double[3]: %s\n", typeid(double[3]).name());
    std::printf("Base: %s\n", typeid(Base).name());
    std::printf("Box<Plain>: %s\n", typeid(Box<Plain>).name());
    std::printf("std::string: %s\n", typeid(std::string).name() != nullptr ? "named" : "?");
    std::printf("int (*)(char): %s\n", typeid(int (*)(char)).name());
    std::printf("int Plain::*: %s\n", typeid(int Plain::*).name());
}

void dynamic()
{
    Multi m;
    Base *b = static_cast<Left *>(&m);
    std::printf("typeid(*b) == Multi: %d, name %s\n", typeid(*b) == typeid(Multi),
                typeid(*b).name());
    std::printf("b->who(): %s\n", b->who());
    std::printf("down to Diamond: %d\n", dynamic_cast<Diamond *>(b) == &m);
    std::printf("down to Multi: %d\n", dynamic_cast<Multi *>(b) == &m);
    Right *r = dynamic_cast<Right *>(b);
    std::printf("across to Right: %d (%s)\n", r == static_cast<Right *>(&m), r ? r->who() : "null");
    Other *o = dynamic_cast<Other *>(b);
    std::printf("across to Other: %d tag %d\n", o == static_cast<Other *>(&m), o ? o->tag : -1);
    std::printf("void* cast gives the whole object: %d\n", dynamic_cast<void *>(o) == &m);

    Left lonely;
    Base *lb = &lonely;
    std::printf("Left as Right: %s\n", dynamic_cast<Right *>(lb) ? "non-null" : "null");
    std::printf("Left as Diamond: %s\n", dynamic_cast<Diamond *>(lb) ? "non-null" : "null");
    try {
        Diamond &d = dynamic_cast<Diamond &>(*lb);
        std::printf("not reached %s\n", d.who());
    } catch (const std::bad_cast &) {
        std::printf("reference cast threw bad_cast\n");
    }
    Base *null = nullptr;
    try {
        std::printf("not reached %s\n", typeid(*null).name());
    } catch (const std::bad_typeid &) {
        std::printf("typeid of null threw bad_typeid\n");
    }
}

void indexes()
{
    std::map<std::type_index, std::string> names{
        {typeid(int), "int"}, {typeid(double), "double"}, {typeid(Base), "Base"},
        {typeid(Diamond), "Diamond"}};
    std::vector<Base *> objs;
    Diamond d;
    Left l;
    Base b;
    objs.push_back(&d);
    objs.push_back(&l);
    objs.push_back(&b);
    for (Base *p : objs) {
        auto it = names.find(typeid(*p));
        std::printf("%s -> %s\n", p->who(), it == names.end() ? "(not in map)" : it->second.c_str());
    }
    std::unordered_set<std::type_index> seen;
    for (Base *p : objs)
        seen.insert(typeid(*p));
    seen.insert(typeid(Diamond));
    std::printf("distinct dynamic types: %zu\n", seen.size());
    std::printf("before(int,double) is a strict order: %d\n",
                typeid(int).before(typeid(double)) != typeid(double).before(typeid(int)));
}

void catching()
{
    for (int i = 0; i < 3; i++) {
        try {
            if (i == 0)
                throw Diamond();
            if (i == 1)
                throw Left();
            throw Multi();
        } catch (const Right &r) {
            std::printf("caught as Right: %s\n", r.who());
        } catch (const Base &b) {
            std::printf("caught as Base: %s\n", b.who());
        }
    }
    try {
        throw static_cast<Base *>(new Diamond());
    } catch (Left *) {
        std::printf("wrong: caught a Base* as Left*\n");
    } catch (Base *p) {
        std::printf("caught Base* to %s\n", p->who());
        delete p;
    }
}

} // namespace

int main()
{
    names();
    dynamic();
    indexes();
    catching();
    std::printf("ok\n");
    return 0;
}
