# SPDX-License-Identifier: MIT
# Turns the semantic lines of the ISA table (lines indented under a row in src/cpu/isa/*.isa)
# into C: one function per row, `hexsim_isa_sem[tag]` pointing at it (NULL for rows whose
# semantics are not written yet). The compound compare-jumps (hx_fl_cmpjump) also get their
# two halves, `hexsim_isa_sem_cmp[tag]` and `hexsim_isa_sem_jump[tag]`, which the decoder
# runs apart when another instruction writes the same predicate (decode.c). Rows that can be in a packet written in place (decode.c:
# can_write_direct; cpu/block.c for packets with loads and stores; ALU32, XTYPE, SUBA, load
# and store rows writing general registers) get a second function,
# `hexsim_isa_sem_direct[tag]`, whose register writes skip the packet's write mask.
# Used by tools/gen_isa.py; the format is documented in src/cpu/isa/README.md ("Semantics").
import re

# operand kind -> (C type, read expression, write statement); {n} is the register number
READ = {
    'HX_OPK_R': ('uint32_t', 'hx_r(x, {n})', 'hx_wr(x, {n}, {v})'),
    'HX_OPK_R16': ('uint32_t', 'hx_r(x, {n})', 'hx_wr(x, {n}, {v})'),
    'HX_OPK_R8': ('uint32_t', 'hx_r(x, {n})', 'hx_wr(x, {n}, {v})'),
    'HX_OPK_RR': ('uint64_t', 'hx_rr(x, {n})', 'hx_wrr(x, {n}, {v})'),
    'HX_OPK_RR8': ('uint64_t', 'hx_rr(x, {n})', 'hx_wrr(x, {n}, {v})'),
    'HX_OPK_P': ('uint8_t', 'hx_p(x, {n})', 'hx_wp(x, {n}, {v})'),
    'HX_OPK_C': ('uint32_t', 'hx_cr(x, {n})', 'hx_wcr(x, {n}, {v})'),
    'HX_OPK_CC': ('uint64_t', 'hx_crr(x, {n})', 'hx_wcrr(x, {n}, {v})'),
    'HX_OPK_M': ('uint32_t', 'hx_cr(x, HX_M0 + {n})', None),
    'HX_OPK_N': ('uint32_t', 'hx_nv(x, {n})', None),
    'HX_OPK_G': ('uint32_t', 'hx_g(x, {n})', 'hx_wg(x, {n}, {v})'),
    'HX_OPK_GG': ('uint64_t', 'hx_gg(x, {n})', 'hx_wgg(x, {n}, {v})'),
}
# how the register number is formed from the operand field
NUMBER = {
    'HX_OPK_R16': 'hexsim_subreg(in->op[{i}])',
    'HX_OPK_RR': '(in->op[{i}] & ~1u)',
    'HX_OPK_GG': '(in->op[{i}] & ~1u)',
    'HX_OPK_RR8': '((in->op[{i}] & 3u) * 2 + ((in->op[{i}] & 4u) ? 16u : 0u))',
}
COND_RE = re.compile(r'^if \((!?)(P[a-z]4|p[0-3])(\.new)?\) ')

# HVX operands (src/cpu/isa/README.md, "HVX"): read ones are pointers to the value before
# the packet (const hx_vec *Vu, const hx_vpair *Vuu, const hx_qreg *Qv, const hx_vec *Os for
# a new-value operand); written ones point to a local the body fills (zeroed; x/y fields
# start with the old value), staged after the body (hx_wv, hx_wvv, hx_wq; the destination of a
# .cur load: hx_vcur, of a .tmp load or assignment: hx_vtmp, hx_vvtmp).
VEC = {
    'HX_OPK_V': ('hx_vec', '{b} = *hx_vr(x, {n});', 'hx_wv(x, {n}, &{b})', 'hx_vr(x, {n})'),
    'HX_OPK_VV': ('hx_vpair', 'hx_vrr(x, {n}, &{b});', 'hx_wvv(x, {n}, &{b})', None),
    'HX_OPK_Q': ('hx_qreg', '{b} = *hx_qr(x, {n});', 'hx_wq(x, {n}, &{b})', 'hx_qr(x, {n})'),
    'HX_OPK_OV': ('hx_vec', None, None, 'hx_vnew(x, {n})'),
}


