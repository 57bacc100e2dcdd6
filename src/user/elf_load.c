// SPDX-License-Identifier: MIT
// User-mode ELF loader (libelf from elfutils): checks that the file is a 32-bit little-endian
// Hexagon (EM_QDSP6 = 164) executable, maps each PT_LOAD segment at its virtual address with
// the segment's permissions (ET_DYN: moved to a base, as fs/binfmt_elf.c does), copies the
// file bytes and zero-fills the rest, and sets the entry point, program-header address
// (AT_PHDR) and the initial program break. A program with PT_INTERP gets its interpreter
// loaded too (interp.c), or is refused before it runs. The core
// version comes from e_flags (EF_HEXAGON_MACH: 0x60 = V60, ...). The image comes from a file
// or from memory (hexsim_user_load_elf_mem: fuzzing, tests); from a file, libelf reads only
// the headers and the segments' bytes go straight from the file into guest memory (no copy
// of the whole file in host memory first: the start-up of every exec, issue 33).
#define _DEFAULT_SOURCE      // preadv
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <unistd.h>

#include "hexsim/arch.h"
#include "user.h"

#ifndef EM_QDSP6
#define EM_QDSP6 164
#endif

// Reads n bytes at off of file fd into guest memory at addr (mapped just now: any
// protection); 0, or -1 when the file ends first or cannot be read.
static int read_segment(struct hexsim_user *u, int fd, uint64_t off, uint32_t addr, size_t n)
{
    for (size_t done = 0; done < n;) {
        struct iovec iov[64];
        size_t got;
        int f;
        size_t k = hexsim_mem_spans(&u->mem, addr + (uint32_t)done, n - done, 0, iov, 64,
                                    &got, &f);
        ssize_t r = k ? preadv(fd, iov, (int)k, (off_t)(off + done)) : -1;
        if (r <= 0)
            return -1;
        done += (size_t)r;
    }
    return 0;
}

// Where position-independent images go: a program (ET_DYN: PIE, or the dynamic loader run
// as a command) at Linux's ELF_ET_DYN_BASE for Hexagon (arch/hexagon/include/asm/elf.h), an
// interpreter at the start of the mmap area (the loader's own mmaps go above it).
#define PIE_BASE 0x08000000u
#define INTERP_BASE HEXSIM_USER_MMAP_BASE

// Reads the PT_INTERP string (n bytes at off) into u->interp; 0, or -1 with a message.
static int read_interp(struct hexsim_user *u, int fd, const char *image, size_t image_size,
                       uint64_t off, uint64_t n, const char *path, char *err, size_t errlen)
{
    if (n < 2 || n > sizeof(u->interp) || off > image_size || n > image_size - off) {
        snprintf(err, errlen, "%s: bad PT_INTERP (%llu bytes)", path, (unsigned long long)n);
        return -1;
    }
    if (image)
        memcpy(u->interp, image + off, n);
    else if (pread(fd, u->interp, n, (off_t)off) != (ssize_t)n) {
        snprintf(err, errlen, "%s: cannot read PT_INTERP", path);
        return -1;
    }
    if (u->interp[n - 1] || strlen(u->interp) != n - 1) {
        u->interp[0] = 0;
        snprintf(err, errlen, "%s: PT_INTERP is not one NUL-terminated path", path);
        return -1;
    }
    return 0;
}

