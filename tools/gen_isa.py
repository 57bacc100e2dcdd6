#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# Generates the C form of hexsim's ISA table from src/cpu/isa/*.isa, the one source of truth
# for instructions (format: src/cpu/isa/README.md). Output: isa_table.c (instruction
# descriptors, per-ICLASS decode lists, duplex group map) and isa_tags.h (one enum value per
# tag). Run by the build; the generated files live in the build directory only.
import os
import re
import sys

sys.dont_write_bytecode = True   # no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import isa_sem  # noqa: E402

REG_KINDS = {
    # name pattern (class letter, repeated letter count, width suffix) -> C operand kind
    ('R', 1, '32'): 'HX_OPK_R', ('R', 2, '32'): 'HX_OPK_RR', ('R', 1, '16'): 'HX_OPK_R16',
    ('R', 2, '8'): 'HX_OPK_RR8', ('R', 1, '8'): 'HX_OPK_R8', ('P', 1, '4'): 'HX_OPK_P',
    ('C', 1, '32'): 'HX_OPK_C', ('C', 2, '32'): 'HX_OPK_CC', ('M', 1, '2'): 'HX_OPK_M',
    ('N', 1, '8'): 'HX_OPK_N', ('G', 1, '32'): 'HX_OPK_G', ('G', 2, '32'): 'HX_OPK_GG',
    ('S', 1, '128'): 'HX_OPK_S', ('S', 2, '64'): 'HX_OPK_SS',
    # HVX: vector registers and pairs, vector predicates, a vector new-value operand
    ('V', 1, '32'): 'HX_OPK_V', ('V', 2, '32'): 'HX_OPK_VV', ('Q', 1, '4'): 'HX_OPK_Q',
    ('O', 1, '8'): 'HX_OPK_OV',
}
CLASSES = ['EXT', 'ALU32', 'XTYPE', 'LD', 'ST', 'MEMOP', 'CR', 'J', 'JR', 'NV', 'SYSTEM',
           'SUBA', 'SUBL1', 'SUBL2', 'SUBS1', 'SUBS2', 'CVI', 'CVI_LD', 'CVI_ST']
TIMINGS = ['ext', 'alu32', 'alu64', 'mpy', 'fp', 'ld', 'st', 'memop', 'jump', 'call', 'loop',
           'cr', 'sys', 'll', 'sc', 'sync', 'cacheop',
           # HVX instruction types (src/cpu/isa/README.md: the HVX units each one uses)
           'cvi_va', 'cvi_va_dv', 'cvi_vx', 'cvi_vx_late', 'cvi_vx_dv', 'cvi_vp', 'cvi_vp_vs',
           'cvi_vs', 'cvi_vm_ld', 'cvi_vm_cur_ld', 'cvi_vm_tmp_ld', 'cvi_vm_vp_ldu', 'cvi_vm_st',
           'cvi_vm_new_st', 'cvi_vm_stu', 'cvi_hist', 'cvi_gather', 'cvi_gather_dv',
           'cvi_scatter', 'cvi_scatter_dv', 'cvi_extract', 'cvi_vs_vx', 'cvi_tmp']
FLAGS = ['load', 'store', 'memop', 'newvalue', 'jump', 'call', 'hwloop', 'return', 'priv',
         'guest', 'trap', 'pred', 'pfalse', 'pnew', 'mustext', 'solo', 'soloax', 'slot1alu',
         'noslot1st', 'latepred', 'cofonly', 'cofsecond', 'nofpu', 'usr', 'audio',
         'cabac', 'hvx', 'hvxieee', 'hvxqf']
OPERAND_RE = re.compile(r'([RPCMNGSVQO])([a-z])(\2?)(32|16|8|4|2|128|64)|(I[iI])')


class Row:
    pass


def fail(path, lineno, msg):
    sys.exit('%s:%d: %s' % (path, lineno, msg))


