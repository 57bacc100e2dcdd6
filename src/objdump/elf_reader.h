// SPDX-License-Identifier: MIT
// ELF input of hexsim-objdump: opens a 32-bit little-endian Hexagon ELF file with libelf and
// extracts what a disassembly listing needs: the sections (name, address, size, flags, file
// range) and the symbols that label addresses inside them. Nothing read from the file is
// trusted: every offset and size is checked against the file image before it is used, and
// byte reads outside the file yield zeros.
#ifndef HEXSIM_OBJDUMP_ELF_READER_H
#define HEXSIM_OBJDUMP_ELF_READER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct od_section {
    const char *name;       // points into the file image; valid until od_file_close
    unsigned index;         // section header index (what st_shndx refers to)
    uint32_t type;          // sh_type
    uint64_t flags;         // sh_flags
    uint64_t addr;          // sh_addr
    uint64_t size;          // sh_size
    uint64_t offset;        // sh_offset (meaningless for SHT_NOBITS)
};

struct od_symbol {
    const char *name;       // points into the file image; valid until od_file_close
    uint64_t addr;          // st_value
    uint8_t type;           // ELF st_type (STT_*)
    unsigned shndx;         // resolved section index; 0 for undefined/absolute/special
};

struct od_file {
    const char *path;
    int fd;
    void *elf;              // Elf *, kept opaque so users need not include libelf.h
    const uint8_t *image;   // the whole file as libelf maps it
    size_t image_size;
    bool relocatable;       // ET_REL: symbol values are section offsets (sections at 0)
    struct od_section *secs;
    size_t nsecs;
    struct od_symbol *syms; // symbols usable as labels (named, in a real section)
    size_t nsyms;
};

// Opens and parses path. On failure returns false and writes a reason (without the file
// name) to err; *f is then left closed and needs no od_file_close.
bool od_file_open(struct od_file *f, const char *path, char *err, size_t errlen);
void od_file_close(struct od_file *f);

// Copies n bytes of the file image starting at file offset off into buf; bytes beyond the end
// of the file read as zero.
void od_file_read(const struct od_file *f, uint64_t off, uint8_t *buf, size_t n);

#endif
