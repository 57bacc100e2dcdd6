#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# System-mode --profile (issue 48 item 3), booting the guest kernel with the root file
# system plus tests/boot/progs/jitwork.c (tools/hexagon-cc) in /bin:
#   symbols  the shell runs `jitwork cpu 40` under --profile --profile-symbols JITWORK: the
#            table names jitwork's own functions as "NAME [jitwork]", the folded stacks run
#            [jitwork];...;main;qsort..., and FILE.tasks gives jitwork user pcycles and the
#            kernel threads (swapper) kernel pcycles only; kernel code is named by vmlinux;
#            FILE.speedscope.json holds the stacks and pcycles of FILE.folded; FILE.svg's
#            widest kernel frame is labelled and readable when rsvg-convert renders it, and
#            the picture's zoom and search script works (flamegraph_check.py, under node)
#   range    --max-packets 1500000 --profile-range 500000:1000000: the table counts at most
#            500000 packets and at least 99% of them (packets that raise an exception are
#            not counted), fewer than the run
import argparse
import json
import os
import re
import subprocess
import sys
import tempfile

import flamegraph_check
import jit_equiv_test   # initrd_with_jitwork(): the root file system plus jitwork in /bin

def table(path):
    """The --profile table's rows: (pcycles, packets, function)."""
    rows = []
    with open(path) as f:
        for line in f:
            m = re.match(r'\s*(\d+)\s+[\d.]+%\s+(\d+)\s+(.*)$', line)
            if m:
                rows.append((int(m.group(1)), int(m.group(2)), m.group(3)))
    return rows


def tasks(path):
    """FILE.tasks: {task: (user pcycles, kernel pcycles)}."""
    out = {}
    with open(path) as f:
        for line in f:
            m = re.match(r'\s*\d+\s+[\d.]+%\s+(\d+)\s+(\d+)\s+(.*)$', line)
            if m:
                out[m.group(3)] = (int(m.group(1)), int(m.group(2)))
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('case', choices=['symbols', 'range'])
    ap.add_argument('--hexsim', required=True)
    ap.add_argument('--vmlinux', required=True)
    ap.add_argument('--initrd', required=True)
    a = ap.parse_args()
    bad = []
    with tempfile.TemporaryDirectory() as work:
        initrd = jit_equiv_test.initrd_with_jitwork(work, a.initrd)
        jw = os.path.join(work, 'jitwork')
        script = os.path.join(work, 'script.txt')
        with open(script, 'w') as f:
            f.write('jitwork cpu 40\npoweroff\n')
        prof = os.path.join(work, 'prof')
        cmd = [a.hexsim, a.vmlinux, '--initrd', initrd, '--script', script, '--profile', prof]
        if a.case == 'symbols':
            cmd += ['--profile-symbols', '/nonexistent/sh,' + jw]
        else:
            cmd += ['--max-packets', '1500000', '--profile-range', '500000:1000000']
        p = subprocess.run(cmd, capture_output=True, timeout=600, stdin=subprocess.DEVNULL)
        out = p.stdout.decode(errors='replace')
        err = p.stderr.decode(errors='replace')
        if '--profile:' in err:
            bad.append('the profile was not written: ' + err[-500:])
        rows = table(prof) if os.path.exists(prof) else []
        if a.case == 'symbols':
            if p.returncode != 0 or not re.search(r'cpu 40: [0-9a-f]{8}\r?\n', out):
                bad.append('the run failed: status %d\n%s\n%s' % (p.returncode, out[-2000:],
                                                                 err[-2000:]))
            names = {r[2] for r in rows}
            for fn in ('main [jitwork]', 'cmp_u32 [jitwork]', 'trinkle [jitwork]'):
                if fn not in names:
                    bad.append('no %r in the table' % fn)
            if 'memset' not in names:
                bad.append('kernel code not named by vmlinux (no memset)')
            with open(prof + '.folded') as f:
                folded = f.read()
            if not re.search(r'^\[jitwork\];[^ ]*;main;qsort;[^ ]*cmp_u32 \d+$', folded, re.M):
                bad.append('no [jitwork];...;main;qsort;...cmp_u32 stack in FILE.folded')
            if not re.search(r'^\[kernel\];', folded, re.M):
                bad.append('no [kernel] stacks in FILE.folded')
            # FILE.speedscope.json: the same stacks and pcycles as FILE.folded
            with open(prof + '.speedscope.json') as f:
                ss = json.load(f)
            sp = ss['profiles'][0]
            names = [fr['name'] for fr in ss['shared']['frames']]
            stacks = {}   # (a stack may stand on several lines: two call-tree nodes)
            for st, w in zip(sp['samples'], sp['weights']):
                k = ';'.join(names[i] for i in st)
                stacks[k] = stacks.get(k, 0) + w
            want = {}
            for line in folded.splitlines():
                stack, _, n = line.rpartition(' ')
                want[stack] = want.get(stack, 0) + int(n)
            if (ss['$schema'] != 'https://www.speedscope.app/file-format-schema.json' or
                    sp['type'] != 'sampled' or stacks != want or
                    sp['endValue'] != sum(want.values())):
                bad.append('FILE.speedscope.json differs from FILE.folded')
            # FILE.svg: legible where it matters, and its zoom and search script works
            bad += flamegraph_check.legible(prof + '.svg', work)
            bad += flamegraph_check.script(prof + '.svg', prof + '.folded', 'cmp_u32', work)
            t = tasks(prof + '.tasks')
            if not t.get('jitwork', (0, 0))[0] > 0:
                bad.append('FILE.tasks: no user pcycles for jitwork: %r' % t.get('jitwork'))
            if not t.get('swapper/0', (1, 0))[0] == 0 or not t['swapper/0'][1] > 0:
                bad.append('FILE.tasks: swapper/0 not kernel-only: %r' % t.get('swapper/0'))
            print('jitwork: %d user pcycles; %d rows, %d tasks' %
                  (t.get('jitwork', (0, 0))[0], len(rows), len(t)))
        else:
            counted = sum(r[1] for r in rows)
            if not 495000 <= counted <= 500000:
                bad.append('the range counted %d packets, not 500000' % counted)
            print('range 500000:1000000: %d packets counted' % counted)
    if bad:
        print('FAIL:\n  ' + '\n  '.join(bad))
        return 1
    print('PASS')
    return 0


if __name__ == '__main__':
    sys.exit(main())
