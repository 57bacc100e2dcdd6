#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# Root file system tests (ctest label "rootfs"). Subcommands:
#   build   builds guest/rootfs (make; the other tests need it: ctest fixture)
#   libc    runs the libc test program under qemu-hexagon and hexsim --user
#   utils   runs the multi-call utilities on files under qemu-hexagon (and the ones whose
#           system calls hexsim's user mode has under hexsim --user)
#   shell   a scripted /bin/sh session under qemu-hexagon (fork/exec/pipes; compared with
#           session.expected, which bash also gives) and a builtins-only one under hexsim
#   lineedit  the interactive line editor on a pseudo-terminal under qemu-hexagon
#   cpio    parses build/rootfs.cpio (newc) and checks its entries
# A hexsim run that stops at a packet hexsim's decoder rejects is reported and skipped
# (exit 77) rather than failed: that is a decoder issue, not a rootfs one.
# Usage: rootfs_test.py CMD --build BUILD_DIR [--hexsim BUILD/hexsim]
import argparse
import os
import shutil
import stat
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
QEMU = shutil.which('qemu-hexagon') or '/usr/bin/qemu-hexagon'
failures = []
skips = []


def check(what, cond, detail=''):
    if not cond:
        failures.append(what)
        print('FAIL: %s %s' % (what, detail))


def run(cmd, stdin=None, env=None, cwd=None, timeout=300, merge=False):
    p = subprocess.run(cmd, input=stdin, stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT if merge else subprocess.PIPE, env=env, cwd=cwd,
                       timeout=timeout)
    return p.returncode, p.stdout.decode(errors='replace'), (p.stderr or b'').decode(errors='replace')


def hexsim_run(a, args, stdin=None, cwd=None):
    rc, out, err = run([a.hexsim, '--max-seconds', '120', '--user'] + args, stdin=stdin, cwd=cwd)
    if 'packet breaks a packet-formation rule' in err:
        skips.append('%s: %s' % (' '.join(os.path.basename(x) for x in args[:2]),
                                 err.strip().splitlines()[0]))
        return None
    return rc, out, err


def compare(what, got, want):
    check(what, got == want, '\n--- got:\n%s\n--- expected:\n%s' % (got, want))


def bindir(a):
    return os.path.join(a.build, 'rootfs', 'bin')


def cmd_build(a):
    rc, out, err = run(['make', '-C', os.path.join(ROOT, 'guest', 'rootfs'), 'O=' + a.build,
                        'PYTHON=' + sys.executable], timeout=1200)
    check('make guest/rootfs', rc == 0, out[-3000:] + err[-3000:])
    for prog in ('init', 'sh', 'box', 'libctest'):
        path = os.path.join(bindir(a), prog)
        check('%s built' % prog, os.path.exists(path))
        if os.path.exists(path):
            print('%-8s %7d bytes' % (prog, os.path.getsize(path)))
    cpio = os.path.join(a.build, 'rootfs.cpio')
    if os.path.exists(cpio):
        print('rootfs.cpio %d bytes' % os.path.getsize(cpio))


def cmd_libc(a):
    want = open(os.path.join(HERE, 'libctest.expected')).read()
    prog = os.path.join(bindir(a), 'libctest')
    with tempfile.TemporaryDirectory() as tmp:
        rc, out, err = run([QEMU, prog, os.path.join(tmp, 'q.tmp')])
        check('libctest under qemu-hexagon: exit 0', rc == 0, err)
        compare('libctest under qemu-hexagon', out, want)
        if a.hexsim:
            r = hexsim_run(a, [prog, os.path.join(tmp, 'h.tmp')])
            if r:
                check('libctest under hexsim: exit 0', r[0] == 0, r[2])
                compare('libctest under hexsim', r[1], want)


