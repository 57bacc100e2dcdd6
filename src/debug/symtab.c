// SPDX-License-Identifier: MIT
// ELF symbol table: see symtab.h. Facts: the ELF gABI symbol table (st_value, st_size,
// STT_FUNC/STT_OBJECT/STT_NOTYPE; section symbols and file symbols carry no useful name).
#include "symtab.h"

#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int cmp_sym(const void *a, const void *b)
{
    const struct hexsim_sym *x = a, *y = b;
    if (x->addr != y->addr)
        return x->addr < y->addr ? -1 : 1;
    // prefer sized, global-looking names first for a stable choice
    if ((x->size == 0) != (y->size == 0))
        return x->size ? -1 : 1;
    return strcmp(x->name, y->name);
}

int hexsim_symtab_load(struct hexsim_symtab *st, const char *path)
{
    if (elf_version(EV_CURRENT) == EV_NONE)
        return -1;
    int fd = open(path, O_RDONLY);
    if (fd < 0)
        return -1;
    Elf *elf = elf_begin(fd, ELF_C_READ, NULL);
    int rc = -1;
    if (!elf)
        goto out;
    Elf_Scn *scn = NULL, *found = NULL;
    GElf_Shdr sh, fsh;
    while ((scn = elf_nextscn(elf, scn)) != NULL) {
        if (!gelf_getshdr(scn, &sh))
            continue;
        if (sh.sh_type == SHT_SYMTAB || (sh.sh_type == SHT_DYNSYM && !found)) {
            found = scn;
            fsh = sh;
        }
    }
    if (!found) {
        rc = 0;
        goto out;
    }
    Elf_Data *data = elf_getdata(found, NULL);
    size_t count = fsh.sh_entsize ? fsh.sh_size / fsh.sh_entsize : 0;
    size_t names_len = 0, n = 0;
    for (int pass = 0; pass < 2; pass++) {
        if (pass == 1) {
            st->sym = realloc(st->sym, (st->n + n) * sizeof(*st->sym));
            // names live in one block per load; the old block stays valid (symbols of
            // earlier loads point into it), so chain it behind the new one
            char *blk = malloc(names_len + sizeof(char *));
            if (!st->sym || !blk) {
                free(blk);
                goto out;
            }
            memcpy(blk, &st->names, sizeof(char *));
            st->names = blk;
            names_len = sizeof(char *);
            n = 0;
        }
        for (size_t i = 0; i < count; i++) {
            GElf_Sym s;
            if (!gelf_getsym(data, (int)i, &s))
                continue;
            int type = GELF_ST_TYPE(s.st_info);
            if (s.st_shndx == SHN_UNDEF || (type != STT_FUNC && type != STT_OBJECT &&
                                            type != STT_NOTYPE))
                continue;
            const char *name = elf_strptr(elf, fsh.sh_link, s.st_name);
            if (!name || !name[0] || name[0] == '$' || strncmp(name, ".L", 2) == 0)
                continue;
            size_t len = strlen(name) + 1;
            if (pass == 1) {
                struct hexsim_sym *d = &st->sym[st->n + n];
                d->addr = (uint32_t)s.st_value;
                d->size = (uint32_t)s.st_size;
                d->type = type == STT_FUNC ? 'F' : type == STT_OBJECT ? 'O' : '?';
                memcpy(st->names + names_len, name, len);
                d->name = st->names + names_len;
            }
            names_len += len;
            n++;
        }
    }
    st->n += n;
    qsort(st->sym, st->n, sizeof(*st->sym), cmp_sym);
    if (!st->path)
        st->path = strdup(path);
    rc = 0;
out:
    if (elf)
        elf_end(elf);
    close(fd);
    return rc;
}

void hexsim_symtab_free(struct hexsim_symtab *st)
{
    char *blk = st->names;
    while (blk) {
        char *next;
        memcpy(&next, blk, sizeof(char *));
        free(blk);
        blk = next;
    }
    free(st->sym);
    free(st->path);
    memset(st, 0, sizeof(*st));
}

const struct hexsim_sym *hexsim_symtab_find(const struct hexsim_symtab *st, const char *name)
{
    const struct hexsim_sym *best = NULL;
    for (size_t i = 0; st && i < st->n; i++)
        if (strcmp(st->sym[i].name, name) == 0 && (!best || (st->sym[i].type == 'F' &&
                                                             best->type != 'F')))
            best = &st->sym[i];
    return best;
}

const struct hexsim_sym *hexsim_symtab_lookup(const struct hexsim_symtab *st, uint32_t addr)
{
    if (!st || !st->n || addr < st->sym[0].addr)
        return NULL;
    size_t lo = 0, hi = st->n;   // last symbol with sym.addr <= addr
    while (hi - lo > 1) {
        size_t mid = (lo + hi) / 2;
        if (st->sym[mid].addr <= addr)
            lo = mid;
        else
            hi = mid;
    }
    while (lo > 0 && st->sym[lo - 1].addr == st->sym[lo].addr)
        lo--;   // first of equal addresses (sorted: sized before unsized)
    // a sized symbol that contains addr wins; else fall back on the nearest below
    for (size_t i = lo + 1; i-- > 0;) {
        const struct hexsim_sym *s = &st->sym[i];
        if (s->size && addr - s->addr < s->size)
            return s;
        if (addr - s->addr >= 0x10000)
            break;
        if (i + 64 < lo)
            break;
    }
    const struct hexsim_sym *s = &st->sym[lo];
    if (s->size && addr - s->addr >= s->size)
        return NULL;
    return addr - s->addr < 0x10000 ? s : NULL;
}