def parse_file(path, rows, duplex):
    with open(path) as fp:
        for lineno, line in enumerate(fp, 1):
            line = line.rstrip('\n')
            if not line.strip() or line.startswith('#'):
                continue
            if line.startswith('@duplex'):
                _, ic, hi, lo = line.split()
                duplex[int(ic, 16)] = (hi, lo)
                continue
            if line.startswith((' ', '\t')):
                if not rows:
                    fail(path, lineno, 'semantics line before any row')
                rows[-1].sem.append(line.strip())
                continue
            f = [x.strip() for x in re.split(r'\s\|(?=\s|$)', line)]
            if len(f) != 7:
                fail(path, lineno, 'expected 7 |-separated fields, got %d' % len(f))
            r = Row()
            r.path, r.lineno = path, lineno
            r.tag, bits, r.syntax, r.cls, r.slots, r.timing, attrs = f
            r.sem = []
            r.bits = bits.replace(' ', '')
            if len(r.bits) not in (13, 32):
                fail(path, lineno, 'encoding must have 32 bits (or 13 for sub-instructions)')
            if (len(r.bits) == 13) != r.cls.startswith('SUB'):
                fail(path, lineno, '13-bit encodings are for SUB* classes only')
            if r.cls not in CLASSES:
                fail(path, lineno, 'unknown class ' + r.cls)
            if r.timing not in TIMINGS:
                fail(path, lineno, 'unknown timing class ' + r.timing)
            r.flags, r.immspec, r.ext, r.pcrel, r.arch, r.defs, r.until = [], {}, None, set(), 0, 0, 0
            r.cdefs, r.pdefs, r.slots_new, r.slots_arch = 0, 0, None, 0
            for a in attrs.split():
                m = re.fullmatch(r'(I[iI])=([su])(\d)', a)
                if m:
                    r.immspec[m.group(1)] = (m.group(2) == 's', int(m.group(3)))
                elif a.startswith('ext='):
                    r.ext = a[4:]
                elif re.fullmatch(r'defs=[rcp]\d+(,[rcp]\d+)*', a):
                    for reg in a[5:].split(','):
                        if reg[0] == 'r':
                            r.defs |= 1 << int(reg[1:])
                        elif reg[0] == 'c':
                            r.cdefs |= 1 << int(reg[1:])
                        else:
                            r.pdefs |= 1 << int(reg[1:])
                elif re.fullmatch(r'slots@v\d+=[0-3]+', a):
                    r.slots_arch, r.slots_new = int(a[7:a.index('=')]), a[a.index('=') + 1:]
                elif re.fullmatch(r'until=v\d+', a):
                    r.until = int(a[7:])
                elif re.fullmatch(r'arch=v\d+', a):
                    r.arch = int(a[6:])
                elif a.startswith('pcrel='):
                    r.pcrel.add(a[6:])
                elif a in FLAGS:
                    r.flags.append(a)
                else:
                    fail(path, lineno, 'unknown attribute ' + a)
            # (derived) a vector destination only the packet reads: Vd32.tmp, Vdd32.tmp
            if re.search(r'\bV[a-z]{1,2}32\.tmp\b', r.syntax):
                r.flags.append('vtmp')
            rows.append(r)


