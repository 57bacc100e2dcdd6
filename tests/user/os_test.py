#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# Threads, signals, timers and the file/process system calls of hexsim --user, against
# qemu-hexagon: tests/user/progs/threads.c, signals.c and fsops.c (raw system calls) run
# under qemu-hexagon, hexsim and hexsim --no-jit with the same output and exit status; for
# the threaded program also the same --stats-json values (packets, pcycles) with and
# without compiled blocks and run after run. Also: --strace names the new calls; snapshots
# of a threaded process and of one with signal handlers, masks and timers restore to the
# same rest of the run (one with a changed directory is refused); a thread waiting forever;
# SIGBUS/SIGILL handlers; under the debugger a fault stops the program and continuing runs
# the program's handler.
# Usage: os_test.py --hexsim BUILD/hexsim --work DIR
import argparse
import json
import os
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
CLANG = ['clang-16', '--target=hexagon-unknown-linux-musl', '-mv67', '-O2', '-ffreestanding',
         '-nostdlib', '-fuse-ld=lld', '-static']
HOST_KEYS = ('host', 'packets_per')
failures = []


def expect(what, cond, detail=''):
    if not cond:
        failures.append(what)
        print('FAIL: %s %s' % (what, detail))
    else:
        print('ok: %s' % what)


def run(cmd, limit=120):
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=limit)
    return p.returncode, p.stdout, p.stderr


def hexsim(exe, args, work, mode, extra=()):
    js = os.path.join(work, 'stats.json')
    cmd = [exe, '--max-seconds', '100', '--stats-json', js] + list(extra) + \
          (['--no-jit'] if mode == 'interp' else []) + ['--user'] + args
    rc, out, err = run(cmd)
    with open(js) as f:
        stats = {k: v for k, v in json.load(f).items() if not k.startswith(HOST_KEYS)}
    return rc, out, err, stats


