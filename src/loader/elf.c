// SPDX-License-Identifier: MIT
// System-mode loader (libelf): places a kernel ELF's PT_LOAD segments in guest physical RAM,
// the initrd page-aligned above the kernel, and the command line where Linux looks for it.
// Facts (DESIGN.md "Linux 6.1 guest facts"): the kernel links at 0xC0000000 with
// p_paddr = p_vaddr and derives PHYS_OFFSET from its entry PC (head.S: PC & 0xFFC00000),
// so a segment whose physical address is at or above 0xC0000000 is placed at
// paddr - 0xC0000000 + RAM base and the entry PC is translated the same way; the vCPU
// starts with the boot map (RAM at VA = PA, HVM spec 4.5) until vmnewmap. setup_arch copies the command line
// from the page at `external_cmdline_buffer` when its first byte is non-zero, and that
// replaces the built-in command line; so the loader adds console=ttyMSM2,115200n8 and mem=
// (RAM size comes only from mem=) unless --append has them, the initrd is announced as
// initrd=0xADDR,SIZE (physical address), and the entropy device (virtio_rng.c) and each
// --drive block device (virtio_blk.c) as virtio_mmio.device=SIZE@BASE:IRQ to a kernel built with CONFIG_VIRTIO_MMIO_CMDLINE_DEVICES
// (its symbol vm_cmdline_set says so).
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "hexsim/arch.h"
#include "hexsim/boot_env.h"
#include "hexsim/machine.h"

#ifndef EM_QDSP6
#define EM_QDSP6 164
#endif

static uint64_t to_phys(struct hexsim_machine *m, uint64_t paddr)
{
    return paddr >= HEXSIM_PAGE_OFFSET ? paddr - HEXSIM_PAGE_OFFSET + m->ram_base : paddr;
}

static int copy_phys(struct hexsim_machine *m, uint32_t pa, const void *src, size_t n)
{
    return hexsim_mem_copy_in(&m->ram, pa, src, n, true, NULL);
}

// Finds symbol `name`'s value; returns 0 if absent.
static uint64_t find_symbol(Elf *elf, const char *name)
{
    Elf_Scn *scn = NULL;
    while ((scn = elf_nextscn(elf, scn))) {
        GElf_Shdr sh;
        if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_SYMTAB || !sh.sh_entsize)
            continue;
        Elf_Data *d = elf_getdata(scn, NULL);
        size_t n = d ? sh.sh_size / sh.sh_entsize : 0;
        for (size_t i = 0; i < n; i++) {
            GElf_Sym s;
            if (!gelf_getsym(d, (int)i, &s))
                continue;
            const char *nm = elf_strptr(elf, sh.sh_link, s.st_name);
            if (nm && strcmp(nm, name) == 0)
                return s.st_value;
        }
    }
    return 0;
}

static int load_initrd(struct hexsim_machine *m, const char *path, char *msg, size_t msglen)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        snprintf(msg, msglen, "cannot read initrd '%s': %s", path, strerror(errno));
        return -1;
    }
    uint32_t at = (m->kernel_end + HEXSIM_PAGE_SIZE - 1) & ~(HEXSIM_PAGE_SIZE - 1);
    uint64_t limit = (uint64_t)m->ram_base + m->ram_size;
    uint8_t buf[65536];
    uint64_t total = 0;
    size_t n;
    while ((n = fread(buf, 1, sizeof(buf), f)) > 0) {
        // what the kernel can unpack (CONFIG_RD_GZIP; the other compressions are off): a
        // newc cpio archive ("070701", or "070702" with checksums), or gzip (1f 8b)
        if (total == 0 && !(n >= 6 && (memcmp(buf, "070701", 6) == 0 ||
                                       memcmp(buf, "070702", 6) == 0)) &&
            !(n >= 2 && buf[0] == 0x1f && buf[1] == 0x8b)) {
            fclose(f);
            snprintf(msg, msglen, "initrd '%s' is not a newc cpio archive (it starts with "
                     "\"070701\") or a gzip-compressed one: the kernel could not unpack it",
                     path);
            return -1;
        }
        if (at + total + n > limit) {
            fclose(f);
            snprintf(msg, msglen, "initrd '%s' does not fit in RAM above the kernel (0x%08x, "
                     "%u MiB of RAM; try --mem)", path, at, m->ram_size >> 20);
            return -1;
        }
        copy_phys(m, (uint32_t)(at + total), buf, n);
        total += n;
    }
    int bad = ferror(f);
    fclose(f);
    if (bad) {
        snprintf(msg, msglen, "error reading initrd '%s'", path);
        return -1;
    }
    m->initrd_addr = at;
    m->initrd_size = (uint32_t)total;
    return 0;
}