UTIL_CASES = [
    # (argv after the applet name, stdin, expected stdout, expected status, hexsim-capable)
    (['cat', 'a.txt'], None, 'alpha\nbeta\ngamma delta\nAlphabet\n', 0, True),
    (['cat'], b'from stdin\n', 'from stdin\n', 0, True),
    (['cat', 'missing'], None, '', 1, True),
    (['head', '-n', '2', 'a.txt'], None, 'alpha\nbeta\n', 0, True),
    (['head', '-1', 'a.txt'], None, 'alpha\n', 0, True),
    (['head', '-c', '8', 'a.txt'], None, 'alpha\nbe', 0, True),
    (['head', '-c3'], b'xyzzy', 'xyz', 0, True),
    (['tail', '-n', '2', 'a.txt'], None, 'gamma delta\nAlphabet\n', 0, True),
    (['wc', 'a.txt'], None, '      4       5      32 a.txt\n', 0, True),
    (['wc', '-l'], b'1\n2\n3\n', '3\n', 0, True),
    (['wc', '-w', 'a.txt'], None, '      5 a.txt\n', 0, True),
    (['grep', 'alp', 'a.txt'], None, 'alpha\n', 0, True),
    (['grep', '-i', '-n', 'alp', 'a.txt'], None, '1:alpha\n4:Alphabet\n', 0, True),
    (['grep', '-v', 'a$', 'a.txt'], None, 'Alphabet\n', 0, True),
    (['grep', '-c', '^[ab]', 'a.txt'], None, '2\n', 0, True),
    (['grep', '-E', 'be+ta|del', 'a.txt'], None, 'beta\ngamma delta\n', 0, True),
    (['grep', 'g.*d', 'a.txt'], None, 'gamma delta\n', 0, True),
    (['grep', 'zzz', 'a.txt'], None, '', 1, True),
    (['hexdump', '-C', 'b.bin'], None,
     '00000000  00 01 02 03 04 05 06 07  08 09 0a 0b 0c 0d 0e 0f  |................|\n'
     '00000010  41 42 43 0a                                       |ABC.|\n00000014\n', 0, True),
    (['hexdump'], b'ABC', '0000000 4241 0043\n0000003\n', 0, True),
    (['echo', '-n', 'a', 'b'], None, 'a b', 0, True),
    (['echo', '-e', 'x\\ty'], None, 'x\ty\n', 0, True),
    (['uname', '-s'], None, 'Linux\n', 0, True),
    (['true'], None, '', 0, True),
    (['false'], None, '', 1, True),
    (['sleep', '0.05'], None, '', 0, True),
    (['taskset', '1', 'nproc'], None, '1\n', 0, False),
    (['taskset', '0', 'true'], None, '', 1, False),
]


