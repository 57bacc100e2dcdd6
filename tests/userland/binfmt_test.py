#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# tools/hexsim-binfmt (issue 44 item 3): registers hexsim with the host's binfmt_misc under
# an entry name of this run's own, runs a Hexagon program as `./prog` (directly, through
# sh -c as system() does, and from make; a dynamic one with QEMU_LD_PREFIX), compares with
# `hexsim --user prog`, and always unregisters. Skipped (status 77) with a message where binfmt_misc cannot be mounted or
# written (not root, a container without it).
#
# Usage: binfmt_test.py --hexsim BUILD/hexsim --work DIR [--sysroot DIR]
import argparse
import os
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
HEXAGON_CC = os.path.join(ROOT, 'tools', 'hexagon-cc')
HELPER = os.path.join(ROOT, 'tools', 'hexsim-binfmt')
BINFMT = '/proc/sys/fs/binfmt_misc'
SKIP = 77

PROG = r"""
#include <stdio.h>
int main(int argc, char **argv)
{
	printf("argc %d\n", argc);
	for (int i = 1; i < argc; i++)
		printf("arg %d: %s\n", i, argv[i]);
	return 3;
}
"""


def run(cmd, **kw):
    return subprocess.run(cmd, capture_output=True, timeout=300, **kw)


def fail(msg, p=None):
    print('FAIL: ' + msg)
    if p is not None:
        print('  status %d\n  stdout: %s\n  stderr: %s' % (
            p.returncode, p.stdout.decode(errors='replace'), p.stderr.decode(errors='replace')))
    sys.exit(1)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--hexsim', required=True)
    ap.add_argument('--work', required=True)
    ap.add_argument('--sysroot')
    args = ap.parse_args()
    work = os.path.join(args.work, 'binfmt')
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    if not os.path.exists(os.path.join(BINFMT, 'register')):
        subprocess.run(['mount', '-t', 'binfmt_misc', 'binfmt_misc', BINFMT],
                       capture_output=True)
    if not os.path.exists(os.path.join(BINFMT, 'register')) or \
            not os.access(os.path.join(BINFMT, 'register'), os.W_OK):
        print('SKIP: binfmt_misc is not mounted at %s and cannot be mounted or written '
              '(not root, or a container without it)' % BINFMT)
        sys.exit(SKIP)
    env = dict(os.environ)
    if args.sysroot:
        env['HEXSIM_SYSROOT'] = args.sysroot
    with open(os.path.join(work, 'prog.c'), 'w') as f:
        f.write(PROG)
    p = run([HEXAGON_CC, os.path.join(work, 'prog.c'), '-o', os.path.join(work, 'prog')],
            env=env)
    if p.returncode:
        fail('hexagon-cc', p)
    # the hexsim the entry runs, with its hexsim-binfmt link, in this run's directory
    hexsim = os.path.join(work, 'hexsim')
    shutil.copy(args.hexsim, hexsim)
    name = 'hexsim-test-%d' % os.getpid()
    ref = run([args.hexsim, '--user', './prog', 'a b', 'c'], cwd=work)
    if ref.returncode != 3:
        fail('hexsim --user ./prog', ref)
    p = run([HELPER, 'register', '--name', name, hexsim])
    if p.returncode == 1:
        print('SKIP: %s' % p.stderr.decode(errors='replace').strip())
        sys.exit(SKIP)
    try:
        if p.returncode:
            fail('register', p)
        with open(os.path.join(BINFMT, name)) as f:
            entry = f.read()
        print('registered %s:\n%s' % (name, entry))
        if 'flags: FOC' not in entry and 'flags: OCF' not in entry and \
                'flags: F' not in entry:
            fail('entry flags: %s' % entry)
        # ./prog directly, as system() does (sh -c), and from make
        try:
            direct = run(['./prog', 'a b', 'c'], cwd=work)
        except OSError as e:
            fail('./prog does not run through binfmt_misc: %s' % e)
        shell = run(['sh', '-c', './prog "a b" c'], cwd=work)
        with open(os.path.join(work, 'Makefile'), 'w') as f:
            f.write('check:\n\t./prog "a b" c; test $$? -eq 3\n')
        make = run(['make', '-s', 'check'], cwd=work)
        for what, got in (('./prog', direct), ('sh -c ./prog', shell)):
            if (got.returncode, got.stdout) != (ref.returncode, ref.stdout):
                print('hexsim --user gave:\n' + ref.stdout.decode())
                fail('%s through binfmt_misc differs from hexsim --user' % what, got)
        if make.returncode or make.stdout != ref.stdout:
            fail('make check through binfmt_misc', make)
        print('./prog, sh -c and make check ran through binfmt_misc as hexsim --user:')
        print(direct.stdout.decode(), end='')
        # a dynamically linked program gets its guest root from QEMU_LD_PREFIX
        sysroot = run([HEXAGON_CC, '-print-sysroot'], env=env).stdout.decode().strip()
        if os.path.exists(os.path.join(sysroot, 'usr', 'lib', 'libc.so')):
            p = run([HEXAGON_CC, '-dynamic', os.path.join(work, 'prog.c'), '-o',
                     os.path.join(work, 'prog-dyn')], env=env)
            if p.returncode:
                fail('hexagon-cc -dynamic', p)
            denv = dict(os.environ, QEMU_LD_PREFIX=sysroot)
            dyn = run(['./prog-dyn', 'a b', 'c'], cwd=work, env=denv)
            if (dyn.returncode, dyn.stdout) != (ref.returncode, ref.stdout):
                fail('./prog-dyn (QEMU_LD_PREFIX) through binfmt_misc', dyn)
            print('./prog-dyn, dynamically linked, ran through binfmt_misc with QEMU_LD_PREFIX')
    finally:
        u = run([HELPER, 'unregister', '--name', name])
        print(u.stdout.decode(errors='replace').strip())
    if os.path.exists(os.path.join(BINFMT, name)):
        fail('%s still registered' % name)
    gone = run(['sh', '-c', './prog'], cwd=work)
    if gone.returncode == 0 or gone.stdout:
        fail('./prog still runs after unregistering', gone)
    print('unregistered: ./prog no longer runs (%s)' %
          gone.stderr.decode(errors='replace').strip())
    print('ok')


if __name__ == '__main__':
    main()