// True when the command line has an option that starts with `key` (for example "mem=").
static bool has_option(const char *cmdline, const char *key)
{
    size_t n = strlen(key);
    for (const char *p = cmdline; (p = strstr(p, key)) != NULL; p += n)
        if (p == cmdline || p[-1] == ' ')
            return true;
    return false;
}

// The command line the kernel gets: --append, then what the board needs and --append did
// not say. external_cmdline_buffer replaces the kernel's built-in command line, so the
// console (ttyMSM2 is UART3, the Comet console) and mem= must be here. A Linux kernel
// (`is_linux`) also gets, after `--` (init's arguments; after the words --append put there),
// the date and console size for /init (boot_env.c) that --append did not give.
static int build_cmdline(struct hexsim_machine *m, bool is_linux, char *msg, size_t msglen)
{
    const char *app = m->opts.append ? m->opts.append : "";
    // --append's own `--` and what follows go last: they are init's, not the kernel's
    const char *init_part = NULL;
    for (const char *p = app; (p = strstr(p, "--")) != NULL; p += 2)
        if ((p == app || p[-1] == ' ') && (p[2] == '\0' || p[2] == ' ')) {
            init_part = p;
            break;
        }
    size_t kn = init_part ? (size_t)(init_part - app) : strlen(app);
    while (kn && app[kn - 1] == ' ')
        kn--;
    size_t cap = sizeof(m->cmdline);
    size_t len = (size_t)snprintf(m->cmdline, cap, "%.*s", (int)kn, app);
    if (len < cap && !has_option(app, "console="))
        len += (size_t)snprintf(m->cmdline + len, cap - len, "%sconsole=ttyMSM2,115200n8",
                                len ? " " : "");
    if (len < cap && !has_option(app, "mem="))
        len += (size_t)snprintf(m->cmdline + len, cap - len, "%smem=%uM", len ? " " : "",
                                m->ram_size >> 20);
    if (len < cap && m->initrd_size)
        len += (size_t)snprintf(m->cmdline + len, cap - len, "%sinitrd=0x%08x,%u",
                                len ? " " : "", m->initrd_addr, m->initrd_size);
    // slot 0 the entropy device, then one slot per --drive and per --share
    // (include/hexsim/virtio.h)
    for (unsigned i = 0; i <= m->nblk + m->n9p; i++)
        if (len < cap && is_linux && !has_option(app, "virtio_mmio.device="))
            len += (size_t)snprintf(m->cmdline + len, cap - len,
                                    "%svirtio_mmio.device=0x%x@0x%08x:%u", len ? " " : "",
                                    HEXSIM_VIRTIO_SLOT_SIZE, HEXSIM_VIRTIO_SLOT_BASE(i),
                                    HEXSIM_VIRTIO_SLOT_LINUX_IRQ(i));
    char words[128] = "";
    if (is_linux && !has_option(app, "init.date=") && !has_option(app, "init.tty="))
        hexsim_boot_init_words(m->opts.rtc_base, m->opts.con_rows, m->opts.con_cols, words,
                               sizeof(words));
    if (len < cap && (init_part || words[0]))
        len += (size_t)snprintf(m->cmdline + len, cap - len, "%s%s%s%s", len ? " " : "",
                                init_part ? init_part : "--", words[0] ? " " : "", words);
    if (len >= HEXSIM_CMDLINE_MAX) {
        snprintf(msg, msglen, "kernel command line is %zu bytes; Linux/Hexagon takes at most %d "
                 "(COMMAND_LINE_SIZE): shorten --append", len, HEXSIM_CMDLINE_MAX - 1);
        return -1;
    }
    return 0;
}

