#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# Shared-directory boot tests (ctest label "boot;share"; issue 47): --share DIR with the
# guest kernel's 9p file system over virtio (mount -t 9p -o trans=virtio TAG /mnt), each
# case on a fresh scratch directory, what the guest did checked on the host.
#   rw        read (a text file, 6 MiB of random bytes by md5sum), a program compiled on
#             the host with tools/hexagon-cc run from the share, write, create, rename,
#             unlink, mkdir, rmdir, readdir, stat, symbolic links inside the share, chmod,
#             chown (ignored: the host user keeps the files), a 16 MiB file written and
#             read back, umount; a second share with its own tag
#   escape    symbolic links out of the share (absolute, relative, from a subdirectory),
#             `..` from the top, a guest-made link to /etc, writes through links out, an
#             aname= of /etc: each attempt refused or kept inside, nothing outside read or
#             changed
#   readonly  readonly=on: reads work; create, write, append, truncate, mkdir, rm, mv,
#             chmod, touch and ln are refused (Read-only file system); the directory is
#             unchanged; a snapshot (--snapshot-at) of a machine with a share is refused
#   speed     dd of 64 MiB to the share and back: host times printed (not bounded)
# Usage: share_test.py CASE --hexsim BUILD/hexsim --vmlinux VMLINUX --initrd ROOTFS.cpio
import argparse
import hashlib
import os
import re
import subprocess
import sys
import time

import disk_test  # its script runs and its case runner

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
MOUNT = 'mount -t 9p -o trans=virtio %s %s; echo mount-status-$?'


def run_script(a, args, lines, tmp, timeout=500):
    """disk_test's script run, from the initramfs, with its console text."""
    p = disk_test.run_script(a, ['--initrd', a.initrd, '--max-seconds', '400'] + args, lines,
                             tmp, timeout)
    return p, p.stdout.decode(errors='replace').replace('\r', '')


def tree(d):
    """Every name under d with its type, size, mode and contents' hash."""
    out = {}
    for base, dirs, files in os.walk(d):
        for n in dirs + files:
            p = os.path.join(base, n)
            st = os.lstat(p)
            h = ''
            if os.path.islink(p):
                h = os.readlink(p)
            elif os.path.isfile(p):
                with open(p, 'rb') as f:
                    h = hashlib.md5(f.read()).hexdigest()
            out[os.path.relpath(p, d)] = (st.st_mode, st.st_size, st.st_uid, h)
    return out


def expect(out, errors, checks):
    for what, rx in checks:
        if not re.search(rx, out):
            errors.append('no %s (/%s/)' % (what, rx))


