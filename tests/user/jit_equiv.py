#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# Compiled blocks (src/cpu/jit.c; every block compiled from its first run, --jit-threshold 1,
# unless a case says otherwise) against interpreted ones (--no-jit): every benchmark program
# of tools/bench/progs (the first --packets packets of each) and the fault cases of
# tests/user/progs/faults.S must give the same output, exit status, fault report and every
# --stats-json value but the host's times; so must some programs with other timing parameters,
# and programs with more code than the smallest code cache (--code-cache 256K) holds:
# b15_bigcode (a smaller one than the benchmark's, compiled with stencils and with calls), which
# must see that cache flushed, and the default cache, which must not be. The HVX benchmark
# programs (tools/bench/hvx) likewise, compiled with and without --no-stencils.
# progs/smc_chain.c rewrites code that compiled blocks are linked into: both ways must print
# its known sums. progs/staged_stores.S commits staged stores of every size (packets whose
# stores the commit writes): both ways must print its expected checksum, and so must
# progs/ctrl_commit.S (packets writing control registers and sticky USR bits mid-block).
# Usage: jit_equiv.py --hexsim BUILD/hexsim --work DIR [--packets N]
import argparse
import glob
import json
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
CLANG = ['clang-16', '--target=hexagon-unknown-linux-musl', '-mv67', '-O2', '-ffreestanding',
         '-nostdlib', '-fuse-ld=lld', '-static']
HVX_FLAGS = ['-mhvx', '-mhvx-length=128b', '-mllvm', '-hexagon-autohvx']   # as bench.py
HOST_KEYS = ('host', 'packets_per')


def run(hexsim, work, mode, args):
    js = os.path.join(work, 'stats-%s.json' % mode)
    # compiled: every block from its first run, unless the case says otherwise
    more = ['--no-jit'] if mode == 'interp' else [] if '--jit-threshold' in args else [
        '--jit-threshold', '1']
    cmd = [hexsim, '--stats-json', js] + more + args
    p = subprocess.run(cmd, capture_output=True, timeout=1200)
    with open(js) as f:
        stats = json.load(f)
    stats = {k: v for k, v in stats.items() if not k.startswith(HOST_KEYS)}
    return p.returncode, p.stdout, p.stderr, stats


