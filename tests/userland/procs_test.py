#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# Processes in hexsim --user (fork, vfork, execve, wait4/waitid, SIGCHLD, kill, pipes,
# groups; src/user/process.c, exec.c): tests/userland/procs/proc_main.c, built with
# tools/hexagon-cc, runs under qemu-hexagon (the oracle; it executes the Hexagon program
# proc_echo.c through qemu-hexagon itself, as the host has no binfmt_misc entry for
# Hexagon) and under hexsim --user, compiled and interpreted, twice: the same standard
# output and exit status every time. Then what only hexsim can be asked (qemu-hexagon
# hands execve to the host): "#!" scripts (an argument, none, a missing interpreter, a
# chain, a loop), execve of a V73 program and of an x86-64 one (ENOEXEC and a note),
# /proc/self/exe, a sleeping child killed (--host-time), --strace of fork/execve/wait4
# and a child's exit, --stats-json and --profile files per process, a snapshot of a
# process with children refused. With --busybox, shell pipelines, command substitution
# and background jobs of BusyBox's sh.
# Usage: procs_test.py --hexsim BUILD/hexsim --work DIR [--sysroot DIR] [--busybox FILE]
import argparse
import json
import os
import re
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
HEXAGON_CC = os.path.join(ROOT, 'tools', 'hexagon-cc')
QEMU = shutil.which('qemu-hexagon') or '/usr/bin/qemu-hexagon'
ENV = {'PATH': '/usr/bin:/bin', 'HOME': '/', 'LC_ALL': 'C'}
failures = []


def expect(what, cond, detail=''):
    print('%s: %s' % ('ok' if cond else 'FAIL', what))
    if not cond:
        failures.append(what)
        if detail:
            print(detail[-3000:])


def run(cmd, env=None, limit=120):
    try:
        p = subprocess.run(cmd, capture_output=True, env=env or ENV, timeout=limit)
    except subprocess.TimeoutExpired:
        return None, b'', b'timed out'
    rc = p.returncode if p.returncode >= 0 else 128 - p.returncode
    return rc, p.stdout, p.stderr


def build(src, out, sysroot, flags=()):
    env = dict(os.environ)
    if sysroot:
        env['HEXSIM_SYSROOT'] = sysroot
    subprocess.run([HEXAGON_CC, '-O2', '-std=c11', '-Wall', '-Wextra', '-Werror'] + list(flags) +
                   [os.path.join(HERE, 'procs', src), '-o', out], check=True, env=env)


def scratch(work, tag):
    d = os.path.join(work, tag)
    shutil.rmtree(d, ignore_errors=True)
    os.makedirs(d)
    return d