int hexsim_machine_load(struct hexsim_machine *m, const char *path, char *msg, size_t msglen)
{
    int rc = -1;
    snprintf(m->kernel_path, sizeof m->kernel_path, "%s", path);
    if (elf_version(EV_CURRENT) == EV_NONE) {
        snprintf(msg, msglen, "libelf initialisation failed");
        return -1;
    }
    int fd = open(path, O_RDONLY);
    if (fd < 0) {
        snprintf(msg, msglen, "cannot read kernel '%s': %s", path, strerror(errno));
        return -1;
    }
    Elf *elf = elf_begin(fd, ELF_C_READ, NULL);
    uint8_t *buf = NULL;
    GElf_Ehdr eh;
    if (!elf || elf_kind(elf) != ELF_K_ELF || !gelf_getehdr(elf, &eh)) {
        snprintf(msg, msglen, "kernel '%s' is not an ELF file", path);
        goto out;
    }
    if (eh.e_ident[EI_CLASS] != ELFCLASS32 || eh.e_ident[EI_DATA] != ELFDATA2LSB ||
        eh.e_machine != EM_QDSP6) {
        snprintf(msg, msglen, "kernel '%s' is not a Hexagon ELF (machine %u, class %u; "
                 "expected 32-bit little-endian EM_QDSP6)", path, eh.e_machine,
                 eh.e_ident[EI_CLASS]);
        goto out;
    }
    size_t phnum;
    if (elf_getphdrnum(elf, &phnum) != 0 || phnum == 0) {
        snprintf(msg, msglen, "kernel '%s' has no program headers", path);
        goto out;
    }
    uint64_t end = 0;
    bool entry_found = false;
    uint64_t ram_end = (uint64_t)m->ram_base + m->ram_size;
    for (size_t i = 0; i < phnum; i++) {
        GElf_Phdr ph;
        if (!gelf_getphdr(elf, (int)i, &ph)) {
            snprintf(msg, msglen, "kernel '%s': bad program header %zu", path, i);
            goto out;
        }
        if (ph.p_type != PT_LOAD || ph.p_memsz == 0)
            continue;
        uint64_t pa = to_phys(m, ph.p_paddr);
        if (ph.p_filesz > ph.p_memsz || pa < m->ram_base || pa + ph.p_memsz > ram_end) {
            snprintf(msg, msglen, "kernel '%s': segment %zu (physical 0x%llx, 0x%llx bytes) "
                     "is outside RAM 0x%08x-0x%08llx", path, i, (unsigned long long)pa,
                     (unsigned long long)ph.p_memsz, m->ram_base, (unsigned long long)ram_end);
            goto out;
        }
        if (ph.p_filesz) {
            buf = malloc(ph.p_filesz);
            if (!buf || pread(fd, buf, ph.p_filesz, (off_t)ph.p_offset) != (ssize_t)ph.p_filesz) {
                snprintf(msg, msglen, "kernel '%s': segment %zu: file too short", path, i);
                goto out;
            }
            copy_phys(m, (uint32_t)pa, buf, ph.p_filesz);
            free(buf);
            buf = NULL;
        }
        if (eh.e_entry >= ph.p_vaddr && eh.e_entry < ph.p_vaddr + ph.p_memsz) {
            m->entry = (uint32_t)(pa + (eh.e_entry - ph.p_vaddr));
            entry_found = true;
        }
        if (pa + ph.p_memsz > end)
            end = pa + ph.p_memsz;
    }
    if (!end || !entry_found) {
        snprintf(msg, msglen, "kernel '%s': %s", path, !end ? "no loadable segment"
                 : "the entry point is in no loaded segment");
        goto out;
    }
    m->kernel_end = (uint32_t)end;
    // One core runs the kernel and every program the guest starts, so it decodes for the
    // newer of the kernel's version and HEXSIM_SYS_MIN_ARCH (the project's userland is
    // built for V67; a kernel for an older version runs unchanged on it). --mcpu overrides.
    m->arch = m->opts.arch ? m->opts.arch : hexsim_arch_from_eflags((uint32_t)eh.e_flags);
    if (!m->opts.arch && hexsim_arch_version(m->arch) < HEXSIM_SYS_MIN_ARCH)
        m->arch = HEXSIM_SYS_MIN_ARCH;
    // Guest code may use HVX (V60 on): each vCPU has its HVX registers; nothing saves them
    // for the guest (Linux 6.1 does not switch HVX state between tasks: docs/internals/isa.md)
    if (hexsim_arch_version(m->arch) >= 60)
        m->arch |= HEXSIM_ARCH_HVX_ALL;
    if (m->opts.initrd && load_initrd(m, m->opts.initrd, msg, msglen))
        goto out;
    // the entropy device, for a kernel that can find it there (virtio_mmio's parameter)
    if (build_cmdline(m, find_symbol(elf, "vm_cmdline_set") != 0, msg, msglen)) {
        rc = HEXSIM_LOAD_CMDLINE;   // the files are fine: the command line is too long
        goto out;
    }
    uint64_t cl = find_symbol(elf, "external_cmdline_buffer");
    if (cl) {
        uint64_t pa = to_phys(m, cl);
        if (pa >= m->ram_base && pa + HEXSIM_PAGE_SIZE <= ram_end)
            copy_phys(m, (uint32_t)pa, m->cmdline, strlen(m->cmdline) + 1);
    }
    for (unsigned i = 0; i < m->nvcpu; i++) {
        m->vcpu[i].env.arch = m->arch;
        m->vcpu[i].cpu.pc = m->entry;
    }
    m->vcpu[0].state = HEXSIM_VCPU_RUN;
    rc = 0;
out:
    free(buf);
    if (elf)
        elf_end(elf);
    close(fd);
    return rc;
}
