#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# Benchmark on other people's programs (issue 45): the Debian packages that guest/packages
# builds for Hexagon with tools/hexagon-cc (sqlite3's speedtest1, zstd, xz, bzip2, Lua 5.4),
# each run on a fixed workload under qemu-hexagon, `hexsim --user` (blocks compiled), and
# unless --no-nojit `hexsim --user --no-jit`, and unless --no-native the same sources built
# for the host (guest/packages/build.sh --native). Times are CPU times (user + system) of the
# child, the best of --repeat runs (bench.py's timed()). Every hexsim output must be
# qemu-hexagon's (stdout byte for byte and the exit status; speedtest1's per-step timings,
# which read the clock, are cut first): a difference fails the run. A native output that
# differs is only noted (different C libraries may print a float otherwise).
# The inputs: the first bytes of a source tarball from the debsrc cache (sqlite3's
# orig.tar.xz, unpacked: C source and text) for the compressors, whose decompression runs
# then take qemu-hexagon's compressed output; tools/bench/packages.lua for Lua (Debian's
# lua5.4 source has no benchmark scripts).
# Prints a row per workload (qemu, hexsim, --no-jit, native seconds; qemu/hexsim,
# --no-jit/hexsim, hexsim/native), then the geometric means.
# --size tiny runs every workload small (a check that it all works: ctest bench_packages).
# Usage: tools/bench/packages.py [--hexsim build/hexsim] [--qemu qemu-hexagon] [--repeat N]
#          [--size full|tiny] [--root DIR] [--native-root DIR] [--no-native] [--no-nojit]
#          [--hexsim-opt OPT]... [NAME...]
import argparse
import glob
import lzma
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
from bench import timed  # noqa: E402  (the same CPU-time measure as the project's set)

PACKAGES = ['sqlite3', 'libzstd', 'xz-utils', 'bzip2', 'lua5.4']
# Each workload: name, package, program in /usr/bin, arguments ({in} the input file, {lua}
# the Lua script), the input ('text' or the output of the named workload) and its size
# (bytes of text, or the scale) for full and tiny runs.
WORKLOADS = [
    ('sqlite', 'sqlite3', 'speedtest1', ['--verify', '--size', '{scale}', '--memdb'],
     None, {'full': 5, 'tiny': 1}),
    ('zstd_c', 'libzstd', 'zstd', ['-3', '-c', '-q', '{in}'], 'text',
     {'full': 4 << 20, 'tiny': 64 << 10}),
    ('zstd_d', 'libzstd', 'zstd', ['-d', '-c', '-q', '{in}'], 'zstd_c', None),
    ('xz_c', 'xz-utils', 'xz', ['-6', '-c', '{in}'], 'text',
     {'full': 1 << 20, 'tiny': 32 << 10}),
    ('xz_d', 'xz-utils', 'xz', ['-d', '-c', '{in}'], 'xz_c', None),
    ('bzip2_c', 'bzip2', 'bzip2', ['-9', '-c', '{in}'], 'text',
     {'full': 1 << 20, 'tiny': 32 << 10}),
    ('bzip2_d', 'bzip2', 'bzip2', ['-d', '-c', '{in}'], 'bzip2_c', None),
    ('lua', 'lua5.4', 'lua', ['{lua}', '{scale}'], None, {'full': 4, 'tiny': 1}),
]
# speedtest1's lines end in the step's time ("....   0.123s"): cut, as it reads the clock
TIME_RE = re.compile(rb'[ .]+\d+\.\d+s$', re.M)


def staging_root(native):
    # what guest/packages/build.sh [--native] prints for the five packages (it builds what
    # is not up to date)
    cmd = [os.path.join(ROOT, 'guest', 'packages', 'build.sh')] + \
        (['--native'] if native else []) + PACKAGES
    p = subprocess.run(cmd, stdout=subprocess.PIPE)
    if p.returncode != 0:
        sys.exit('packages.py: %s failed' % ' '.join(cmd))
    return p.stdout.decode().strip()


def text_input(path, size):
    # the first size bytes of sqlite3's source tarball (unpacked), from the debsrc cache
    with open(os.path.join(ROOT, 'guest', 'packages', 'sqlite3.recipe')) as f:
        src = re.search(r'^source=(\S+)=(\S+)', f.read(), re.M)
    dsc = subprocess.run([os.path.join(ROOT, 'tools', 'debsrc.sh'),
                          '%s=%s' % (src.group(1), src.group(2))],
                         stdout=subprocess.PIPE, check=True).stdout.decode().strip()
    tars = glob.glob(os.path.join(os.path.dirname(dsc), '*.orig.tar.xz'))
    tars.sort(key=len)   # the main tarball, not orig-www
    with lzma.open(tars[0]) as f:
        data = f.read(size)
    with open(path, 'wb') as f:
        f.write(data)


def output(p, name):
    # what must agree: stdout (speedtest1's timings cut) and the exit status
    out = TIME_RE.sub(b'', p.stdout) if name == 'sqlite' else p.stdout
    return out, p.returncode


def geo(xs):
    xs = [x for x in xs if x and x > 0]
    if not xs:
        return float('nan')
    g = 1.0
    for x in xs:
        g *= x
    return g ** (1.0 / len(xs))


