// SPDX-License-Identifier: MIT
// The debugger's DWARF reader (dwarf.h) over elfutils' libdw: libdw parses the sections,
// line programs and location lists; this file walks compilation units and scopes, evaluates
// the location expressions compilers emit for variables (DWARF 5 section 2.5/2.6: addr,
// reg/breg/fbreg, literals, constants, stack_value; call_frame_cfa is FP+8 on Hexagon, where
// allocframe leaves FP at the saved FP/LR pair, PRM 7.3) and turns type DIEs into the
// debugger's C types. Hexagon's DWARF register numbers 0-31 are R0-R31 (LLVM's
// HexagonRegisterInfo.td).
#include "dwarf.h"

#include <dwarf.h>
#include <elfutils/libdw.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct type_cache {
    Dwarf_Off off;
    const struct hexsim_dtype *t;
};

struct hexsim_dwarf {
    int fd;
    Dwarf *dw;
    struct type_cache *tc;      // DIE offset -> type, for the arena of the last calls
    size_t ntc, captc;
    unsigned depth;             // to_type's recursion (a damaged file may nest without end)
};

// ---- compilation units

// The next compilation unit after *cu (NULL: the first); false after the last.
static bool next_cu(struct hexsim_dwarf *dw, Dwarf_CU **cu, Dwarf_Die *cudie)
{
    for (;;) {
        Dwarf_CU *next;
        Dwarf_Half version;
        uint8_t unit_type;
        if (dwarf_get_units(dw->dw, *cu, &next, &version, &unit_type, cudie, NULL) != 0)
            return false;
        *cu = next;
        if (unit_type == DW_UT_compile || unit_type == DW_UT_partial)
            return true;
    }
}

static bool cu_of(struct hexsim_dwarf *dw, uint32_t addr, Dwarf_Die *cudie)
{
    if (dwarf_addrdie(dw->dw, addr, cudie))
        return true;
    Dwarf_CU *cu = NULL;   // no .debug_aranges (clang emits none): ask each unit
    while (next_cu(dw, &cu, cudie))
        if (dwarf_haspc(cudie, addr) > 0)
            return true;
    return false;
}

struct hexsim_dwarf *hexsim_dwarf_open(const char *path)
{
    int fd = open(path, O_RDONLY);
    if (fd < 0)
        return NULL;
    Dwarf *d = dwarf_begin(fd, DWARF_C_READ);
    if (!d) {
        close(fd);
        return NULL;
    }
    struct hexsim_dwarf *dw = calloc(1, sizeof(*dw));
    if (!dw) {
        dwarf_end(d);
        close(fd);
        return NULL;
    }
    dw->fd = fd;
    dw->dw = d;
    Dwarf_CU *cu = NULL;
    Dwarf_Die cudie;
    if (!next_cu(dw, &cu, &cudie)) {
        hexsim_dwarf_close(dw);
        return NULL;
    }
    return dw;
}

void hexsim_dwarf_close(struct hexsim_dwarf *dw)
{
    if (!dw)
        return;
    dwarf_end(dw->dw);
    close(dw->fd);
    free(dw->tc);
    free(dw);
}

// ---- lines

int hexsim_dwarf_addr_line(struct hexsim_dwarf *dw, uint32_t addr, const char **file,
                           unsigned *line)
{
    Dwarf_Die cu;
    if (!dw || !cu_of(dw, addr, &cu))
        return -1;
    Dwarf_Line *l = dwarf_getsrc_die(&cu, addr);
    int ln;
    if (!l || dwarf_lineno(l, &ln) || ln <= 0)
        return -1;
    const char *f = dwarf_linesrc(l, NULL, NULL);
    if (!f)
        return -1;
    *file = f;
    *line = (unsigned)ln;
    return 0;
}

int hexsim_dwarf_line_range(struct hexsim_dwarf *dw, uint32_t addr, uint32_t *start,
                            uint32_t *end)
{
    Dwarf_Die cu;
    Dwarf_Lines *lines;
    size_t n;
    if (!dw || !cu_of(dw, addr, &cu) || dwarf_getsrclines(&cu, &lines, &n))
        return -1;
    bool found = false;
    Dwarf_Addr lo = 0, hi = 0;
    for (size_t i = 0; i < n; i++) {
        Dwarf_Line *l = dwarf_onesrcline(lines, i);
        Dwarf_Addr a;
        bool endseq = false, stmt = false;
        if (!l || dwarf_lineaddr(l, &a))
            continue;
        dwarf_lineendsequence(l, &endseq);
        dwarf_linebeginstatement(l, &stmt);
        if (a <= addr && !endseq && stmt && (!found || a > lo)) {
            found = true;
            lo = a;
        }
    }
    if (!found)
        return -1;
    for (size_t i = 0; i < n; i++) {
        Dwarf_Line *l = dwarf_onesrcline(lines, i);
        Dwarf_Addr a;
        if (l && dwarf_lineaddr(l, &a) == 0 && a > lo && (!hi || a < hi))
            hi = a;
    }
    *start = (uint32_t)lo;
    *end = (uint32_t)(hi ? hi : lo);
    return 0;
}