def script(path, text):
    with open(path, 'w') as f:
        f.write(text)
    os.chmod(path, 0o755)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--hexsim', required=True)
    ap.add_argument('--work', required=True)
    ap.add_argument('--sysroot')
    ap.add_argument('--busybox')
    a = ap.parse_args()
    os.makedirs(a.work, exist_ok=True)
    main_p = os.path.join(a.work, 'proc_main')
    echo = os.path.join(a.work, 'proc_echo')
    build('proc_main.c', main_p, a.sysroot)
    build('proc_echo.c', echo, a.sysroot)
    echo73 = os.path.join(a.work, 'proc_echo_v73')   # (another core: e_flags V73)
    build('proc_echo.c', echo73, a.sysroot, ['-mv73'])
    hx = [a.hexsim, '--max-seconds', '100']

    # ---- against qemu-hexagon
    qenv = dict(ENV, PROC_EXEC_WRAP=QEMU)
    q = run([QEMU, main_p, scratch(a.work, 'q'), echo], qenv)
    expect('qemu-hexagon runs proc_main (exit 0, last line ok)',
           q[0] == 0 and q[1].endswith(b'ok\n'), (q[1] + q[2]).decode(errors='replace'))
    runs = {}
    for tag, extra in (('hexsim', []), ('hexsim again', []), ('hexsim --no-jit', ['--no-jit'])):
        h = run(hx + extra + ['--user', main_p, scratch(a.work, 'h'), echo])
        runs[tag] = h
        same = h[0] == q[0] and h[1] == q[1]
        detail = ''
        if not same:
            ql, hl = q[1].decode(errors='replace').splitlines(), \
                h[1].decode(errors='replace').splitlines()
            diff = [(i + 1, x, y) for i, (x, y) in enumerate(zip(ql, hl)) if x != y][:1]
            detail = 'exit %s/%s; first difference: %s; lengths %d/%d\nstderr: %s' % (
                q[0], h[0], diff, len(ql), len(hl), h[2].decode(errors='replace'))
        expect('%s agrees with qemu-hexagon (%d lines)' % (tag, len(q[1].splitlines())), same,
               detail)

    # ---- hexsim alone: what qemu-hexagon leaves to the host's execve
    w = scratch(a.work, 'alone')

    def via(path, *args):   # proc_main executes PATH ARGS
        return run(hx + ['--user', main_p, w, echo, 'run', path] + list(args))

    script(os.path.join(w, 'arg.sh'), '#!%s -x\n' % echo)
    script(os.path.join(w, 'spaces.sh'), '#!  %s   one arg  \nrest\n' % echo)
    script(os.path.join(w, 'bare.sh'), '#!%s\n' % echo)
    script(os.path.join(w, 'chain.sh'), '#!%s/arg.sh\n' % w)
    script(os.path.join(w, 'missing.sh'), '#!/nonexistent/interpreter\n')
    script(os.path.join(w, 'loop.sh'), '#!%s/loop.sh\n' % w)
    r = via(os.path.join(w, 'arg.sh'), 'p', 'q')
    expect('#! with an argument: interpreter, argument, script, arguments',
           r[0] == 0 and b'argc=5\n' in r[1] and
           b'argv[1]="-x"\necho: argv[2]="%s/arg.sh"\necho: argv[3]="p"\necho: argv[4]="q"'
           % w.encode() in r[1], repr(r))
    r = via(os.path.join(w, 'spaces.sh'))
    expect('#! line: blanks around, the rest one argument',
           r[0] == 0 and b'argv[1]="one arg"\n' in r[1] and b'argc=3\n' in r[1], repr(r))
    r = via(os.path.join(w, 'bare.sh'), 'z')
    expect('#! without an argument', r[0] == 0 and b'argc=3\n' in r[1] and
           b'argv[2]="z"' in r[1], repr(r))
    r = via(os.path.join(w, 'chain.sh'))
    expect('#! whose interpreter is a script',
           r[0] == 0 and b'argv[1]="-x"\necho: argv[2]="%s/arg.sh"\necho: argv[3]="%s/chain.sh"'
           % (w.encode(), w.encode()) in r[1], repr(r))
    r = via(os.path.join(w, 'missing.sh'))
    expect('#! with a missing interpreter: ENOENT',
           r[0] == 127 and b'No such file or directory' in r[1], repr(r))
    r = via(os.path.join(w, 'loop.sh'))
    expect('#! loop: ELOOP', r[0] == 127 and b'link loop' in r[1], repr(r))
    r = via(echo73, 'v73')
    expect('execve of a program for another core (V67 to V73)',
           r[0] == 0 and b'argv[1]="v73"' in r[1], repr(r))
    host_prog = shutil.which('true') or '/bin/true'
    r = via(host_prog)
    expect('execve of an x86-64 program: ENOEXEC with a note',
           r[0] == 127 and b'Exec format error' in r[1] and b'x86-64' in r[2], repr(r))
    r = via('/proc/self/exe', w, echo, 'fork_exit')
    expect('execve of /proc/self/exe runs the program again',
           r[0] == 0 and r[1].startswith(b'== fork_exit\n') and r[1].endswith(b'ok\n'), repr(r))

    # --host-time: a sleep takes host time, and a signal from the parent ends it
    r = run(hx + ['--host-time', '--user', main_p, w, echo, 'sleeper'], limit=20)
    expect('--host-time: SIGTERM ends a child\'s sleep',
           r[0] == 0 and r[1] == b'SIGTERM to a sleeping child: killed by Terminated\n', repr(r))

    # --strace: the new calls decoded, the child's lines marked with its pid
    r = run(hx + ['--strace', '--user', main_p, w, echo, 'exec'])
    err = r[2].decode(errors='replace')
    pats = [r'^clone\(child_stack=NULL, flags=SIGCHLD\) = 2$',
            # (the path whole; argv's strings cut at 32 bytes, as strace's -s 32)
            r'^\[pid 2\] execve\("%s", \["[^"]{1,32}"(\.\.\.)?, "a b", "", "--write", '
            % re.escape(echo),
            r'/\* 2 vars \*/\) = 0$',
            r'^\[pid 1\] wait4\(2, \[\{WIFEXITED\(s\) && WEXITSTATUS\(s\) == 3\}\], 0, NULL\) = 2$',
            r'^\[pid 2\] \+\+\+ exited with 3 \+\+\+$', r'^\+\+\+ exited with 0 \+\+\+$']
    missing = [p for p in pats if not re.search(p, err, re.M)]
    expect('--strace decodes clone, execve, wait4 and the child\'s exit', r[0] == 0 and
           not missing, 'missing %s in:\n%s' % (missing, err))

    # --stats-json: one file per process (FILE for the first, FILE.PID for the others)
    js = os.path.join(w, 'stats.json')
    for f in os.listdir(w):
        if f.startswith('stats.json'):
            os.remove(os.path.join(w, f))
    r = run(hx + ['--stats-json', js, '--user', main_p, w, echo, 'fork_exit'])
    files = sorted(f for f in os.listdir(w) if f.startswith('stats.json'))
    ok = r[0] == 0 and files == ['stats.json'] + ['stats.json.%d' % p for p in (2, 3, 4, 5)]
    if ok:
        with open(js + '.2') as f:
            ok = json.load(f).get('packets', 0) > 0
    expect('--stats-json writes a file per process', ok, repr((files, r)))
    prof = os.path.join(w, 'prof.txt')
    r = run(hx + ['--profile', prof, '--user', main_p, w, echo, 'exec'])
    ok = r[0] == 0 and os.path.exists(prof) and os.path.exists(prof + '.2')
    if ok:
        with open(prof + '.2') as f:
            ok = 'main' in f.read()   # the child's profile is of the program it ran last
    expect('--profile writes a file per process', ok, repr(r))

    # a snapshot of a process with children: refused, saying why
    r = run(hx + ['--stats-json', js, '--user', main_p, w, echo, 'fork_exit'])
    with open(js) as f:
        packets = json.load(f)['packets']
    r = run(hx + ['--snapshot-at', str(packets - 50), '--snapshot-out', os.path.join(w, 's.snap'),
                  '--user', main_p, w, echo, 'fork_exit'])
    expect('a snapshot of a process that made others is refused',
           r[0] != 0 and b'other processes (fork)' in r[2], repr(r))

    # ---- BusyBox's sh
    if a.busybox:
        b = scratch(a.work, 'bin')
        for app in ('sh', 'cat', 'seq', 'sort', 'head', 'tr', 'wc', 'xargs', 'echo', 'sleep'):
            os.symlink(os.path.abspath(a.busybox), os.path.join(b, app))
        cmd = ('for i in 1 2; do echo $i | cat; done; seq 5 | sort -r | head -2; '
               'echo a b | tr a-z A-Z | wc -c; x=$(seq 3 | wc -l); echo "lines $x"; '
               'sleep 0 & wait $!; echo "bg $?"; seq 3 | xargs echo n; sh -c "exit 7"; '
               'echo "sub $?"; kill -9 $$')
        r = run(hx + ['--user', os.path.join(b, 'sh'), '-c', cmd], dict(ENV, PATH=b))
        want = b'1\n2\n5\n4\n4\nlines 3\nbg 0\nn 1 2 3\nsub 7\n'
        expect('BusyBox sh: pipelines, $( ), background job, kill -9 $$',
               r[0] == 137 and r[1] == want, repr(r))

    if failures:
        print('%d failed: %s' % (len(failures), ', '.join(failures)))
        return 1
    print('all passed')
    return 0


if __name__ == '__main__':
    sys.exit(main())
