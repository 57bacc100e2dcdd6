#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# Regression test for the ld.lld-16 duplex relocation bug that broke the Linux boot (see
# tools/lld_duplex_check.py): links `{ r0 = add(r0,##sym+8); r1 = memw(r29+#20) }` and checks
#  1. that tools/lld_duplex_check.py reports the site (and whether this lld corrupts it:
#     the low sub-instruction's offset becomes 0x54, the add loses the 8);
#  2. that the workaround, assembling with -mllvm -mno-pairing, leaves no site and links the
#     load and the add exactly as written.
# Usage: lld_duplex_test.py --work DIR
import argparse
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
CHECK = os.path.join(HERE, '..', '..', 'tools', 'lld_duplex_check.py')
SRC = """\t.text
\t.globl _start
_start:
\t{ r0 = add(r0, ##sym+8); r1 = memw(r29+#20) }
\t{ jumpr r31 }
\t.data
\t.p2align 6
\t.globl sym
sym:\t.word 0, 0, 0, 0
"""


def build(work, name, extra):
    s = os.path.join(work, name + '.s')
    with open(s, 'w') as f:
        f.write(SRC)
    o = os.path.join(work, name + '.o')
    elf = os.path.join(work, name)
    subprocess.run(['clang-16', '--target=hexagon-unknown-linux-musl', '-c'] + extra +
                   [s, '-o', o], check=True)
    subprocess.run(['ld.lld-16', o, '-o', elf], check=True)
    dis = subprocess.run(['llvm-objdump-16', '-d', elf], capture_output=True, text=True,
                         check=True).stdout
    check = subprocess.run([sys.executable, CHECK, elf], capture_output=True, text=True)
    return dis, check


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--work', required=True)
    a = ap.parse_args()
    os.makedirs(a.work, exist_ok=True)
    bad = []
    dis, check = build(a.work, 'duplex', [])
    if check.returncode != 1 or 'add(r0,##' not in check.stdout:
        bad.append('lld_duplex_check.py did not report the duplex site:\n' + check.stdout +
                   check.stderr)
    corrupt = 'memw(r29+#0x54)' in dis
    print('ld.lld-16 %s the R_HEX_8_X duplex relocation' % ('corrupts' if corrupt else
                                                           'resolves correctly'))
    dis, check = build(a.work, 'nopairing', ['-mllvm', '-mno-pairing'])
    if check.returncode != 0:
        bad.append('-mno-pairing still leaves a site:\n' + check.stdout)
    if 'memw(r29+#0x14)' not in dis:
        bad.append('-mno-pairing: the load is not memw(r29+#0x14):\n' + dis)
    if bad:
        print('FAIL toolchain lld_duplex: ' + '\n'.join(bad))
        return 1
    print('toolchain lld_duplex: ok')
    return 0


if __name__ == '__main__':
    sys.exit(main())