// Whether the line table's file name `full` is the user's `want` (a path or its tail).
static bool file_matches(const char *full, const char *want)
{
    size_t n = strlen(full), w = strlen(want);
    if (w > n)
        return false;
    if (strcmp(full + n - w, want) != 0)
        return false;
    return n == w || full[n - w - 1] == '/' || want[0] == '/';
}

int hexsim_dwarf_line_addr(struct hexsim_dwarf *dw, const char *file, unsigned line,
                           uint32_t *addr, const char **file_out, unsigned *line_out)
{
    if (!dw)
        return -1;
    Dwarf_CU *cu = NULL;
    Dwarf_Die cudie;
    bool found = false;
    unsigned best_line = 0;
    Dwarf_Addr best_addr = 0;
    const char *best_file = NULL;
    while (next_cu(dw, &cu, &cudie)) {
        Dwarf_Lines *lines;
        size_t n;
        if (dwarf_getsrclines(&cudie, &lines, &n))
            continue;
        for (size_t i = 0; i < n; i++) {
            Dwarf_Line *l = dwarf_onesrcline(lines, i);
            int ln;
            bool stmt = false, end = false;
            Dwarf_Addr a;
            if (!l || dwarf_lineno(l, &ln) || ln <= 0 || (unsigned)ln < line ||
                dwarf_linebeginstatement(l, &stmt) || !stmt ||
                dwarf_lineendsequence(l, &end) || end || dwarf_lineaddr(l, &a))
                continue;
            const char *src = dwarf_linesrc(l, NULL, NULL);
            if (!src || !file_matches(src, file))
                continue;
            if (!found || (unsigned)ln < best_line || ((unsigned)ln == best_line &&
                                                       a < best_addr)) {
                found = true;
                best_line = (unsigned)ln;
                best_addr = a;
                best_file = src;
            }
        }
    }
    if (!found)
        return -1;
    *addr = (uint32_t)best_addr;
    *file_out = best_file;
    *line_out = best_line;
    return 0;
}

// ---- functions

static void fill_func(Dwarf_Die *cu, Dwarf_Die *fn, struct hexsim_dwarf_func *f)
{
    Dwarf_Addr lo = 0, hi = 0;
    memset(f, 0, sizeof(*f));
    f->name = dwarf_diename(fn);
    dwarf_lowpc(fn, &lo);
    dwarf_highpc(fn, &hi);
    f->low = (uint32_t)lo;
    f->high = (uint32_t)hi;
    f->body = f->low;
    int ln = 0;
    f->file = dwarf_decl_file(fn);
    if (dwarf_decl_line(fn, &ln) == 0 && ln > 0)
        f->line = (unsigned)ln;
    // the end of the prologue: the line table's prologue_end mark, else the second line
    Dwarf_Lines *lines;
    size_t n;
    if (dwarf_getsrclines(cu, &lines, &n))
        return;
    Dwarf_Addr second = 0;
    for (size_t i = 0; i < n; i++) {
        Dwarf_Line *l = dwarf_onesrcline(lines, i);
        Dwarf_Addr a;
        bool pe = false, end = false;
        if (!l || dwarf_lineaddr(l, &a) || a < lo || a >= hi || dwarf_lineendsequence(l, &end)
            || end)
            continue;
        if (dwarf_lineprologueend(l, &pe) == 0 && pe) {
            f->body = (uint32_t)a;
            return;
        }
        if (a > lo && (!second || a < second))
            second = a;
    }
    if (second)
        f->body = (uint32_t)second;
}

// The scopes whose code holds pc, innermost first, down from the compilation unit through
// the subprograms, inlined subroutines and lexical blocks that have pc (libdw's
// dwarf_getscopes follows an inlined subroutine with its abstract definition's scopes
// instead of the function it was inlined into, which is the one that has a frame here).
// Returns the count (the unit is the last); *out is malloc'd.
static int pc_scopes(Dwarf_Die *cu, uint32_t pc, Dwarf_Die **out)
{
    Dwarf_Die chain[32];
    int n = 0;
    chain[n++] = *cu;
    for (bool deeper = true; deeper && n < 32;) {
        Dwarf_Die c;
        deeper = false;
        if (dwarf_child(&chain[n - 1], &c) != 0)
            break;
        do {
            int tag = dwarf_tag(&c);
            if ((tag == DW_TAG_subprogram || tag == DW_TAG_inlined_subroutine ||
                 tag == DW_TAG_lexical_block) && dwarf_haspc(&c, pc) > 0) {
                chain[n++] = c;
                deeper = true;
                break;
            }
        } while (dwarf_siblingof(&c, &c) == 0);
    }
    *out = malloc((size_t)n * sizeof(**out));
    if (!*out)
        return 0;
    for (int i = 0; i < n; i++)
        (*out)[i] = chain[n - 1 - i];
    return n;
}

