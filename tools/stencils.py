# SPDX-License-Identifier: MIT
# Turns the object code of the block compiler's stencils (isa_stencil_src.c, written by
# tools/isa_sem.py from the ISA table's semantic lines and compiled for the x86-64 host) into
# isa_stencil.c: for each stencil its bytes and the places the block compiler patches when it
# copies them (cpu/stencil.h). Reads the ELF64 relocatable object directly; an object file's
# layout is the System V ABI's (ELF: section headers, symbol table, RELA entries; x86-64
# psABI: relocation types R_X86_64_64 = 1, R_X86_64_PC32 = 2, R_X86_64_PLT32 = 4,
# R_X86_64_32 = 10, R_X86_64_32S = 11).
#
#   stencils.py OUT.c                   no stencils (a host the block compiler does not know,
#                                       or no compiler for them): empty tables
#   stencils.py OUT.c OBJDUMP ABI.o ANY.o
#                                       the stencils of ABI.o (compiled for the usual stack
#                                       alignment: jumped into as if called) or, where it
#                                       calls no function but the slow memory paths (which
#                                       align the stack themselves: stencil_slow.c), of ANY.o
#                                       (compiled with -mstack-alignment=8: no alignment kept,
#                                       so no push and pop around its fast path); OBJDUMP (GNU
#                                       objdump) checks that none of them returns
#
# A stencil is kept only if every relocation is understood: an operand hole (R_X86_64_32
# against hx_hole_opN), a general register's place (R_X86_64_32 or 32S against
# hx_hole_roffN_K: operand N, its number formed as kind K says), its bits in the write mask
# (R_X86_64_32 or 32S against hx_hole_rbitN_K), the instruction's index
# (R_X86_64_32 against hx_hole_idx) or address (R_X86_64_64 against hx_hole_insn), the way on
# (PC32 or PLT32 against hx_hole_next) or a call or jump to a function of the program (PC32 or
# PLT32 against an undefined symbol) or a constant the code reads (PC32 against a .rodata
# section or a symbol in one: the HVX rows' vectorized loops load shuffle masks and splats;
# the section's bytes become a table of isa_stencil.c, aligned to 64 bytes, which the copy
# reaches with a rel32 as it reaches the program's functions). Anything else (a local function
# the compiler kept out of line, writable data) leaves that instruction to the semantic
# function call.
import re
import struct
import subprocess
import sys

R_64, R_PC32, R_PLT32, R_32, R_32S = 1, 2, 4, 10, 11
# struct hx_stencil_rel.kind (stencil.h)
KIND = {'op': 0, 'next': 1, 'sym': 2, 'idx': 3, 'insn': 4, 'roff': 5, 'data': 6, 'rbit': 7}
# the slow memory paths set x->cur_in themselves (sem.h) and touch neither x->full nor the
# predicates; the floating-point exact paths read neither x->cur_in nor the counts and write
# no predicate (x->full: the stencils calling them carry the mark, sem/fp.h); a stencil
# calling anything else needs x->cur_in set by the compiled code and may do anything
# (HX_STENCIL_CALLS)
KEEPS_CUR_IN = ('hx_ld_slow_keep', 'hx_st_slow_keep', 'hx_fp_exact_keep')


def sections(data):
    shoff, = struct.unpack_from('<Q', data, 0x28)
    shentsize, shnum, shstrndx = struct.unpack_from('<HHH', data, 0x3A)
    out = []
    for i in range(shnum):
        name, typ, _flags, _addr, off, size, link, info, _al, _es = struct.unpack_from(
            '<IIQQQQIIQQ', data, shoff + i * shentsize)
        out.append({'name': name, 'type': typ, 'off': off, 'size': size, 'link': link,
                    'info': info, 'align': _al})
    strtab = out[shstrndx]
    for s in out:
        s['name'] = cstr(data, strtab['off'] + s['name'])
    return out


def cstr(data, off):
    return data[off:data.index(b'\0', off)].decode()