def cmd_utils(a):
    box = os.path.join(bindir(a), 'box')
    with tempfile.TemporaryDirectory() as tmp:
        with open(os.path.join(tmp, 'a.txt'), 'w') as f:
            f.write('alpha\nbeta\ngamma delta\nAlphabet\n')
        with open(os.path.join(tmp, 'b.bin'), 'wb') as f:
            f.write(bytes(range(16)) + b'ABC\n')
        for argv, stdin, want, status, on_hexsim in UTIL_CASES:
            what = ' '.join(argv)
            rc, out, err = run([QEMU, box] + argv, stdin=stdin, cwd=tmp)
            check('qemu: %s: status %d' % (what, status), rc == status, 'got %d: %s' % (rc, err))
            compare('qemu: %s' % what, out, want)
            if a.hexsim and on_hexsim:
                r = hexsim_run(a, [box] + argv, stdin=stdin, cwd=tmp)
                if r:
                    check('hexsim: %s: status %d' % (what, status), r[0] == status, 'got %d: %s' % (r[0], r[2]))
                    compare('hexsim: %s' % what, r[1], want)
        # File operations (qemu only: getdents64, mkdirat, unlinkat, renameat, getcwd).
        q = lambda *args: run([QEMU, box] + list(args), cwd=tmp)
        check('mkdir -p', q('mkdir', '-p', 'd/e/f')[0] == 0)
        check('cp', q('cp', 'a.txt', 'd/e')[0] == 0)
        check('mv', q('mv', 'd/e/a.txt', 'd/e/z.txt')[0] == 0)
        compare('ls', q('ls', 'd/e')[1], 'f\nz.txt\n')
        compare('ls -F', q('ls', '-F', 'd')[1], 'e/\n')
        rc, out, err = q('ls', '-l', 'd/e')
        lines = out.splitlines()
        check('ls -l', len(lines) == 3 and lines[0].startswith('total') and lines[1].startswith('drwx')
              and lines[2].startswith('-rw') and lines[2].split()[4] == '32' and lines[2].endswith(' z.txt'), out)
        check('cp -r', q('cp', '-r', 'd', 'd2')[0] == 0 and os.path.exists(os.path.join(tmp, 'd2/e/z.txt')))
        check('ln -s', q('ln', '-s', 'a.txt', 'link')[0] == 0 and os.readlink(os.path.join(tmp, 'link')) == 'a.txt')
        check('rm -r', q('rm', '-r', 'd', 'd2')[0] == 0 and not os.path.exists(os.path.join(tmp, 'd')))
        check('rm missing fails', q('rm', 'nothing')[0] == 1)
        check('rm -f missing', q('rm', '-f', 'nothing')[0] == 0)
        compare('pwd', q('pwd')[1], os.path.realpath(tmp) + '\n')
        rc, out, err = q('uname', '-a')
        check('uname -a', rc == 0 and out.startswith('Linux ') and len(out.split()) >= 5, out)
        rc, out, err = q('ps')
        check('ps (host /proc)', rc == 0 and out.startswith('  PID') and len(out.splitlines()) > 2, out + err)
        rc, out, err = q('free')
        check('free', rc == 0 and out.splitlines()[1].startswith('Mem:'), out + err)
        rc, out, err = q('uptime')
        check('uptime', rc == 0 and ' up ' in out and 'load average' in out, out + err)
        rc, out, err = q('mount')
        check('mount lists /proc/mounts', rc == 0 and ' / ' in out or ' /proc ' in out, out + err)
        rc, out, err = run([QEMU, box, '--list'])
        applets = out.split()
        for name in ('cat', 'ls', 'grep', 'ps', 'mount', 'dmesg', 'poweroff', 'hexdump', 'wget', 'ping'):
            check('applet %s' % name, name in applets)


def cmd_shell(a):
    sh = os.path.join(bindir(a), 'sh')
    box = os.path.join(bindir(a), 'box')
    with tempfile.TemporaryDirectory() as tmp:
        bin_dir = os.path.join(tmp, 'bin')
        os.mkdir(bin_dir)
        rc, out, err = run([QEMU, box, '--list'])
        for name in out.split():
            os.symlink(box, os.path.join(bin_dir, name))
        os.symlink(sh, os.path.join(bin_dir, 'sh'))
        work = os.path.join(tmp, 'work')
        os.mkdir(work)
        env = {'PATH': bin_dir, 'TMPD': work, 'HEXSH_EXEC_WRAPPER': QEMU}
        script = open(os.path.join(HERE, 'session.sh'), 'rb').read()
        want = open(os.path.join(HERE, 'session.expected')).read().replace('@TMPD@', work)
        rc, out, err = run([QEMU, sh], stdin=script, env=env, cwd=tmp, merge=True)
        check('session under qemu-hexagon: exit 3', rc == 3, 'got %d: %s' % (rc, err))
        compare('session under qemu-hexagon', out + err, want)
        if shutil.which('bash'):
            shutil.rmtree(work)
            os.mkdir(work)
            rc, out, err = run(['bash'], stdin=script, env={'PATH': '/usr/bin:/bin', 'TMPD': work}, cwd=tmp, merge=True)
            compare('session.expected matches bash', out + err, want)
        # sh -c and a script file argument
        rc, out, err = run([QEMU, sh, '-c', 'echo $0 $1 $(( $# + 40 ))', 'name', 'arg'], env=env)
        compare('sh -c', out, 'name arg 41\n')
        hs = open(os.path.join(HERE, 'hexsim_session.sh'), 'rb').read()
        hwant = open(os.path.join(HERE, 'hexsim_session.expected')).read()
        rc, out, err = run([QEMU, sh], stdin=hs, env=env)
        check('builtins session under qemu: exit 5', rc == 5, 'got %d' % rc)
        compare('builtins session under qemu', out, hwant)
        if a.hexsim:
            r = hexsim_run(a, [sh], stdin=hs)
            if r:
                check('builtins session under hexsim: exit 5', r[0] == 5, 'got %d: %s' % (r[0], r[2]))
                compare('builtins session under hexsim', r[1], hwant)


