// SPDX-License-Identifier: MIT
// Prints the disassembly listing of one ELF file in the layout of `llvm-objdump-16 -d`.
// The rules below were found by running llvm-objdump-16 on objects and linked files:
// - Every non-empty SHF_EXECINSTR section that is not SHT_NOBITS and overlaps
//   [start, stop) gets a "Disassembly of section" header, in section header order.
// - The section is cut into regions at its symbols' addresses. At one address the symbol
//   shown is the last after sorting by (STT_OBJECT before all other types, then name by
//   bytes); a section without a symbol at its first byte gets one named after the section.
//   Regions are not limited by symbol sizes, only by the next symbol, the section end and
//   --stop-address; a region's header shows the symbol address even when --start-address
//   begins the listing later in it.
// - STT_OBJECT regions are dumped as data: 8 bytes a line, hex then printable ASCII.
// - In code regions, a run of 8 or more zero bytes (up to the region end) is shown as "..."
//   and skipped in whole words. Packets are decoded from all bytes left in the section (a
//   packet may run past its region's end; the next region decodes again from its own start).
//   A packet the decoder rejects shows its first word as "<unknown>" and skips the words the
//   decoder reports. With fewer than 4 bytes left in the section, llvm-objdump shows the 4
//   bytes of the file found there (running into whatever follows the section) as <unknown>
//   and moves on by one byte; we do the same, reading zeros beyond the end of the file.
#include "print.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include <elf.h>

#include "hexsim/disasm.h"

struct od_label {
    const char *name;
    uint64_t addr;
    bool is_object;
};

// Words of one section read at byte offset `align` (0..3) and every 4 bytes after it, so a
// packet can be handed to the decoder wherever the listing stands.
struct od_words {
    uint32_t *w;
    size_t n;
    unsigned align;
    bool built;
};

struct od_section_ctx {
    FILE *out;
    const struct od_file *f;
    const struct od_section *sec;
    const struct od_options *opt;
    struct od_words words;
};

static int label_cmp(const void *pa, const void *pb)
{
    const struct od_label *a = pa, *b = pb;
    if (a->addr != b->addr)
        return a->addr < b->addr ? -1 : 1;
    if (a->is_object != b->is_object)
        return a->is_object ? -1 : 1;
    return strcmp(a->name, b->name);
}

