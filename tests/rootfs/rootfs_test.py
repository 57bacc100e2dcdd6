#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# Root file system tests (ctest label "rootfs"). Subcommands:
#   build   builds guest/rootfs (guest/rootfs/build.sh: BusyBox and the cpio image; the
#           other rootfs and boot tests need it: ctest fixture)
#   utils   runs BusyBox applets on files under qemu-hexagon and hexsim --user (none
#           execs another program: the host's /bin holds no Hexagon programs)
#   shell   ash sessions that need no other program (builtins, $((...)), functions,
#           loops, case; session_builtins.sh, whose expected output bash also gives)
#           under qemu-hexagon and hexsim --user, and `sh -c`
#   cpio    parses build/rootfs.cpio (newc) and checks its entries
# The sessions that run programs (pipes, fork and exec), line editing, job control and
# vi run in the booted guest: tests/boot/ash_test.py.
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
    rc, out, err = run([os.path.join(ROOT, 'guest', 'rootfs', 'build.sh'), a.build, sys.executable],
                       timeout=1200)
    check('guest/rootfs/build.sh', rc == 0, out[-3000:] + err[-3000:])
    for prog in ('init', 'busybox', 'busybox.links'):
        path = os.path.join(bindir(a), prog)
        check('%s built' % prog, os.path.exists(path))
        if os.path.exists(path):
            print('%-13s %7d bytes' % (prog, os.path.getsize(path)))
    cpio = os.path.join(a.build, 'rootfs.cpio')
    if os.path.exists(cpio):
        print('rootfs.cpio %d bytes' % os.path.getsize(cpio))


UTIL_CASES = [
    # (argv after the applet name, stdin, expected stdout, expected status); none runs
    # another program (xargs, tar -z: the host's /bin has no Hexagon programs; the boot
    # tests run those)
    (['cat', 'a.txt'], None, 'alpha\nbeta\ngamma delta\nAlphabet\n', 0),
    (['cat'], b'from stdin\n', 'from stdin\n', 0),
    (['cat', 'missing'], None, '', 1),
    (['head', '-n', '2', 'a.txt'], None, 'alpha\nbeta\n', 0),
    (['head', '-c', '5', 'a.txt'], None, 'alpha', 0),
    (['tail', '-n', '2', 'a.txt'], None, 'gamma delta\nAlphabet\n', 0),
    (['tac', 'a.txt'], None, 'Alphabet\ngamma delta\nbeta\nalpha\n', 0),
    (['wc', 'a.txt'], None, '        4         5        32 a.txt\n', 0),
    (['wc', '-l'], b'1\n2\n3\n', '3\n', 0),
    (['grep', 'alp', 'a.txt'], None, 'alpha\n', 0),
    (['grep', '-i', '-n', 'alp', 'a.txt'], None, '1:alpha\n4:Alphabet\n', 0),
    (['grep', '-v', 'a$', 'a.txt'], None, 'Alphabet\n', 0),
    (['grep', '-c', '^[ab]', 'a.txt'], None, '2\n', 0),
    (['grep', '-E', 'be+ta|del', 'a.txt'], None, 'beta\ngamma delta\n', 0),
    (['grep', 'zzz', 'a.txt'], None, '', 1),
    (['sort', 'a.txt'], None, 'Alphabet\nalpha\nbeta\ngamma delta\n', 0),
    (['sort', '-n', '-r'], b'10\n9\n100\n', '100\n10\n9\n', 0),
    (['uniq', '-c'], b'x\nx\ny\n', '      2 x\n      1 y\n', 0),
    (['cut', '-d', ' ', '-f', '2', 'a.txt'], None, 'alpha\nbeta\ndelta\nAlphabet\n', 0),
    (['tr', 'a-z', 'A-Z'], b'Mixed 1\n', 'MIXED 1\n', 0),
    (['seq', '2', '3', '9'], None, '2\n5\n8\n', 0),
    (['sed', '-e', 's/a/A/g', '-e', '2d', 'a.txt'], None, 'AlphA\ngAmmA deltA\nAlphAbet\n', 0),
    (['awk', '{ n += length($0) } END { printf "%d %.3f\\n", NR, n / NR }', 'a.txt'], None,
     '4 7.000\n', 0),
    (['md5sum', 'a.txt'], None, '3801f528e80a42c4c4e62f4c676378f5  a.txt\n', 0),
    (['sha256sum', 'a.txt'], None,
     '285cebed2c0f349c946ba343eb45bec2fa53d82e5a95f3c232125b58cf5739bb  a.txt\n', 0),
    (['hexdump', '-C', 'b.bin'], None,
     '00000000  00 01 02 03 04 05 06 07  08 09 0a 0b 0c 0d 0e 0f  |................|\n'
     '00000010  41 42 43 0a                                       |ABC.|\n00000014\n', 0),
    (['od', '-c', 'b.bin'], None,
     '0000000  \\0 001 002 003 004 005 006  \\a  \\b  \\t  \\n  \\v  \\f  \\r 016 017\n'
     '0000020   A   B   C  \\n\n0000024\n', 0),
    (['expr', '6', '*', '7'], None, '42\n', 0),
    (['printf', '%s-%05.2f-%x\\n', 'a', '3.14159', '255'], None, 'a-03.14-ff\n', 0),
    (['basename', '/a/b/c.txt', '.txt'], None, 'c\n', 0),
    (['dirname', '/a/b/c'], None, '/a/b\n', 0),
    (['date', '-u', '-d', '@86400'], None, 'Fri Jan  2 00:00:00 UTC 1970\n', 0),
    (['stat', '-c', '%s %F', 'a.txt'], None, '32 regular file\n', 0),
    (['echo', '-n', 'a', 'b'], None, 'a b', 0),
    (['echo', '-e', 'x\\ty'], None, 'x\ty\n', 0),
    (['uname', '-s'], None, 'Linux\n', 0),
    (['test', '3', '-gt', '2'], None, '', 0),
    (['true'], None, '', 0),
    (['false'], None, '', 1),
    (['sleep', '0.05'], None, '', 0),
]