def vec_operand(r, name, kind, i, written, w, writes):
    v = var_name(name)
    ctype, load, store, ptr = VEC[kind]
    w.append('    HX_UNUSED const unsigned %sN = in->op[%d];' % (v, i))
    b = v + '_'
    if written:
        if store is None:
            raise ValueError('%s:%d: operand %s cannot be written' % (r.path, r.lineno, name))
        w.append('    %s %s;' % (ctype, b))
        if name[1] in 'xy':
            w.append('    ' + load.format(n=v + 'N', b=b))
        else:
            w.append('    memset(&%s, 0, sizeof(%s));' % (b, b))
        w.append('    %s *const %s = &%s;' % (ctype, v, b))
        # a .cur load's vector is written and read by the packet, a .tmp load's only read
        if (name + '.cur') in r.syntax:
            store = 'hx_vcur(x, {n}, &{b})'
        elif (name + '.tmp') in r.syntax:
            store = 'hx_vvtmp(x, {n}, &{b})' if kind == 'HX_OPK_VV' else 'hx_vtmp(x, {n}, &{b})'
        writes.append('    ' + store.format(n=v + 'N', b=b) + ';')
    elif ptr:
        w.append('    HX_UNUSED const %s *const %s = %s;' % (ctype, v, ptr.format(n=v + 'N')))
    else:
        w.append('    %s %s;' % (ctype, b))
        w.append('    ' + load.format(n=v + 'N', b=b))
        w.append('    HX_UNUSED const %s *const %s = &%s;' % (ctype, v, b))


def var_name(op_name):
    # Rd32 -> Rd, Rdd8 -> Rdd, Pu4 -> Pu, Ii -> Ii
    return re.sub(r'\d+$', '', op_name)


def bodies(rows):
    # `= TAG` reuses another row's semantic lines
    by_tag = {r.tag: r for r in rows}
    out = {}
    for r in rows:
        lines, seen = r.sem, {r.tag}
        while len(lines) == 1 and lines[0].startswith('= '):
            other = lines[0][2:].strip()
            if other not in by_tag or other in seen:
                raise ValueError('%s:%d: "= %s" names no row with semantics'
                                 % (r.path, r.lineno, other))
            seen.add(other)
            lines = by_tag[other].sem
        if lines:
            out[r.tag] = lines
    return out


# what in a semantic function may read the packet's address (write_sem)
USES_PC_RE = re.compile(r'\bN?PC\b|hx_call|hx_cr|hx_fl_cr_staged')

# register writes in place: what a direct variant does instead of hx_wr, hx_wrr
DIRECT = {'hx_wr(': 'hx_wr_direct(', 'hx_wrr(': 'hx_wrr_direct('}
# (loads and stores: for the blocks of cpu/block.c, which undo such writes if the packet
# faults; the decoder's direct packets have no memory accesses; NV: see has_direct)
DIRECT_CLASSES = ('ALU32', 'XTYPE', 'SUBA', 'LD', 'ST', 'SUBL1', 'SUBL2', 'SUBS1', 'SUBS2')


def has_direct(r, ops):
    # rows writing general registers, and rows reading a new value: in a packet written in
    # place (x->wr is the register file) the value a register takes in the packet is in the
    # register file already, so a direct variant reads it there (hx_nv without the mask)
    return r.cls in DIRECT_CLASSES + ('NV',) and any(
        (written and READ[kind][2] and READ[kind][2].startswith(tuple(DIRECT))) or
        kind == 'HX_OPK_N'
        for (_n, kind, _b, _s, _sc, _e, _p, written, _pn) in ops)


# Stencils reach general registers at a displacement the copier patches (HX_RD32 and friends
# in STENCIL_PRELUDE): how the register number is formed from the operand field, by kind
# (hexsim_stencil_regnum in isa_sem.c is generated from NUMBER too)
REG_KIND = {'HX_OPK_R': 0, 'HX_OPK_R8': 0, 'HX_OPK_N': 0, 'HX_OPK_R16': 1, 'HX_OPK_RR': 2,
            'HX_OPK_RR8': 3}
