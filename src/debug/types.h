// SPDX-License-Identifier: MIT
// C types for the debugger's expressions and printing: base types (the ILP32 sizes of the
// Hexagon ABI: char 1, short 2, int and long 4, long long 8, pointers 4), pointers, arrays,
// structs, unions, enums, functions, typedefs and const/volatile, built from DWARF
// (dwarf.c) or by the debugger itself (casts, &x, registers). All of them live in one arena
// that the debugger owns; names are spelt as gdb spells them ("unsigned int", "int *",
// "int (*)(int)", "volatile u32").
#ifndef HEXSIM_DEBUG_TYPES_H
#define HEXSIM_DEBUG_TYPES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum hexsim_dtype_kind {
    HEXSIM_T_VOID, HEXSIM_T_INT, HEXSIM_T_BOOL, HEXSIM_T_FLOAT, HEXSIM_T_PTR, HEXSIM_T_ARRAY,
    HEXSIM_T_STRUCT, HEXSIM_T_UNION, HEXSIM_T_ENUM, HEXSIM_T_FUNC, HEXSIM_T_TYPEDEF,
    HEXSIM_T_CONST, HEXSIM_T_VOLATILE,
    HEXSIM_T_NODEBUG,           // an ELF symbol without DWARF: "<data variable, no debug info>"
};

struct hexsim_dtype;

struct hexsim_dmember {
    const char *name;           // NULL: anonymous
    uint32_t offset;            // bytes from the start
    uint8_t bit_size, bit_offset;   // bit fields (bit_offset from the least significant bit)
    const struct hexsim_dtype *type;
};

struct hexsim_denum {
    const char *name;
    int64_t value;
};

struct hexsim_dtype {
    int kind;                   // enum hexsim_dtype_kind
    uint32_t size;              // bytes (0: incomplete, void, function)
    bool is_signed, is_char;    // INT (and ENUM: signed values)
    const char *name;           // base, typedef, struct/union/enum tag (NULL: anonymous)
    const struct hexsim_dtype *target;   // PTR, ARRAY element, TYPEDEF, CONST, VOLATILE,
                                         // FUNC return (NULL: void)
    uint32_t count;             // ARRAY elements (0: unknown)
    bool has_count;
    struct hexsim_dmember *mem; // STRUCT, UNION
    unsigned nmem;
    struct hexsim_denum *en;    // ENUM
    unsigned nen;
    const struct hexsim_dtype **param;   // FUNC
    unsigned nparam;
    bool varargs, prototyped;
    bool is_text;               // NODEBUG: a function symbol
    struct hexsim_dtype *next_alloc;
};

struct hexsim_dtypes {
    struct hexsim_dtype *all;   // everything allocated, for freeing
    char **strs;                // strings owned by the arena
    size_t nstrs, capstrs;
    const struct hexsim_dtype *base[12];   // the built-in base types, made on first use
};

void hexsim_dtypes_free(struct hexsim_dtypes *a);
// A new zeroed type in the arena (NULL when out of memory).
struct hexsim_dtype *hexsim_dtype_new(struct hexsim_dtypes *a, int kind);
// A copy of s owned by the arena.
const char *hexsim_dtype_str(struct hexsim_dtypes *a, const char *s);
// A built-in type by C name ("int", "unsigned char", "long long", "void", "_Bool", "float",
// "double", "char", "signed char", "short", "unsigned short", "long", "unsigned long",
// "unsigned long long", "unsigned"), or NULL.
const struct hexsim_dtype *hexsim_dtype_builtin(struct hexsim_dtypes *a, const char *name);
const struct hexsim_dtype *hexsim_dtype_pointer(struct hexsim_dtypes *a,
                                                const struct hexsim_dtype *to);
// The type without typedefs and const/volatile.
const struct hexsim_dtype *hexsim_dtype_strip(const struct hexsim_dtype *t);
uint32_t hexsim_dtype_size(const struct hexsim_dtype *t);
// The type's name as gdb prints it, with `inner` (a declarator such as "*" or "") placed
// where C puts it: hexsim_dtype_name(int[4], "") = "int [4]".
void hexsim_dtype_name(const struct hexsim_dtype *t, const char *inner, char *buf, size_t len);
// `ptype`: the type expanded one level (struct members listed) into buf.
void hexsim_dtype_expand(const struct hexsim_dtype *t, char *buf, size_t len);
// bits reduced to t's size and extended to 64 bits by its signedness.
uint64_t hexsim_dtype_extend(const struct hexsim_dtype *t, uint64_t bits);
bool hexsim_dtype_is_scalar(const struct hexsim_dtype *t);   // integer, bool, enum, pointer, float

#endif