def case_rw(a, tmp, errors):
    share = os.path.join(tmp, 'share')
    other = os.path.join(tmp, 'other')
    os.makedirs(os.path.join(share, 'sub'))
    os.makedirs(other)
    with open(os.path.join(share, 'hello.txt'), 'w') as f:
        f.write('hello from the host\n')
    with open(os.path.join(share, 'todelete'), 'w') as f:
        f.write('x\n')
    with open(os.path.join(other, 'second.txt'), 'w') as f:
        f.write('second share\n')
    big = os.urandom(6 << 20)
    with open(os.path.join(share, 'big.bin'), 'wb') as f:
        f.write(big)
    src = os.path.join(tmp, 'prog.c')
    with open(src, 'w') as f:
        f.write('#include <stdio.h>\nint main(int c, char **v)\n{\n'
                '    printf("host-built %s %d\\n", v[1], 6 * 7);\n    return 0;\n}\n')
    cc = subprocess.run([os.path.join(ROOT, 'tools', 'hexagon-cc'), '-O2', src, '-o',
                         os.path.join(share, 'prog')], capture_output=True, text=True)
    if cc.returncode != 0:
        errors.append('tools/hexagon-cc failed: ' + cc.stderr[-500:])
        return
    lines = [MOUNT % ('hexsim0', '/mnt'), 'mkdir -p /srv', MOUNT % ('second', '/srv'),
             'cat /mnt/hello.txt', 'md5sum /mnt/big.bin', '/mnt/prog from-the-share',
             'cat /srv/second.txt',
             'echo guest-wrote > /mnt/new.txt', 'mv /mnt/new.txt /mnt/sub/renamed.txt',
             'rm /mnt/todelete; echo rm-status-$?', 'mkdir /mnt/gdir /mnt/gone',
             'echo in-dir > /mnt/gdir/f', 'rmdir /mnt/gone; echo rmdir-status-$?',
             'ln -s ../hello.txt /mnt/sub/lnk; cat /mnt/sub/lnk',
             'ls /mnt | tr "\\n" " "; echo', 'ls /mnt/sub | tr "\\n" " "; echo',
             'stat -c "size %s mode %a" /mnt/hello.txt', 'chmod 600 /mnt/gdir/f',
             'chown 123:456 /mnt/gdir/f; echo chown-status-$?',
             'dd if=/dev/zero of=/mnt/large bs=1M count=16 2>/dev/null; sync',
             'md5sum /mnt/large', 'echo appended >> /mnt/gdir/f',
             'umount /mnt; echo umount-status-$?', 'ls /mnt | wc -l', 'poweroff']
    p, out = run_script(a, ['--share', share, '--share', other + ',tag=second'], lines, tmp)
    expect(out, errors, [
        ('mount', r'mount-status-0\n(.|\n)*mount-status-0\n'),
        ('host file read', r'\nhello from the host\n'),
        ('big file read', r'\n%s  /mnt/big.bin\n' % hashlib.md5(big).hexdigest()),
        ('host-compiled program run', r'\nhost-built from-the-share 42\n'),
        ('second share', r'\nsecond share\n'),
        ('rm', r'rm-status-0'), ('rmdir', r'rmdir-status-0'),
        ('symbolic link read', r'cat /mnt/sub/lnk\nhello from the host\n'),
        ('readdir', r'\nbig.bin gdir hello.txt prog sub \n'),
        ('readdir of sub', r'\nlnk renamed.txt \n'),
        ('stat', r'\nsize 20 mode 644\n'),
        ('large file', r'\n%s  /mnt/large\n' % hashlib.md5(bytes(16 << 20)).hexdigest()),
        ('umount', r'umount-status-0\n(.|\n)*\n0\n')])
    if p.returncode != 0:
        errors.append('exit status %d' % p.returncode)
    t = tree(share)
    uid = os.getuid()
    want = {'sub/renamed.txt': 'guest-wrote\n', 'gdir/f': 'in-dir\nappended\n'}
    for name, text in want.items():
        path = os.path.join(share, name)
        got = open(path).read() if os.path.exists(path) else None
        if got != text:
            errors.append('%s on the host: %r, expected %r' % (name, got, text))
    for name in ('todelete', 'gone', 'new.txt'):
        if name in t:
            errors.append('%s is still on the host' % name)
    if t.get('sub/lnk', (0, 0, 0, ''))[3] != '../hello.txt':
        errors.append('sub/lnk is not a symbolic link to ../hello.txt on the host')
    f = t.get('gdir/f')
    if not f or f[0] & 0o7777 != 0o600 or f[2] != uid:
        errors.append('gdir/f: mode/owner %s, expected 0600 and uid %d' % (f and oct(f[0]), uid))
    for name, (_, size, owner, _) in t.items():
        if owner != uid:
            errors.append('%s belongs to uid %d, not the host user %d' % (name, owner, uid))
    if t.get('large', (0, 0))[1] != 16 << 20:
        errors.append('large is not 16 MiB on the host')
    if errors:
        errors.append(out[-2500:])


def case_escape(a, tmp, errors):
    share = os.path.join(tmp, 'share')
    outside = os.path.join(tmp, 'outside')
    os.makedirs(os.path.join(share, 'sub'))
    os.makedirs(outside)
    token = 'secret-%d' % os.getpid()
    with open(os.path.join(outside, 'secret'), 'w') as f:
        f.write(token + '\n')
    os.symlink(outside, os.path.join(share, 'abs'))
    os.symlink('../outside', os.path.join(share, 'rel'))
    os.symlink('../../outside', os.path.join(share, 'sub', 'up'))
    os.symlink(os.path.join(outside, 'secret'), os.path.join(share, 'abs-file'))
    before = tree(outside)
    lines = [MOUNT % ('hexsim0', '/mnt'),
             'cat /mnt/abs/secret; echo e1-$?', 'cat /mnt/rel/secret; echo e2-$?',
             'cat /mnt/sub/up/secret; echo e3-$?', 'cat /mnt/abs-file; echo e4-$?',
             'cd /mnt; cat ../outside/secret ../../outside/secret; echo e5-$?; cd /',
             'ls /mnt/.. | tr "\\n" " "; echo',
             'echo pwned > /mnt/rel/pwned; echo e6-$?',
             'echo pwned > /mnt/abs/pwned; echo e7-$?',
             'ln -s /etc /mnt/etc-link; echo made-$?', 'ls /mnt/etc-link/hostname',
             'mkdir -p %s; echo decoy > %s/secret' % (outside, outside),
             'cat /mnt/abs/secret',
             # a virtio 9P channel takes one mount at a time
             'umount /mnt; mkdir /mnt2; ' + (MOUNT % ('-o aname=/etc hexsim0', '/mnt2')),
             'ls /mnt2 | tr "\\n" " "; echo', 'poweroff']
    p, out = run_script(a, ['--share', share], lines, tmp)
    for i in (1, 2, 3, 4, 5, 6, 7):
        if not re.search(r'\ne%d-[1-9]' % i, out):
            errors.append('escape attempt e%d did not fail' % i)
    if token in out:
        errors.append('the guest read the file outside the share')
    expect(out, errors, [
        ('guest link made', r'made-0'),
        ('guest link resolved in the guest', r'\n/mnt/etc-link/hostname\n'),
        # the guest resolves an absolute link in its own tree: the decoy, not the host file
        ('absolute link followed in the guest', r'cat /mnt/abs/secret\ndecoy\n'),
        ('aname ignored', r'\nabs abs-file etc-link rel sub \n')])
    if tree(outside) != before:
        errors.append('the directory outside the share changed')
    if os.readlink(os.path.join(share, 'etc-link')) != '/etc':
        errors.append('etc-link is not a plain symbolic link on the host')
    if p.returncode != 0:
        errors.append('exit status %d' % p.returncode)
    print('share escape attempts: absolute, relative and nested symbolic links out, a link '
          'to a file out, .. from the top, writes through links out, aname=/etc')
    if errors:
        errors.append(out[-2500:])


