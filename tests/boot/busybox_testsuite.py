#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# BusyBox's own test suite (testsuite/ and its runtest, from Debian's source, as
# guest/busybox/build.sh leaves it in $HEXSIM_CACHE/busybox/out) inside the booted guest
# (ctest label "busybox_testsuite"): the suite and the build's .config go in a second cpio
# archive appended to the root file system's; the guest runs
#   cd /bbtest/testsuite && bindir=/bbtest ./runtest
# with every applet BusyBox has, and the test reads its PASS/FAIL/SKIPPED/UNTESTED lines.
# Every failure must be listed, with its reason, in guest/busybox/testsuite-known.txt;
# a failure not listed fails the test, and so does a listed one that now passes (the list
# stays true). Prints the counts. Applet names as arguments run only their tests (the
# ctest runs a subset; see tests/boot/tests.cmake); --verbose shows failures' details.
# Usage: busybox_testsuite.py --hexsim BUILD/hexsim --vmlinux VMLINUX --initrd ROOTFS.cpio
#        [--busybox-out DIR (default $HEXSIM_CACHE/busybox/out)] [--keep-log FILE]
#        [--max-seconds N] [--verbose] [APPLET ...]
import argparse
import os
import re
import stat
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
KNOWN = os.path.join(ROOT, 'guest', 'busybox', 'testsuite-known.txt')


def known_failures():
    """{test name: reason} from testsuite-known.txt ("NAME: reason" lines, # comments)."""
    known = {}
    for line in open(KNOWN):
        line = line.strip()
        if not line or line.startswith('#'):
            continue
        name, _, reason = line.partition(' -- ')
        if not reason.strip():
            sys.exit('%s: "%s" gives no reason (NAME -- REASON)' % (KNOWN, line))
        known[name.strip()] = reason.strip()
    return known


def suite_cpio(tmp, out):
    lst = os.path.join(tmp, 'suite.list')
    with open(lst, 'w') as f:
        f.write('dir /bbtest 755\n')
        f.write('slink /bbtest/busybox /bin/busybox\n')
        f.write('file /bbtest/.config 644 %s\n' % os.path.join(out, '.config'))
        base = os.path.join(out, 'testsuite')
        for d, dirs, files in os.walk(base):
            dirs.sort()
            rel = os.path.relpath(d, base)
            g = '/bbtest/testsuite' + ('' if rel == '.' else '/' + rel)
            f.write('dir %s 755\n' % g)
            for name in sorted(files):
                p = os.path.join(d, name)
                if os.path.islink(p):
                    f.write('slink %s/%s %s\n' % (g, name, os.readlink(p)))
                else:
                    mode = stat.S_IMODE(os.stat(p).st_mode)
                    f.write('file %s/%s %o %s\n' % (g, name, mode, p))
    cpio = os.path.join(tmp, 'suite.cpio')
    subprocess.run([sys.executable, os.path.join(ROOT, 'tools', 'mkcpio.py'), '--list', lst,
                    '--bin', tmp, '-o', cpio], check=True)
    return cpio


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--hexsim', required=True)
    ap.add_argument('--vmlinux', required=True)
    ap.add_argument('--initrd', required=True)
    ap.add_argument('--busybox-out', default=os.path.join(
        os.environ.get('HEXSIM_CACHE', os.path.expanduser('~/.cache/hexsim')), 'busybox', 'out'))
    ap.add_argument('--keep-log')
    ap.add_argument('--max-seconds', default='1500')
    ap.add_argument('--verbose', action='store_true', help="runtest -v: the failures' details")
    ap.add_argument('applets', nargs='*', help='the applets whose tests run (default: all)')
    a = ap.parse_args()
    if not os.path.isdir(os.path.join(a.busybox_out, 'testsuite')):
        print('FAIL: no BusyBox test suite in %s (guest/busybox/build.sh puts it there)' %
              a.busybox_out)
        return 1
    known = known_failures()
    with tempfile.TemporaryDirectory() as tmp:
        initrd = os.path.join(tmp, 'initrd.cpio')
        with open(initrd, 'wb') as f:
            f.write(open(a.initrd, 'rb').read())
            f.write(open(suite_cpio(tmp, a.busybox_out), 'rb').read())
        # results go to the console as they come (a run cut short still shows them)
        typed = ('cd /bbtest/testsuite && bindir=/bbtest ./runtest %s </dev/null 2>&1 | '
                 '%s; echo "runtest done"\n'
                 % (' '.join((['-v'] if a.verbose else []) + a.applets),
                    'sed "s/^\\(PASS\\|FAIL\\|SKIPPED\\|UNTESTED\\):/@&/"' if a.verbose else
                    'grep -E "^(PASS|FAIL|SKIPPED|UNTESTED):" | sed "s/^/@/"')).encode()
        t0 = time.time()
        p = subprocess.run([a.hexsim, a.vmlinux, '--initrd', initrd, '--max-seconds', a.max_seconds],
                           input=typed, capture_output=True, timeout=float(a.max_seconds) + 100)
        took = time.time() - t0
    out = p.stdout.decode(errors='replace').replace('\r', '')
    if a.keep_log:
        with open(a.keep_log, 'w') as f:
            f.write(out)
    results = {}
    for m in re.finditer(r'(?m)^@(PASS|FAIL|SKIPPED|UNTESTED): (.*)$', out):
        results.setdefault(m.group(1), []).append(m.group(2).strip())
    counts = {k: len(v) for k, v in results.items()}
    print('BusyBox test suite in the guest: %d passed, %d failed, %d skipped, %d untested '
          '(%.0f s of host time)' % (counts.get('PASS', 0), counts.get('FAIL', 0),
                                     counts.get('SKIPPED', 0), counts.get('UNTESTED', 0), took))
    bad = []
    if p.returncode != 0:
        bad.append('hexsim exit status %d, expected 0 (stderr: %s)' %
                   (p.returncode, p.stderr.decode(errors='replace')[-500:]))
    if 'runtest done' not in out:
        bad.append('runtest did not finish')
    if counts.get('PASS', 0) < 100:
        bad.append('only %d tests passed' % counts.get('PASS', 0))
    failed = results.get('FAIL', [])
    for name in failed:
        if name not in known:
            bad.append('new failure: %s' % name)
        else:
            print('known failure: %s -- %s' % (name, known[name]))
    for name in sorted(set(known) & set(results.get('PASS', []))):
        bad.append('%s is listed in testsuite-known.txt but passed' % name)
    for s in results.get('SKIPPED', []):
        print('skipped: %s' % s)
    for b in bad:
        print('FAIL:', b)
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main())