def cmd_utils(a):
    bb = os.path.join(bindir(a), 'busybox')
    with tempfile.TemporaryDirectory() as tmp:
        with open(os.path.join(tmp, 'a.txt'), 'w') as f:
            f.write('alpha\nbeta\ngamma delta\nAlphabet\n')
        with open(os.path.join(tmp, 'b.bin'), 'wb') as f:
            f.write(bytes(range(16)) + b'ABC\n')
        for argv, stdin, want, status in UTIL_CASES:
            what = ' '.join(argv)
            rc, out, err = run([QEMU, bb] + argv, stdin=stdin, cwd=tmp)
            check('qemu: %s: status %d' % (what, status), rc == status, 'got %d: %s' % (rc, err))
            compare('qemu: %s' % what, out, want)
            if a.hexsim:
                r = hexsim_run(a, [bb] + argv, stdin=stdin, cwd=tmp)
                if r:
                    check('hexsim: %s: status %d' % (what, status), r[0] == status, 'got %d: %s' % (r[0], r[2]))
                    compare('hexsim: %s' % what, r[1], want)
        # Files and directories, gzip and tar round trips (under both).
        for name, runner in (('qemu', lambda *args: run([QEMU, bb] + list(args), cwd=tmp)),
                             ('hexsim', lambda *args: hexsim_run(a, [bb] + list(args), cwd=tmp) or (0, '', ''))):
            if name == 'hexsim' and not a.hexsim:
                continue
            q = runner
            check(name + ': mkdir -p', q('mkdir', '-p', 'd/e/f')[0] == 0)
            check(name + ': cp', q('cp', 'a.txt', 'd/e')[0] == 0)
            check(name + ': mv', q('mv', 'd/e/a.txt', 'd/e/z.txt')[0] == 0)
            compare(name + ': ls', q('ls', 'd/e')[1], 'f\nz.txt\n')
            compare(name + ': ls -F', q('ls', '-F', 'd')[1], 'e/\n')
            rc, out, err = q('ls', '-l', 'd/e')
            lines = out.splitlines()
            check(name + ': ls -l', len(lines) == 3 and lines[0].startswith('total') and lines[1].startswith('drwx')
                  and lines[2].startswith('-rw') and lines[2].split()[4] == '32' and lines[2].endswith(' z.txt'), out)
            compare(name + ': find', q('find', 'd', '-type', 'f')[1], 'd/e/z.txt\n')
            check(name + ': cp -r', q('cp', '-r', 'd', 'd2')[0] == 0 and os.path.exists(os.path.join(tmp, 'd2/e/z.txt')))
            check(name + ': tar c', q('tar', '-cf', 't.tar', 'd2')[0] == 0)
            check(name + ': rm -r', q('rm', '-r', 'd2')[0] == 0 and not os.path.exists(os.path.join(tmp, 'd2')))
            compare(name + ': tar t', q('tar', '-tf', 't.tar')[1], 'd2/\nd2/e/\nd2/e/f/\nd2/e/z.txt\n')
            check(name + ': tar x', q('tar', '-xf', 't.tar')[0] == 0 and
                  open(os.path.join(tmp, 'd2/e/z.txt')).read() == open(os.path.join(tmp, 'a.txt')).read())
            check(name + ': gzip', q('gzip', '-k', 'a.txt')[0] == 0)
            compare(name + ': gunzip -c', q('gunzip', '-c', 'a.txt.gz')[1], 'alpha\nbeta\ngamma delta\nAlphabet\n')
            check(name + ': ln -s', q('ln', '-s', 'a.txt', 'link')[0] == 0 and os.readlink(os.path.join(tmp, 'link')) == 'a.txt')
            rc, out, err = q('diff', '-u', 'a.txt', 'd/e/z.txt')
            check(name + ': diff of equal files', rc == 0 and out == '', out + err)
            check(name + ': rm -r', q('rm', '-r', 'd', 'd2', 'link', 't.tar', 'a.txt.gz')[0] == 0 and
                  not os.path.exists(os.path.join(tmp, 'd')))
            check(name + ': rm missing fails', q('rm', 'nothing')[0] == 1)
            check(name + ': rm -f missing', q('rm', '-f', 'nothing')[0] == 0)
            compare(name + ': pwd', q('pwd')[1], os.path.realpath(tmp) + '\n')
        q = lambda *args: run([QEMU, bb] + list(args), cwd=tmp)
        rc, out, err = q('uname', '-a')
        check('uname -a', rc == 0 and out.startswith('Linux ') and len(out.split()) >= 5, out)
        rc, out, err = q('ps')
        check('ps (host /proc)', rc == 0 and out.startswith('PID') and len(out.splitlines()) > 2, out + err)
        rc, out, err = q('free')
        check('free', rc == 0 and out.splitlines()[1].lstrip().startswith('Mem:'), out + err)
        rc, out, err = q('uptime')
        check('uptime', rc == 0 and ' up ' in out and 'load average' in out, out + err)
        rc, out, err = run([QEMU, bb, '--list'])
        applets = set(out.split())
        # issue 30's list
        want = """sh ash ls cat cp mv rm mkdir rmdir ln chmod chown touch head tail wc sort uniq cut tr
            tee date sleep env printf test expr seq basename dirname du df stat md5sum sha256sum od
            hexdump find xargs grep sed awk diff patch vi less tar gzip gunzip cpio ps top kill
            killall free uptime uname dmesg mount umount sync time nproc taskset nice ifconfig
            route ip ping udhcpc wget nc telnetd httpd halt poweroff reboot""".split()
        missing = [n for n in want if n not in applets]
        check('every applet of issue 30 is in busybox --list', not missing, 'missing: %s' % missing)


