#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# Where hexsim's host time goes, from a `perf record` of a run with --perf-map: the share
# of samples in compiled blocks (perf's [JIT] code, named by the map), in hexsim's own
# functions (the run loop, the helpers compiled code calls, the block compiler), in the
# host kernel and in other libraries; the compiled code's share by guest function (the map's
# "FUNC+0xOFF [0xADDR]" names summed per FUNC) and the top blocks; hexsim's functions.
# Usage: perf record -o DATA -- hexsim --perf-map --user PROG ARGS...
#        tools/bench/perf_split.py DATA [--top N]
import argparse
import collections
import re
import subprocess
import sys

LINE_RE = re.compile(r'\s+[0-9.]+%\s+(\d+)\s+(\S.*?)\s+\[([.k])\]\s+(.*)$')


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('data')
    ap.add_argument('--top', type=int, default=12)
    a = ap.parse_args()
    rep = subprocess.run(['perf', 'report', '-i', a.data, '--stdio', '--no-children',
                          '--sort', 'dso,sym', '-g', 'none', '-n'], capture_output=True, text=True)
    if rep.returncode != 0:
        sys.exit('perf report failed: ' + rep.stderr[-300:])
    where, func, block, own = (collections.Counter() for _ in range(4))
    # shares from the sample counts (perf's rounded percentages of thousands of blocks do
    # not add up to 100)
    rows = [m for m in map(LINE_RE.match, rep.stdout.splitlines()) if m]
    total = sum(int(m.group(1)) for m in rows) or 1
    for m in rows:
        pct, dso, kind, sym = 100.0 * int(m.group(1)) / total, m.group(2).strip(), m.group(3), \
            m.group(4)
        sym = sym.strip()
        if dso.startswith('[JIT]'):
            where['compiled blocks'] += pct
            f = re.match(r'(\S+)\+0x[0-9a-f]+ \[', sym)
            func[f.group(1) if f else '(no symbol)'] += pct
            block[sym] += pct
        elif kind == 'k':
            where['host kernel'] += pct
        elif dso == 'hexsim':
            where['hexsim (run loop, helpers, compiler)'] += pct
            own[sym] += pct
        else:
            where[dso] += pct
    for title, c in (('where the samples are', where),
                     ('compiled blocks by guest function', func),
                     ('the hottest compiled blocks', block),
                     ("hexsim's own functions", own)):
        print(title + (' (%d samples)' % total if c is where else '') + ':')
        for k, v in c.most_common(a.top):
            print('  %6.2f%%  %s' % (v, k))
    return 0


if __name__ == '__main__':
    sys.exit(main())
