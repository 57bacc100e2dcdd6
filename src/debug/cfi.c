// SPDX-License-Identifier: MIT
// The call frame information reader (cfi.h). Facts: DWARF 5 section 6.4 (CIE and FDE
// layout, DWARF 2-5 CIE versions, the 32- and 64-bit formats, the DW_CFA_* instructions
// and their operands) and the LSB's .eh_frame format (CIE id 0, an FDE's CIE pointer
// relative to itself, the 'z' augmentation with 'R', 'P', 'L' and 'S', DW_EH_PE_* pointer
// encodings). Every read is bounded by its section; a malformed entry ends the parse of its
// section, keeping the FDEs read before it.
#include "cfi.h"

#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct cie {
    size_t sec, off;            // which section, and the entry's offset in it
    const uint8_t *ins, *end;   // initial instructions
    uint32_t code_align;
    int32_t data_align;
    unsigned ra;
    uint8_t enc;                // FDE address encoding (DW_EH_PE_*)
    bool aug_z;                 // FDEs have augmentation data
};

struct fde {
    uint32_t lo, hi;
    const uint8_t *ins, *end;
    size_t cie;
};

struct section {
    uint8_t *data;
    size_t len;
    uint64_t addr;              // its address when loaded (pc-relative pointers)
    bool eh;                    // .eh_frame (else .debug_frame)
};

struct hexsim_cfi {
    struct section sec[2];
    struct cie *cie;
    size_t ncie, capcie;
    struct fde *fde;
    size_t nfde, capfde;
};

// ---- bounded reads

struct rd {
    const uint8_t *p, *end;
    bool bad;
};

static uint64_t rd_n(struct rd *r, unsigned n)
{
    if (r->bad || (size_t)(r->end - r->p) < n) {
        r->bad = true;
        return 0;
    }
    uint64_t v = 0;
    for (unsigned i = 0; i < n; i++)
        v |= (uint64_t)r->p[i] << (8 * i);
    r->p += n;
    return v;
}

static uint64_t rd_uleb(struct rd *r)
{
    uint64_t v = 0;
    for (unsigned sh = 0;; sh += 7) {
        if (r->bad || r->p >= r->end) {
            r->bad = true;
            return 0;
        }
        uint8_t b = *r->p++;
        if (sh < 64)
            v |= (uint64_t)(b & 0x7f) << sh;
        if (!(b & 0x80))
            return v;
    }
}

static int64_t rd_sleb(struct rd *r)
{
    uint64_t v = 0;
    unsigned sh = 0;
    uint8_t b;
    do {
        if (r->bad || r->p >= r->end) {
            r->bad = true;
            return 0;
        }
        b = *r->p++;
        if (sh < 64)
            v |= (uint64_t)(b & 0x7f) << sh;
        sh += 7;
    } while (b & 0x80);
    if (sh < 64 && (b & 0x40))
        v |= ~0ull << sh;
    return (int64_t)v;
}

static void rd_skip(struct rd *r, uint64_t n)
{
    if (r->bad || (uint64_t)(r->end - r->p) < n)
        r->bad = true;
    else
        r->p += n;
}

// A DW_EH_PE-encoded pointer (.eh_frame) read at r; `base` is the section's load address
// for pc-relative values. Indirect and data-relative encodings are not used for code
// addresses by the toolchains here: refused.
static uint64_t rd_enc(struct rd *r, uint8_t enc, const struct section *s)
{
    uint64_t at = s->addr + (uint64_t)(r->p - s->data), v;
    switch (enc & 0x0f) {
    case 0x00: v = rd_n(r, 4); break;                              // absptr (ILP32)
    case 0x01: v = rd_uleb(r); break;
    case 0x02: v = rd_n(r, 2); break;
    case 0x03: v = rd_n(r, 4); break;
    case 0x04: v = rd_n(r, 8); break;
    case 0x09: v = (uint64_t)rd_sleb(r); break;
    case 0x0a: v = (uint64_t)(int64_t)(int16_t)rd_n(r, 2); break;
    case 0x0b: v = (uint64_t)(int64_t)(int32_t)rd_n(r, 4); break;
    case 0x0c: v = rd_n(r, 8); break;
    default: r->bad = true; return 0;
    }
    switch (enc & 0x70) {
    case 0x00: break;
    case 0x10: v += at; break;                                     // pcrel
    default: r->bad = true; return 0;
    }
    if (enc & 0x80)
        r->bad = true;
    return v;
}

// ---- parsing