// The function that has the frame at pc: the outermost subprogram among scopes. -1: none.
static int concrete_fn(Dwarf_Die *scopes, int n, uint32_t pc)
{
    (void)pc;
    for (int i = n; i-- > 0;)
        if (dwarf_tag(&scopes[i]) == DW_TAG_subprogram)
            return i;
    return -1;
}

int hexsim_dwarf_func_at(struct hexsim_dwarf *dw, uint32_t addr, struct hexsim_dwarf_func *f)
{
    Dwarf_Die cu, *scopes = NULL;
    if (!dw || !cu_of(dw, addr, &cu))
        return -1;
    int n = pc_scopes(&cu, addr, &scopes);
    int fn = concrete_fn(scopes, n, addr), rc = -1;
    if (fn >= 0) {
        fill_func(&cu, &scopes[fn], f);
        rc = f->name ? 0 : -1;
        for (int i = 0; i < fn && !f->inlined; i++)   // the innermost inlined copy
            if (dwarf_tag(&scopes[i]) == DW_TAG_inlined_subroutine)
                f->inlined = dwarf_diename(&scopes[i]);
    }
    free(scopes);
    return rc;
}

// The first top-level DIE *d (of the unit *cudie) whose tag is tag0 or tag1, named name,
// that has attribute attr (has) or lacks it (!has).
static bool find_top(struct hexsim_dwarf *dw, int tag0, int tag1, const char *name, int attr,
                     bool has, Dwarf_Die *cudie, Dwarf_Die *d)
{
    Dwarf_CU *cu = NULL;
    while (next_cu(dw, &cu, cudie)) {
        if (dwarf_child(cudie, d) != 0)
            continue;
        do {
            int tag = dwarf_tag(d);
            const char *nm;
            if ((tag == tag0 || tag == tag1) && (nm = dwarf_diename(d)) &&
                strcmp(nm, name) == 0 && (dwarf_hasattr(d, (unsigned)attr) != 0) == has)
                return true;
        } while (dwarf_siblingof(d, d) == 0);
    }
    return false;
}

int hexsim_dwarf_func_named(struct hexsim_dwarf *dw, const char *name,
                            struct hexsim_dwarf_func *f)
{
    Dwarf_Die cudie, d;
    if (!dw || !find_top(dw, DW_TAG_subprogram, DW_TAG_subprogram, name, DW_AT_low_pc, true,
                         &cudie, &d))
        return -1;
    fill_func(&cudie, &d, f);
    return 0;
}

// ---- inlined instances

#define MAX_ORIGINS 16   // abstract instances of one name in one unit

struct inline_walk {
    Dwarf_Off orig[MAX_ORIGINS];
    unsigned norig;
    uint32_t *addrs;
    unsigned n, max, depth;
};

// The address an inlined instance starts at: DW_AT_entry_pc or DW_AT_low_pc, else the
// first of its ranges. 0, or -1.
static int inline_entry(Dwarf_Die *d, uint32_t *addr)
{
    Dwarf_Addr a, base, end;
    if (dwarf_entrypc(d, &a) == 0 || dwarf_ranges(d, 0, &base, &a, &end) > 0) {
        *addr = (uint32_t)a;
        return 0;
    }
    return -1;
}

// Records the inlined instances under *parent whose abstract origin is one of w->orig.
static void walk_inlined(Dwarf_Die *parent, struct inline_walk *w)
{
    Dwarf_Die d;
    if (w->depth > 64 || dwarf_child(parent, &d) != 0)
        return;
    w->depth++;
    do {
        int tag = dwarf_tag(&d);
        if (tag == DW_TAG_inlined_subroutine) {
            Dwarf_Attribute at;
            Dwarf_Die o;
            uint32_t a;
            if (dwarf_attr(&d, DW_AT_abstract_origin, &at) && dwarf_formref_die(&at, &o))
                for (unsigned k = 0; k < w->norig; k++)
                    if (dwarf_dieoffset(&o) == w->orig[k] && inline_entry(&d, &a) == 0 &&
                        w->n < w->max) {
                        w->addrs[w->n++] = a;
                        break;
                    }
        }
        if (tag == DW_TAG_subprogram || tag == DW_TAG_inlined_subroutine ||
            tag == DW_TAG_lexical_block)
            walk_inlined(&d, w);
    } while (dwarf_siblingof(&d, &d) == 0);
    w->depth--;
}