REG_NUMBER = {0: 'op', 1: NUMBER['HX_OPK_R16'], 2: NUMBER['HX_OPK_RR'], 3: NUMBER['HX_OPK_RR8']}
# the bits a staged write sets in x->rmask (hx_wr, hx_wrr), by kind: one register or a pair
# (hexsim_stencil_regbits in isa_sem.c is generated from this)
REG_BITS = {0: 1, 1: 1, 2: 3, 3: 3}
STENCIL_READ = {32: 'HX_RD32({i}, {k})', 64: 'HX_RD64({i}, {k})'}
STENCIL_WRITE = {32: 'HX_WR32({i}, {k}, {v})', 64: 'HX_WR64({i}, {k}, {v})'}
# a staged write (hx_wr, hx_wrr) with the place and the mask bits from holes
STENCIL_STAGE = {32: 'HX_SWR32({i}, {k}, {v})', 64: 'HX_SWR64({i}, {k}, {v})'}


def function(r, ops, body, direct=False, stencil=False):
    # ops: (name, kind, bits, signed, scale, ext, pcrel, written, pnew) as gen_isa builds them
    w = ['static void sem%s_%s(struct hx_exec *x, const struct hexsim_insn *in)'
         % ('d' if direct else '', r.tag), '{',
         '    (void)in;',
         '    HX_UNUSED const uint32_t PC = x->pc;',
         '    HX_UNUSED const uint32_t NPC = x->npc;']
    writes = []
    for i, (name, kind, _bits, signed, _scale, _ext, _pcrel, written, pnew) in enumerate(ops):
        v = var_name(name)
        if kind == 'HX_OPK_IMM':
            w.append('    HX_UNUSED const %s %s = (%s)in->op[%d];'
                     % ('int32_t' if signed else 'uint32_t', v,
                        'int32_t' if signed else 'uint32_t', i))
            continue
        if kind in VEC:
            vec_operand(r, name, kind, i, written, w, writes)
            continue
        if kind not in READ:
            raise ValueError('%s:%d: semantics for operand kind %s are not supported yet'
                             % (r.path, r.lineno, kind))
        ctype, rd, wr = READ[kind]
        num = NUMBER.get(kind, 'in->op[{i}]').format(i=i)
        w.append('    HX_UNUSED const unsigned %sN = %s;' % (v, num))
        if kind == 'HX_OPK_P' and pnew:
            rd = 'hx_pnew(x, {n})'
        if kind == 'HX_OPK_N' and direct:
            rd = 'hx_r(x, {n})'
        width = 64 if ctype == 'uint64_t' else 32
        if stencil and kind in REG_KIND and rd.startswith(('hx_r(', 'hx_rr(')):
            rd = STENCIL_READ[width].format(i=i, k=REG_KIND[kind])
        if written:
            if wr is None:
                raise ValueError('%s:%d: operand %s cannot be written' % (r.path, r.lineno, name))
            init = rd.format(n=v + 'N') if name[1] in 'xy' else '0'
            w.append('    %s %s = %s;' % (ctype, v, init))
            wr = wr.format(n=v + 'N', v=v)
            if direct:
                for a, b in DIRECT.items():
                    wr = wr.replace(a, b)
                if stencil and kind in REG_KIND:
                    wr = STENCIL_WRITE[width].format(i=i, k=REG_KIND[kind], v=v)
            elif stencil and kind in REG_KIND and wr.startswith(tuple(DIRECT)):
                wr = STENCIL_STAGE[width].format(i=i, k=REG_KIND[kind], v=v)
            writes.append('    ' + wr + ';')
        else:
            w.append('    HX_UNUSED const %s %s = %s;' % (ctype, v, rd.format(n=v + 'N')))
    m = COND_RE.match(r.syntax)
    if m:
        neg, pname, new = m.groups()
        if pname.startswith('p'):
            val = 'hx_p%s(x, %s)' % ('new' if new else '', pname[1])
        else:
            val = var_name(pname)
        w.append('    if (%s(%s & 1)) return;   // predicate false: the instruction does nothing'
                 % ('' if neg else '!', val))
    w.append('    {')
    for line in body:
        w.append('        ' + line.replace('CANCEL', 'return'))
    w.append('    }')
    w.extend(writes)
    w.append('}')
    return '\n'.join(w) + '\n\n'


