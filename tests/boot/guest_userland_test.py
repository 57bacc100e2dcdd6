#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# The project's own C and C++ programs (tests/userland, built with tools/hexagon-cc and
# tools/hexagon-c++ against the musl sysroot and libc++) inside the booted guest (ctest label "guest_software"): each program runs
# under `hexsim --user` first (its expected output and exit status), then all of them go
# in a second cpio archive appended to the root file system's, the guest boots with
# --smp N and a script runs each one with the same arguments and environment, and what
# each printed and its exit status must be the same as under --user. The threaded ones
# (pthreads, threadlife) are why this exists: the guest's threads take the kernel's
# clone, futex, TLS (UGP) and signal paths, which --user does not.
# --dynamic adds the dynamically linked program of tests/userland/dynlink_test.py (its own
# shared library, a plugin it dlopens, TLS in both): the sysroot's libc.so goes in as the
# guest's /lib/ld-musl-hexagon.so.1 and the libraries in /usr/lib, and its output must be
# the same as under `hexsim --user -L` with the same files as the guest root.
# Usage: guest_userland_test.py --hexsim BUILD/hexsim --vmlinux VMLINUX --initrd ROOTFS.cpio
#        --smp N --work DIR [--sysroot DIR] [--libcxx DIR] [--max-seconds N] [--dynamic]
#        PROG...
import argparse
import os
import re
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, 'tests', 'userland'))
import userland_test as ut  # noqa: E402  (the programs' table and their build)
import dynlink_test  # noqa: E402  (the dynamic program, its libraries and its root)
sys.path.insert(0, HERE)
from ash_test import extra_cpio  # noqa: E402  (a second cpio of files {guest: host})


def shell_quote(s):
    return "'" + s.replace("'", "'\\''") + "'"


def guest_script(progs, specs):
    """The guest's /ut/run.sh: every program between markers, its output prefixed."""
    # the loopback interface (the socket programs); /init leaves it down
    lines = ['#!/bin/sh', 'ip link set lo up 2>/dev/null || ifconfig lo 127.0.0.1 up']
    for name in progs:
        spec = specs[name]
        work = '/tmp/ut-' + name
        args = ' '.join(shell_quote(work if a == 'WORK' else a) for a in spec.get('args', []))
        env = {'PATH': '/usr/bin:/bin', 'HOME': '/', 'LC_ALL': 'C'}
        env.update(spec.get('env', {}))
        envs = ' '.join('%s=%s' % (k, shell_quote(v)) for k, v in sorted(env.items()))
        lines += ['rm -rf %s; mkdir -p %s' % (work, work),
                  'echo "@@begin %s"' % name,
                  'env -i %s /ut/%s %s >/tmp/ut-%s.out 2>/tmp/ut-%s.err </dev/null'
                  % (envs, name, args, name, name),
                  'rc=$?',
                  "sed 's/^/@@| /' /tmp/ut-%s.out" % name,
                  'echo "@@rc %s $rc"' % name]
    lines.append('echo "@@all done"')
    return '\n'.join(lines) + '\n'