def cmd_shell(a):
    bb = os.path.join(bindir(a), 'busybox')
    script = open(os.path.join(HERE, 'session_builtins.sh'), 'rb').read()
    want = open(os.path.join(HERE, 'session_builtins.expected')).read()
    rc, out, err = run([QEMU, bb, 'sh'], stdin=script)
    check('builtins session under qemu: exit 5', rc == 5, 'got %d: %s' % (rc, err))
    compare('builtins session under qemu', out, want)
    if shutil.which('bash'):
        rc, out, err = run(['bash'], stdin=script, env={'PATH': '/usr/bin:/bin'})
        compare('session_builtins.expected matches bash', out, want)
    if a.hexsim:
        r = hexsim_run(a, [bb, 'sh'], stdin=script)
        if r:
            check('builtins session under hexsim: exit 5', r[0] == 5, 'got %d: %s' % (r[0], r[2]))
            compare('builtins session under hexsim', r[1], want)
    rc, out, err = run([QEMU, bb, 'sh', '-c', 'echo $0 $1 $(( $# + 40 ))', 'name', 'arg'])
    compare('sh -c', out, 'name arg 41\n')


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
    e = has('bin/busybox', stat.S_IFREG, 0o755)
    check('bin/busybox is a Hexagon ELF', e and e[1][:4] == b'\x7fELF' and e[1][18:20] == b'\xa4\x00')
    e = has('init', stat.S_IFREG, 0o755)
    check('init is a Hexagon ELF', e and e[1][:4] == b'\x7fELF' and e[1][18:20] == b'\xa4\x00')
    for l in ('bin/sh', 'bin/ls', 'bin/cat', 'bin/ps', 'bin/vi', 'sbin/poweroff', 'sbin/ifconfig',
              'usr/bin/awk', 'usr/bin/wget'):
        e = has(l, stat.S_IFLNK)
        check('%s -> /bin/busybox' % l, e and e[1] == b'/bin/busybox')
    e = has('sbin/init', stat.S_IFLNK)
    check('sbin/init -> /init', e and e[1] == b'/init')
    # Every parent directory precedes its children.
    names = list(entries)
    for i, n in enumerate(names):
        parent = os.path.dirname(n)
        check('parent of %s first' % n, not parent or (parent in entries and names.index(parent) < i))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('cmd', choices=['build', 'utils', 'shell', 'cpio'])
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