def host_stats(work):
    # the host_ values of the last compiled run (run() leaves them out)
    with open(os.path.join(work, 'stats-jit.json')) as f:
        return {k: v for k, v in json.load(f).items() if k.startswith('host_')}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--hexsim', required=True)
    ap.add_argument('--work', required=True)
    ap.add_argument('--packets', type=int, default=4000000)
    a = ap.parse_args()
    os.makedirs(a.work, exist_ok=True)
    cases = []
    progs = os.path.join(ROOT, 'tools', 'bench', 'progs')
    for src in sorted(glob.glob(os.path.join(progs, '*.c'))):
        exe = os.path.join(a.work, os.path.splitext(os.path.basename(src))[0])
        subprocess.run(CLANG + [src, '-o', exe], check=True)
        cases.append(['--max-packets', str(a.packets), '--user', exe])
    # the HVX benchmark set (tools/bench/hvx, 128-byte vectors): compiled with the HVX rows'
    # stencils and with calls of their semantic functions; a program that finishes within the
    # packets must print its "Expected output:"
    hvx_dir = os.path.join(ROOT, 'tools', 'bench', 'hvx')
    expected = {}
    for src in sorted(glob.glob(os.path.join(hvx_dir, 'h*.c'))):
        exe = os.path.join(a.work, os.path.splitext(os.path.basename(src))[0])
        subprocess.run(CLANG + HVX_FLAGS + ['-I', progs, '-I', hvx_dir, src, '-o', exe],
                       check=True)
        with open(src) as f:
            m = re.search(r'Expected output: (.*)', f.read())
        expected[exe] = m.group(1).replace('*/', '').strip().encode() + b'\n'
        cases.append(['--max-packets', str(a.packets), '--user', exe])
        cases.append(['--no-stencils', '--max-packets', str(a.packets), '--user', exe])
    # large code, its blocks run often enough to be compiled (block.h: HX_BLOCK_HOT)
    big = os.path.join(a.work, 'b15_bigcode')
    with open(big + '.c', 'w') as f:
        subprocess.run([sys.executable, os.path.join(progs, 'b15_bigcode.py'), '--funcs', '16',
                        '--stmts', '300', '--reps', '100', '--loops', '8'], stdout=f, check=True)
    subprocess.run(CLANG + ['-I', progs, big + '.c', '-o', big], check=True)
    small = ['--code-cache', '256K']
    pressure = [small + ['--user', big], ['--user', big],
                small + ['--no-stencils', '--user', big]]
    cases += pressure
    smc = os.path.join(a.work, 'smc_chain')
    subprocess.run(CLANG + [os.path.join(HERE, 'progs', 'smc_chain.c'), '-o', smc], check=True)
    cases.append(['--user', smc])
    staged = os.path.join(a.work, 'staged_stores')
    subprocess.run(CLANG + [os.path.join(HERE, 'progs', 'staged_stores.S'), '-o', staged],
                   check=True)
    cases.append(['--user', staged])
    ctrl = os.path.join(a.work, 'ctrl_commit')
    subprocess.run(CLANG + [os.path.join(HERE, 'progs', 'ctrl_commit.S'), '-o', ctrl], check=True)
    cases.append(['--user', ctrl])
    # the default threshold: hot blocks compiled, cold ones interpreted
    cases.append(['--jit-threshold', '64', '--max-packets', str(a.packets), '--user',
                  os.path.join(a.work, 'b7_branchy')])
    # timing parameters other than the defaults (compiled code folds them in), one as large
    # as --timing-param allows
    params = ['lat_load=5', 'lat_mpy=4', 'lat_fp=6', 'branch_taken=2', 'mispredict=7',
              'indirect=3']
    for name, extra in (('b4_div64', params), ('b7_branchy', params),
                        ('b7_branchy', ['lat_load=64', 'mispredict=1000000000', 'indirect=999999999'])):
        opts = [x for p in extra for x in ('--timing-param', p)]
        cases.append(opts + ['--max-packets', str(a.packets // 4), '--user',
                             os.path.join(a.work, name)])
    faults = os.path.join(a.work, 'faults')
    subprocess.run(CLANG + ['-mhvx', os.path.join(HERE, 'progs', 'faults.S'), '-o', faults],
                   check=True)
    # the scalar faults, and a gather and a scatter across a page (refused) and within one
    cases += [['--user', faults, arg] for arg in 'muitgsG']
    bad = 0
    for args in cases:
        ri, oi, ei, si = run(a.hexsim, a.work, 'interp', args)
        rj, oj, ej, sj = run(a.hexsim, a.work, 'jit', args)
        name = ' '.join(os.path.basename(x) for x in args)
        if (ri, oi, ei, si) != (rj, oj, ej, sj):
            bad += 1
            print('FAIL: %s: interpreted %d %r %r %r\n  compiled %d %r %r %r' %
                  (name, ri, oi[-200:], ei[-400:], si, rj, oj[-200:], ej[-400:], sj))
        else:
            print('same: %s (exit %d, %s packets)' % (name, ri, si.get('packets')))
        host = host_stats(a.work)
        if args is pressure[0] or args is pressure[2]:   # the cache was too small: flushed
            if not host.get('host_code_cache_flushes') or not host.get('host_blocks_compiled'):
                bad += 1
                print('FAIL: %s: no code cache flush under pressure: %r' % (name, host))
        if args is pressure[1] and host.get('host_code_cache_flushes', 0) != 0:
            bad += 1
            print('FAIL: %s: the default code cache was flushed: %r' % (name, host))
        if args[-1] == staged and (ri, oi) != (0, b'51c4a6e5\n'):   # its Expected output
            bad += 1
            print('FAIL: %s: exit %d, output %r' % (name, ri, oi))
        if args[-1] == ctrl and (ri, oi) != (0, b'94f9aeac\n'):   # its Expected output
            bad += 1
            print('FAIL: %s: exit %d, output %r' % (name, ri, oi))
        if args[-1] in expected and ri == 0 and oi != expected[args[-1]]:
            bad += 1
            print('FAIL: %s: output %r, expected %r' % (name, oi, expected[args[-1]]))
        if args[-1] == smc and (ri, oi) != (0, b'smc=245000,185200\n'):
            bad += 1
            print('FAIL: %s: exit %d, output %r' % (name, ri, oi))
    print('%d cases differ' % bad if bad else 'compiled and interpreted blocks agree')
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main())
