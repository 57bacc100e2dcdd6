#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# Linux user mode (hexsim --user) end to end: guest programs from tests/user/progs built with
# clang-16 check the process environment (argc/argv/envp/auxv), system calls (brk, mmap2,
# uname, file I/O, error returns), code rewritten at run time, the exit status, and the fault reports and exit statuses
# (128+signal) for a misaligned load, an unmapped store, an invalid instruction, a foreign
# trap, a vgather and a vscatter whose region crosses a page (SIGBUS) and --max-packets;
# plus the benchmark b1 (tools/bench/progs) against its known output.
# Usage: user_test.py --hexsim BUILD/hexsim --work DIR
import argparse
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
CLANG = ['clang-16', '--target=hexagon-unknown-linux-musl', '-mv67', '-O2', '-ffreestanding',
         '-nostdlib', '-fuse-ld=lld', '-static']
failures = []


def build(src, out, extra=()):
    subprocess.run(CLANG + list(extra) + [src, '-o', out], check=True)
    return out


def run(hexsim, args, env=None, limit=120):
    p = subprocess.run([hexsim, '--max-seconds', str(limit)] + args, capture_output=True, text=True, env=env, timeout=limit + 60)
    return p.returncode, p.stdout, p.stderr


def expect(what, cond, detail=''):
    if not cond:
        failures.append(what)
        print('FAIL: %s %s' % (what, detail))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--hexsim', required=True)
    ap.add_argument('--work', required=True)
    a = ap.parse_args()
    os.makedirs(a.work, exist_ok=True)
    progs = os.path.join(HERE, 'progs')
    uproc = build(os.path.join(progs, 'uproc.c'), os.path.join(a.work, 'uproc'))
    faults = build(os.path.join(progs, 'faults.S'), os.path.join(a.work, 'faults'), ['-mhvx'])
    data = os.path.join(a.work, 'data.txt')
    with open(data, 'w') as f:
        f.write('hello world\n')

    env = dict(os.environ, HEXSIM_TEST_VAR='42')
    rc, out, err = run(a.hexsim, ['--user', uproc, '7', data], env)
    expected = ['argc=3', 'argv: ' + uproc, 'argv: 7', 'argv: ' + data, 'env: HEXSIM_TEST_VAR=42',
                'auxv pagesz=1 random=1', 'brk grew=100000', 'mmap ok=1', 'munmap=0', 'code=5,6',
                'uname: Linux hexagon', 'getpid=1', 'read=5 hello', 'pos=7', 'size=12',
                'close=0', 'badfd=-9', 'efault=-14', 'enosys=-38', 'acct=-38']
    expect('uproc exit status', rc == 7, 'got %d, stderr: %s' % (rc, err))
    expect('uproc output', out.splitlines() == expected,
           '\n  got:      %r\n  expected: %r' % (out.splitlines(), expected))
    expect('unknown syscall warned once', err.count('system call 999 is not implemented') == 1, err)
    expect('unimplemented syscall named', err.count('system call 89 (acct) is not implemented') == 1,
           err)

    cases = [
        ('m', 135, ['load fault', 'misaligned', 'SIGBUS', 'r2 = memw(r1+#0x0)']),
        ('u', 139, ['store fault', 'address 0x00000010', 'unmapped', 'SIGSEGV']),
        ('i', 132, ['invalid packet', 'SIGILL', 'ffffffff']),
        ('t', 133, ['trap0(#34)', 'SIGTRAP']),
        ('g', 135, ['load fault', 'gather/scatter region crosses a page boundary',
                    'in V6_vgathermh', 'SIGBUS', 'vgather(r1,m0,v0.h)']),
        ('s', 135, ['store fault', 'gather/scatter region crosses a page boundary',
                    'in V6_vscattermh', 'SIGBUS']),
        ('G', 0, []),
    ]
    for arg, want, texts in cases:
        rc, out, err = run(a.hexsim, ['--user', faults, arg])
        expect('fault %s: exit status' % arg, rc == want, 'got %d, stderr: %s' % (rc, err))
        for t in texts:
            expect('fault %s: report names %r' % (arg, t), t in err, 'stderr: %s' % err)
    rc, out, err = run(a.hexsim, ['--max-packets', '1000', '--user', faults, 'l'])
    expect('--max-packets: exit status 124', rc == 124, 'got %d %s' % (rc, err))
    expect('--max-packets: message', 'stopped after 1000 packets' in err, err)

    rc, out, err = run(a.hexsim, ['--user', os.path.join(a.work, 'missing')])
    expect('missing program: exit 1 naming it', rc == 1 and 'missing' in err, err)
    rc, out, err = run(a.hexsim, ['--user', data])
    expect('non-ELF: exit 1', rc == 1 and 'not an ELF' in err, err)
    rc, out, err = run(a.hexsim, ['--user', '/bin/sh'])
    expect('foreign ELF: exit 1', rc == 1 and 'not a Hexagon ELF' in err, err)

    b1 = build(os.path.join(ROOT, 'tools', 'bench', 'progs', 'b1.c'), os.path.join(a.work, 'b1'))
    # b1 runs about 250 million packets: minutes in a sanitizer build on a busy machine
    rc, out, err = run(a.hexsim, ['--user', b1], limit=1200)
    expect('b1', rc == 0 and out == 'crc=0x3a30dba6 sort=0x2f4ff4d7\n', 'rc %d out %r err %s' % (rc, out, err[:2000]))

    print('%d checks failed' % len(failures) if failures else 'all user-mode checks passed')
    return 1 if failures else 0


if __name__ == '__main__':
    sys.exit(main())