unsigned hexsim_dwarf_inlined(struct hexsim_dwarf *dw, const char *name, uint32_t *addrs,
                              unsigned max)
{
    struct inline_walk w = { .addrs = addrs, .max = max };
    Dwarf_CU *cu = NULL;
    Dwarf_Die cudie, d;
    while (dw && next_cu(dw, &cu, &cudie)) {
        // inlining is within a unit: only units with an abstract instance of name
        w.norig = 0;
        if (dwarf_child(&cudie, &d) != 0)
            continue;
        do {
            const char *nm;
            if (dwarf_tag(&d) == DW_TAG_subprogram && dwarf_hasattr(&d, DW_AT_inline) &&
                (nm = dwarf_diename(&d)) && strcmp(nm, name) == 0 && w.norig < MAX_ORIGINS)
                w.orig[w.norig++] = dwarf_dieoffset(&d);
        } while (dwarf_siblingof(&d, &d) == 0);
        if (w.norig)
            walk_inlined(&cudie, &w);
    }
    return w.n;
}

// ---- types

static const struct hexsim_dtype *to_type(struct hexsim_dwarf *dw, struct hexsim_dtypes *a,
                                          Dwarf_Die *die);

static const struct hexsim_dtype *type_attr(struct hexsim_dwarf *dw, struct hexsim_dtypes *a,
                                            Dwarf_Die *die)
{
    Dwarf_Attribute at;
    Dwarf_Die t;
    if (!dwarf_attr_integrate(die, DW_AT_type, &at) || !dwarf_formref_die(&at, &t))
        return NULL;   // void
    return to_type(dw, a, &t);
}

static void remember(struct hexsim_dwarf *dw, Dwarf_Off off, const struct hexsim_dtype *t)
{
    if (dw->ntc == dw->captc) {
        size_t cap = dw->captc ? 2 * dw->captc : 128;
        struct type_cache *n = realloc(dw->tc, cap * sizeof(*n));
        if (!n)
            return;
        dw->tc = n;
        dw->captc = cap;
    }
    dw->tc[dw->ntc++] = (struct type_cache){ off, t };
}

static int64_t sdata(Dwarf_Die *die, unsigned name, int64_t dflt)
{
    Dwarf_Attribute at;
    Dwarf_Sword s;
    Dwarf_Word u;
    if (!dwarf_attr_integrate(die, name, &at))
        return dflt;
    if (dwarf_whatform(&at) == DW_FORM_sdata || dwarf_whatform(&at) == DW_FORM_implicit_const) {
        if (dwarf_formsdata(&at, &s) == 0)
            return s;
    } else if (dwarf_formudata(&at, &u) == 0) {
        return (int64_t)u;
    }
    return dflt;
}

static void add_members(struct hexsim_dwarf *dw, struct hexsim_dtypes *a, Dwarf_Die *die,
                        struct hexsim_dtype *t)
{
    Dwarf_Die c;
    unsigned n = 0;
    if (dwarf_child(die, &c) == 0)
        do
            n += dwarf_tag(&c) == DW_TAG_member || dwarf_tag(&c) == DW_TAG_enumerator;
        while (dwarf_siblingof(&c, &c) == 0);
    if (!n || dwarf_child(die, &c) != 0)
        return;
    if (t->kind == HEXSIM_T_ENUM)
        t->en = calloc(n, sizeof(*t->en));
    else
        t->mem = calloc(n, sizeof(*t->mem));
    if (!t->en && !t->mem)
        return;
    do {
        int tag = dwarf_tag(&c);
        if (tag == DW_TAG_enumerator && t->en) {
            t->en[t->nen].name = hexsim_dtype_str(a, dwarf_diename(&c));
            t->en[t->nen++].value = sdata(&c, DW_AT_const_value, 0);
        } else if (tag == DW_TAG_member && t->mem) {
            struct hexsim_dmember *m = &t->mem[t->nmem++];
            m->name = hexsim_dtype_str(a, dwarf_diename(&c));
            m->offset = (uint32_t)sdata(&c, DW_AT_data_member_location, 0);
            int64_t bits = sdata(&c, DW_AT_bit_size, 0);
            if (bits > 0 && bits < 64) {
                int64_t dbo = sdata(&c, DW_AT_data_bit_offset, -1);
                if (dbo >= 0) {
                    m->offset = (uint32_t)(dbo / 8);
                    m->bit_offset = (uint8_t)(dbo % 8);
                } else {   // DWARF 2/3: bit_offset counts from the storage unit's top
                    int64_t bo = sdata(&c, DW_AT_bit_offset, 0);
                    int64_t unit = 8 * sdata(&c, DW_AT_byte_size, 4);
                    int64_t lsb = unit - bo - bits;
                    m->offset += (uint32_t)(lsb / 8);
                    m->bit_offset = (uint8_t)(lsb % 8);
                }
                m->bit_size = (uint8_t)bits;
            }
            m->type = type_attr(dw, a, &c);
        }
    } while (dwarf_siblingof(&c, &c) == 0);
}