def build_row(r):
    n = len(r.bits)
    mask = match = 0
    fields = {}
    for i, ch in enumerate(r.bits):
        bit = n - 1 - i
        if ch in '01':
            mask |= 1 << bit
            match |= int(ch) << bit
        elif ch in '-P':
            pass
        else:
            fields.setdefault(ch, []).append(bit)
    ops, tmpl, pos = [], '', 0
    names = {}
    for m in OPERAND_RE.finditer(r.syntax):
        name = m.group(0)
        tmpl += c_escape(r.syntax[pos:m.start()])
        pos = m.end()
        if name not in names:
            if m.group(5):
                letter = 'i' if name == 'Ii' else 'I'
                signed, scale = r.immspec.get(name, (None, None))
                if signed is None:
                    fail(r.path, r.lineno, 'immediate %s has no type attribute' % name)
                kind = 'HX_OPK_IMM'
            else:
                letter = m.group(2)
                key = (m.group(1), 2 if m.group(3) else 1, m.group(4))
                if key not in REG_KINDS:
                    fail(r.path, r.lineno, 'unknown register operand ' + name)
                kind, signed, scale = REG_KINDS[key], False, 0
            bits = fields.pop(letter, None)
            if bits is None:
                fail(r.path, r.lineno, 'operand %s has no field in the encoding' % name)
            names[name] = len(ops)
            written = kind != 'HX_OPK_IMM' and letter in 'dexy'
            pnew = r.syntax[m.end():].startswith('.new') and kind == 'HX_OPK_P'
            ops.append((name, kind, bits, signed, scale, name == r.ext, name in r.pcrel, written, pnew))
        tmpl += '\\%03o' % (names[name] + 1)
    tmpl += c_escape(r.syntax[pos:])
    if fields:
        fail(r.path, r.lineno, 'encoding letters without operand: ' + ''.join(sorted(fields)))
    if r.ext and r.ext not in names:
        fail(r.path, r.lineno, 'ext= names an unknown operand')
    return mask, match, ops, tmpl, nv_def(r.syntax, names)


def literal_preds(syntax):
    # Predicate registers named literally in the syntax (compound and sub-instructions):
    # "p0 = ..." writes p0, "p0.new" reads the new value, "if (p0)" reads it.
    defs = news = reads = 0
    for m in re.finditer(r'(?:^|; )(p[0-3]) = ', syntax):
        defs |= 1 << int(m.group(1)[1])
    for m in re.finditer(r'\b(p[0-3])\.new\b', syntax):
        news |= 1 << int(m.group(1)[1])
    for m in re.finditer(r'if \(!?(p[0-3])', syntax):
        reads |= 1 << int(m.group(1)[1])
    return defs, news, reads


NV_DEF_RE = re.compile(r'^(?:if \([^ ]*\) )?(R[a-z](?:32|16|8))(?:\.[hlHL])? [-+&|^]?= ')


def nv_def(syntax, names):
    # A new-value producer writes one 32-bit general register: the assignment's target.
    m = NV_DEF_RE.match(syntax)
    return names[m.group(1)] if m else -1


def c_escape(s):
    return s.replace('\\', '\\\\').replace('"', '\\"')


def runs_of(bits):
    # bits listed MSB first -> list of (shift, length) runs, most significant first
    runs = []
    for b in bits:
        if runs and runs[-1][0] == b + 1:
            runs[-1] = (b, runs[-1][1] + 1)
        else:
            runs.append((b, 1))
    return runs