# Stencils (tools/stencils.py, cpu/stencil.h): the same functions once more, each in its own
# section, for the block compiler to copy into its code (HVX rows too: their lane loops become
# the host's SIMD code, clang's vectorizer at -O2; a row whose code needs constants from
# .rodata gets no stencil and is called, tools/stencils.py). The operand values come from holes
# (an `mov $hx_hole_opN` the copier patches with the instruction's value) and every way out
# is a tail call of hx_hole_next (the copier makes it go on after the copy).
STENCIL_PRELUDE = '''#include "sem_lib.h"
#include "regnames.h"

#define HX_UNUSED __attribute__((unused))
extern void hx_hole_next(struct hx_exec *x);
#define HX_NEXT __attribute__((musttail)) return hx_hole_next(x)
// (a 32-bit move: the upper half of the 64-bit register is zero)
#define HX_HOLE64(n) __extension__({ uint64_t v_; \\
    __asm__("movl $hx_hole_op" #n ", %k0" : "=r"(v_)); v_; })
#define HX_HOLE(n) ((uint32_t)HX_HOLE64(n))
// a general register operand in the register file: operand n, its number formed as kind k
// says (REG_KIND); the copier patches the displacement (4 * number + the addend)
#define HX_ROFF(n, k) ((uintptr_t)hx_hole_roff##n##_##k)
#define HX_RD32(n, k) (*(const uint32_t *)((const char *)x->cpu->r + HX_ROFF(n, k)))
#define HX_RD64(n, k) __extension__({ uint64_t v_; \\
    memcpy(&v_, (const char *)x->cpu->r + HX_ROFF(n, k), 8); v_; })
#define HX_WR32(n, k, v) (*(uint32_t *)((char *)x->cpu->r + HX_ROFF(n, k)) = (v))
#define HX_WR64(n, k, v) __extension__({ uint64_t v_ = (v); \\
    memcpy((char *)x->cpu->r + HX_ROFF(n, k), &v_, 8); })
// a staged write (hx_wr, hx_wrr): the place in x->wr and the write-mask bits from holes
// (HX_RBIT: the bits hexsim_stencil_regbits gives), so that no shift by a register number
// is left to run
#define HX_RBIT(n, k) ((uint32_t)(uintptr_t)hx_hole_rbit##n##_##k)
#define HX_SWR32(n, k, v) __extension__({ \\
    *(uint32_t *)((char *)x->wr + HX_ROFF(n, k)) = (v); x->rmask |= HX_RBIT(n, k); })
#define HX_SWR64(n, k, v) __extension__({ uint64_t v_ = (v); \\
    memcpy((char *)x->wr + HX_ROFF(n, k), &v_, 8); x->rmask |= HX_RBIT(n, k); })
// a register number: below 128, which spares the compiler a zero extension (not below 32:
// a new-value store's operand is HX_VTMP, 32, when a gather in its packet produces it, and
// has HX_VNEW_TMP, 64, added when a .tmp instruction does: decode.h)
#define HX_REG(n) __extension__({ uint64_t r_ = HX_HOLE64(n); __builtin_assume(r_ < 128); \\
    (unsigned)r_; })

'''
STENCIL_RETURN_RE = re.compile(r'\breturn;')
STENCIL_OP_RE = re.compile(r'\bin->op\[(\d)\]')
STENCIL_REG_RE = re.compile(r'^    HX_UNUSED const unsigned \w+N = ')   # register numbers


def stencil(r, ops, body, direct):
    text = function(r, ops, body, direct, stencil=True).split('\n')
    assert text[0].startswith('static void sem') and text[2] == '    (void)in;'
    name = 'hx_stencil%s_%s' % ('d' if direct else '', r.tag)
    out = ['void %s(struct hx_exec *x)' % name, '{']
    for line in text[3:]:
        if line == '}':   # the end of the function
            out.append('    HX_NEXT;')
            out.append('}')
            break
        hole = r'HX_REG(\1)' if STENCIL_REG_RE.match(line) else r'HX_HOLE(\1)'
        out.append(STENCIL_OP_RE.sub(hole, STENCIL_RETURN_RE.sub('HX_NEXT;', line)))
    return '\n'.join(out) + '\n\n'


def each_function(rows, built, make):
    # make(row, ops, body, direct) for every row with semantics, and its direct variant
    bod = bodies(rows)
    for r in rows:
        if r.tag in bod:
            yield make(r, built[r.tag], bod[r.tag], False)
            if has_direct(r, built[r.tag]):
                yield make(r, built[r.tag], bod[r.tag], True)


