#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# Runs the test suites of the guest packages (guest/packages: each package's check.sh in
# its test directory of the staging root that guest/packages/build.sh fills) in one of
# three modes and counts their PASS/FAIL/SKIP lines (the protocol of guest/packages/lib.sh):
#   user   on the host, every program run by `hexsim --user`, the way cross builds run
#          their tests under qemu-user: RUN (a script running `hexsim --user "$@"`) for
#          the test programs, BIN (also first on PATH) a directory of wrappers that run the
#          installed programs so, REAL the directory of the installed programs themselves
#   qemu   the same with qemu-hexagon, the oracle
#   guest  inside the booted guest (default --smp 2): the staging root goes in as a cpio
#          appended to the root file system's (guest/packages/mkcpio.sh), the test types
#          the commands on the console and reads the results back
# A failure must be listed, with its reason, in guest/packages/NAME/known.txt ("MODE TEST --
# REASON" lines, MODE user, qemu, guest or all); a failure not listed fails this test, and
# so does a listed one that passed (the list stays true). Prints one line of counts per
# package (and, with --json FILE, writes them there).
# Usage: pkgtest.py --mode user|qemu|guest [--hexsim BUILD/hexsim] [--qemu qemu-hexagon]
#        [--vmlinux VMLINUX --initrd ROOTFS.cpio] [--root DIR] [--quick] [--smp N]
#        [--max-seconds N] [--keep-log FILE] [--json FILE] [--verbose] [--times]
#        [--stats-json FILE] PACKAGE...
# --times prints each test's host time in guest mode (from the console line before it);
# --stats-json passes hexsim's --stats-json FILE (packet counts) to the guest run.
import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.dirname(os.path.dirname(HERE))
CACHE = os.environ.get('HEXSIM_CACHE', os.path.expanduser('~/.cache/hexsim'))
LINE = re.compile(r'^(PASS|FAIL|SKIP): (\S+)')


def known_failures(pkg, mode):
    """{test: reason} for MODE from guest/packages/PKG/known.txt."""
    path = os.path.join(TOP, 'guest', 'packages', pkg, 'known.txt')
    known = {}
    if not os.path.exists(path):
        return known
    for line in open(path):
        line = line.strip()
        if not line or line.startswith('#'):
            continue
        head, _, reason = line.partition(' -- ')
        fields = head.split()
        if len(fields) != 2 or not reason.strip():
            sys.exit('%s: "%s" is not "MODE TEST -- REASON"' % (path, line))
        if fields[0] in (mode, 'all'):
            known[fields[1]] = reason.strip()
    return known


def parse(text):
    """[(kind, test)] and the detail lines, from check.sh's output."""
    res = []
    for line in text.splitlines():
        m = LINE.match(line)
        if m:
            res.append((m.group(1), m.group(2)))
    return res