def main():
    if len(sys.argv) < 3:
        sys.exit('usage: gen_isa.py OUTDIR FILE.isa...')
    outdir, files = sys.argv[1], sys.argv[2:]
    rows, duplex = [], {}
    for f in sorted(files):
        parse_file(f, rows, duplex)
    rows.sort(key=lambda r: r.tag)
    seen = set()
    for r in rows:
        if r.tag in seen:
            fail(r.path, r.lineno, 'duplicate tag ' + r.tag)
        seen.add(r.tag)
    os.makedirs(outdir, exist_ok=True)
    with open(os.path.join(outdir, 'isa_tags.h'), 'w') as h:
        h.write('// Generated by tools/gen_isa.py from src/cpu/isa/*.isa: do not edit.\n')
        h.write('#ifndef HEXSIM_ISA_TAGS_H\n#define HEXSIM_ISA_TAGS_H\nenum hexsim_tag {\n')
        for i, r in enumerate(rows):
            h.write('    HX_%s = %d,\n' % (r.tag, i))
        h.write('    HX_NUM_TAGS = %d\n};\n#endif\n' % len(rows))
    with open(os.path.join(outdir, 'isa_table.c'), 'w') as c:
        c.write('// Generated by tools/gen_isa.py from src/cpu/isa/*.isa: do not edit.\n')
        c.write('#include "isa.h"\n\n')
        c.write('const struct hexsim_insn_desc hexsim_isa_table[HX_NUM_TAGS] = {\n')
        buckets = {}
        built = {}
        for i, r in enumerate(rows):
            mask, match, ops, tmpl, nvd = build_row(r)
            built[r.tag] = ops
            slots = 0 if r.slots == '-' else sum(1 << int(s) for s in r.slots)
            flags = ' | '.join('HX_F_' + f.upper() for f in r.flags) or '0'
            c.write('    [HX_%s] = { "%s", 0x%08xu, 0x%08xu, "%s", HX_CLASS_%s, 0x%x, HX_TC_%s, %s, %d, %d, %d, {\n'
                    % (r.tag, r.tag, mask, match, tmpl, r.cls, slots, r.timing.upper(), flags,
                       len(ops), names_index(ops, r.ext), nvd))
            for name, kind, bits, signed, scale, ext, pcrel, written, pnew in ops:
                rr = runs_of(bits)
                if len(rr) > 4:
                    fail(r.path, r.lineno, 'operand %s split in more than 4 pieces' % name)
                c.write('        { "%s", %s, %d, %d, %d, %d, %d, %d, %d, %d, { %s } },\n'
                        % (name, kind, len(bits), int(signed), scale, int(ext), int(pcrel),
                           int(written), int(pnew), len(rr), ', '.join('{ %d, %d }' % x for x in rr)))
            pdefs, pnews, pread = literal_preds(r.syntax)
            pdefs |= r.pdefs
            slots_new = sum(1 << int(s) for s in r.slots_new) if r.slots_new else slots
            c.write('    }, 0x%x, 0x%x, 0x%x, %d, %d, 0x%xu, 0x%xu, 0x%x, %d },\n'
                    % (pdefs, pnews, pread, r.arch, r.until, r.defs, r.cdefs, slots_new,
                       r.slots_arch))
            key = r.cls if r.cls.startswith('SUB') else int(r.bits[:4], 2)
            buckets.setdefault(key, []).append((-bin(mask).count('1'), i))
        c.write('};\n\n')
        # most specific encodings first, so the first match is the one that decodes
        for key in buckets:
            buckets[key] = [i for _, i in sorted(buckets[key])]
        for key in list(range(16)) + ['SUBA', 'SUBL1', 'SUBL2', 'SUBS1', 'SUBS2']:
            lst = buckets.get(key, [])
            c.write('static const uint16_t bucket_%s[] = { %s };\n'
                    % (key, ', '.join(str(i) for i in lst) or '0'))
        c.write('\nconst struct hexsim_isa_bucket hexsim_isa_iclass[16] = {\n')
        for k in range(16):
            c.write('    { bucket_%d, %d },\n' % (k, len(buckets.get(k, []))))
        c.write('};\n\nconst struct hexsim_isa_bucket hexsim_isa_subgroup[HX_SUBGROUPS] = {\n')
        for g in ['SUBA', 'SUBL1', 'SUBL2', 'SUBS1', 'SUBS2']:
            c.write('    { bucket_%s, %d },\n' % (g, len(buckets.get(g, []))))
        c.write('};\n\n')
        grp = {'A': 0, 'L1': 1, 'L2': 2, 'S1': 3, 'S2': 4}
        c.write('const int8_t hexsim_isa_duplex[16][2] = {\n')
        for ic in range(16):
            hi, lo = duplex.get(ic, (None, None))
            c.write('    { %d, %d },\n' % (grp.get(hi, -1), grp.get(lo, -1)))
        c.write('};\n')
    try:
        isa_sem.write_sem(os.path.join(outdir, 'isa_sem.c'), rows, built)
        isa_sem.write_stencil_src(os.path.join(outdir, 'isa_stencil_src.c'), rows, built)
    except ValueError as e:
        sys.exit(str(e))


def names_index(ops, ext):
    for i, o in enumerate(ops):
        if o[0] == ext:
            return i
    return -1


if __name__ == '__main__':
    main()