def write_stencil_src(path, rows, built):
    with open(path, 'w') as c:
        c.write('// Generated by tools/gen_isa.py from src/cpu/isa/*.isa: do not edit.\n')
        c.write('// The stencils of the block compiler (cpu/stencil.h); tools/stencils.py\n')
        c.write('// turns their object code into isa_stencil.c.\n')
        c.write(STENCIL_PRELUDE)
        # the register places' holes (HX_ROFF), for each operand and numbering kind
        for i in range(max(len(ops) for ops in built.values())):
            for k in sorted(REG_NUMBER):
                c.write('extern char hx_hole_roff%d_%d[];\n' % (i, k))
                c.write('extern char hx_hole_rbit%d_%d[];\n' % (i, k))
        c.write('\n')
        for text in each_function(rows, built, stencil):
            c.write(text)


# The compound compare-jumps' halves (decode.c: split_cmpjumps): the compare writing the
# predicate, and the jump reading the packet's final value of it.
SPLIT_CALL = 'hx_fl_cmpjump('
SPLIT = {'cmp': 'hx_fl_cmpjump_cmp(', 'jump': 'hx_fl_cmpjump_jump('}


def split_function(r, ops, body, part):
    text = function(r, ops, [line.replace(SPLIT_CALL, SPLIT[part]) for line in body])
    head = 'static void sem_%s(' % r.tag
    assert text.startswith(head)
    return 'static void sem%s_%s(' % (part, r.tag) + text[len(head):]


def is_split(body):
    return any(SPLIT_CALL in line for line in body)


def write_regnum(c):
    c.write('unsigned hexsim_stencil_regnum(unsigned kind, uint32_t op)\n{\n    switch (kind) {\n')
    for k, expr in sorted(REG_NUMBER.items()):
        c.write('    case %d: return %s;\n' % (k, re.sub(r'in->op\[\{i\}\]', 'op', expr)))
    c.write('    default: return 0;\n    }\n}\n')
    c.write('\nuint32_t hexsim_stencil_regbits(unsigned kind, uint32_t op)\n{\n')
    c.write('    switch (kind) {\n')
    for k, bits in sorted(REG_BITS.items()):
        c.write('    case %d: return %du << hexsim_stencil_regnum(kind, op);\n' % (k, bits))
    c.write('    default: return 0;\n    }\n}\n')


def write_sem(path, rows, built):
    # built: tag -> ops
    bod = bodies(rows)
    with open(path, 'w') as c:
        c.write('// Generated by tools/gen_isa.py from src/cpu/isa/*.isa: do not edit.\n')
        c.write('#include "sem_lib.h"\n#include "regnames.h"\n\n')
        c.write('#define HX_UNUSED __attribute__((unused))\n\n')
        for text in each_function(rows, built, function):
            c.write(text)
        c.write('const hexsim_sem_fn hexsim_isa_sem[HX_NUM_TAGS] = {\n')
        for r in rows:
            if r.tag in bod:
                c.write('    [HX_%s] = sem_%s,\n' % (r.tag, r.tag))
        c.write('};\n')
        # which semantics may read the packet's address (x->pc, x->npc): PC or NPC named, a
        # call (its return address), a control register read (PC is one)
        c.write('const uint8_t hexsim_isa_sem_uses_pc[HX_NUM_TAGS] = {\n')
        for r in rows:
            if r.tag in bod:
                text = function(r, built[r.tag], bod[r.tag]).split('\n', 5)[5]
                if USES_PC_RE.search(text):
                    c.write('    [HX_%s] = 1,\n' % r.tag)
        c.write('};\n')
        write_regnum(c)
        c.write('const hexsim_sem_fn hexsim_isa_sem_direct[HX_NUM_TAGS] = {\n')
        for r in rows:
            if r.tag in bod and has_direct(r, built[r.tag]):
                c.write('    [HX_%s] = semd_%s,\n' % (r.tag, r.tag))
        c.write('};\n')
        split = [r for r in rows if r.tag in bod and is_split(bod[r.tag])]
        for part in SPLIT:
            for r in split:
                c.write(split_function(r, built[r.tag], bod[r.tag], part))
            c.write('const hexsim_sem_fn hexsim_isa_sem_%s[HX_NUM_TAGS] = {\n' % part)
            for r in split:
                c.write('    [HX_%s] = sem%s_%s,\n' % (r.tag, part, r.tag))
            c.write('};\n')
    return len(bod)