// The CIE at `off` in section `si` (parsed once); SIZE_MAX when it is not a usable CIE.
static size_t get_cie(struct hexsim_cfi *c, size_t si, uint64_t off)
{
    for (size_t i = 0; i < c->ncie; i++)
        if (c->cie[i].sec == si && c->cie[i].off == off)
            return i;
    const struct section *s = &c->sec[si];
    if (off >= s->len)
        return SIZE_MAX;
    struct rd r = { s->data + off, s->data + s->len, false };
    uint64_t len = rd_n(&r, 4);
    bool dw64 = len == 0xffffffffu;
    if (dw64)
        len = rd_n(&r, 8);
    if (r.bad || len > (uint64_t)(r.end - r.p))
        return SIZE_MAX;
    r.end = r.p + len;
    uint64_t id = rd_n(&r, dw64 ? 8 : 4);
    if (id != (s->eh ? 0 : dw64 ? ~0ull : 0xffffffffu))
        return SIZE_MAX;
    struct cie e = { .sec = si, .off = off };
    unsigned version = (unsigned)rd_n(&r, 1);
    const char *aug = (const char *)r.p;
    size_t alen = strnlen(aug, (size_t)(r.end - r.p));
    rd_skip(&r, alen + 1);
    if (version >= 4) {
        unsigned asize = (unsigned)rd_n(&r, 1);
        unsigned ssize = (unsigned)rd_n(&r, 1);
        if (asize != 4 || ssize != 0)
            return SIZE_MAX;
    }
    e.code_align = (uint32_t)rd_uleb(&r);
    e.data_align = (int32_t)rd_sleb(&r);
    e.ra = version == 1 ? (unsigned)rd_n(&r, 1) : (unsigned)rd_uleb(&r);
    if (r.bad || (version != 1 && version != 3 && version != 4))
        return SIZE_MAX;
    if (alen && aug[0] == 'z') {
        e.aug_z = true;
        uint64_t dlen = rd_uleb(&r);
        if (r.bad || dlen > (uint64_t)(r.end - r.p))
            return SIZE_MAX;
        struct rd a = { r.p, r.p + dlen, false };
        for (size_t i = 1; i < alen && !a.bad; i++) {
            if (aug[i] == 'R') {
                e.enc = (uint8_t)rd_n(&a, 1);
            } else if (aug[i] == 'P') {
                uint8_t penc = (uint8_t)rd_n(&a, 1);
                rd_enc(&a, penc & 0x7f, s);     // the personality routine (indirect or not)
            } else if (aug[i] == 'L') {
                rd_n(&a, 1);
            } else if (aug[i] != 'S') {
                break;                          // unknown: the length skips the rest
            }
        }
        r.p += dlen;
    } else if (alen) {
        return SIZE_MAX;                        // an augmentation this reader cannot skip
    }
    e.ins = r.p;
    e.end = r.end;
    if (c->ncie == c->capcie) {
        size_t cap = c->capcie ? 2 * c->capcie : 8;
        struct cie *n = realloc(c->cie, cap * sizeof(*n));
        if (!n)
            return SIZE_MAX;
        c->cie = n;
        c->capcie = cap;
    }
    c->cie[c->ncie] = e;
    return c->ncie++;
}

static void parse_section(struct hexsim_cfi *c, size_t si)
{
    const struct section *s = &c->sec[si];
    size_t off = 0;
    while (off + 4 <= s->len) {
        struct rd r = { s->data + off, s->data + s->len, false };
        uint64_t len = rd_n(&r, 4);
        if (len == 0) {
            if (s->eh)
                return;                         // the terminator
            off += 4;
            continue;
        }
        bool dw64 = len == 0xffffffffu;
        if (dw64)
            len = rd_n(&r, 8);
        if (r.bad || len > (uint64_t)(r.end - r.p))
            return;
        const uint8_t *entry_end = r.p + len;
        r.end = entry_end;
        const uint8_t *id_at = r.p;
        uint64_t id = rd_n(&r, dw64 ? 8 : 4);
        bool is_cie = s->eh ? id == 0 : id == (dw64 ? ~0ull : 0xffffffffu);
        if (!is_cie) {
            uint64_t cie_off = s->eh ? (uint64_t)(id_at - s->data) - id : id;
            size_t ci = get_cie(c, si, cie_off);
            if (ci != SIZE_MAX) {
                const struct cie *e = &c->cie[ci];
                uint64_t lo = s->eh ? rd_enc(&r, e->enc, s) : rd_n(&r, 4);
                uint64_t range = s->eh ? rd_enc(&r, e->enc & 0x0f, s) : rd_n(&r, 4);
                if (e->aug_z)
                    rd_skip(&r, rd_uleb(&r));
                if (!r.bad && range && lo < UINT32_MAX) {
                    if (c->nfde == c->capfde) {
                        size_t cap = c->capfde ? 2 * c->capfde : 32;
                        struct fde *n = realloc(c->fde, cap * sizeof(*n));
                        if (!n)
                            return;
                        c->fde = n;
                        c->capfde = cap;
                    }
                    uint64_t hi = lo + range > UINT32_MAX ? UINT32_MAX : lo + range;
                    c->fde[c->nfde++] = (struct fde){ (uint32_t)lo, (uint32_t)hi, r.p,
                                                      entry_end, ci };
                }
            }
        }
        off = (size_t)(entry_end - s->data);
    }
}