// Loads from an ELF descriptor: with fd >= 0 the segment bytes are read from that file,
// else copied from the whole image libelf hands back (elf_rawfile); either way after
// checking they lie inside the file, so no size taken from the file is ever allocated.
// interp: the image is the program's interpreter (ET_DYN, at INTERP_BASE; sets only
// interp_base and interp_entry); else the program (sets entry, AT_PHDR, brk, the core and,
// for a dynamic program, u->interp).
static int load(struct hexsim_user *u, Elf *elf, int fd, const char *path, bool interp,
                char *err, size_t errlen)
{
    size_t image_size = 0;
    const char *image = NULL;
    struct stat st;
    if (fd >= 0 && fstat(fd, &st) == 0)
        image_size = (size_t)st.st_size;
    else if (fd < 0 && elf)
        image = elf_rawfile(elf, &image_size);
    GElf_Ehdr eh;
    if (!elf || (fd < 0 && !image) || elf_kind(elf) != ELF_K_ELF || !gelf_getehdr(elf, &eh)) {
        snprintf(err, errlen, "%s: not an ELF file", path);
        return -1;
    }
    if (eh.e_ident[EI_CLASS] != ELFCLASS32 || eh.e_ident[EI_DATA] != ELFDATA2LSB ||
        eh.e_machine != EM_QDSP6) {
        snprintf(err, errlen, "%s: not a Hexagon ELF (machine %u, class %u); hexsim runs "
                 "32-bit little-endian EM_QDSP6 programs", path, eh.e_machine,
                 eh.e_ident[EI_CLASS]);
        return -1;
    }
    if (interp ? eh.e_type != ET_DYN : eh.e_type != ET_EXEC && eh.e_type != ET_DYN) {
        snprintf(err, errlen, interp ? "%s: ELF type %u: a program interpreter must be a "
                 "shared object (ET_DYN)" : "%s: ELF type %u is not an executable (ET_EXEC, "
                 "ET_DYN)", path, eh.e_type);
        return -1;
    }
    size_t phnum;
    if (elf_getphdrnum(elf, &phnum) != 0 || phnum == 0) {
        snprintf(err, errlen, "%s: no program headers", path);
        return -1;
    }
    // first pass: the interpreter's name and the lowest segment (the load bias of ET_DYN)
    uint64_t low = UINT64_MAX;
    if (!interp)
        u->interp[0] = 0;
    for (size_t i = 0; i < phnum; i++) {
        GElf_Phdr ph;
        if (!gelf_getphdr(elf, (int)i, &ph)) {
            snprintf(err, errlen, "%s: bad program header %zu", path, i);
            return -1;
        }
        if (ph.p_type == PT_LOAD && ph.p_memsz && ph.p_vaddr < low)
            low = ph.p_vaddr;
        if (ph.p_type == PT_INTERP) {
            if (interp) {
                snprintf(err, errlen, "%s: a program interpreter with an interpreter", path);
                return -1;
            }
            if (read_interp(u, fd, image, image_size, ph.p_offset, ph.p_filesz, path, err,
                            errlen))
                return -1;
        }
    }
    uint32_t bias = 0;
    if (eh.e_type == ET_DYN && low != UINT64_MAX)
        bias = (interp ? INTERP_BASE : PIE_BASE) - (uint32_t)(low & ~(uint64_t)(HEXSIM_PAGE_SIZE - 1));
    uint32_t end = 0;
    if (!interp) {
        u->phdr_addr = 0;
        u->phnum = (uint32_t)phnum;
        u->interp_base = u->interp_entry = 0;
    }
    for (size_t i = 0; i < phnum; i++) {
        GElf_Phdr ph;
        if (!gelf_getphdr(elf, (int)i, &ph)) {
            snprintf(err, errlen, "%s: bad program header %zu", path, i);
            return -1;
        }
        ph.p_vaddr += bias;
        if (ph.p_type == PT_PHDR && !interp)
            u->phdr_addr = (uint32_t)ph.p_vaddr;
        if (ph.p_type != PT_LOAD || ph.p_memsz == 0)
            continue;
        if (ph.p_filesz > ph.p_memsz || ph.p_vaddr + ph.p_memsz > HEXSIM_USER_STACK_TOP -
            HEXSIM_USER_STACK_SIZE) {
            snprintf(err, errlen, "%s: segment %zu at 0x%llx (size 0x%llx) is outside the "
                     "user address space", path, i, (unsigned long long)ph.p_vaddr,
                     (unsigned long long)ph.p_memsz);
            return -1;
        }
        unsigned prot = (ph.p_flags & PF_R ? HEXSIM_PROT_R : 0) |
                        (ph.p_flags & PF_W ? HEXSIM_PROT_W : 0) |
                        (ph.p_flags & PF_X ? HEXSIM_PROT_X : 0);
        if (hexsim_mem_map(&u->mem, (uint32_t)ph.p_vaddr, ph.p_memsz, prot)) {
            snprintf(err, errlen, "%s: out of memory mapping segment %zu", path, i);
            return -1;
        }
        if (ph.p_filesz) {
            if (ph.p_offset > image_size || ph.p_filesz > image_size - ph.p_offset) {
                snprintf(err, errlen, "%s: segment %zu: file too short for its %llu bytes",
                         path, i, (unsigned long long)ph.p_filesz);
                return -1;
            }
            if (!image) {
                if (read_segment(u, fd, ph.p_offset, (uint32_t)ph.p_vaddr, ph.p_filesz)) {
                    snprintf(err, errlen, "%s: segment %zu: cannot read its %llu bytes", path,
                             i, (unsigned long long)ph.p_filesz);
                    return -1;
                }
            } else {
                hexsim_mem_copy_in(&u->mem, (uint32_t)ph.p_vaddr, image + ph.p_offset,
                                   ph.p_filesz, true, NULL);
            }
        }
        if (!interp && !u->phdr_addr && ph.p_offset == 0 && eh.e_phoff < ph.p_filesz)
            u->phdr_addr = (uint32_t)(ph.p_vaddr + eh.e_phoff);
        uint32_t e = (uint32_t)(ph.p_vaddr + ph.p_memsz);
        if (e > end)
            end = e;
    }
    if (!end) {
        snprintf(err, errlen, "%s: no loadable segment", path);
        return -1;
    }
    uint32_t entry = (uint32_t)eh.e_entry + bias;
    if (!hexsim_mem_is_mapped(&u->mem, entry)) {
        snprintf(err, errlen, "%s: entry point 0x%llx is not in a loaded segment", path,
                 (unsigned long long)entry);
        return -1;
    }
    if (interp) {
        u->interp_base = bias;
        u->interp_entry = entry;
        return 0;
    }
    u->entry = entry;
    u->brk_start = u->brk_cur = (end + HEXSIM_PAGE_SIZE - 1) & ~(HEXSIM_PAGE_SIZE - 1);
    if (!u->opts.arch)
        u->arch = hexsim_arch_from_eflags((uint32_t)eh.e_flags);
    else
        u->arch = u->opts.arch;
    if (!u->arch)   // e_flags name no core: the newest the ISA table describes
        u->arch = 73;
    // HVX (V60 on, 128-byte vectors, with its floating point where the core has it) is
    // enabled for every process, as Linux does for a program on a core with HVX
    if (hexsim_arch_version(u->arch) >= 60)
        u->arch |= HEXSIM_ARCH_HVX_ALL;
    return 0;
}

