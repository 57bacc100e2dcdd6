#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# hexsim --perf-map (src/core/perf_map.h): runs tools/bench/progs/b7_branchy.c with every
# block compiled (--jit-threshold 1) and checks /tmp/perf-PID.map (PID: hexsim's) against
# the program itself: one well-formed "START SIZE NAME" line per compiled block (the count
# --stats gives, no two blocks at one guest address), host code ranges that do not overlap
# and lie in one code arena, every guest address the start of a packet (llvm-objdump-16's
# disassembly of the program), every "FUNC+0xOFF" naming the function symbol whose start plus
# OFF is that address (llvm-nm-16). Then the same run without --perf-map writes no map, and
# the program's output is the same both ways.
# Usage: perf_map_test.py --hexsim BUILD/hexsim --work DIR
import argparse
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
CLANG = ['clang-16', '--target=hexagon-unknown-linux-musl', '-mv67', '-O2', '-ffreestanding',
         '-nostdlib', '-fuse-ld=lld', '-static']
LINE_RE = re.compile(r'^([0-9a-f]+) ([0-9a-f]+) (?:(\S+)\+0x([0-9a-f]+) )?\[0x([0-9a-f]{8})\]$')
COMPILED_RE = re.compile(r'\n  blocks compiled \(host\) +(\d+)\n')
FLUSHES_RE = re.compile(r'\n  code cache flushes \(host\) +(\d+)\n')


def run(hexsim, prog, opts):
    # hexsim's pid (the map's name), its output and its --stats
    p = subprocess.Popen([hexsim] + opts + ['--stats', '--jit-threshold', '1', '--user', prog],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    out, err = p.communicate(timeout=120)
    if p.returncode != 0:
        sys.exit('FAIL: hexsim exited %d: %s' % (p.returncode, err[-400:]))
    return p.pid, out, err


def packets(prog):
    # the addresses where packets start: llvm-objdump's lines whose instruction opens "{"
    d = subprocess.run(['llvm-objdump-16', '-d', prog], capture_output=True, text=True,
                       check=True).stdout
    return {int(m.group(1), 16) for m in re.finditer(r'^ +([0-9a-f]+):\t[^\t]*\t[0-9a-f]+ \{',
                                                     d, re.M)}


def functions(prog):
    # function symbols: name -> (address, size)
    nm = subprocess.run(['llvm-nm-16', '-S', '--defined-only', prog], capture_output=True,
                        text=True, check=True).stdout
    out = {}
    for line in nm.splitlines():
        f = line.split()
        if len(f) == 4 and f[2] in 'tT':
            out[f[3]] = (int(f[0], 16), int(f[1], 16))
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--hexsim', required=True)
    ap.add_argument('--work', required=True)
    a = ap.parse_args()
    os.makedirs(a.work, exist_ok=True)
    prog = os.path.join(a.work, 'b7_branchy')
    subprocess.run(CLANG + ['-I', os.path.join(ROOT, 'tools', 'bench', 'progs'),
                            os.path.join(ROOT, 'tools', 'bench', 'progs', 'b7_branchy.c'),
                            '-o', prog], check=True)
    pid, out, err = run(a.hexsim, prog, ['--perf-map'])
    path = '/tmp/perf-%d.map' % pid
    if not os.path.exists(path):
        sys.exit('FAIL: no %s' % path)
    with open(path) as f:
        lines = f.read().splitlines()
    os.unlink(path)
    bad = []
    m = COMPILED_RE.search(err)
    fl = FLUSHES_RE.search(err)
    if not m or not fl or fl.group(1) != '0':
        sys.exit('FAIL: no compiled-block count (or a flush) in --stats: %s' % err[-400:])
    if len(lines) != int(m.group(1)) or not lines:
        bad.append('%d lines for %s compiled blocks' % (len(lines), m.group(1)))
    starts, funcs = packets(prog), functions(prog)
    seen, ranges, named = set(), [], 0
    for line in lines:
        p = LINE_RE.match(line)
        if not p:
            bad.append('malformed: %r' % line)
            continue
        code, size, addr = int(p.group(1), 16), int(p.group(2), 16), int(p.group(5), 16)
        if size == 0:
            bad.append('no code: %r' % line)
        ranges.append((code, code + size))
        if addr in seen:
            bad.append('guest address twice: %r' % line)
        seen.add(addr)
        if addr not in starts:
            bad.append('not a packet of the program: %r' % line)
        if p.group(3):
            named += 1
            fn = funcs.get(p.group(3))
            off = int(p.group(4), 16)
            if not fn or fn[0] + off != addr or (fn[1] and off >= fn[1]):
                bad.append('wrong function: %r (symbol %s)' % (line, fn))
    ranges.sort()
    for (s0, e0), (s1, _e1) in zip(ranges, ranges[1:]):
        if s1 < e0:
            bad.append('host code overlaps: %x-%x and %x' % (s0, e0, s1))
    if ranges and ranges[-1][1] - ranges[0][0] > (64 << 20):
        bad.append('host code beyond one 64M arena')
    if named < len(lines) * 9 // 10:
        bad.append('only %d of %d blocks named by a function' % (named, len(lines)))
    pid2, out2, _err2 = run(a.hexsim, prog, [])
    if os.path.exists('/tmp/perf-%d.map' % pid2):
        bad.append('a map without --perf-map')
    if out2 != out:
        bad.append('output differs with --perf-map: %r / %r' % (out[:80], out2[:80]))
    for b in bad[:20]:
        print('FAIL: ' + b)
    if not bad:
        print('ok: %d blocks in the map, %d named by function, at packets of the program'
              % (len(lines), named))
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main())