static int cmp_fde(const void *a, const void *b)
{
    const struct fde *x = a, *y = b;
    return x->lo < y->lo ? -1 : x->lo > y->lo;
}

struct hexsim_cfi *hexsim_cfi_open(const char *path)
{
    if (elf_version(EV_CURRENT) == EV_NONE)
        return NULL;
    int fd = open(path, O_RDONLY);
    if (fd < 0)
        return NULL;
    Elf *elf = elf_begin(fd, ELF_C_READ, NULL);
    struct hexsim_cfi *c = calloc(1, sizeof(*c));
    size_t shstr;
    if (!elf || !c || elf_getshdrstrndx(elf, &shstr) != 0) {
        free(c);
        c = NULL;
        goto out;
    }
    for (Elf_Scn *scn = NULL; (scn = elf_nextscn(elf, scn)) != NULL;) {
        GElf_Shdr sh;
        if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_PROGBITS)
            continue;
        const char *name = elf_strptr(elf, shstr, sh.sh_name);
        size_t si = name && strcmp(name, ".debug_frame") == 0 ? 0
                  : name && strcmp(name, ".eh_frame") == 0 ? 1 : 2;
        Elf_Data *d = si < 2 ? elf_getdata(scn, NULL) : NULL;
        if (!d || !d->d_buf || !d->d_size || c->sec[si].data)
            continue;
        c->sec[si].data = malloc(d->d_size);
        if (!c->sec[si].data)
            continue;
        memcpy(c->sec[si].data, d->d_buf, d->d_size);
        c->sec[si].len = d->d_size;
        c->sec[si].addr = sh.sh_addr;
        c->sec[si].eh = si == 1;
    }
    for (size_t si = 0; si < 2; si++)
        if (c->sec[si].data)
            parse_section(c, si);
    if (!c->nfde) {
        hexsim_cfi_close(c);
        c = NULL;
        goto out;
    }
    qsort(c->fde, c->nfde, sizeof(*c->fde), cmp_fde);
out:
    if (elf)
        elf_end(elf);
    close(fd);
    return c;
}

void hexsim_cfi_close(struct hexsim_cfi *c)
{
    if (!c)
        return;
    for (size_t i = 0; i < 2; i++)
        free(c->sec[i].data);
    free(c->cie);
    free(c->fde);
    free(c);
}

// ---- the instructions

#define STATE_DEPTH 8

static void set_rule(struct hexsim_cfi_row *row, uint64_t reg, uint8_t rule, int64_t off)
{
    if (reg < HEXSIM_CFI_REGS) {
        row->reg[reg].rule = rule;
        row->reg[reg].off = (int32_t)off;
    }
}