def main():
    ap = argparse.ArgumentParser(description='other people\'s programs: hexsim against '
                                 'qemu-hexagon and the host')
    ap.add_argument('--hexsim', default=os.path.join(ROOT, 'build', 'hexsim'))
    ap.add_argument('--qemu', default='qemu-hexagon')
    ap.add_argument('--repeat', type=int, default=1)
    ap.add_argument('--size', choices=('full', 'tiny'), default='full')
    ap.add_argument('--root', help='the Hexagon staging root (default: guest/packages/build.sh)')
    ap.add_argument('--native-root',
                    help='the host-native staging root (default: build.sh --native)')
    ap.add_argument('--no-native', action='store_true', help='no host-native column')
    ap.add_argument('--no-nojit', action='store_true', help='no hexsim --no-jit column')
    ap.add_argument('--hexsim-opt', action='append', default=[],
                    help='an option for hexsim (before --user), e.g. --jit-threshold=1')
    ap.add_argument('names', nargs='*', help='workloads (default: all): ' +
                    ' '.join(w[0] for w in WORKLOADS))
    a = ap.parse_args()
    for n in a.names:
        if n not in [w[0] for w in WORKLOADS]:
            ap.error('no workload %s' % n)
    root = a.root or staging_root(False)
    nroot = None if a.no_native else (a.native_root or staging_root(True))
    work = tempfile.mkdtemp(prefix='hexsim-pkgbench-')
    lua = os.path.join(HERE, 'packages.lua')
    cols = [('qemu', lambda prog: [a.qemu, prog]),
            ('hexsim', lambda prog: [a.hexsim] + a.hexsim_opt + ['--user', prog])]
    if not a.no_nojit:
        cols.append(('no-jit', lambda prog: [a.hexsim, '--no-jit'] + a.hexsim_opt +
                     ['--user', prog]))
    print('load average at the start: %s' % ' '.join(open('/proc/loadavg').read().split()[:3]))
    print('%-9s %8s %8s %8s %8s %8s %8s %8s  %s' % (
        'workload', 'qemu s', 'hexsim s', 'no-jit s', 'native s', 'q/hexsim', 'nojit/h',
        'h/native', 'output'))
    outs, bad = {}, 0
    ratios = {'q': [], 'nj': [], 'nat': []}
    for name, pkg, prog, args, inp, sizes in WORKLOADS:
        if a.names and name not in a.names:
            # a decompression needs its compression's output: run that one too
            if not any(w[4] == name for w in WORKLOADS if w[0] in a.names):
                continue
        infile = None
        if inp == 'text':
            infile = os.path.join(work, name + '.in')
            text_input(infile, sizes[a.size])
        elif inp:
            infile = os.path.join(work, name + '.in')
            with open(infile, 'wb') as f:
                f.write(outs[inp])
        argv = [w.replace('{in}', infile or '').replace('{lua}', lua)
                .replace('{scale}', str(sizes[a.size]) if sizes else '') for w in args]
        best, res = {}, {}
        for _ in range(a.repeat):
            for col, cmd in cols:
                t, p = timed(cmd(os.path.join(root, 'usr', 'bin', prog)) + argv)
                best[col] = min(best.get(col, t), t)
                res[col] = p
            if nroot and os.path.exists(os.path.join(nroot, 'usr', 'bin', prog)):
                t, p = timed([os.path.join(nroot, 'usr', 'bin', prog)] + argv)
                best['native'] = min(best.get('native', t), t)
                res['native'] = p
        want = output(res['qemu'], name)
        outs[name] = res['qemu'].stdout
        status = []
        for col, _cmd in cols[1:]:
            if output(res[col], name) != want:
                bad += 1
                status.append('%s DIFFERS (exit %d, %d bytes; qemu exit %d, %d bytes): %s' % (
                    col, res[col].returncode, len(res[col].stdout), want[1], len(want[0]),
                    res[col].stderr.decode(errors='replace')[-200:].strip().replace('\n', ' | ')))
        if want[1] != 0:
            bad += 1
            status.append('qemu-hexagon exit %d' % want[1])
        if nroot and 'native' not in res:
            status.append('no native %s' % prog)
        elif nroot and output(res['native'], name) != want:
            status.append('native output differs')
        if a.names and name not in a.names:
            continue
        q, h = best['qemu'], best['hexsim']
        nj, nat = best.get('no-jit'), best.get('native')
        ratios['q'].append(q / h)
        if nj:
            ratios['nj'].append(nj / h)
        if nat:
            ratios['nat'].append(h / max(nat, 1e-3))

        def fmt(x, f='%8.3f'):
            return f % x if x is not None else '%8s' % '-'
        print('%-9s %s %s %s %s %8.2f %s %s  %s' % (
            name, fmt(q), fmt(h), fmt(nj), fmt(nat), q / h,
            fmt(nj / h if nj else None, '%8.2f'),
            fmt(h / max(nat, 1e-3) if nat else None, '%8.1f'),
            '; '.join(status) if status else 'same'))
        sys.stdout.flush()
    def g(key, f):
        return f % geo(ratios[key]) if ratios[key] else '-'
    print('geometric means: qemu/hexsim %s (least %s), --no-jit/hexsim %s, hexsim/native %s '
          '(%d workloads, best of %d)' % (
              g('q', '%.2f'), '%.2f' % min(ratios['q']) if ratios['q'] else '-',
              g('nj', '%.2f'), g('nat', '%.1f'), len(ratios['q']), a.repeat))
    print('load average at the end: %s' % ' '.join(open('/proc/loadavg').read().split()[:3]))
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main())