def run_host(a, pkg, tmp):
    """Runs PKG's check.sh on the host with RUN = hexsim --user or qemu-hexagon."""
    emu = [os.path.abspath(a.hexsim), '--user'] if a.mode == 'user' else [a.qemu]
    shims = os.path.join(tmp, 'bin')
    if not os.path.isdir(shims):
        os.makedirs(shims)
        bindir = os.path.join(a.root, 'usr', 'bin')
        for name in sorted(os.listdir(bindir)):
            # called through a link of another name (playTests.sh's zstdcat), the program
            # sees that name as its argv[0], as it would in the guest
            with open(os.path.join(shims, name), 'w') as f:
                f.write('#!/bin/sh\nn=${0##*/}\nr="%s/$n"\nif [ ! -e "$r" ]; then\n'
                        '    mkdir -p "%s"; r="%s/$n"; ln -sf "%s" "$r"\nfi\nexec %s "$r" "$@"\n'
                        % (bindir, os.path.join(tmp, 'argv0'), os.path.join(tmp, 'argv0'),
                           os.path.join(bindir, name), ' '.join(emu)))
            os.chmod(os.path.join(shims, name), 0o755)
        with open(os.path.join(tmp, 'run'), 'w') as f:
            f.write('#!/bin/sh\nexec %s "$@"\n' % ' '.join(emu))
        os.chmod(os.path.join(tmp, 'run'), 0o755)
        shutil.copy(os.path.join(a.root, 'usr', 'share', 'hexsim-tests', 'lib.sh'), tmp)
    work = os.path.join(tmp, pkg)
    shutil.copytree(os.path.join(a.root, 'usr', 'share', 'hexsim-tests', pkg), work, symlinks=True)
    env = dict(os.environ, RUN=os.path.join(tmp, 'run'), BIN=shims,
               REAL=os.path.join(a.root, 'usr', 'bin'), QUICK='1' if a.quick else '',
               PATH=shims + ':' + os.environ['PATH'])
    # its own session, so that a timeout ends the test programs too and keeps what the
    # tests before them printed
    p = subprocess.Popen(['sh', 'check.sh'], cwd=work, env=env, stdout=subprocess.PIPE,
                         stderr=subprocess.STDOUT, start_new_session=True)
    try:
        out, _ = p.communicate(timeout=float(a.max_seconds))
    except subprocess.TimeoutExpired:
        os.killpg(p.pid, 9)
        out, _ = p.communicate()
        out += ('FAIL: check.sh (stopped after --max-seconds %s of host time)\n'
                % a.max_seconds).encode()
    return out.decode(errors='replace')