def pty_session(argv, env, steps):
    # Runs argv on a new pseudo-terminal (its controlling terminal, so Ctrl-C raises SIGINT);
    # steps: (bytes to type, text to wait for in what follows the typing, or seconds to
    # sleep; the prompt the output must then end with). Returns (all output, exit status or
    # None).
    import fcntl, pty, select, termios, time
    master, slave = pty.openpty()
    def setup():
        os.setsid()
        fcntl.ioctl(0, termios.TIOCSCTTY, 0)
    p = subprocess.Popen(argv, stdin=slave, stdout=slave, stderr=slave, env=env,
                         preexec_fn=setup, close_fds=True)
    os.close(slave)
    out = b''
    def wait_for(text, start, limit=30):
        nonlocal out
        end = time.time() + limit
        while text.encode() not in out[start:] and time.time() < end:
            r, _, _ = select.select([master], [], [], 0.2)
            if r:
                try:
                    chunk = os.read(master, 4096)
                except OSError:
                    return False
                if not chunk:
                    return False
                out += chunk
        return text.encode() in out[start:]
    def wait_prompt(prompt, limit=30):
        nonlocal out
        end = time.time() + limit
        while not out.endswith(prompt.encode()) and time.time() < end:
            r, _, _ = select.select([master], [], [], 0.2)
            if r:
                chunk = os.read(master, 4096)
                if not chunk:
                    return False
                out += chunk
        return out.endswith(prompt.encode())
    ok = True
    for typed, expect, prompt in steps:
        start = len(out)
        if typed:
            os.write(master, typed)
        if isinstance(expect, float):
            time.sleep(expect)
        elif expect and not wait_for(expect, start):
            ok = False
            break
        if prompt and not wait_prompt(prompt):   # the editor is in raw mode again
            ok = False
            break
    try:
        rc = p.wait(timeout=30)
    except subprocess.TimeoutExpired:
        p.kill()
        rc = None
    os.close(master)
    return out.decode(errors='replace'), rc if ok else None


def cmd_lineedit(a):
    sh = os.path.join(bindir(a), 'sh')
    box = os.path.join(bindir(a), 'box')
    with tempfile.TemporaryDirectory() as tmp:
        bin_dir = os.path.join(tmp, 'bin')
        os.mkdir(bin_dir)
        os.symlink(box, os.path.join(bin_dir, 'sleep'))
        env = {'PATH': bin_dir, 'HEXSH_EXEC_WRAPPER': QEMU, 'PS1': 'P> ', 'TERM': 'vt100'}
        P = 'P> '
        steps = [
            (None, None, P),
            (b'echo hellx\x7fo\r', 'hello\r\n', P),              # backspace
            (b'echo abc\x1b[D\x1b[DX\r', 'aXbc\r\n', P),          # cursor left, insert
            (b'echo one\r', 'one\r\n', P),
            # history: up twice; the recalled line's output, not a prompt the editor
            # redraws on the way (a busy machine let the next keys in too early)
            (b'\x1b[A\x1b[A\r', 'aXbc\r\n', P),
            (b'half typed\x03', '^C', P),                           # Ctrl-C cancels the line
            (b'echo status $?\r', 'status 130', P),
            (b'\x01echo \x05start\r', 'start\r\n', P),            # Ctrl-A, Ctrl-E
            (b'sleep 20\r', 1.5, None),
            (b'\x03', None, P),                                    # Ctrl-C interrupts a child
            (b'echo after $?\r', 'after 130', P),
            (b'\x04', None, None),                                 # Ctrl-D on an empty line
        ]
        out, rc = pty_session([QEMU, sh], env, steps)
        check('line editing session ends with Ctrl-D, exit 0', rc == 0, 'status %r, output:\n%s' % (rc, out))
        for want in ('hello\r\n', 'aXbc\r\n', 'status 130', 'start\r\n', 'after 130'):
            check('line editing: %r' % want, want in out, out)
        check('history recalled "echo abc..."', out.count('aXbc\r\n') >= 2, out)