static const struct hexsim_dtype *make_type(struct hexsim_dwarf *dw, struct hexsim_dtypes *a,
                                            Dwarf_Die *die);

static const struct hexsim_dtype *to_type(struct hexsim_dwarf *dw, struct hexsim_dtypes *a,
                                          Dwarf_Die *die)
{
    if (dw->depth >= 64)
        return NULL;
    dw->depth++;
    const struct hexsim_dtype *t = make_type(dw, a, die);
    dw->depth--;
    return t;
}

// A new type named name of the kind that a qualifier, typedef or aggregate tag makes.
static struct hexsim_dtype *named_type(struct hexsim_dtypes *a, int tag, const char *name)
{
    int kind;
    switch (tag) {
    case DW_TAG_const_type: kind = HEXSIM_T_CONST; break;
    case DW_TAG_volatile_type: kind = HEXSIM_T_VOLATILE; break;
    case DW_TAG_typedef: kind = HEXSIM_T_TYPEDEF; break;
    case DW_TAG_union_type: kind = HEXSIM_T_UNION; break;
    case DW_TAG_enumeration_type: kind = HEXSIM_T_ENUM; break;
    default: kind = HEXSIM_T_STRUCT; break;   // structure and class
    }
    struct hexsim_dtype *t = hexsim_dtype_new(a, kind);
    if (t)
        t->name = hexsim_dtype_str(a, name);
    return t;
}

