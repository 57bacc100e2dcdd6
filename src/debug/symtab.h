// SPDX-License-Identifier: MIT
// ELF symbol table for the debugger: function and object symbols of a loaded image, sorted
// by address, looked up by name (exact) or by address (the symbol containing it, else the
// nearest one below). Read with libelf from .symtab (or .dynsym).
#ifndef HEXSIM_DEBUG_SYMTAB_H
#define HEXSIM_DEBUG_SYMTAB_H

#include <stddef.h>
#include <stdint.h>

struct hexsim_sym {
    uint32_t addr, size;
    char type;                  // 'F' function, 'O' object, '?' other
    const char *name;           // points into hexsim_symtab.names
};

struct hexsim_symtab {
    struct hexsim_sym *sym;     // sorted by address, then name
    size_t n;
    char *names;
    char *path;                 // the first file loaded (the debugger reads its DWARF)
};

// Adds the symbols of the ELF file at path. Returns 0, or -1 when it cannot be read.
int hexsim_symtab_load(struct hexsim_symtab *st, const char *path);
void hexsim_symtab_free(struct hexsim_symtab *st);
const struct hexsim_sym *hexsim_symtab_find(const struct hexsim_symtab *st, const char *name);
// The symbol at or below addr (within its size when it has one, else within 64 KiB), or NULL.
const struct hexsim_sym *hexsim_symtab_lookup(const struct hexsim_symtab *st, uint32_t addr);

#endif