def cmd_cpio(a):
    path = os.path.join(a.build, 'rootfs.cpio')
    data = open(path, 'rb').read()
    entries = {}
    off = 0
    while True:
        hdr = data[off:off + 110]
        check('newc magic at %d' % off, hdr[:6] == b'070701')
        if hdr[:6] != b'070701':
            break
        f = [int(hdr[6 + 8 * i:14 + 8 * i], 16) for i in range(13)]
        mode, size, rmaj, rmin, namesize = f[1], f[6], f[9], f[10], f[11]
        name = data[off + 110:off + 110 + namesize - 1].decode()
        off = (off + 110 + namesize + 3) & ~3
        body = data[off:off + size]
        off = (off + size + 3) & ~3
        if name == 'TRAILER!!!':
            break
        entries[name] = (mode, body, rmaj, rmin)
    check('cpio size is a multiple of 512', len(data) % 512 == 0)
    def has(name, kind, perm=None):
        e = entries.get(name)
        ok = e is not None and stat.S_IFMT(e[0]) == kind and (perm is None or stat.S_IMODE(e[0]) == perm)
        check('cpio entry %s' % name, ok, repr(e and (oct(e[0]), e[2], e[3])))
        return e
    for d in ('bin', 'sbin', 'dev', 'etc', 'proc', 'sys', 'tmp', 'root'):
        has(d, stat.S_IFDIR)
    e = has('dev/console', stat.S_IFCHR, 0o600)
    check('console is 5:1', e and (e[2], e[3]) == (5, 1))
    e = has('dev/null', stat.S_IFCHR, 0o666)
    check('null is 1:3', e and (e[2], e[3]) == (1, 3))
    has('tmp', stat.S_IFDIR, 0o1777)
    for f in ('init', 'bin/sh', 'bin/box'):
        e = has(f, stat.S_IFREG, 0o755)
        check('%s is a Hexagon ELF' % f, e and e[1][:4] == b'\x7fELF' and e[1][18:20] == b'\xa4\x00')
    for l in ('bin/ls', 'bin/cat', 'bin/ps', 'bin/poweroff'):
        e = has(l, stat.S_IFLNK)
        check('%s -> box' % l, e and e[1] == b'box')
    e = has('sbin/init', stat.S_IFLNK)
    check('sbin/init -> /init', e and e[1] == b'/init')
    # Every parent directory precedes its children.
    names = list(entries)
    for i, n in enumerate(names):
        parent = os.path.dirname(n)
        check('parent of %s first' % n, not parent or (parent in entries and names.index(parent) < i))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('cmd', choices=['build', 'libc', 'utils', 'shell', 'lineedit', 'cpio'])
    ap.add_argument('--build', required=True)
    ap.add_argument('--hexsim')
    a = ap.parse_args()
    a.build = os.path.abspath(a.build)
    globals()['cmd_' + a.cmd](a)
    for s in skips:
        print('SKIPPED under hexsim: %s' % s)
    if failures:
        print('%d failure(s)' % len(failures))
        return 1
    if skips:
        return 77
    print('ok')
    return 0


if __name__ == '__main__':
    sys.exit(main())
