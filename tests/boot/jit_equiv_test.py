#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# System-mode blocks against the packet interpreter (issue 34): boots the guest kernel with
# the root file system plus tests/boot/progs/jitwork.c (tools/hexagon-cc) in /bin (a second
# cpio archive after rootfs.cpio: the kernel unpacks both), runs a script of workloads from
# the shell (a compute loop, fork and exec, a program killed by SIGSEGV, signal handlers, an
# interval timer interrupting computation, code written at run time, a program copied into
# /tmp over another and run)
# under --no-jit, the default, and --jit-threshold 1 (every block compiled at once), and
# checks that the console output and the --stats-json numbers (packets, pcycles, stalls,
# HVM calls, events, interrupts; the host's own rows aside) are the same, and that the
# workloads printed what they should.
# Usage: jit_equiv_test.py --hexsim BUILD/hexsim --vmlinux VMLINUX --initrd ROOTFS.cpio
import argparse
import json
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.join(HERE, '..', '..')

SCRIPT = '''jitwork cpu 40
jitwork fork
jitwork fault
echo status $?
jitwork signal
jitwork timer
jitwork smc
cp /bin/jitwork /tmp/sh
/tmp/sh cpu 3
cp /bin/busybox /tmp/sh
/tmp/sh -c 'echo rewritten'
poweroff
'''

EXPECT = [
    ('the compute loop', r'cpu 40: [0-9a-f]{8}\r?\n'),
    ('fork and exec', r'child: [0-9a-f]{8}\r?\n(.*\n)*fork: child exited 7\r?\n'),
    ('the killed program', r'fault: storing to 0x10\r?\n(.*\n)*?status 139\r?\n'),
    ('signal handlers', r'signal: usr1 3, segv at 0x40\r?\n'),
    ('the interval timer', r'timer: 25 ticks, some rounds\r?\n'),
    ('code written at run time', r'smc: 1800 \(expected 1800\)\r?\n'),
    ('a program copied over another', r'cpu 3: [0-9a-f]{8}\r?\n(.*\n)*rewritten\r?\n'),
    ('poweroff', r'reboot: (System halted|Power down)'),
]

RUNS = [('--no-jit', ['--no-jit']), ('default', []), ('--jit-threshold 1', ['--jit-threshold', '1'])]


def build(work):
    jw = os.path.join(work, 'jitwork')
    subprocess.run([os.path.join(TOP, 'tools', 'hexagon-cc'), '-O2',
                    os.path.join(HERE, 'progs', 'jitwork.c'), '-o', jw], check=True)
    lst = os.path.join(work, 'extra.list')
    with open(lst, 'w') as f:
        f.write('file /bin/jitwork 755 bin:jitwork\n')
    extra = os.path.join(work, 'extra.cpio')
    subprocess.run([sys.executable, os.path.join(TOP, 'tools', 'mkcpio.py'), '--list', lst,
                    '--bin', work, '-o', extra], check=True)
    return extra


def initrd_with_jitwork(work, rootfs):
    """The root file system rootfs with jitwork in /bin appended (the kernel reads the
    concatenated cpio archives as one), in work; returns its path."""
    extra = build(work)
    initrd = os.path.join(work, 'initrd.cpio')
    with open(initrd, 'wb') as out:
        for part in (rootfs, extra):
            with open(part, 'rb') as f:
                out.write(f.read())
    return initrd


def numbers(path):
    with open(path) as f:
        s = json.load(f)
    return {k: v for k, v in s.items()
            if not k.startswith('host_') and k != 'packets_per_second'}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--hexsim', required=True)
    ap.add_argument('--vmlinux', required=True)
    ap.add_argument('--initrd', required=True)
    a = ap.parse_args()
    with tempfile.TemporaryDirectory() as work:
        initrd = initrd_with_jitwork(work, a.initrd)
        script = os.path.join(work, 'script.txt')
        with open(script, 'w') as f:
            f.write(SCRIPT)
        results = []
        for name, opts in RUNS:
            js = os.path.join(work, 'stats.json')
            p = subprocess.run([a.hexsim, a.vmlinux, '--initrd', initrd, '--script', script,
                                '--stats-json', js] + opts, capture_output=True, timeout=600,
                               stdin=subprocess.DEVNULL)
            out = p.stdout.decode(errors='replace')
            if p.returncode != 0:
                print('FAIL %s: exit status %d\n--- stdout\n%s--- stderr\n%s' %
                      (name, p.returncode, out[-3000:], p.stderr.decode(errors='replace')[-3000:]))
                return 1
            st = numbers(js)
            print('%-18s packets %d, pcycles %d' % (name, st['packets'], st['pcycles']))
            results.append((name, out, st))
        bad = []
        ref_name, ref_out, ref_st = results[0]
        for what, rx in EXPECT:
            if not re.search(rx, ref_out):
                bad.append('%s: no %r in the output' % (what, rx))
        for name, out, st in results[1:]:
            if out != ref_out:
                bad.append('%s: the console output differs from %s' % (name, ref_name))
            for k in sorted(set(ref_st) | set(st)):
                if ref_st.get(k) != st.get(k):
                    bad.append('%s: %s is %s, %s under %s' % (name, k, st.get(k), ref_st.get(k),
                                                             ref_name))
        if bad:
            print('FAIL\n  ' + '\n  '.join(bad) + '\n--- output (%s)\n%s' % (ref_name, ref_out))
            return 1
    print('boot_jit_equiv: ok')
    return 0


if __name__ == '__main__':
    sys.exit(main())