// Opens and loads one ELF file (interp: as the interpreter).
static int load_file(struct hexsim_user *u, const char *path, bool interp, char *err,
                     size_t errlen)
{
    if (elf_version(EV_CURRENT) == EV_NONE) {
        snprintf(err, errlen, "%s: libelf initialisation failed", path);
        return -1;
    }
    int fd = open(path, O_RDONLY | (interp ? O_NOFOLLOW : 0));
    if (fd < 0) {
        snprintf(err, errlen, "%s: cannot open: %s", path, strerror(errno));
        return -1;
    }
    Elf *elf = elf_begin(fd, ELF_C_READ, NULL);
    int rc = load(u, elf, fd, path, interp, err, errlen);
    if (elf)
        elf_end(elf);
    close(fd);
    return rc;
}

int hexsim_user_load_elf_interp(struct hexsim_user *u, const char *path, char *err,
                                size_t errlen)
{
    return load_file(u, path, true, err, errlen);
}

int hexsim_user_load_elf(struct hexsim_user *u, const char *path, char *err, size_t errlen)
{
    int rc = load_file(u, path, false, err, errlen);
    if (!rc && u->interp[0])
        rc = hexsim_user_load_interp(u, err, errlen);
    return rc;
}

int hexsim_user_load_elf_mem(struct hexsim_user *u, const void *image, size_t size,
                             const char *name, char *err, size_t errlen)
{
    if (elf_version(EV_CURRENT) == EV_NONE) {
        snprintf(err, errlen, "%s: libelf initialisation failed", name);
        return -1;
    }
    // elf_memory takes a non-const pointer; the image is only read here.
    Elf *elf = elf_memory((char *)(uintptr_t)image, size);
    int rc = load(u, elf, -1, name, false, err, errlen);
    if (elf)
        elf_end(elf);
    if (!rc && u->interp[0]) {   // no guest root here: refused as without -L
        snprintf(err, errlen, "%s needs the dynamic loader %s, which an image in memory "
                 "cannot have", name, u->interp);
        rc = HEXSIM_USER_NO_INTERP;
    }
    return rc;
}