def case_readonly(a, tmp, errors):
    share = os.path.join(tmp, 'share')
    os.makedirs(os.path.join(share, 'd'))
    with open(os.path.join(share, 'f'), 'w') as f:
        f.write('read only\n')
    before = tree(share)
    attempts = ['echo x > /mnt/new', 'echo x >> /mnt/f', 'echo x > /mnt/f', 'truncate -s 0 /mnt/f',
                'mkdir /mnt/nd', 'rm /mnt/f', 'rmdir /mnt/d', 'mv /mnt/f /mnt/g',
                'chmod 777 /mnt/f', 'touch /mnt/f', 'ln -s f /mnt/l']
    lines = [MOUNT % ('ro', '/mnt'), 'cat /mnt/f']
    lines += ['%s; echo ro%d-$?' % (c, i) for i, c in enumerate(attempts)]
    lines += ['poweroff']
    p, out = run_script(a, ['--share', share + ',tag=ro,readonly=on'], lines, tmp)
    expect(out, errors, [('mount', r'mount-status-0'), ('read', r'cat /mnt/f\nread only\n'),
                         ('EROFS', r'Read-only file system')])
    for i, c in enumerate(attempts):
        if not re.search(r'\nro%d-[1-9]' % i, out):
            errors.append('%r was not refused' % c)
    if tree(share) != before:
        errors.append('the read-only share changed')
    # a snapshot of a machine with a share is refused, and the run goes on
    snap = os.path.join(tmp, 'x.snap')
    r = subprocess.run([a.hexsim, a.vmlinux, '--initrd', a.initrd, '--share', share,
                        '--snapshot-at', '2000000', '--snapshot-out', snap, '--max-seconds',
                        '300'], stdin=subprocess.DEVNULL, capture_output=True, timeout=400)
    if b'snapshot refused: --share' not in r.stderr or os.path.exists(snap):
        errors.append('a snapshot with --share was not refused: ' +
                      r.stderr.decode(errors='replace')[-300:])
    if p.returncode != 0:
        errors.append('exit status %d' % p.returncode)
    if errors:
        errors.append(out[-2500:])


def case_speed(a, tmp, errors):
    """dd of 64 MiB to the share and back: host time between markers the guest prints,
    guest time from /proc/uptime at each (the project's BusyBox dd prints no timing)."""
    share = os.path.join(tmp, 'share')
    os.makedirs(share)
    mark = 'echo MARK-$((0+%d)) $(cut -d" " -f1 /proc/uptime)'
    lines = [MOUNT % ('hexsim0', '/mnt'), mark % 0,
             'dd if=/dev/zero of=/mnt/big bs=1M count=64', mark % 1,
             'dd if=/mnt/big of=/dev/null bs=1M', mark % 2, 'poweroff']
    script = os.path.join(tmp, 'script.txt')
    with open(script, 'w') as f:
        f.write(''.join(line + '\n' for line in lines))
    p = subprocess.Popen([a.hexsim, a.vmlinux, '--initrd', a.initrd, '--share', share,
                          '--script', script, '--max-seconds', '900'],
                         stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE)
    marks, guest, out = {}, {}, b''
    while True:
        chunk = os.read(p.stdout.fileno(), 65536)
        if not chunk:
            break
        out += chunk
        for m in re.finditer(rb'\nMARK-(\d) ([0-9.]+)\r*\n', out):
            marks.setdefault(int(m.group(1)), time.time())
            guest.setdefault(int(m.group(1)), float(m.group(2)))
    p.wait()
    text = out.decode(errors='replace')
    if len(marks) != 3 or len(re.findall(r'64\+0 records out', text)) != 2 or p.returncode:
        errors.append('the dd runs did not complete (exit status %d): %s' % (p.returncode,
                                                                            text[-1500:]))
        return
    print('share speed: dd 64 MiB to the share %.2f s host (%.2f s guest); from it %.2f s '
          'host (%.2f s guest)' % (marks[1] - marks[0], guest[1] - guest[0],
                                   marks[2] - marks[1], guest[2] - guest[1]))
    if os.path.getsize(os.path.join(share, 'big')) != 64 << 20:
        errors.append('big is not 64 MiB on the host')


CASES = {'rw': case_rw, 'escape': case_escape, 'readonly': case_readonly, 'speed': case_speed}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('case', choices=sorted(CASES))
    ap.add_argument('--hexsim', required=True)
    ap.add_argument('--vmlinux', required=True)
    ap.add_argument('--initrd', required=True)
    a = ap.parse_args()
    return disk_test.run_case('share', CASES, a)


if __name__ == '__main__':
    sys.exit(main())