def symbols(data, secs):
    symtab = next(s for s in secs if s['type'] == 2)
    strs = secs[symtab['link']]
    out = []
    for i in range(symtab['size'] // 24):
        name, info, _other, shndx, value, size = struct.unpack_from(
            '<IBBHQQ', data, symtab['off'] + i * 24)
        out.append({'name': cstr(data, strs['off'] + name), 'type': info & 15,
                    'bind': info >> 4, 'shndx': shndx, 'value': value, 'size': size})
    return out


def returning(obj, objdump):
    # names of the functions in obj with a `ret` (a stencil must leave by hx_hole_next only)
    if not objdump:
        return set()
    text = subprocess.run([objdump, '-d', '--no-show-raw-insn', obj], check=True,
                          capture_output=True, text=True).stdout
    bad, cur = set(), None
    for line in text.splitlines():
        m = re.match(r'^[0-9a-f]+ <(.*)>:$', line)
        if m:
            cur = m.group(1)
        elif cur and re.search(r'\tret', line):
            bad.add(cur)
    return bad


def stencils(obj, objdump):
    data = open(obj, 'rb').read()
    if data[:4] != b'\x7fELF' or data[4] != 2 or data[5] != 1:
        sys.exit('%s: not a 64-bit little-endian ELF object' % obj)
    secs = sections(data)
    syms = symbols(data, secs)
    rels = {}
    for s in secs:
        if s['type'] == 4:   # SHT_RELA
            lst = rels.setdefault(s['info'], [])
            for i in range(s['size'] // 24):
                off, info, addend = struct.unpack_from('<QQq', data, s['off'] + i * 24)
                lst.append((off, info & 0xffffffff, info >> 32, addend))
    # the marks sem.h leaves (HX_MARK): section index -> kinds
    marks = {}
    for sec in secs:
        m = re.match(r'^\.rela\.hxmark\.(\w+)$', sec['name'])
        if m and sec['type'] == 4:
            for i in range(sec['size'] // 24):
                _off, info, _addend = struct.unpack_from('<QQq', data, sec['off'] + i * 24)
                marks.setdefault(syms[info >> 32]['shndx'], set()).add(m.group(1))
    ret = returning(obj, objdump)
    out, refused = {}, {}
    for sym in syms:
        m = re.match(r'^hx_stencil(d?)_(\w+)$', sym['name'])
        if not m or sym['type'] != 2:   # STT_FUNC
            continue
        sec = secs[sym['shndx']]
        code = bytearray(data[sec['off'] + sym['value']:sec['off'] + sym['value'] + sym['size']])
        holes, why = [], None
        if sym['name'] in ret:
            why = 'returns'
        for off, typ, si, addend in sorted(rels.get(sym['shndx'], [])):
            off -= sym['value']
            target = syms[si]
            hole = re.match(r'^hx_hole_op(\d)$', target['name'])
            roff = re.match(r'^hx_hole_roff(\d)_(\d)$', target['name'])
            rbit = re.match(r'^hx_hole_rbit(\d)_(\d)$', target['name'])
            if typ == R_32 and hole:
                holes.append((off, 'op', int(hole.group(1)), addend))
            elif typ in (R_32, R_32S) and roff:
                holes.append((off, 'roff', int(roff.group(1)) | int(roff.group(2)) << 4, addend))
            elif typ in (R_32, R_32S) and rbit:
                holes.append((off, 'rbit', int(rbit.group(1)) | int(rbit.group(2)) << 4, addend))
            elif typ == R_32 and target['name'] == 'hx_hole_idx':
                holes.append((off, 'idx', 0, addend))
            elif typ == R_64 and target['name'] == 'hx_hole_insn':
                holes.append((off, 'insn', 0, addend))
            elif typ in (R_PC32, R_PLT32) and target['name'] == 'hx_hole_next':
                holes.append((off, 'next', 0, addend))
            elif typ in (R_PC32, R_PLT32) and target['shndx'] == 0 and target['name']:
                holes.append((off, 'sym', target['name'], addend))
            elif typ == R_PC32 and 0 < target['shndx'] < len(secs) and \
                    secs[target['shndx']]['name'].startswith('.rodata') and \
                    secs[target['shndx']]['type'] == 1 and secs[target['shndx']]['align'] <= 64:
                rod = secs[target['shndx']]   # SHT_PROGBITS: the bytes, the symbol's place
                blob = bytes(data[rod['off']:rod['off'] + rod['size']])
                holes.append((off, 'data', blob, target['value'] + addend))
            else:
                why = why or 'relocation %d against %s' % (typ, target['name'] or 'a section')
        if why:
            refused[sym['name']] = why
            continue
        # the last instruction going on (jmp rel32) is dropped: the code after the copy follows
        if holes and holes[-1][1] == 'next' and holes[-1][0] == len(code) - 4 and \
                code[-5] == 0xE9:
            holes.pop()
            del code[-5:]
        out[(m.group(2), m.group(1) == 'd')] = (bytes(code), holes,
                                                 marks.get(sym['shndx'], set()))
    return out, refused


def write(path, st):
    names = sorted({h[2] for _c, hs, _m in st.values() for h in hs if h[1] == 'sym'})
    index = {n: i for i, n in enumerate(names)}
    blobs = sorted({h[2] for _c, hs, _m in st.values() for h in hs if h[1] == 'data'})
    index.update({b: i for i, b in enumerate(blobs)})
    with open(path, 'w') as c:
        c.write('// Generated by tools/stencils.py from the compiled stencils: do not edit.\n')
        c.write('#include "stencil.h"\n\n')
        for n in names:
            c.write('extern void %s(void);\n' % n)
        c.write('\n')
        for i, blob in enumerate(blobs):
            c.write('static const uint8_t data_%d[] __attribute__((aligned(64))) = {%s};\n'
                    % (i, ','.join(str(b) for b in blob)))
        for (tag, direct), (code, holes, _marks) in sorted(st.items()):
            v = '%s_%s' % ('d' if direct else 's', tag)
            c.write('static const uint8_t code_%s[] = {%s};\n' % (
                v, ','.join(str(b) for b in code) or '0'))
            c.write('static const struct hx_stencil_rel rel_%s[] = {%s};\n' % (
                v, ', '.join('{ %d, %d, %d, %d }' % (
                    off, KIND[k], index[a] if k in ('sym', 'data') else a, addend)
                    for off, k, a, addend in holes) or '{ 0, 0, 0, 0 }'))
        for direct in (False, True):
            c.write('\nconst struct hx_stencil hexsim_isa_stencil%s[HX_NUM_TAGS] = {\n'
                    % ('_direct' if direct else ''))
            for (tag, d), (code, holes, marks) in sorted(st.items()):
                if d == direct:
                    v = '%s_%s' % ('d' if direct else 's', tag)
                    flags = ['HX_STENCIL_%s' % k.upper() for k in sorted(marks)]
                    if any(h[1] == 'sym' and h[2] not in KEEPS_CUR_IN for h in holes):
                        flags.append('HX_STENCIL_CALLS')
                    c.write('    [HX_%s] = { code_%s, rel_%s, %d, %d, %s },\n'
                            % (tag, v, v, len(code), len(holes), ' | '.join(flags) or '0'))
            c.write('};\n')
        c.write('\nvoid (*const hexsim_stencil_syms[])(void) = {\n')
        for n in names:
            c.write('    %s,\n' % n)
        c.write('    0\n};\n')
        c.write('\nconst uint8_t *const hexsim_stencil_data[] = {\n')
        for i in range(len(blobs)):
            c.write('    data_%d,\n' % i)
        c.write('    0\n};\n')


def main():
    if len(sys.argv) not in (2, 5):
        sys.exit('usage: stencils.py OUT.c [OBJDUMP ABI.o ANY.o]')
    st, refused, loose = {}, {}, 0
    if len(sys.argv) == 5:
        st, refused = stencils(sys.argv[3], sys.argv[2])
        any_st, _ = stencils(sys.argv[4], sys.argv[2])
        for key, (code, holes, marks) in any_st.items():
            if key in st and all(h[1] != 'sym' or h[2] in KEEPS_CUR_IN for h in holes):
                st[key] = (code, holes, marks)
                loose += 1
    write(sys.argv[1], st)
    if len(sys.argv) == 5:
        print('stencils: %d kept (%d without stack alignment), %d left to calls'
              % (len(st), loose, len(refused)))


if __name__ == '__main__':
    main()
