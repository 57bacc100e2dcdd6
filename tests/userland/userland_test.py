#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# C programs linked with the musl sysroot (tools/hexagon-cc), and C++ programs (cxx/,
# tools/hexagon-c++ with libc++; named cxx_NAME here), run three ways and
# compared: under qemu-hexagon (the oracle), under `hexsim --user`, and, where the
# output is deterministic, as the same source compiled for the host. Standard output
# and exit status must agree; standard error is shown on failure only.
#
#   --mode qemu    qemu-hexagon against the host build (or, for a program without a
#                  host reference, qemu-hexagon's exit status 0 and a last line "ok")
#   --mode hexsim  hexsim --user against qemu-hexagon
#
# Usage: userland_test.py --prog NAME --mode qemu|hexsim --work DIR
#        [--hexsim BUILD/hexsim] [--sysroot DIR] [--libcxx DIR] [--host-cc CC]
#        [--host-cxx CXX]
import argparse
import os
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
HEXAGON_CC = os.path.join(ROOT, 'tools', 'hexagon-cc')
HEXAGON_CXX = os.path.join(ROOT, 'tools', 'hexagon-c++')
QEMU = shutil.which('qemu-hexagon') or '/usr/bin/qemu-hexagon'

# Per program: arguments (WORK is replaced by a fresh scratch directory), extra
# environment, link flags, and whether a host build gives the same output.
PROGS = {
    'stdio':    dict(args=['WORK']),
    'malloc':   dict(),
    'strings':  dict(),
    'sort':     dict(),
    'math':     dict(link=['-lm']),
    'builtins': dict(),
    'timeclock': dict(env={'TZ': 'UTC'}),
    'files':    dict(args=['WORK']),
    'getopt':   dict(args=['-a', '-b', 'barg', '--long=7', '-c3', 'rest1', '--', '-x', 'rest2'],
                     env={'USERLAND_A': 'alpha', 'USERLAND_B': ''}),
    'setjmp':   dict(),
    'signals':  dict(),
    'pthreads': dict(link=['-pthread']),
    'threadlife': dict(link=['-pthread']),
    # HVX intrinsics (128-byte vectors); the host build runs the scalar versions
    'hvx':      dict(cflags=['-mv65', '-mhvx', '-mhvx-length=128B']),
    # sockets over the loopback (a TCP echo between two processes), getaddrinfo
    'net':      dict(link=['-pthread']),
    # epoll, eventfd, timerfd, signalfd, inotify (of WORK), memfd
    'events':   dict(args=['WORK']),
    # C++ (tests/userland/cxx/NAME.cpp, libc++); the host build uses the host's
    # libstdc++, so the programs print only what the standard fixes.
    'cxx_exceptions': dict(cxx=True),
    'cxx_rtti':       dict(cxx=True),
    'cxx_iostreams':  dict(cxx=True, args=['WORK']),
    'cxx_threads':    dict(cxx=True, link=['-pthread']),
    'cxx_filesystem': dict(cxx=True, args=['WORK']),
    'cxx_chrono':     dict(cxx=True),
    # -O0: header-free operator new/delete and static objects as unoptimised code
    # calls them
    'cxx_statics':    dict(cxx=True, cflags=['-O0']),
}
LIMIT = 120

# Where qemu-hexagon 7.2 differs from Linux 6.1 on Hexagon, which the port (and so
# hexsim) follows: what qemu prints, what the kernel gives, and why. Applied to
# qemu-hexagon's output before any comparison, and only where it occurs.
QEMU_DEVIATIONS = {
    'net': [
        (b'SO_RCVTIMEO 2.000000 len right 0', b'SO_RCVTIMEO 2.500000 len right 1',
         "qemu refuses setsockopt SO_RCVTIMEO_NEW (66), which musl's time64 setsockopt "
         "tries first (musl then falls back to SO_RCVTIMEO_OLD), and its getsockopt of "
         "SO_RCVTIMEO_NEW does not give back the timeout set; Linux 6.1 takes and gives "
         "the 16-byte __kernel_sock_timeval (net/core/sock.c sock_set_timeout, sock_get_timeout)"),
        (b'recvmmsg zero timeout: 3,', b'recvmmsg zero timeout: 1,',
         "qemu ignores recvmmsg's timeout (its loop is given none) and takes all three "
         "messages; Linux 6.1 ends the call after the first when the timeout has run out "
         "(net/socket.c do_recvmmsg)"),
        (b'recvmmsg bad timeout: received', b'recvmmsg bad timeout: EINVAL',
         "qemu does not read recvmmsg's timeout, so a tv_nsec of 10^9 is not refused and "
         "the call receives; Linux 6.1 refuses it with EINVAL before receiving "
         "(poll_select_set_timeout)"),
    ],
    'signals': [
        (b'sa_mask applied 0', b'sa_mask applied 1',
         "qemu reads rt_sigaction's sa_mask at offset 12, as if Hexagon had sa_restorer; "
         "Linux 6.1's Hexagon struct sigaction has none (no SA_RESTORER): the mask is at "
         "offset 8, and the handler runs with it"),
    ],
}


def run(cmd, env, timeout=LIMIT + 60):
    try:
        p = subprocess.run(cmd, capture_output=True, env=env, timeout=timeout)
    except subprocess.TimeoutExpired:
        return None, b'', b'timed out after %d s' % timeout
    # Killed by signal N (the host build, qemu-hexagon re-raising the guest's signal)
    # is the shell's status 128+N, which hexsim reports as its exit status.
    rc = p.returncode if p.returncode >= 0 else 128 - p.returncode
    return rc, p.stdout, p.stderr


