#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# Timing-model tests (label "timing"): micro-programs in tests/timing/progs, built with
# clang-16 and run by `hexsim --user --stats-json`, whose pcycle counts follow from the
# model's parameters as --timing-info prints them: a dependent multiply chain, a load-use
# chain, a zero-overhead hardware loop and a mispredicted (:t, falls through) branch, each
# checked exactly with the default parameters and with changed ones (--timing-param);
# cache mode's hit and miss counts on a streaming loop; the same pcycles and counters on a
# second run (determinism); and command-line misuse (exit status 2). HVX (the hvx_*
# programs): a multiply chain (early sources), an accumulator chain (a normal source), load
# to early use, a .cur load read in its own packet, a shift chain, unaligned store data, and
# vextract's HVX-to-scalar latency, each exact with the default and with changed hvx_*
# parameters, under the interpreter (--no-jit) and the block compiler (--jit-threshold 1)
# alike, with the stalls counted by cause.
import argparse
import json
import os
import re
import subprocess
import sys

CLANG = ['clang-16', '--target=hexagon-unknown-linux-musl', '-mv67', '-ffreestanding',
         '-nostdlib', '-fuse-ld=lld', '-static']
HVX = ['-mhvx', '-mhvx-length=128b']
HOST_KEYS = ('host_seconds', 'host_cpu_seconds', 'packets_per_second')
failures = []


def check(cond, what):
    print(('ok   ' if cond else 'FAIL ') + what)
    if not cond:
        failures.append(what)


def params(hexsim, extra=()):
    out = subprocess.run([hexsim, '--timing-info', *extra], capture_output=True, text=True,
                         check=True).stdout
    p = {}
    for line in out.splitlines():
        m = re.match(r'^([a-z0-9_]+) +(\d+)  ', line)
        if m:
            p[m.group(1)] = int(m.group(2))
    return p


def run(hexsim, prog, work, extra=()):
    js = os.path.join(work, os.path.basename(prog) + '.json')
    if os.path.exists(js):
        os.unlink(js)
    r = subprocess.run([hexsim, *extra, '--stats-json', js, '--user', prog], capture_output=True,
                       text=True, timeout=120)
    if r.returncode != 0:
        print(r.stderr)
        return None
    with open(js) as f:
        return json.load(f)


# The pcycles each program takes, from the parameters (see the programs' comments): a
# one-packet setup, the loop, a one-packet exit setup and the exit trap0 packet.
def expected(name, p):
    tail = 1 + 1 + p['trap']          # exit setup, the trap packet and its cost
    if name == 'chain_mpy':           # the first multiply waits for nothing, 99 wait
        return 1 + 99 * max(1, p['lat_mpy']) + 1 + tail
    if name == 'chain_load':
        return 1 + 99 * max(1, p['lat_load']) + 1 + tail
    if name == 'hwloop':              # 100 packets, the loop-back is free
        return 1 + 100 + tail
    if name == 'mispredict':          # 99 x (add, mispredicted test, taken jump) + last pass
        return 1 + 99 * (3 + p['mispredict'] + p['branch_taken']) + 2 + p['branch_taken'] + tail
    early = p['hvx_early']
    if name == 'hvx_mpy':             # the inputs are early sources
        return 1 + 1 + 99 * (p['hvx_lat_mpy'] + early) + tail
    if name == 'hvx_acc':             # the accumulator is not
        return 1 + 1 + 99 * p['hvx_lat_mpy'] + tail
    if name == 'hvx_load':            # load; multiply of the loaded vector (early)
        return 1 + 100 * (p['hvx_lat_load'] + early + 1) + tail
    if name == 'hvx_cur':             # the .cur load's vector is read in its own packet
        return 1 + 100 + tail
    if name == 'hvx_perm':            # the shifted register is an early source
        return 1 + 1 + 99 * (p['hvx_lat_perm'] + early) + tail
    if name == 'hvx_stu':             # add; unaligned store of the sum (early)
        return 1 + 100 * (p['hvx_lat_alu'] + early + 1) + tail
    if name == 'hvx_xfer':            # add; vextract of the sum (normal); scalar use
        return 1 + 100 * (p['hvx_lat_alu'] + p['hvx_xfer'] + 1) + tail
    raise KeyError(name)


