// SPDX-License-Identifier: MIT
// Packet disassembler: prints decoded instructions with the syntax templates of the ISA
// table, in the spelling llvm-objdump-16 uses: immediates in hex ("#0x10", "#-0x4"),
// "##" on an operand extended by immext, PC-relative operands as absolute addresses
// (relative to the packet start), new-value operands as the producer register plus ".new",
// duplexes as "high; low".
#include "hexsim/disasm.h"

#include <stdio.h>
#include <string.h>

#include "decode.h"
#include "regnames.h"

struct out {
    char *buf;
    size_t len, pos;
};

static void emit(struct out *o, const char *s, size_t n)
{
    while (n-- && o->pos + 1 < o->len)
        o->buf[o->pos++] = *s++;
    o->buf[o->pos] = '\0';
}

static void emits(struct out *o, const char *s)
{
    emit(o, s, strlen(s));
}

static void emit_hex(struct out *o, uint32_t v, bool is_signed)
{
    char tmp[24];
    if (is_signed && (int32_t)v < 0)
        snprintf(tmp, sizeof tmp, "-0x%x", (unsigned)(0u - v));
    else
        snprintf(tmp, sizeof tmp, "0x%x", (unsigned)v);
    emits(o, tmp);
}

static void format_insn(const struct hexsim_packet *pkt, const struct hexsim_insn *insn, struct out *o)
{
    const struct hexsim_insn_desc *desc = &hexsim_isa_table[insn->tag];
    for (const char *s = desc->syntax; *s; s++) {
        unsigned k = (unsigned char)*s;
        if (k == 0 || k > HX_MAX_OPERANDS) {
            emit(o, s, 1);
            continue;
        }
        const struct hexsim_operand_desc *op = &desc->ops[k - 1];
        uint32_t v = insn->op[k - 1];
        char name[24];
        switch (op->kind) {
        case HX_OPK_IMM:
            if (op->pcrel) {
                // llvm-objdump-16 adds the extender to a jump target except in the compares
                // against the fixed operand -1 (its decoder places that operand late); print
                // as it does, the decoded value (used for execution) stays extended.
                if (insn->extended && strstr(desc->syntax, "#-0x1)"))
                    v = insn->unextended;
                emit_hex(o, pkt->addr + v, false);
            } else {
                if (insn->extended && (int)(k - 1) == desc->ext_op)
                    emits(o, "#");
                emit_hex(o, v, op->is_signed);
            }
            break;
        case HX_OPK_N:
            snprintf(name, sizeof name, "r%u", (unsigned)v);
            emits(o, name);
            break;
        case HX_OPK_OV:
            if (v == HX_VTMP)
                snprintf(name, sizeof name, "vtmp");
            else
                snprintf(name, sizeof name, "v%u", (unsigned)(v & 31));   // (& HX_VNEW_TMP)
            emits(o, name);
            break;
        default:
            if (hexsim_reg_name(op->kind, v, name, sizeof name))
                emits(o, "<reg?>");
            else
                emits(o, name);
            break;
        }
    }
}

unsigned hexsim_disasm_packet(const uint32_t *words, size_t n, uint32_t addr,
                              struct hexsim_disasm_packet *out)
{
    return hexsim_disasm_packet_arch(words, n, addr, HEXSIM_DISASM_DEFAULT_ARCH, out);
}

unsigned hexsim_disasm_packet_arch(const uint32_t *words, size_t n, uint32_t addr, unsigned arch,
                                   struct hexsim_disasm_packet *out)
{
    struct hexsim_packet pkt;
    memset(out, 0, sizeof *out);
    out->endloop = "";
    hexsim_decode_packet(words, n, addr, arch, &pkt);
    out->nwords = pkt.nwords;
    if (pkt.status != HX_DECODE_OK || pkt.writes_pc) {   // (as llvm-objdump-16: decode.h)
        out->valid = false;
        snprintf(out->text[0], sizeof out->text[0], "<unknown>");
        return out->nwords;
    }
    out->valid = true;
    for (unsigned i = 0; i < pkt.ninsns; i++) {
        const struct hexsim_insn *insn = &pkt.insn[i];
        struct out o = { out->text[insn->word], sizeof out->text[0], strlen(out->text[insn->word]) };
        if (insn->part == 2)
            emits(&o, "; \t");
        format_insn(&pkt, insn, &o);
        const struct hexsim_insn_desc *desc = &hexsim_isa_table[insn->tag];
        for (unsigned k = 0; k < desc->nops; k++) {
            if (desc->ops[k].pcrel && !out->has_target[insn->word]) {
                out->has_target[insn->word] = true;
                out->target[insn->word] = pkt.addr + insn->op[k];
            }
        }
    }
    static const char *const loops[4] = { "", ":endloop0", ":endloop1", ":endloop01" };
    out->endloop = loops[pkt.endloop & 3];
    return out->nwords;
}