static const struct hexsim_dtype *make_type(struct hexsim_dwarf *dw, struct hexsim_dtypes *a,
                                            Dwarf_Die *die)
{
    Dwarf_Off off = dwarf_dieoffset(die);
    for (size_t i = 0; i < dw->ntc; i++)
        if (dw->tc[i].off == off)
            return dw->tc[i].t;
    int tag = dwarf_tag(die);
    const char *name = dwarf_diename(die);
    struct hexsim_dtype *t = NULL;
    switch (tag) {
    case DW_TAG_base_type: {
        int64_t enc = sdata(die, DW_AT_encoding, DW_ATE_signed);
        t = hexsim_dtype_new(a, enc == DW_ATE_boolean ? HEXSIM_T_BOOL : enc == DW_ATE_float ?
                             HEXSIM_T_FLOAT : HEXSIM_T_INT);
        if (!t)
            return NULL;
        t->size = (uint32_t)sdata(die, DW_AT_byte_size, 4);
        t->is_signed = enc == DW_ATE_signed || enc == DW_ATE_signed_char;
        t->is_char = enc == DW_ATE_signed_char || enc == DW_ATE_unsigned_char;
        t->name = hexsim_dtype_str(a, name);
        break;
    }
    case DW_TAG_pointer_type:
    case DW_TAG_reference_type:
    case DW_TAG_rvalue_reference_type:
        if (!(t = hexsim_dtype_new(a, HEXSIM_T_PTR)))
            return NULL;
        t->size = 4;
        remember(dw, off, t);
        t->target = type_attr(dw, a, die);
        return t;
    case DW_TAG_const_type:
    case DW_TAG_volatile_type:
    case DW_TAG_typedef:
        if (!(t = named_type(a, tag, name)))
            return NULL;
        remember(dw, off, t);
        t->target = type_attr(dw, a, die);
        return t;
    case DW_TAG_restrict_type:
    case DW_TAG_atomic_type: {
        const struct hexsim_dtype *r = type_attr(dw, a, die);
        remember(dw, off, r);
        return r;
    }
    case DW_TAG_array_type: {
        const struct hexsim_dtype *elem = type_attr(dw, a, die);
        int64_t counts[8];
        bool known[8];
        unsigned nd = 0;
        Dwarf_Die c;
        if (dwarf_child(die, &c) == 0)
            do {
                if (dwarf_tag(&c) != DW_TAG_subrange_type || nd == 8)
                    continue;
                int64_t cnt = sdata(&c, DW_AT_count, -1);
                if (cnt < 0 && dwarf_hasattr(&c, DW_AT_upper_bound))
                    cnt = sdata(&c, DW_AT_upper_bound, -1) + 1;
                known[nd] = cnt >= 0;
                counts[nd++] = cnt < 0 ? 0 : cnt;
            } while (dwarf_siblingof(&c, &c) == 0);
        if (!nd) {
            known[0] = false;
            counts[nd++] = 0;
        }
        const struct hexsim_dtype *cur = elem;
        for (unsigned i = nd; i-- > 0;) {
            struct hexsim_dtype *arr = hexsim_dtype_new(a, HEXSIM_T_ARRAY);
            if (!arr)
                return NULL;
            arr->target = cur;
            arr->count = (uint32_t)counts[i];
            arr->has_count = known[i];
            cur = t = arr;
        }
        break;
    }
    case DW_TAG_structure_type:
    case DW_TAG_class_type:
    case DW_TAG_union_type:
    case DW_TAG_enumeration_type:
        if (!(t = named_type(a, tag, name)))
            return NULL;
        t->size = (uint32_t)sdata(die, DW_AT_byte_size, 0);
        t->is_signed = true;
        remember(dw, off, t);
        if (tag == DW_TAG_enumeration_type) {
            const struct hexsim_dtype *u = hexsim_dtype_strip(type_attr(dw, a, die));
            if (u)
                t->is_signed = u->is_signed;
        }
        add_members(dw, a, die, t);
        return t;
    case DW_TAG_subroutine_type:
    case DW_TAG_subprogram: {
        if (!(t = hexsim_dtype_new(a, HEXSIM_T_FUNC)))
            return NULL;
        remember(dw, off, t);
        t->target = type_attr(dw, a, die);
        Dwarf_Attribute at;
        bool proto = false;
        if (dwarf_attr_integrate(die, DW_AT_prototyped, &at))
            dwarf_formflag(&at, &proto);
        t->prototyped = proto;
        Dwarf_Die c;
        unsigned np = 0;
        if (dwarf_child(die, &c) == 0)
            do
                np += dwarf_tag(&c) == DW_TAG_formal_parameter;
            while (dwarf_siblingof(&c, &c) == 0);
        if (np)
            t->param = calloc(np, sizeof(*t->param));
        if (dwarf_child(die, &c) == 0)
            do {
                if (dwarf_tag(&c) == DW_TAG_formal_parameter && t->param)
                    t->param[t->nparam++] = type_attr(dw, a, &c);
                else if (dwarf_tag(&c) == DW_TAG_unspecified_parameters)
                    t->varargs = true;
            } while (dwarf_siblingof(&c, &c) == 0);
        return t;
    }
    default:   // unspecified_type and the like
        if (!(t = hexsim_dtype_new(a, HEXSIM_T_VOID)))
            return NULL;
        t->name = hexsim_dtype_str(a, name ? name : "void");
        break;
    }
    remember(dw, off, t);
    return t;
}

const struct hexsim_dtype *hexsim_dwarf_type(struct hexsim_dwarf *dw, struct hexsim_dtypes *a,
                                             const char *name)
{
    if (!dw)
        return NULL;
    int want[3] = { DW_TAG_typedef, DW_TAG_base_type, -1 };
    if (strncmp(name, "struct ", 7) == 0) {
        want[0] = DW_TAG_structure_type, want[1] = DW_TAG_class_type;
        name += 7;
    } else if (strncmp(name, "union ", 6) == 0) {
        want[0] = want[1] = DW_TAG_union_type;
        name += 6;
    } else if (strncmp(name, "enum ", 5) == 0) {
        want[0] = want[1] = DW_TAG_enumeration_type;
        name += 5;
    }
    Dwarf_Die cudie, d;
    if (!find_top(dw, want[0], want[1], name, DW_AT_declaration, false, &cudie, &d))
        return NULL;
    return to_type(dw, a, &d);
}

// ---- variables

struct frame {
    hexsim_dwarf_reg_fn reg;
    void *ctx;
};

