#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# User-mode benchmark: builds each guest program in tools/bench/progs/*.c with clang-16
# (freestanding, static, -O2, -mv67 so that qemu-hexagon 7.2 accepts it), runs it under
# qemu-hexagon and `hexsim --user` side by side, checks that both print the same output (and
# the expected output a program states in a "Expected output:" comment), and prints a table:
# wall time of each, hexsim packets per second (from --stats when available) and the time
# ratio qemu/hexsim (above 1: hexsim is faster). Times are the best of --repeat runs.
# Usage: tools/bench/bench.py [--hexsim build/hexsim] [--qemu qemu-hexagon] [--repeat N] [PROG.c...]
import argparse
import glob
import os
import re
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
CLANG = ['clang-16', '--target=hexagon-unknown-linux-musl', '-mv67', '-O2', '-ffreestanding',
         '-nostdlib', '-fuse-ld=lld', '-static']


def timed(cmd):
    t = time.monotonic()
    p = subprocess.run(cmd, capture_output=True)
    return time.monotonic() - t, p


def main():
    ap = argparse.ArgumentParser(description='user-mode benchmark: hexsim against qemu-hexagon')
    ap.add_argument('--hexsim', default=os.path.join(ROOT, 'build', 'hexsim'))
    ap.add_argument('--qemu', default='qemu-hexagon')
    ap.add_argument('--repeat', type=int, default=1)
    ap.add_argument('progs', nargs='*')
    a = ap.parse_args()
    progs = a.progs or sorted(glob.glob(os.path.join(HERE, 'progs', '*.c')))
    work = tempfile.mkdtemp(prefix='hexsim-bench-')
    print('%-12s %10s %10s %8s  %s' % ('program', 'qemu s', 'hexsim s', 'ratio', 'output'))
    bad = 0
    for src in progs:
        name = os.path.splitext(os.path.basename(src))[0]
        exe = os.path.join(work, name)
        subprocess.run(CLANG + [src, '-o', exe], check=True)
        with open(src) as f:
            m = re.search(r'Expected output: (.*)', f.read())
        want = m.group(1).replace('*/', '').strip() if m else None
        tq = th = None
        for _ in range(a.repeat):
            t, q = timed([a.qemu, exe])
            tq = t if tq is None else min(tq, t)
            t, h = timed([a.hexsim, '--user', exe])
            th = t if th is None else min(th, t)
        ok = (q.stdout == h.stdout and q.returncode == h.returncode and
              (want is None or q.stdout.decode().strip() == want))
        if not ok:
            bad += 1
        print('%-12s %10.2f %10.2f %8.2f  %s' % (name, tq, th, tq / th, 'same' if ok else
              'DIFFERENT: qemu %r (%d) hexsim %r (%d) %s' % (q.stdout[:80], q.returncode,
              h.stdout[:80], h.returncode, h.stderr.decode()[:300])))
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main())
