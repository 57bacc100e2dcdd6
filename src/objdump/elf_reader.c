// SPDX-License-Identifier: MIT
// Reads a Hexagon ELF file for hexsim-objdump with libelf (elfutils): validates the header
// (32-bit, little-endian, EM_QDSP6 = 164), lists the sections and collects the symbols that
// can label code. Symbol selection follows what llvm-objdump-16 shows, found by experiment:
// named symbols defined in a section, except STT_SECTION and STT_FILE ones; when .symtab gives
// none at all (a stripped file), the .dynsym symbols are used instead. Symbol addresses in
// relocatable objects are section offsets plus the section's address.
// libelf checks the offsets of the structures it parses; raw section bytes are taken from the
// file image through od_file_read, which never reads outside it.
#include "elf_reader.h"

#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifndef EM_QDSP6
#define EM_QDSP6 164
#endif

static void set_err(char *err, size_t errlen, const char *msg)
{
    snprintf(err, errlen, "%s", msg);
}

void od_file_read(const struct od_file *f, uint64_t off, uint8_t *buf, size_t n)
{
    memset(buf, 0, n);
    if (off >= f->image_size)
        return;
    size_t avail = f->image_size - (size_t)off;
    memcpy(buf, f->image + off, n < avail ? n : avail);
}

static bool read_sections(struct od_file *f, Elf *elf, char *err, size_t errlen)
{
    size_t shnum = 0, shstrndx = 0;
    if (elf_getshdrnum(elf, &shnum) != 0) {
        snprintf(err, errlen, "cannot read the section headers: %s", elf_errmsg(-1));
        return false;
    }
    if (shnum == 0)
        return true;
    if (elf_getshdrstrndx(elf, &shstrndx) != 0) {
        snprintf(err, errlen, "cannot find the section name table: %s", elf_errmsg(-1));
        return false;
    }
    f->secs = calloc(shnum, sizeof(*f->secs));
    if (!f->secs) {
        set_err(err, errlen, "out of memory");
        return false;
    }
    f->nsecs = shnum;
    for (size_t i = 0; i < shnum; i++) {
        struct od_section *s = &f->secs[i];
        GElf_Shdr sh;
        Elf_Scn *scn = elf_getscn(elf, i);
        s->index = (unsigned)i;
        s->name = "";
        if (!scn || !gelf_getshdr(scn, &sh)) {
            snprintf(err, errlen, "cannot read section header %zu: %s", i, elf_errmsg(-1));
            return false;
        }
        const char *name = elf_strptr(elf, shstrndx, sh.sh_name);
        if (name)
            s->name = name;
        s->type = sh.sh_type;
        s->flags = sh.sh_flags;
        s->addr = sh.sh_addr;
        s->size = sh.sh_size;
        s->offset = sh.sh_offset;
        if (s->type != SHT_NOBITS && s->size != 0 &&
            (s->offset > f->image_size || s->size > f->image_size - s->offset)) {
            snprintf(err, errlen, "section [%zu] '%s' extends past the end of the file",
                     i, s->name);
            return false;
        }
    }
    return true;
}

static Elf_Scn *find_section(struct od_file *f, Elf *elf, uint32_t type, size_t *index)
{
    for (size_t i = 1; i < f->nsecs; i++) {
        if (f->secs[i].type == type) {
            *index = i;
            return elf_getscn(elf, i);
        }
    }
    return NULL;
}

// The SHT_SYMTAB_SHNDX section holding extended section indexes for symbol table symtab_index.
static Elf_Data *find_xindex(struct od_file *f, Elf *elf, size_t symtab_index)
{
    for (size_t i = 1; i < f->nsecs; i++) {
        if (f->secs[i].type != SHT_SYMTAB_SHNDX)
            continue;
        GElf_Shdr sh;
        Elf_Scn *scn = elf_getscn(elf, i);
        if (scn && gelf_getshdr(scn, &sh) && sh.sh_link == symtab_index)
            return elf_getdata(scn, NULL);
    }
    return NULL;
}