// Evaluates a location expression of attribute at (for DW_OP_addrx, whose address is in
// .debug_addr); fb: the frame base (an address) when known.
static void eval_loc(Dwarf_Attribute *at, Dwarf_Op *ops, size_t n, const struct frame *fr,
                     bool has_fb, uint64_t fb, struct hexsim_dwarf_var *v)
{
    uint64_t st[16];
    unsigned sp = 0;
    v->loc = HEXSIM_DW_OPTIMIZED;
#define PUSH(x) do { if (sp == 16) return; st[sp++] = (x); } while (0)
    for (size_t i = 0; i < n; i++) {
        uint8_t op = ops[i].atom;
        uint32_t r;
        if (op >= DW_OP_reg0 && op <= DW_OP_reg31) {
            v->loc = HEXSIM_DW_REG;
            v->val = op - DW_OP_reg0;
            return;
        }
        if (op >= DW_OP_lit0 && op <= DW_OP_lit31) {
            PUSH(op - DW_OP_lit0);
            continue;
        }
        if (op >= DW_OP_breg0 && op <= DW_OP_breg31) {
            if (fr->reg(fr->ctx, op - DW_OP_breg0, &r))
                return;
            PUSH((uint32_t)(r + (int32_t)ops[i].number));
            continue;
        }
        switch (op) {
        case DW_OP_addrx:
        case DW_OP_constx:
        case DW_OP_GNU_addr_index:
        case DW_OP_GNU_const_index: {
            Dwarf_Attribute ad;
            Dwarf_Addr a;
            if (!at || dwarf_getlocation_attr(at, &ops[i], &ad) || dwarf_formaddr(&ad, &a))
                return;
            PUSH(a);
            break;
        }
        case DW_OP_addr:
        case DW_OP_const1u: case DW_OP_const2u: case DW_OP_const4u: case DW_OP_const8u:
        case DW_OP_constu:
            PUSH(ops[i].number);
            break;
        case DW_OP_const1s: case DW_OP_const2s: case DW_OP_const4s: case DW_OP_const8s:
        case DW_OP_consts:
            PUSH((uint64_t)(int64_t)ops[i].number);
            break;
        case DW_OP_regx:
            if (ops[i].number > 31)
                return;
            v->loc = HEXSIM_DW_REG;
            v->val = ops[i].number;
            return;
        case DW_OP_bregx:
            if (ops[i].number > 31 || fr->reg(fr->ctx, (unsigned)ops[i].number, &r))
                return;
            PUSH((uint32_t)(r + (int32_t)ops[i].number2));
            break;
        case DW_OP_fbreg:
            if (!has_fb)
                return;
            PUSH((uint32_t)(fb + (int32_t)ops[i].number));
            break;
        case DW_OP_call_frame_cfa:
            if (fr->reg(fr->ctx, 30, &r))
                return;
            PUSH((uint32_t)(r + 8));
            break;
        case DW_OP_plus_uconst:
            if (!sp)
                return;
            st[sp - 1] += ops[i].number;
            break;
        case DW_OP_plus:
        case DW_OP_minus:
            if (sp < 2)
                return;
            sp--;
            st[sp - 1] = op == DW_OP_plus ? st[sp - 1] + st[sp] : st[sp - 1] - st[sp];
            break;
        case DW_OP_stack_value:
            if (!sp)
                return;
            v->loc = HEXSIM_DW_VALUE;
            v->val = st[sp - 1];
            return;
        case DW_OP_piece:
            i = n;   // only the first piece
            break;
        default:     // entry values and the rest: not available
            return;
        }
    }
#undef PUSH
    if (sp) {
        v->loc = HEXSIM_DW_MEM;
        v->val = (uint32_t)st[sp - 1];
    }
}

// Fills v for the variable DIE as code at pc sees it; fn: its function (NULL for globals).
static void make_var(struct hexsim_dwarf *dw, struct hexsim_dtypes *a, Dwarf_Die *var,
                     Dwarf_Die *fn, uint32_t pc, const struct frame *fr,
                     struct hexsim_dwarf_var *v)
{
    memset(v, 0, sizeof(*v));
    v->local = fn != NULL;
    if (dwarf_tag(var) == DW_TAG_subprogram) {
        Dwarf_Addr lo = 0;
        dwarf_lowpc(var, &lo);
        v->type = to_type(dw, a, var);
        v->loc = HEXSIM_DW_FUNC;
        v->val = (uint32_t)lo;
        return;
    }
    v->type = type_attr(dw, a, var);
    v->loc = HEXSIM_DW_OPTIMIZED;
    Dwarf_Attribute at;
    if (!dwarf_attr_integrate(var, DW_AT_location, &at)) {
        if (dwarf_hasattr_integrate(var, DW_AT_const_value)) {
            v->loc = HEXSIM_DW_VALUE;
            v->val = (uint64_t)sdata(var, DW_AT_const_value, 0);
        }
        return;
    }
    bool has_fb = false;
    uint64_t fb = 0;
    Dwarf_Attribute fbat;
    Dwarf_Op *ops;
    size_t len;
    if (fn && dwarf_attr_integrate(fn, DW_AT_frame_base, &fbat) &&
        dwarf_getlocation_addr(&fbat, pc, &ops, &len, 1) == 1) {
        struct hexsim_dwarf_var base;
        eval_loc(&fbat, ops, len, fr, false, 0, &base);
        uint32_t r;
        if (base.loc == HEXSIM_DW_REG && fr->reg(fr->ctx, (unsigned)base.val, &r) == 0) {
            has_fb = true;
            fb = r;
        } else if (base.loc == HEXSIM_DW_MEM) {
            has_fb = true;
            fb = base.val;
        }
    }
    if (dwarf_getlocation_addr(&at, pc, &ops, &len, 1) == 1)
        eval_loc(&at, ops, len, fr, has_fb, fb, v);
}