# Each HVX program's stall pcycles: (--stats-json key, count) from the parameters.
def hvx_stalls(name, p):
    early = p['hvx_early']
    return {
        'hvx_mpy': [('stall_hvx_multiply_result', 99 * (p['hvx_lat_mpy'] + early - 1))],
        'hvx_acc': [('stall_hvx_multiply_result', 99 * (p['hvx_lat_mpy'] - 1))],
        'hvx_load': [('stall_hvx_load_to_use', 100 * (p['hvx_lat_load'] + early - 1))],
        'hvx_cur': [('stall_hvx_load_to_use', 0), ('stall_hvx_multiply_result', 0)],
        'hvx_perm': [('stall_hvx_permute_shift_result', 99 * (p['hvx_lat_perm'] + early - 1))],
        'hvx_stu': [('stall_hvx_alu_result', 100 * (p['hvx_lat_alu'] + early - 1))],
        'hvx_xfer': [('stall_hvx_alu_result', 100 * (p['hvx_lat_alu'] - 1)),
                     ('stall_hvx_to_scalar_transfer', 100 * (p['hvx_xfer'] - 1))],
    }[name]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--hexsim', required=True)
    ap.add_argument('--work', required=True)
    a = ap.parse_args()
    os.makedirs(a.work, exist_ok=True)
    here = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'progs')
    exe = {}
    for src in sorted(os.listdir(here)):
        name = src[:-2]
        exe[name] = os.path.join(a.work, name)
        subprocess.run(CLANG + (HVX if name.startswith('hvx_') else []) +
                       [os.path.join(here, src), '-o', exe[name]], check=True)

    variants = [(), ('--timing-param', 'lat_mpy=5', '--timing-param', 'lat_load=4',
                     '--timing-param', 'mispredict=7', '--timing-param', 'branch_taken=2',
                     '--timing-param', 'trap=3')]
    for extra in variants:
        p = params(a.hexsim, extra)
        check(len(p) >= 20, 'parameters listed by --timing-info %s' % ' '.join(extra))
        for name in ('chain_mpy', 'chain_load', 'hwloop', 'mispredict'):
            s = run(a.hexsim, exe[name], a.work, extra)
            want = expected(name, p)
            got = s and s['pcycles']
            check(got == want, '%s %s: pcycles %s, model says %d' % (name, ' '.join(extra), got, want))
    # HVX: the same pcycles and stalls from the interpreter and from compiled blocks
    hvx_variants = [(), ('--timing-param', 'hvx_lat_mpy=3', '--timing-param', 'hvx_early=2',
                         '--timing-param', 'hvx_lat_load=4', '--timing-param', 'hvx_lat_perm=2',
                         '--timing-param', 'hvx_lat_alu=3', '--timing-param', 'hvx_xfer=7')]
    for extra in hvx_variants:
        p = params(a.hexsim, extra)
        for name in sorted(n for n in exe if n.startswith('hvx_')):
            for mode in (('--no-jit',), ('--jit-threshold', '1')):
                s = run(a.hexsim, exe[name], a.work, mode + extra)
                want = expected(name, p)
                got = s and s['pcycles']
                check(got == want, '%s %s %s: pcycles %s, model says %d'
                      % (name, ' '.join(mode), ' '.join(extra), got, want))
                for key, n in hvx_stalls(name, p):
                    check(s is not None and s.get(key) == n, '%s %s %s: %s %s, model says %d'
                          % (name, ' '.join(mode), ' '.join(extra), key, s and s.get(key), n))
    s = run(a.hexsim, exe['chain_mpy'], a.work)
    check(s and s['stall_multiply_result'] == 99 * (params(a.hexsim)['lat_mpy'] - 1),
          'chain_mpy: stall pcycles counted as multiply results')
    s = run(a.hexsim, exe['chain_load'], a.work)
    check(s and s['stall_load_use'] == 99 * (params(a.hexsim)['lat_load'] - 1),
          'chain_load: stall pcycles counted as load-use')
    s = run(a.hexsim, exe['mispredict'], a.work)
    check(s and s['mispredicted_hints'] == 99 and s['branches_taken'] == 100,
          'mispredict: 99 wrong hints, 100 taken branches')

    # cache mode: 2 x 2048 loads, one per line, over 64 KiB
    s = run(a.hexsim, exe['stream'], a.work, ('--timing=cache',))
    check(s is not None and s['l1d_misses'] == 4096 and s['l1d_hits'] == 0,
          'stream: every load misses L1D (%s)' % str(s and (s['l1d_misses'], s['l1d_hits'])))
    check(s is not None and s['l2_misses'] - s['l1i_misses'] == 2048 and s['l2_hits'] == 2048,
          'stream: the first pass misses L2, the second hits it')
    p = params(a.hexsim)
    check(s is not None and s['stall_l1d_miss'] == 4096 * p['l1_miss'] and
          s['stall_l2_miss'] == (2048 + s['l1i_misses']) * p['l2_miss'],
          'stream: miss penalties from the parameters')
    simple = run(a.hexsim, exe['stream'], a.work)
    check(simple is not None and 'l1d_misses' not in simple and s['pcycles'] > simple['pcycles'],
          'stream: simple mode has no caches and is faster')

    # --profile: f's own packets and pcycles, and the folded stack _start;f
    prof = os.path.join(a.work, 'calls.prof')
    r = subprocess.run([a.hexsim, '--profile', prof, '--user', exe['calls']], capture_output=True,
                       text=True)
    rows = {}
    if r.returncode == 0 and os.path.exists(prof):
        for line in open(prof):
            f = line.split()
            if len(f) == 4 and f[0].isdigit():
                rows[f[3]] = (int(f[0]), int(f[2]))
    p = params(a.hexsim)
    f_pcycles = 2 * (1 + 100 + 1 + p['indirect'])    # loop setup, body, return
    check(rows.get('f') == (f_pcycles, 2 * 102), '--profile: f has %s (pcycles, packets), '
          'model says %s' % (rows.get('f'), (f_pcycles, 2 * 102)))
    folded = open(prof + '.folded').read() if os.path.exists(prof + '.folded') else ''
    check('_start;f %d\n' % f_pcycles in folded, '--profile: folded stack _start;f %d' % f_pcycles)

    # --profile of a recursion 300 deep: the folded stacks stay balanced (each function's
    # own pcycles, summed over the lines it ends, equal the flat table's) and the flame
    # graph picture FILE.svg has a box for each function
    prof = os.path.join(a.work, 'deep.prof')
    for suffix in ('', '.folded', '.svg'):
        if os.path.exists(prof + suffix):
            os.unlink(prof + suffix)
    r = subprocess.run([a.hexsim, '--profile', prof, '--user', exe['deep']], capture_output=True,
                       text=True)
    flat, own = {}, {}
    if os.path.exists(prof):
        for line in open(prof):
            f = line.split()
            if len(f) == 4 and f[0].isdigit():
                flat[f[3]] = int(f[0])
    if os.path.exists(prof + '.folded'):
        for line in open(prof + '.folded'):
            stack, n = line.rsplit(' ', 1)
            leaf = stack.split(';')[-1]
            own[leaf] = own.get(leaf, 0) + int(n)
    for fn in ('main', 'rec', 'spin'):
        check(fn in flat and own.get(fn) == flat[fn], '--profile deep recursion: %s has %s '
              'pcycles in the folded stacks, %s in the table' % (fn, own.get(fn), flat.get(fn)))
    check(max((l.count(';') for l in open(prof + '.folded')), default=0) <= 130
          if os.path.exists(prof + '.folded') else False,
          '--profile deep recursion: folded stacks at most 130 frames')
    titles = []
    try:
        import xml.etree.ElementTree as ET
        svg = ET.parse(prof + '.svg').getroot()
        titles = [t.text for t in svg.iter('{http://www.w3.org/2000/svg}title')]
    except (OSError, ET.ParseError) as e:
        print(e)
    for fn in ('_start', 'main', 'rec', 'spin'):
        check(any(t.startswith(fn + ' (') for t in titles),
              '--profile deep recursion: flame graph box for %s' % fn)

    # determinism
    for name, extra in (('mispredict', ()), ('stream', ('--timing=cache',))):
        r1 = run(a.hexsim, exe[name], a.work, extra)
        r2 = run(a.hexsim, exe[name], a.work, extra)
        for k in HOST_KEYS:
            r1.pop(k, None)
            r2.pop(k, None)
        check(r1 == r2, '%s %s: a second run gives the same counters' % (name, ' '.join(extra)))

    # misuse
    for bad in (['--timing=fast'], ['--timing-param', 'nosuch=1'], ['--timing-param', 'lat_mpy=0'],
                ['--timing-param', 'line=48'], ['--timing-param', 'lat_load'],
                ['--timing-param', 'hvx_lat_mpy=0'], ['--timing-param', 'hvx_early=65']):
        r = subprocess.run([a.hexsim, *bad, '--user', exe['hwloop']], capture_output=True, text=True)
        check(r.returncode == 2 and 'Usage' in r.stderr, 'refused with usage: %s' % ' '.join(bad))
    r = subprocess.run([a.hexsim, '--stats-json', '/nonexistent/dir/x.json', '--user', exe['hwloop']],
                       capture_output=True, text=True)
    check('/nonexistent/dir/x.json' in r.stderr, '--stats-json names a file it cannot write')
    if failures:
        print('%d failure(s)' % len(failures))
        return 1
    return 0


if __name__ == '__main__':
    sys.exit(main())