def parse(console):
    """{name: (exit status, output bytes)} from the guest's console."""
    got = {}
    cur, out = None, []
    for line in console.replace('\r', '').split('\n'):
        m = re.match(r'^@@begin (\S+)$', line)
        if m:
            cur, out = m.group(1), []
            continue
        if cur and line.startswith('@@| '):
            out.append(line[4:])
        elif cur and line == '@@|':
            out.append('')
        m = re.match(r'^@@rc (\S+) (\d+)$', line)
        if m and m.group(1) == cur:
            got[cur] = (int(m.group(2)), ''.join(x + '\n' for x in out).encode())
            cur = None
    return got


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--hexsim', required=True)
    ap.add_argument('--vmlinux', required=True)
    ap.add_argument('--initrd', required=True)
    ap.add_argument('--smp', default='1')
    ap.add_argument('--work', required=True)
    ap.add_argument('--sysroot')
    ap.add_argument('--libcxx')
    ap.add_argument('--max-seconds', default='600')
    ap.add_argument('--dynamic', action='store_true')
    ap.add_argument('progs', nargs='+', choices=sorted(ut.PROGS))
    a = ap.parse_args()
    os.makedirs(a.work, exist_ok=True)

    binaries, expected = {}, {}
    specs = {name: ut.PROGS[name] for name in a.progs}
    progs = list(a.progs)
    extra = {}
    if a.dynamic:
        dwork = os.path.join(a.work, 'dynamic')
        os.makedirs(dwork, exist_ok=True)
        root, exe, _ = dynlink_test.build_dynamic(argparse.Namespace(sysroot=a.sysroot), dwork)
        rc, out, err = ut.runs([a.hexsim, '--max-seconds', str(ut.LIMIT), '--user', '-L', root],
                               exe, {}, a.work, 'dynamic-user')
        if rc is None:
            print('FAIL: dynamic under hexsim --user -L: %s' % err.decode(errors='replace'))
            return 1
        expected['dynamic'], binaries['dynamic'], specs['dynamic'] = (rc, out), exe, {}
        progs.append('dynamic')
        lib = os.path.join(root, 'usr', 'lib')
        extra = {'/lib/ld-musl-hexagon.so.1': os.path.join(lib, 'libc.so'),
                 '/usr/lib/libgreet.so': os.path.join(lib, 'libgreet.so'),
                 '/usr/lib/libplugin.so': os.path.join(lib, 'libplugin.so')}
    for name in a.progs:
        spec = ut.PROGS[name]
        guest = os.path.join(a.work, name)
        cxx = spec.get('cxx', False)
        src = (os.path.join(ROOT, 'tests', 'userland', 'cxx', name[len('cxx_'):] + '.cpp')
               if cxx else os.path.join(ROOT, 'tests', 'userland', name + '.c'))
        ut.build_guest(src, guest, spec.get('link', []), a.sysroot, spec.get('cflags', []),
                       a.libcxx, cxx)
        binaries[name] = guest
        rc, out, err = ut.runs([a.hexsim, '--max-seconds', str(ut.LIMIT), '--user'], guest,
                               spec, a.work, name + '-user')
        if rc is None:
            print('FAIL: %s under hexsim --user: %s' % (name, err.decode(errors='replace')))
            return 1
        expected[name] = (rc, out)

    with tempfile.TemporaryDirectory() as tmp:
        initrd = os.path.join(tmp, 'initrd.cpio')
        with open(initrd, 'wb') as f:
            f.write(open(a.initrd, 'rb').read())
            run_sh = os.path.join(tmp, 'run.sh')
            with open(run_sh, 'w') as g:
                g.write(guest_script(progs, specs))
            files = {'/ut/run.sh': run_sh}
            files.update({'/ut/' + name: path for name, path in binaries.items()})
            files.update(extra)
            f.write(open(extra_cpio(tmp, files), 'rb').read())
        typed = b'sh /ut/run.sh; poweroff\n'
        t0 = time.time()
        try:
            p = subprocess.run([a.hexsim, a.vmlinux, '--initrd', initrd, '--smp', a.smp,
                                '--max-seconds', a.max_seconds],
                               input=typed, capture_output=True,
                               timeout=float(a.max_seconds) + 120)
        except subprocess.TimeoutExpired:
            print('FAIL: hexsim did not finish in %s s' % a.max_seconds)
            return 1
        took = time.time() - t0
    console = p.stdout.decode(errors='replace')
    got = parse(console)
    bad = []
    if p.returncode != 0:
        bad.append('hexsim exit status %d, expected 0 (stderr: %s)' %
                   (p.returncode, p.stderr.decode(errors='replace')[-500:]))
    if '@@all done' not in console.replace('\r', ''):
        bad.append('the guest script did not finish')
    for marker in ('WARNING:', 'BUG:', 'Oops', 'cut here'):
        if marker in console:
            bad.append('the kernel printed %r' % marker)
    for name in progs:
        if name not in got:
            bad.append('%s: no result from the guest' % name)
            continue
        if got[name] == expected[name]:
            print('%s: guest (--smp %s) and hexsim --user agree (exit status %d, %d lines)'
                  % (name, a.smp, got[name][0], len(got[name][1].splitlines())))
            continue
        bad.append('%s: guest and --user differ' % name)
        ut.show('hexsim --user', (expected[name][0], expected[name][1], b''))
        ut.show('guest --smp %s' % a.smp, (got[name][0], got[name][1], b''))
    print('%d programs in the guest with --smp %s, %.1f s of host time' %
          (len(progs), a.smp, took))
    if bad:
        sys.stdout.write(console[-3000:])
    for b in bad:
        print('FAIL:', b)
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main())
