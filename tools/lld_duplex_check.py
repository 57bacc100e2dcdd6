#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# Finds the places in a linked Hexagon ELF that ld.lld-16 may have corrupted.
#
# lld 16 resolves R_HEX_8_X (the low 6 bits of an extended 8-bit immediate) with the mask of
# a plain instruction even when the instruction is a duplex (findMaskR8 lacks the isDuplex
# case; fixed upstream in llvm/llvm-project PR 183936). The one duplex that carries R_HEX_8_X
# is an extended SA1_addi, `{ immext(#sym); Rx = add(Rx,##sym); <low sub-instruction> }`:
# lld ORs the symbol's low 6 bits into bits 10:5, which belong to the low sub-instruction,
# instead of bits 25:20. The add loses those bits and the low sub-instruction changes (a
# `r1 = memw(r29+#0x14)` becomes `r1 = memw(r29+#0x54)`). Found booting Linux 6.1: memmap_init
# passed a stack word as start_pfn, no struct page was initialised, and "Bad page state"
# reports followed (whose stack dumps then overflowed do_show_stack's 128-byte name buffer).
#
# The corruption cannot be undone from the linked file (the original bits are lost), so this
# tool lists every extended SA1_addi duplex whose immediate has zero low bits (as the
# assembler leaves a relocated one), each a site lld may have damaged. A build is safe
# when there are none: compile and assemble with `-mllvm -mno-pairing` (no duplexes).
#
# Usage: lld_duplex_check.py [--objdump llvm-objdump-16] ELF...   (exit status 1: sites found)
import argparse
import re
import subprocess
import sys

LINE = re.compile(r'^\s*([0-9a-f]+):\s+(?:[0-9a-f]{2}\s){4}\s*([0-9a-f]{8})\s+(.*)$')


def is_ext_sa1_addi_duplex(word):
    if (word >> 14) & 3:
        return False            # parse bits 15:14 = 00 mark a duplex
    iclass = (word >> 29) << 1 | (word >> 13) & 1
    high = (word >> 16) & 0x1fff
    # classes 3-7 put an SA1 sub-instruction in the high half; SA1_addi is 00iiiiiiixxxx
    # with a relocation the assembler leaves the immediate's low 6 bits (25:20) zero; a
    # constant resolved at assembly time with nonzero low bits is not a relocation site
    return 3 <= iclass <= 7 and high >> 11 == 0 and (word >> 20) & 0x3f == 0


def sites(path, objdump):
    out = subprocess.run([objdump, '-d', path],
                         capture_output=True, text=True, check=True).stdout
    found = []
    prev_ext = False
    for line in out.splitlines():
        m = LINE.match(line)
        if not m:
            prev_ext = False
            continue
        addr, word, text = int(m.group(1), 16), int(m.group(2), 16), m.group(3).strip()
        if prev_ext and is_ext_sa1_addi_duplex(word):
            found.append((addr, word, text))
        prev_ext = text.lstrip('{ \t').startswith('immext')
    return found


def main():
    ap = argparse.ArgumentParser(description='List the extended SA1_addi duplexes ld.lld-16 may have corrupted.')
    ap.add_argument('--objdump', default='llvm-objdump-16')
    ap.add_argument('elf', nargs='+')
    a = ap.parse_args()
    total = 0
    for path in a.elf:
        for addr, word, text in sites(path, a.objdump):
            print('%s: 0x%08x: %08x  %s' % (path, addr, word, text))
            total += 1
    if total:
        print('%d extended SA1_addi duplex(es): ld.lld-16 may have corrupted them (R_HEX_8_X '
              'on a duplex); rebuild with -mllvm -mno-pairing' % total, file=sys.stderr)
        return 1
    return 0


if __name__ == '__main__':
    sys.exit(main())
