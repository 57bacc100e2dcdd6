#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# hexsim --user --strace against the transcript in tests/user/strace.expected:
# tests/user/progs/stracee.c (raw system calls) run with --strace; the lines strace would
# print (hexsim's own "hexsim:" messages left out) must be the expected ones exactly
# (hexsim's pids, addresses and clock are the same every run; the program runs as ./stracee
# with no environment and a one-letter argument, so that its stack is too). With argument "s" the
# program ends with a store to an unmapped address: the same lines up to the exit, then
# the SIGSEGV and "killed by" lines.
# Usage: strace_test.py --hexsim BUILD/hexsim --work DIR
import argparse
import difflib
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
CLANG = ['clang-16', '--target=hexagon-unknown-linux-musl', '-mv67', '-O2', '-ffreestanding',
         '-nostdlib', '-fuse-ld=lld', '-static']


def trace(hexsim, prog, args, work):
    # the same initial stack every time: no environment, the same argv[0]
    p = subprocess.run([hexsim, '--strace', '--max-seconds', '60', '--user', prog] + args,
                       cwd=work, env={}, stdin=subprocess.DEVNULL, capture_output=True,
                       text=True, timeout=120)
    lines = [l for l in p.stderr.splitlines() if not l.startswith('hexsim:')]
    return p.returncode, lines


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--hexsim', required=True)
    ap.add_argument('--work', required=True)
    a = ap.parse_args()
    os.makedirs(a.work, exist_ok=True)
    prog = os.path.join(a.work, 'stracee')
    subprocess.run(CLANG + [os.path.join(HERE, 'progs', 'stracee.c'), '-o', prog], check=True)
    with open(os.path.join(HERE, 'strace.expected')) as f:
        want = f.read().splitlines()
    fail = False
    killed = want[:-2] + ['--- SIGSEGV {si_signo=SIGSEGV, si_code=SEGV_MAPERR, si_addr=0x20} ---',
                          '+++ killed by SIGSEGV +++']
    for args, rc_want, exp in ((['e'], 3, want), (['s'], 139, killed)):
        rc, got = trace(os.path.abspath(a.hexsim), './stracee', args, a.work)
        if got != exp or rc != rc_want:
            fail = True
            print('FAIL: --strace %s: exit %d (want %d)' % (args, rc, rc_want))
            sys.stdout.writelines(l + '\n' for l in difflib.unified_diff(
                exp, got, 'expected', 'hexsim', lineterm=''))
        else:
            print('ok: --strace %s: %d lines, exit %d' % (args, len(got), rc))
    return 1 if fail else 0


if __name__ == '__main__':
    sys.exit(main())