// Looks for `name` among the variables and parameters directly in scope die.
static bool in_scope(Dwarf_Die *scope, const char *name, Dwarf_Die *out)
{
    Dwarf_Die c;
    if (dwarf_child(scope, &c) != 0)
        return false;
    do {
        int tag = dwarf_tag(&c);
        const char *nm;
        if ((tag == DW_TAG_variable || tag == DW_TAG_formal_parameter) &&
            (nm = dwarf_diename(&c)) && strcmp(nm, name) == 0) {
            *out = c;
            return true;
        }
    } while (dwarf_siblingof(&c, &c) == 0);
    return false;
}

// A global variable or function named `name` at the top of cudie (definitions first).
static bool global_in(Dwarf_Die *cudie, const char *name, Dwarf_Die *out)
{
    Dwarf_Die c;
    bool found = false;
    if (dwarf_child(cudie, &c) != 0)
        return false;
    do {
        int tag = dwarf_tag(&c);
        const char *nm;
        if ((tag == DW_TAG_variable || tag == DW_TAG_subprogram) && (nm = dwarf_diename(&c))
            && strcmp(nm, name) == 0) {
            bool def = tag == DW_TAG_variable ? dwarf_hasattr(&c, DW_AT_location) ||
                                                dwarf_hasattr(&c, DW_AT_const_value)
                                              : dwarf_hasattr(&c, DW_AT_low_pc);
            if (def || !found) {
                *out = c;
                found = true;
            }
            if (def)
                return true;
        }
    } while (dwarf_siblingof(&c, &c) == 0);
    return found;
}

int hexsim_dwarf_var(struct hexsim_dwarf *dw, struct hexsim_dtypes *a, const char *name,
                     uint32_t pc, hexsim_dwarf_reg_fn reg, void *ctx,
                     struct hexsim_dwarf_var *out)
{
    if (!dw)
        return -1;
    struct frame fr = { reg, ctx };
    Dwarf_Die cu, found, *scopes = NULL;
    bool have_cu = cu_of(dw, pc, &cu);
    if (have_cu) {
        int n = pc_scopes(&cu, pc, &scopes);
        int fn = concrete_fn(scopes, n, pc);
        for (int i = 0; i <= fn; i++)
            if (in_scope(&scopes[i], name, &found)) {
                make_var(dw, a, &found, &scopes[fn], pc, &fr, out);
                free(scopes);
                return 0;
            }
        free(scopes);
        if (global_in(&cu, name, &found)) {
            make_var(dw, a, &found, NULL, pc, &fr, out);
            return 0;
        }
    }
    Dwarf_CU *c = NULL;
    Dwarf_Die cudie;
    bool any = false;
    while (next_cu(dw, &c, &cudie))
        if (global_in(&cudie, name, &found)) {
            any = true;
            if (dwarf_hasattr(&found, DW_AT_location) || dwarf_hasattr(&found, DW_AT_low_pc))
                break;
        }
    if (!any)
        return -1;
    make_var(dw, a, &found, NULL, pc, &fr, out);
    return 0;
}

void hexsim_dwarf_locals(struct hexsim_dwarf *dw, uint32_t pc, bool args,
                         void (*cb)(void *ctx, const char *name), void *ctx)
{
    Dwarf_Die cu, *scopes = NULL;
    if (!dw || !cu_of(dw, pc, &cu))
        return;
    int n = pc_scopes(&cu, pc, &scopes);
    int fn = concrete_fn(scopes, n, pc);
    // parameters: the function's own (those of a function inlined into it are its locals'
    // business); locals: every concrete scope from the innermost out to the function
    for (int i = args ? fn : 0; i >= 0 && i <= fn; i++) {
        Dwarf_Die c;
        if (dwarf_child(&scopes[i], &c) == 0)
            do {
                int tag = dwarf_tag(&c);
                const char *nm = dwarf_diename(&c);
                if (nm && ((args && tag == DW_TAG_formal_parameter) ||
                           (!args && tag == DW_TAG_variable)))
                    cb(ctx, nm);
            } while (dwarf_siblingof(&c, &c) == 0);
    }
    free(scopes);
}