// Runs [p, end) from location *loc; stops before an advance past pc (pc = UINT64_MAX: the
// whole list). `init` is the row after the CIE's instructions (DW_CFA_restore), NULL while
// running those. 0, or -1 for what cannot be evaluated or a malformed list.
static int run(const struct cie *e, const struct section *s, const uint8_t *p,
               const uint8_t *end, uint64_t *loc, uint64_t pc, const struct hexsim_cfi_row *init,
               struct hexsim_cfi_row *row)
{
    struct hexsim_cfi_row stack[STATE_DEPTH];
    unsigned depth = 0;
    struct rd r = { p, end, false };
    while (r.p < r.end && !r.bad) {
        uint8_t op = (uint8_t)rd_n(&r, 1);
        uint64_t reg, adv = 0;
        bool advance = false;
        switch (op & 0xc0) {
        case 0x40:
            adv = op & 0x3f;
            advance = true;
            break;
        case 0x80:
            set_rule(row, op & 0x3f, HEXSIM_CFI_OFFSET, (int64_t)rd_uleb(&r) * e->data_align);
            continue;
        case 0xc0:
            reg = op & 0x3f;
            if (reg < HEXSIM_CFI_REGS)
                row->reg[reg] = init ? init->reg[reg] : row->reg[reg];
            continue;
        default:
            break;
        }
        if (!advance) {
            switch (op) {
            case 0x00: break;                                           // nop
            case 0x01: {                                                // set_loc
                uint64_t to = s->eh ? rd_enc(&r, e->enc, s) : rd_n(&r, 4);
                if (to > pc)
                    return r.bad ? -1 : 0;
                *loc = to;
                break;
            }
            case 0x02: adv = rd_n(&r, 1); advance = true; break;         // advance_loc1
            case 0x03: adv = rd_n(&r, 2); advance = true; break;         // advance_loc2
            case 0x04: adv = rd_n(&r, 4); advance = true; break;         // advance_loc4
            case 0x05:                                                  // offset_extended
                reg = rd_uleb(&r);
                set_rule(row, reg, HEXSIM_CFI_OFFSET, (int64_t)rd_uleb(&r) * e->data_align);
                break;
            case 0x06:                                                  // restore_extended
                reg = rd_uleb(&r);
                if (reg < HEXSIM_CFI_REGS && init)
                    row->reg[reg] = init->reg[reg];
                break;
            case 0x07: set_rule(row, rd_uleb(&r), HEXSIM_CFI_UNDEFINED, 0); break;
            case 0x08: set_rule(row, rd_uleb(&r), HEXSIM_CFI_SAME, 0); break;
            case 0x09:                                                  // register
                reg = rd_uleb(&r);
                set_rule(row, reg, HEXSIM_CFI_REGISTER, (int64_t)rd_uleb(&r));
                break;
            case 0x0a:                                                  // remember_state
                if (depth == STATE_DEPTH)
                    return -1;
                stack[depth++] = *row;
                break;
            case 0x0b:                                                  // restore_state
                if (!depth)
                    return -1;
                *row = stack[--depth];
                break;
            case 0x0c:                                                  // def_cfa
                row->cfa_reg = (unsigned)rd_uleb(&r);
                row->cfa_off = (int32_t)rd_uleb(&r);
                break;
            case 0x0d: row->cfa_reg = (unsigned)rd_uleb(&r); break;      // def_cfa_register
            case 0x0e: row->cfa_off = (int32_t)rd_uleb(&r); break;       // def_cfa_offset
            case 0x0f: return -1;                                       // def_cfa_expression
            case 0x10:                                                  // expression
            case 0x16:                                                  // val_expression
                reg = rd_uleb(&r);
                rd_skip(&r, rd_uleb(&r));
                set_rule(row, reg, HEXSIM_CFI_UNDEFINED, 0);
                break;
            case 0x11:                                                  // offset_extended_sf
                reg = rd_uleb(&r);
                set_rule(row, reg, HEXSIM_CFI_OFFSET, rd_sleb(&r) * e->data_align);
                break;
            case 0x12:                                                  // def_cfa_sf
                row->cfa_reg = (unsigned)rd_uleb(&r);
                row->cfa_off = (int32_t)(rd_sleb(&r) * e->data_align);
                break;
            case 0x13:                                                  // def_cfa_offset_sf
                row->cfa_off = (int32_t)(rd_sleb(&r) * e->data_align);
                break;
            case 0x14:                                                  // val_offset
                reg = rd_uleb(&r);
                set_rule(row, reg, HEXSIM_CFI_VAL_OFFSET, (int64_t)rd_uleb(&r) * e->data_align);
                break;
            case 0x15:                                                  // val_offset_sf
                reg = rd_uleb(&r);
                set_rule(row, reg, HEXSIM_CFI_VAL_OFFSET, rd_sleb(&r) * e->data_align);
                break;
            case 0x2e: rd_uleb(&r); break;                              // GNU_args_size
            case 0x2f:                                          // GNU_negative_offset_extended
                reg = rd_uleb(&r);
                set_rule(row, reg, HEXSIM_CFI_OFFSET, -(int64_t)rd_uleb(&r) * e->data_align);
                break;
            default:
                return -1;
            }
        }
        if (advance) {
            uint64_t to = *loc + adv * e->code_align;
            if (to > pc)
                return r.bad ? -1 : 0;
            *loc = to;
        }
    }
    return r.bad ? -1 : 0;
}

int hexsim_cfi_row(const struct hexsim_cfi *c, uint32_t pc, struct hexsim_cfi_row *row)
{
    if (!c)
        return -1;
    size_t lo = 0, hi = c->nfde;   // the last FDE starting at or below pc
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (c->fde[mid].lo <= pc)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (!lo || pc >= c->fde[lo - 1].hi)
        return -1;
    const struct fde *f = &c->fde[lo - 1];
    const struct cie *e = &c->cie[f->cie];
    const struct section *s = &c->sec[e->sec];
    memset(row, 0, sizeof(*row));
    row->ra_reg = e->ra;
    uint64_t loc = f->lo;
    if (run(e, s, e->ins, e->end, &loc, UINT64_MAX, NULL, row))
        return -1;
    struct hexsim_cfi_row init = *row;
    loc = f->lo;
    return run(e, s, f->ins, f->end, &loc, pc, &init, row);
}