def run_guest(a, pkgs, tmp):
    """Boots the guest with the packages' cpio and runs every check.sh there: {pkg: output}."""
    cpio = subprocess.run([os.path.join(TOP, 'guest', 'packages', 'mkcpio.sh'), a.root,
                           os.path.join(tmp, 'packages.cpio')], check=True,
                          stdout=subprocess.PIPE).stdout.decode().strip()
    initrd = os.path.join(tmp, 'initrd.cpio')
    with open(initrd, 'wb') as f:
        f.write(open(a.initrd, 'rb').read())
        f.write(open(cpio, 'rb').read())
    typed = ''
    for pkg in pkgs:
        typed += ('echo "@%s@""@start"; (cd /usr/share/hexsim-tests/%s && QUICK=%s sh check.sh)'
                  ' </dev/null 2>&1 | sed "s/^/@%s@/"\n' % (pkg, pkg, '1' if a.quick else '', pkg))
    typed += 'echo "@@all done"\n'
    cmd = [a.hexsim, a.vmlinux, '--initrd', initrd, '--smp', str(a.smp), '--mem', a.mem,
           '--max-seconds', a.max_seconds] + (['--stats-json', a.stats_json] if a.stats_json else [])
    # read line by line to time each test on the host (from the line before it)
    t0 = time.time()
    p = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE)
    killer = threading.Timer(float(a.max_seconds) + 100, p.kill)
    killer.start()
    p.stdin.write(typed.encode())
    p.stdin.close()
    err = []
    drain = threading.Thread(target=lambda: err.append(p.stderr.read()))
    drain.start()
    lines = []
    for raw in p.stdout:
        lines.append((time.time() - t0, raw.decode(errors='replace').replace('\r', '')))
    p.wait()
    killer.cancel()
    drain.join()
    out = ''.join(text for _, text in lines)
    if a.keep_log:
        with open(a.keep_log, 'w') as f:
            f.write(out)
    if not any(text.startswith('@@all done') for _, text in lines):
        print('FAIL: the guest did not finish (hexsim exit status %d; stderr: %s)' %
              (p.returncode, b''.join(err).decode(errors='replace')[-400:]))
    res = {pkg: '' for pkg in pkgs}
    times = {pkg: {} for pkg in pkgs}
    last = 0.0
    for t, line in lines:
        m = re.match(r'^@([^@\s]+)@(.*)$', line.rstrip('\n'))
        if not m or m.group(1) not in res:
            continue
        if m.group(2) == '@start':
            last = t
            continue
        res[m.group(1)] += m.group(2) + '\n'
        r = LINE.match(m.group(2))
        if r:
            times[m.group(1)][r.group(2)] = t - last
            last = t
    return res, p.returncode, times


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--mode', required=True, choices=('user', 'qemu', 'guest'))
    ap.add_argument('--hexsim', default=os.path.join(TOP, 'build', 'hexsim'))
    ap.add_argument('--qemu', default='qemu-hexagon')
    ap.add_argument('--vmlinux')
    ap.add_argument('--initrd')
    ap.add_argument('--root', default=os.path.join(CACHE, 'packages', 'root'))
    ap.add_argument('--quick', action='store_true', help='the short subset CI runs')
    ap.add_argument('--smp', type=int, default=2)
    ap.add_argument('--mem', default='512M')
    ap.add_argument('--max-seconds', default='3000')
    ap.add_argument('--keep-log')
    ap.add_argument('--json')
    ap.add_argument('--stats-json', help="guest mode: hexsim's --stats-json FILE")
    ap.add_argument('--times', action='store_true',
                    help='guest mode: the host time of each test')
    ap.add_argument('--verbose', action='store_true', help="show failures' output")
    ap.add_argument('packages', nargs='+')
    a = ap.parse_args()
    tests = os.path.join(a.root, 'usr', 'share', 'hexsim-tests')
    for pkg in a.packages:
        if not os.path.exists(os.path.join(tests, pkg, 'check.sh')):
            print('FAIL: %s is not in %s (guest/packages/build.sh %s puts it there)' %
                  (pkg, a.root, pkg))
            return 1
    if a.mode == 'guest' and not (a.vmlinux and a.initrd):
        ap.error('--mode guest needs --vmlinux and --initrd')
    bad = []
    summary = {}
    with tempfile.TemporaryDirectory() as tmp:
        if a.mode == 'guest':
            t0 = time.time()
            outs, rc, guest_times = run_guest(a, a.packages, tmp)
            took = {pkg: None for pkg in a.packages}
            print('guest run: %.0f s of host time, hexsim exit status %d' % (time.time() - t0, rc))
            if rc != 0:
                bad.append('hexsim exit status %d' % rc)
        else:
            outs, took = {}, {}
            for pkg in a.packages:
                t0 = time.time()
                outs[pkg] = run_host(a, pkg, tmp)
                took[pkg] = time.time() - t0
        for pkg in a.packages:
            res = parse(outs[pkg])
            known = known_failures(pkg, a.mode)
            counts = {k: sum(1 for r in res if r[0] == k) for k in ('PASS', 'FAIL', 'SKIP')}
            summary[pkg] = counts
            print('%s (%s%s): %d passed, %d failed, %d skipped%s' % (
                pkg, a.mode, ', quick' if a.quick else '', counts['PASS'], counts['FAIL'],
                counts['SKIP'], '' if took[pkg] is None else ' (%.0f s)' % took[pkg]))
            if a.verbose:
                print(outs[pkg])
            if a.times and a.mode == 'guest':
                for name, secs in guest_times[pkg].items():
                    print('  host time: %s %.1f s' % (name, secs))
            if not res:
                bad.append('%s: no results' % pkg)
                print(outs[pkg][-2000:])
            for kind, name in res:
                if kind == 'FAIL' and name not in known:
                    bad.append('%s: new failure: %s' % (pkg, name))
                elif kind == 'FAIL':
                    print('  known failure: %s -- %s' % (name, known[name]))
                elif kind == 'PASS' and name in known:
                    bad.append('%s: %s is listed in known.txt but passed' % (pkg, name))
                elif kind == 'SKIP':
                    print('  skipped: %s' % name)
            if any(k == 'FAIL' and n not in known for k, n in res) and not a.verbose:
                print(outs[pkg][-3000:])
    if a.json:
        with open(a.json, 'w') as f:
            json.dump({'mode': a.mode, 'quick': a.quick, 'counts': summary}, f, indent=1)
    for b in bad:
        print('FAIL:', b)
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main())