static uint32_t le32(const uint8_t b[4])
{
    return (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
}

// The byte at offset idx of the section (the section range was checked against the file
// when it was opened; od_file_read checks again and gives zero outside the file).
static uint8_t sec_byte(const struct od_section_ctx *c, uint64_t idx)
{
    uint8_t b = 0;
    if (idx < c->sec->size)
        od_file_read(c->f, c->sec->offset + idx, &b, 1);
    return b;
}

static bool build_words(struct od_section_ctx *c, unsigned align)
{
    struct od_words *w = &c->words;
    if (w->built && w->align == align)
        return true;
    uint64_t size = c->sec->size;
    size_t n = size > align ? (size_t)((size - align) / 4) : 0;
    uint32_t *buf = realloc(w->w, n * sizeof(*buf) + sizeof(*buf));
    if (!buf)
        return false;
    for (size_t k = 0; k < n; k++) {
        uint8_t b[4];
        od_file_read(c->f, c->sec->offset + align + 4 * (uint64_t)k, b, 4);
        buf[k] = le32(b);
    }
    w->w = buf;
    w->n = n;
    w->align = align;
    w->built = true;
    return true;
}

static void print_word_columns(const struct od_section_ctx *c, uint64_t idx, const uint8_t b[4])
{
    fprintf(c->out, "%8" PRIx64 ":", c->sec->addr + idx);
    if (c->opt->show_raw_insn)
        fprintf(c->out, "\t%02x %02x %02x %02x\t%08" PRIx32, b[0], b[1], b[2], b[3], le32(b));
}

static void print_unknown(const struct od_section_ctx *c, uint64_t idx)
{
    uint8_t b[4];
    // Past the section's end this deliberately reads on into the file, as llvm-objdump does.
    od_file_read(c->f, c->sec->offset + idx, b, 4);
    print_word_columns(c, idx, b);
    fputs(" <unknown>\n", c->out);
}

// A duplex word's text is "high; low"; llvm-objdump puts a tab after the "; ".
static void print_text(FILE *out, const char *text, bool duplex)
{
    const char *semi = duplex ? strstr(text, "; ") : NULL;
    if (!semi || semi[2] == '\t') {
        fputs(text, out);
        return;
    }
    fwrite(text, 1, (size_t)(semi - text) + 2, out);
    fputc('\t', out);
    fputs(semi + 2, out);
}

// Prints the packet at section offset idx, or its first word as <unknown>; returns the number
// of bytes to move on by, or 0 when out of memory.
static uint64_t print_packet(struct od_section_ctx *c, uint64_t idx)
{
    uint64_t left = c->sec->size - idx;
    if (left < 4) {
        print_unknown(c, idx);
        return 1;
    }
    if (!build_words(c, (unsigned)(idx & 3)))
        return 0;
    size_t first = (size_t)((idx - c->words.align) / 4);
    size_t n = c->words.n - first;
    const uint32_t *words = c->words.w + first;
    struct hexsim_disasm_packet pkt;
    memset(&pkt, 0, sizeof(pkt));
    hexsim_disasm_packet_arch(words, n, (uint32_t)(c->sec->addr + idx), c->opt->arch, &pkt);
    size_t nwords = pkt.nwords ? pkt.nwords : 1;
    if (!pkt.valid) {
        print_unknown(c, idx);
        return 4 * (uint64_t)nwords;
    }
    if (nwords > n)
        nwords = n;
    if (nwords > 4)
        nwords = 4;
    for (size_t k = 0; k < nwords; k++) {
        uint8_t b[4];
        uint32_t wv = words[k];
        b[0] = (uint8_t)wv;
        b[1] = (uint8_t)(wv >> 8);
        b[2] = (uint8_t)(wv >> 16);
        b[3] = (uint8_t)(wv >> 24);
        print_word_columns(c, idx + 4 * k, b);
        fputs(k == 0 ? " { \t" : "   \t", c->out);
        pkt.text[k][HEXSIM_DISASM_TEXT - 1] = '\0';
        print_text(c->out, pkt.text[k], ((wv >> 14) & 3) == 0);
        if (k + 1 == nwords) {
            fputs(" } ", c->out);
            if (pkt.endloop && pkt.endloop[0])
                fprintf(c->out, " %s", pkt.endloop);
        }
        fputc('\n', c->out);
    }
    return 4 * (uint64_t)nwords;
}

// Number of zero bytes from section offset idx up to end, once there are at least 8.
static uint64_t skippable_zeros(const struct od_section_ctx *c, uint64_t idx, uint64_t end)
{
    uint64_t n = 0;
    while (idx + n < end && sec_byte(c, idx + n) == 0)
        n++;
    return n < 8 ? 0 : n & ~(uint64_t)3;
}

static bool print_code(struct od_section_ctx *c, uint64_t idx, uint64_t end)
{
    while (idx < end) {
        uint64_t zeros = skippable_zeros(c, idx, end);
        if (zeros) {
            fputs("\t\t...\n", c->out);
            idx += zeros;
            continue;
        }
        uint64_t step = print_packet(c, idx);
        if (step == 0)
            return false;
        idx += step;
    }
    return true;
}

static void print_data(const struct od_section_ctx *c, uint64_t idx, uint64_t end)
{
    char ascii[9];
    unsigned count = 0;
    for (; idx < end; idx++) {
        uint8_t b = sec_byte(c, idx);
        if (count == 0)
            fprintf(c->out, "%8" PRIx64 ":", c->sec->addr + idx);
        fprintf(c->out, " %02x", b);
        ascii[count++] = b >= 0x20 && b < 0x7f ? (char)b : '.';
        if (count == 8 || idx + 1 == end) {
            ascii[count] = '\0';
            fprintf(c->out, "%*s%s\n", (int)(3 * (8 - count) + 9), "", ascii);
            count = 0;
        }
    }
}

// The labels of one section, sorted, with the section's own name first when no symbol
// labels its first byte. Returns NULL when out of memory.
static struct od_label *section_labels(const struct od_file *f, const struct od_section *sec,
                                       size_t *count)
{
    size_t n = 0;
    for (size_t i = 0; i < f->nsyms; i++)
        n += f->syms[i].shndx == sec->index;
    struct od_label *l = malloc((n + 1) * sizeof(*l));
    if (!l)
        return NULL;
    n = 0;
    for (size_t i = 0; i < f->nsyms; i++) {
        const struct od_symbol *s = &f->syms[i];
        if (s->shndx != sec->index)
            continue;
        l[n].name = s->name;
        l[n].addr = s->addr;
        l[n].is_object = s->type == STT_OBJECT;
        n++;
    }
    qsort(l, n, sizeof(*l), label_cmp);
    if (n == 0 || l[0].addr != sec->addr) {
        memmove(l + 1, l, n * sizeof(*l));
        l[0].name = sec->name;
        l[0].addr = sec->addr;
        l[0].is_object = false;
        n++;
    }
    *count = n;
    return l;
}

static bool print_section(FILE *out, const struct od_file *f, const struct od_section *sec,
                          const struct od_options *opt)
{
    uint64_t sec_end = sec->addr + sec->size;
    if (sec_end <= opt->start_address || sec->addr >= opt->stop_address)
        return true;
    size_t n;
    struct od_label *labels = section_labels(f, sec, &n);
    if (!labels)
        return false;
    fprintf(out, "\nDisassembly of section %s:\n", sec->name);
    struct od_section_ctx c = { .out = out, .f = f, .sec = sec, .opt = opt };
    bool ok = true;
    for (size_t i = 0; i < n && ok; i++) {
        uint64_t start = labels[i].addr;
        if (start < sec->addr || start >= opt->stop_address)
            continue;
        uint64_t end = sec_end < opt->stop_address ? sec_end : opt->stop_address;
        if (i + 1 < n && labels[i + 1].addr < end)
            end = labels[i + 1].addr;
        if (start >= end || end <= opt->start_address)
            continue;
        fprintf(out, "\n%08" PRIx64 " <%s>:\n", start, labels[i].name);
        uint64_t from = start > opt->start_address ? start : opt->start_address;
        if (labels[i].is_object)
            print_data(&c, from - sec->addr, end - sec->addr);
        else
            ok = print_code(&c, from - sec->addr, end - sec->addr);
    }
    free(c.words.w);
    free(labels);
    return ok;
}

bool od_print_file(FILE *out, const struct od_file *f, const struct od_options *opt)
{
    fprintf(out, "\n%s:\tfile format elf32-hexagon\n", f->path);
    for (size_t i = 1; i < f->nsecs; i++) {
        const struct od_section *sec = &f->secs[i];
        if (!(sec->flags & SHF_EXECINSTR) || sec->type == SHT_NOBITS || sec->size == 0)
            continue;
        if (!print_section(out, f, sec, opt))
            return false;
    }
    return true;
}