def scratch(work, name):
    d = os.path.join(work, name)
    shutil.rmtree(d, ignore_errors=True)
    os.makedirs(d)
    return d


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--hexsim', required=True)
    ap.add_argument('--work', required=True)
    a = ap.parse_args()
    os.makedirs(a.work, exist_ok=True)
    progs = {}
    for name in ('threads', 'signals', 'fsops'):
        progs[name] = os.path.join(a.work, name)
        subprocess.run(CLANG + [os.path.join(HERE, 'progs', name + '.c'), '-o', progs[name]],
                       check=True)
    qemu = shutil.which('qemu-hexagon')
    expect('qemu-hexagon is installed (tools/setup.sh)', qemu)
    cases = [('threads', []), ('threads', ['g']), ('signals', []), ('signals', ['t']),
             ('signals', ['i']), ('signals', ['p']), ('fsops', None)]
    for name, args in cases:
        label = ' '.join([name] + (args or []))
        runs = {}
        for mode in ('jit', 'interp', 'again'):
            argv = args if args is not None else [scratch(a.work, 'fs-' + mode[0])]
            runs[mode] = hexsim(a.hexsim, [progs[name]] + argv, a.work,
                                'interp' if mode == 'interp' else 'jit')
        rc, out, err, stats = runs['jit']
        expect('%s: runs (exit %d)' % (label, rc),
               rc in (0, 3, 5, 42, 141, 143) and (out or args == ['t']),
               'stderr: %s' % err[-600:])
        # output, exit status and the --stats values: compiled = interpreted = run again
        for other in ('interp', 'again'):
            o = runs[other]
            expect('%s: %s run gives the same output and statistics' % (label, other),
                   (o[0], o[1], o[3]) == (rc, out, stats),
                   '\n  jit: %r %r\n  %s: %r %r' % (rc, stats, other, o[0], o[3]))
        if qemu:
            argv = args if args is not None else [scratch(a.work, 'fs-q')]
            qrc, qout, qerr = run([qemu, progs[name]] + argv)
            qrc = 128 - qrc if qrc < 0 else qrc   # qemu ends itself with the signal
            expect('%s: same output and exit status as qemu-hexagon' % label,
                   (qrc, qout) == (rc, out),
                   '\n  qemu %d:\n%s\n  hexsim %d:\n%s' % (qrc, qout, rc, out))
        if name == 'threads' and not args:
            expect('threads: several threads ran', 'counter=12000' in out, out)
            expect('threads: --stats counts 9 threads, their switches and 1 signal handled',
                   stats.get('threads') == 9 and stats.get('thread_switches', 0) > 8 and
                   stats.get('signals_handled') == 1, str(stats))
        if name == 'signals' and args == ['t']:
            expect('signals t: default action ends with 128+SIGTERM', rc == 143, str(rc))
            expect('signals t: says which signal', 'signal 15 (SIGTERM)' in err, err)

    # --strace names the new calls
    rc, out, err = run([a.hexsim, '--strace', '--user', progs['threads']])
    for call in ('clone(', 'futex_time64(', 'rt_sigaction(', 'tgkill(', 'rt_sigreturn(',
                 'sched_yield(', 'exit('):
        expect('--strace shows %s' % call,
               any(l.split('] ')[-1].startswith(call) for l in err.splitlines()), err[-300:])
    # snapshots keep threads, signal state and timers: a run paused to write them and runs
    # restored from them give the straight run's output (its rest), exit status and --stats
    for name, points in (('threads', (1234, 60000, 120000)), ('signals', (700, 2000, 3500))):
        rc0, out0, err0, st0 = hexsim(a.hexsim, [progs[name]], a.work, 'jit')
        pattern = os.path.join(a.work, name + '-%N.snap')
        arg = ','.join(str(p) for p in points)
        rc, out, err, st = hexsim(a.hexsim, [progs[name]], a.work, 'jit',
                                  ['--snapshot-at', arg, '--snapshot-out', pattern])
        expect('%s: a run writing snapshots at %s is the straight run' % (name, arg),
               (rc, out, st) == (rc0, out0, st0), '%d %r %s' % (rc, st, err[-300:]))
        for p in points:
            snap = pattern.replace('%N', str(p))
            rc, out, err = run([a.hexsim, '--stats-json', os.path.join(a.work, 'r.json'),
                                '--user', '--restore', snap])
            with open(os.path.join(a.work, 'r.json')) as f:
                st = {k: v for k, v in json.load(f).items() if not k.startswith(HOST_KEYS)}
            expect('%s: restored at %d: the rest of the output, status and statistics' %
                   (name, p), rc == rc0 and out0.endswith(out) and st == st0,
                   'rc %d: %r %s' % (rc, {k: (st0.get(k), v) for k, v in st.items()
                                          if st0.get(k) != v}, err[-300:]))
    # a changed current directory (a host directory) cannot be saved: refused, saying why
    snap = os.path.join(a.work, 'fsops.snap')
    if os.path.exists(snap):
        os.remove(snap)
    rc, out, err = run([a.hexsim, '--user', '--snapshot-at', '800', '--snapshot-out', snap,
                        progs['fsops'], scratch(a.work, 'fs-s')])
    expect('fsops: snapshot refused: the process changed its current directory',
           rc != 0 and 'current directory' in err and 'not written' in err and
           not os.path.exists(snap), 'rc %d: %s' % (rc, err[-400:]))
    # a process whose only thread waits for nothing that can come is ended, saying so
    rc, out, err = run([a.hexsim, '--user', progs['signals'], 'd'])
    expect('a thread waiting forever: exit 124 and a message', rc == 124 and
           'nothing can wake' in err, 'rc %d: %s' % (rc, err))
    # a misaligned load and an invalid instruction reach SIGBUS and SIGILL handlers
    for arg, sig in (('b', 7), ('l', 4)):
        rc, out, err = run([a.hexsim, '--user', progs['signals'], arg])
        expect('fault %s: handler for signal %d' % (arg, sig),
               rc == 9 and out == 'signal: %d\nsi_code: 128\n' % sig, 'rc %d: %r %s' % (rc, out, err))
    # under the debugger a fault stops the program; continuing runs its handler
    script = os.path.join(a.work, 'dbg.cmd')
    with open(script, 'w') as f:
        f.write('run\ncontinue\ncontinue\ncontinue\nquit\n')
    rc, out, err = run([a.hexsim, '--user', '--debug', '-x', script, progs['signals']])
    expect('debugger: stops at the faults, then the handler runs',
           (out + err).count('received signal SIGSEGV') == 2 and 'SEGV_ACCERR handled, store done: 1'
           in out and 'kill other pid: -3' in out, out[-800:] + err[-400:])
    print('%d failures' % len(failures) if failures else 'all passed')
    return 1 if failures else 0


if __name__ == '__main__':
    sys.exit(main())