def qemu_fixed(name, res):
    rc, out, err = res
    for wrong, right, why in QEMU_DEVIATIONS.get(name, []):
        if wrong in out:
            print('note: qemu-hexagon deviation in %s: %s' % (name, why))
            out = out.replace(wrong, right)
    return rc, out, err


def build_guest(src, out, link, sysroot, cflags=(), libcxx=None, cxx=False):
    env = dict(os.environ)
    if sysroot:
        env['HEXSIM_SYSROOT'] = sysroot
    if libcxx:
        env['HEXSIM_LIBCXX'] = libcxx
    cc, std = (HEXAGON_CXX, '-std=c++20') if cxx else (HEXAGON_CC, '-std=c11')
    cmd = [cc, '-O2', std, '-D_GNU_SOURCE', '-Wall', '-Wextra', '-Werror',
           src, '-o', out] + list(cflags) + link
    subprocess.run(cmd, check=True, env=env)
    # hexagon-cc builds without duplexes, so the linked program (libc included) has no
    # site ld.lld-16 may have corrupted (tools/lld_duplex_check.py).
    subprocess.run([sys.executable, os.path.join(ROOT, 'tools', 'lld_duplex_check.py'), out],
                   check=True)


def build_host(src, out, link, cc, cxx=False):
    # The reference build: the guest build above is the one held to -Werror (gcc
    # warns about the deliberate edge cases: truncations, huge requests).
    # -frounding-math: the programs change the rounding mode, which gcc otherwise
    # assumes fixed.
    std = '-std=c++20' if cxx else '-std=c11'
    cmd = [cc, '-O2', std, '-D_GNU_SOURCE', '-frounding-math', '-w', src, '-o', out] + link + ['-lm']
    subprocess.run(cmd, check=True)


def scratch(work, tag):
    d = os.path.join(work, 'scratch-' + tag)
    shutil.rmtree(d, ignore_errors=True)
    os.makedirs(d)
    return d


def runs(cmd_prefix, prog, spec, work, tag):
    args = [scratch(work, tag) if a == 'WORK' else a for a in spec.get('args', [])]
    env = {'PATH': '/usr/bin:/bin', 'HOME': '/', 'LC_ALL': 'C'}
    env.update(spec.get('env', {}))
    return run(cmd_prefix + [prog] + args, env)


def show(tag, res):
    rc, out, err = res
    print('--- %s: exit status %s' % (tag, rc))
    sys.stdout.write(out.decode(errors='replace'))
    if err:
        print('--- %s stderr:' % tag)
        sys.stdout.write(err.decode(errors='replace')[-4000:])


def compare(name, a_tag, a, b_tag, b):
    if a[0] is None or b[0] is None or a[0] != b[0] or a[1] != b[1]:
        print('FAIL: %s: %s and %s differ' % (name, a_tag, b_tag))
        show(a_tag, a)
        show(b_tag, b)
        if a[1] != b[1]:
            al, bl = a[1].decode(errors='replace').splitlines(), b[1].decode(errors='replace').splitlines()
            for i, (x, y) in enumerate(zip(al, bl)):
                if x != y:
                    print('first difference, line %d:\n  %s: %s\n  %s: %s' % (i + 1, a_tag, x, b_tag, y))
                    break
            else:
                print('outputs differ in length: %d and %d lines' % (len(al), len(bl)))
        return False
    print('%s: %s and %s agree (exit status %d, %d lines)' %
          (name, a_tag, b_tag, a[0], len(a[1].splitlines())))
    return True


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--prog', required=True, choices=sorted(PROGS))
    ap.add_argument('--mode', required=True, choices=['qemu', 'hexsim'])
    ap.add_argument('--work', required=True)
    ap.add_argument('--hexsim')
    ap.add_argument('--sysroot')
    ap.add_argument('--libcxx')
    ap.add_argument('--host-cc', default='cc')
    ap.add_argument('--host-cxx', default='c++')
    a = ap.parse_args()
    spec = PROGS[a.prog]
    work = os.path.join(a.work, a.prog + '-' + a.mode)
    os.makedirs(work, exist_ok=True)
    cxx = spec.get('cxx', False)
    if cxx:
        src = os.path.join(HERE, 'cxx', a.prog[len('cxx_'):] + '.cpp')
    else:
        src = os.path.join(HERE, a.prog + '.c')
    guest = os.path.join(work, a.prog)
    build_guest(src, guest, spec.get('link', []), a.sysroot, spec.get('cflags', []),
                a.libcxx, cxx)
    qemu = qemu_fixed(a.prog, runs([QEMU], guest, spec, work, 'qemu'))
    if a.mode == 'qemu':
        if spec.get('host', True):
            host = os.path.join(work, a.prog + '.host')
            build_host(src, host, spec.get('link', []), a.host_cxx if cxx else a.host_cc, cxx)
            ok = compare(a.prog, 'host', runs([], host, spec, work, 'host'), 'qemu-hexagon', qemu)
        else:
            lines = qemu[1].decode(errors='replace').splitlines()
            ok = qemu[0] == 0 and lines and lines[-1] == 'ok'
            show('qemu-hexagon', qemu)
    else:
        if not a.hexsim:
            ap.error('--mode hexsim needs --hexsim')
        sim = runs([a.hexsim, '--max-seconds', str(LIMIT), '--user'], guest, spec, work, 'hexsim')
        ok = compare(a.prog, 'qemu-hexagon', qemu, 'hexsim', sim)
    return 0 if ok else 1


if __name__ == '__main__':
    sys.exit(main())