// Appends the label symbols of one symbol table. Returns false only when out of memory.
static bool read_symtab(struct od_file *f, Elf *elf, uint32_t type)
{
    size_t symtab_index = 0;
    Elf_Scn *scn = find_section(f, elf, type, &symtab_index);
    if (!scn)
        return true;
    GElf_Shdr sh;
    Elf_Data *data = elf_getdata(scn, NULL);
    if (!gelf_getshdr(scn, &sh) || !data || sh.sh_entsize == 0)
        return true;
    Elf_Data *xdata = find_xindex(f, elf, symtab_index);
    size_t count = data->d_size / sh.sh_entsize;
    struct od_symbol *syms = realloc(f->syms, (f->nsyms + count) * sizeof(*syms) + 1);
    if (!syms)
        return false;
    f->syms = syms;
    for (size_t i = 1; i < count; i++) {
        GElf_Sym sym;
        Elf32_Word xndx = 0;
        if (!gelf_getsymshndx(data, xdata, (int)i, &sym, &xndx))
            continue;
        unsigned stype = GELF_ST_TYPE(sym.st_info);
        if (stype == STT_SECTION || stype == STT_FILE)
            continue;
        size_t shndx = sym.st_shndx;
        if (shndx == SHN_XINDEX)
            shndx = xdata ? xndx : 0;
        else if (shndx >= SHN_LORESERVE)
            continue;   // absolute, common and other special symbols label no section
        if (shndx == SHN_UNDEF || shndx >= f->nsecs)
            continue;
        const char *name = elf_strptr(elf, sh.sh_link, sym.st_name);
        if (!name || !name[0])
            continue;
        struct od_symbol *s = &f->syms[f->nsyms++];
        s->name = name;
        s->type = (uint8_t)stype;
        s->shndx = (unsigned)shndx;
        s->addr = sym.st_value;
        if (f->relocatable)
            s->addr += f->secs[shndx].addr;
    }
    return true;
}

bool od_file_open(struct od_file *f, const char *path, char *err, size_t errlen)
{
    memset(f, 0, sizeof(*f));
    f->fd = -1;
    if (elf_version(EV_CURRENT) == EV_NONE) {
        set_err(err, errlen, "libelf is out of date");
        return false;
    }
    int fd = open(path, O_RDONLY);
    if (fd < 0) {
        set_err(err, errlen, strerror(errno));
        return false;
    }
    Elf *elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
    if (!elf) {
        snprintf(err, errlen, "cannot read the file: %s", elf_errmsg(-1));
        close(fd);
        return false;
    }
    f->fd = fd;
    f->elf = elf;
    f->path = path;
    const char *why = NULL;
    GElf_Ehdr eh;
    size_t image_size = 0;
    const char *image = NULL;
    if (elf_kind(elf) != ELF_K_ELF)
        why = "not an ELF file";
    else if (!(image = elf_rawfile(elf, &image_size)))
        why = "cannot map the file";
    else if (!gelf_getehdr(elf, &eh))
        why = "truncated or malformed ELF header";
    if (!why && (eh.e_machine != EM_QDSP6 || eh.e_ident[EI_CLASS] != ELFCLASS32 ||
                 eh.e_ident[EI_DATA] != ELFDATA2LSB)) {
        snprintf(err, errlen, "not a Hexagon ELF file (%s, %s, e_machine %u; Hexagon is "
                 "ELFCLASS32, little-endian, e_machine %u)",
                 eh.e_ident[EI_CLASS] == ELFCLASS64 ? "ELFCLASS64" : "ELFCLASS32",
                 eh.e_ident[EI_DATA] == ELFDATA2MSB ? "big-endian" : "little-endian",
                 (unsigned)eh.e_machine, (unsigned)EM_QDSP6);
        od_file_close(f);
        return false;
    }
    // libelf quietly yields no sections when the table lies outside the file; say so instead.
    if (!why && eh.e_shnum != 0 &&
        (eh.e_shoff > image_size ||
         (uint64_t)eh.e_shnum * eh.e_shentsize > image_size - eh.e_shoff))
        why = "the section header table goes past the end of the file";
    if (why) {
        set_err(err, errlen, why);
        od_file_close(f);
        return false;
    }
    f->image = (const uint8_t *)image;
    f->image_size = image_size;
    f->relocatable = eh.e_type == ET_REL;
    if (!read_sections(f, elf, err, errlen)) {
        od_file_close(f);
        return false;
    }
    bool ok = read_symtab(f, elf, SHT_SYMTAB);
    if (ok && f->nsyms == 0)
        ok = read_symtab(f, elf, SHT_DYNSYM);
    if (!ok) {
        set_err(err, errlen, "out of memory");
        od_file_close(f);
        return false;
    }
    return true;
}

void od_file_close(struct od_file *f)
{
    free(f->secs);
    free(f->syms);
    if (f->elf)
        elf_end(f->elf);
    if (f->fd >= 0)
        close(f->fd);
    memset(f, 0, sizeof(*f));
    f->fd = -1;
}
