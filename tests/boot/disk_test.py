#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# Disk boot tests (ctest label "boot;disk"; issue 47): the virtio block device (--drive)
# with the guest kernel. Each case makes its own ext4 image from the root file system
# archive with tools/mkext4.py, and reads what the guest left in it on the host with
# e2fsprogs (e2fsck -fy on a copy, which replays the journal as a mount would, then
# `debugfs -R 'cat FILE'`).
#   root      boots with root=/dev/vda (no initrd): / is ext4 on vda; a file written and
#             synced is in the image after poweroff (and the file system clean), and a
#             second boot reads it back; prints the time to the prompt
#   ctrlax    a file written and synced is in the image after Ctrl-A x (on a terminal)
#   maxsec    ... after --max-seconds stopped the run (exit status 124)
#   kill      ... after SIGKILL right after the guest's `sync` returned
#   readonly  readonly=on: the guest sees a read-only vda (/sys/block/vda/ro, dd to it
#             refused, the mount read-only), and the image is unchanged
#   lock      a second hexsim cannot open an image a running one uses (read-write or
#             read-only); empty, partial-sector, truncated-ext4 and qcow2 images are
#             refused before boot with a message naming the reason
#   snapshot  Ctrl-A s with a writable disk is refused (the run goes on); with a
#             readonly=on disk it is written and --restore with the same --drive goes on
#             (and reads the disk); without the --drive the restore is refused
#   speed     dd of 64 MiB to and from the disk: host and guest time printed (and the
#             time to the prompt booting from the disk)
#   replay    --record of a run that writes to the disk, --replay on a copy of the image as
#             it was: the same console output and the same image afterwards
# Usage: disk_test.py CASE --hexsim BUILD/hexsim --vmlinux VMLINUX --initrd ROOTFS.cpio
import argparse
import hashlib
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from ttylib import Tty  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
PROMPT = rb'root@hexagon:[^#]*# $'
ROOT_ARGS = ['--append', 'root=/dev/vda rw']
ENV = dict(os.environ, PATH=os.environ.get('PATH', '') + ':/sbin:/usr/sbin')


def make_disk(cpio, path, size='64M'):
    subprocess.run([sys.executable, os.path.join(ROOT, 'tools', 'mkext4.py'), cpio, '-o', path,
                    '--size', size], check=True, capture_output=True)


def host_cat(img, path, tmp):
    """The file's contents as the guest left them (journal replayed on a copy); None when
    it is not there."""
    copy = os.path.join(tmp, 'check.img')
    shutil.copyfile(img, copy)
    r = subprocess.run(['e2fsck', '-fy', copy], capture_output=True, text=True, env=ENV)
    if r.returncode not in (0, 1):
        return None
    r = subprocess.run(['debugfs', '-R', 'cat ' + path, copy], capture_output=True, env=ENV)
    os.unlink(copy)
    return r.stdout.decode(errors='replace') if r.returncode == 0 and r.stdout else None


def clean(img):
    return subprocess.run(['e2fsck', '-fn', img], capture_output=True, env=ENV).returncode == 0


def sha(path):
    with open(path, 'rb') as f:
        return hashlib.sha256(f.read()).hexdigest()


def run_script(a, args, lines, tmp, timeout=300):
    script = os.path.join(tmp, 'script.txt')
    with open(script, 'w') as f:
        f.write(''.join(line + '\n' for line in lines))
    cmd = [a.hexsim, a.vmlinux] + args + ['--script', script]
    return subprocess.run(cmd, stdin=subprocess.DEVNULL, capture_output=True, timeout=timeout)


def boot_tty(a, args):
    t = Tty([a.hexsim, a.vmlinux, '--max-seconds', '300'] + args)
    if not t.wait(PROMPT, 120):
        t.close()
        return None, 'no prompt: ' + t.buf[-1500:].decode(errors='replace')
    return t, None


def boot_disk(a, tmp, errors, extra=()):
    """A fresh disk booted with root=/dev/vda on a terminal: (image, Tty or None)."""
    img = os.path.join(tmp, 'root.ext4')
    make_disk(a.initrd, img)
    t, why = boot_tty(a, ['--drive', 'file=' + img] + list(extra) + ROOT_ARGS)
    if not t:
        errors.append(why)
    return img, t


def case_root(a, tmp, errors):
    img = os.path.join(tmp, 'root.ext4')
    make_disk(a.initrd, img)
    token = 'kept-%d' % os.getpid()
    p = run_script(a, ['--drive', 'file=' + img] + ROOT_ARGS,
                   ['cat /proc/mounts', 'cat /sys/block/vda/size', 'echo %s > /keep' % token,
                    'sync', 'poweroff'], tmp)
    out, err = p.stdout.decode(errors='replace'), p.stderr.decode(errors='replace')
    if p.returncode != 0:
        errors.append('first boot: exit status %d; %s' % (p.returncode, (out + err)[-1500:]))
    if not re.search(r'/dev/root / ext4 rw', out):
        errors.append('/ is not ext4 on the disk: ' + out[-1500:])
    if not re.search(r'\n131072\r*\n', out):
        errors.append('vda is not 131072 sectors')
    if 'virtio_mmio.device=0x200@0xab100200:53' not in out:
        errors.append('the disk is not announced at 0xAB100200, IRQ 53')
    m = re.search(r'first waited for console input.* ([0-9.]+) s after the start', err)
    print('disk root: prompt after %s s of host time (boot from disk)' % (m.group(1) if m else '?'))
    if host_cat(img, '/keep', tmp) != token + '\n':
        errors.append('/keep is not in the image after poweroff')
    if not clean(img):
        errors.append('the file system is not clean after poweroff')
    p = run_script(a, ['--drive', 'file=' + img] + ROOT_ARGS, ['cat /keep', 'poweroff'], tmp)
    if not re.search(r'cat /keep\r*\n%s\r*\n' % token, p.stdout.decode(errors='replace')):
        errors.append('the second boot does not read /keep back')


def synced_then(a, tmp, errors, token, stop, what):
    """Boots from a fresh disk on a terminal, writes /data and syncs, then stop(t) ends
    hexsim; /data must be in the image afterwards."""
    img, t = boot_disk(a, tmp, errors)
    if not t:
        return
    try:
        t.send(('echo %s > /data; sync; echo SYNC-$((40+2))\r' % token).encode())
        ok = t.wait(rb'SYNC-42\r*\n', 60)
        stop(t)
        if not ok:
            errors.append('sync did not return')
    finally:
        t.close()
    if host_cat(img, '/data', tmp) != token + '\n':
        errors.append('/data is not in the image after ' + what)


def case_ctrlax(a, tmp, errors):
    def stop(t):
        t.wait(PROMPT, 30)
        t.send(b'\x01x')
        if t.exit_status(60) is None:
            errors.append('Ctrl-A x did not end hexsim')
    synced_then(a, tmp, errors, 'after-ctrl-a-x', stop, 'Ctrl-A x')


def case_maxsec(a, tmp, errors):
    img = os.path.join(tmp, 'root.ext4')
    make_disk(a.initrd, img)
    secs = a.max_seconds
    p = run_script(a, ['--drive', 'file=' + img, '--max-seconds', str(secs)] + ROOT_ARGS,
                   ['echo after-max-seconds > /data', 'sync', 'echo SYNC-$((40+2))',
                    'while :; do :; done'], tmp)
    out = p.stdout.decode(errors='replace')
    if 'SYNC-42' not in out:
        errors.append('sync did not return within --max-seconds %d (a slow build?)' % secs)
    if p.returncode != 124:
        errors.append('exit status %d, expected 124 (--max-seconds)' % p.returncode)
    if host_cat(img, '/data', tmp) != 'after-max-seconds\n':
        errors.append('/data is not in the image after --max-seconds')


def case_kill(a, tmp, errors):
    # at once: nothing else of hexsim's gets to run
    synced_then(a, tmp, errors, 'after-sigkill', lambda t: os.kill(t.pid, signal.SIGKILL),
                'SIGKILL')


def case_readonly(a, tmp, errors):
    img = os.path.join(tmp, 'data.ext4')
    make_disk(a.initrd, img, '16M')
    before = sha(img)
    p = run_script(a, ['--initrd', a.initrd, '--drive', 'file=%s,readonly=on' % img],
                   ['cat /sys/block/vda/ro',
                    'dd if=/dev/zero of=/dev/vda bs=512 count=1; echo dd-status-$?',
                    'mount -o ro /dev/vda /mnt && ls /mnt/bin/busybox',
                    'touch /mnt/new; echo touch-status-$?', 'poweroff'], tmp)
    out = p.stdout.decode(errors='replace')
    for what, rx in (('/sys/block/vda/ro is 1', r'cat /sys/block/vda/ro\r*\n1\r*\n'),
                     ('dd to vda refused', r'dd-status-1'),
                     ('the disk mounted', r'\n/mnt/bin/busybox\r*\n'),
                     ('touch refused', r'Read-only file system(.|\n)*touch-status-1')):
        if not re.search(rx, out):
            errors.append('no %s (/%s/)' % (what, rx))
    if p.returncode != 0:
        errors.append('exit status %d' % p.returncode)
    if sha(img) != before:
        errors.append('the read-only image changed')
    if errors:
        errors.append(out[-2000:])


def refused(a, drive, want):
    p = subprocess.run([a.hexsim, a.vmlinux, '--drive', drive, '--max-seconds', '60'],
                       stdin=subprocess.DEVNULL, capture_output=True, timeout=120)
    err = p.stderr.decode(errors='replace')
    if p.returncode == 0 or want not in err or 'Linux version' in p.stdout.decode(errors='replace'):
        return ['--drive %s: exit status %d, expected a refusal before boot saying %r; '
                'stderr: %s' % (drive, p.returncode, want, err[-400:])]
    return []


def case_lock(a, tmp, errors):
    img, t = boot_disk(a, tmp, errors)
    if not t:
        return
    try:
        errors += refused(a, 'file=' + img, 'in use')
        errors += refused(a, 'file=%s,readonly=on' % img, 'in use')
        t.send(b'\x01x')
        t.exit_status(60)
    finally:
        t.close()
    bad = os.path.join(tmp, 'bad.img')
    for content, want in ((b'', 'empty'), (b'\0' * 1000, 'whole number of 512-byte sectors'),
                          (b'QFI\xfb' + b'\0' * 4092, 'qcow2')):
        with open(bad, 'wb') as f:
            f.write(content)
        errors += refused(a, 'file=' + bad, want)
    os.truncate(img, 32 << 20)                  # half of the file system's 64 MiB
    errors += refused(a, 'file=' + img, 'truncated')
    errors += refused(a, 'file=' + os.path.join(tmp, 'none.img'), 'No such file')


def case_snapshot(a, tmp, errors):
    snap = os.path.join(tmp, 'disk.snap')
    img, t = boot_disk(a, tmp, errors, ['--snapshot-out', snap])
    if not t:
        return
    try:
        t.send(b'\x01s')
        if not t.wait(rb'snapshot refused: --drive file=\S+ is writable', 30):
            errors.append('Ctrl-A s with a writable disk was not refused: ' +
                          t.buf[-500:].decode(errors='replace'))
        t.send(b'echo still-$((2+3))\r')
        if not t.wait(rb'still-5', 30):
            errors.append('the run did not go on after the refusal')
        t.send(b'\x01x')
        t.exit_status(60)
    finally:
        t.close()
    if os.path.exists(snap):
        errors.append('a snapshot file was written')
    # read-only: the snapshot is written and restores with the same --drive. A fresh image:
    # the one above was left by Ctrl-A x with ext4's journal still to replay, which a
    # read-only device cannot do (the mount would be refused)
    img = os.path.join(tmp, 'ro.ext4')
    make_disk(a.initrd, img)
    drive = ['--drive', 'file=%s,readonly=on' % img]
    t, why = boot_tty(a, ['--initrd', a.initrd, '--snapshot-out', snap] + drive)
    if not t:
        errors.append(why)
        return
    try:
        t.send(b'\x01s')
        if not t.wait(rb'snapshot at packet \d+ written', 60):
            errors.append('Ctrl-A s with a read-only disk wrote no snapshot')
        t.send(b'\x01x')
        t.exit_status(60)
    finally:
        t.close()
    t = Tty([a.hexsim, '--restore', snap, '--max-seconds', '300'] + drive)
    try:
        t.wait(rb'restored ', 60)
        t.send(b'mount -o ro /dev/vda /mnt && ls /mnt/etc/hostname\r')
        if not t.wait(rb'\n/mnt/etc/hostname\r*\n', 60):
            errors.append('the restored machine does not read its disk: ' +
                          t.buf[-800:].decode(errors='replace'))
        t.send(b'\x01x')
        t.exit_status(60)
    finally:
        t.close()
    p = subprocess.run([a.hexsim, '--restore', snap, '--max-seconds', '60'],
                       stdin=subprocess.DEVNULL, capture_output=True, timeout=120)
    err = p.stderr.decode(errors='replace')
    if p.returncode == 0 or 'virtio_blk' not in err:
        errors.append('--restore without the --drive: exit status %d, %s' % (p.returncode,
                                                                           err[-300:]))


def case_replay(a, tmp, errors):
    img = os.path.join(tmp, 'root.ext4')
    make_disk(a.initrd, img)
    copy = os.path.join(tmp, 'copy.ext4')
    shutil.copyfile(img, copy)
    rec = os.path.join(tmp, 'rec.txt')
    script = os.path.join(tmp, 'typed.txt')
    with open(script, 'w') as f:
        f.write('md5sum /bin/busybox\necho written > /w\nsync\ncat /w\n'
                'dd if=/dev/vda bs=4096 count=64 2>/dev/null | md5sum\npoweroff\n')
    outs = []
    for disk, how in ((img, ['--script', script, '--record', rec]), (copy, ['--replay', rec])):
        p = subprocess.run([a.hexsim, a.vmlinux, '--drive', 'file=' + disk, '--max-seconds',
                            '300'] + ROOT_ARGS + how, stdin=subprocess.DEVNULL,
                           capture_output=True, timeout=400)
        if p.returncode != 0:
            errors.append('%s: exit status %d: %s' % (how[-2], p.returncode,
                                                      p.stderr.decode(errors='replace')[-500:]))
        outs.append(p.stdout)
    if outs[0] != outs[1]:
        errors.append('--replay gave other output than --record')
    if 'written' not in outs[0].decode(errors='replace'):
        errors.append('the recorded run did not write: ' + outs[0].decode(errors='replace')[-800:])
    if sha(img) != sha(copy):
        errors.append('the replayed run left another image than the recorded one')


def case_speed(a, tmp, errors):
    """dd of 64 MiB to the disk (conv=fsync) and back (after drop_caches): host time
    between markers the guest prints, guest time from /proc/uptime at each marker (the
    project's BusyBox dd prints no timing line: FEATURE_DD_THIRD_STATUS_LINE is off).
    Printed, not bounded (a sanitized hexsim is 10-20 times slower)."""
    img = os.path.join(tmp, 'root.ext4')
    make_disk(a.initrd, img, '256M')
    mark = 'echo MARK-$((0+%d)) $(cut -d" " -f1 /proc/uptime)'
    lines = [mark % 0, 'dd if=/dev/zero of=/big bs=1M count=64 conv=fsync', mark % 1,
             'sync; echo 3 > /proc/sys/vm/drop_caches', mark % 2,
             'dd if=/big of=/dev/null bs=1M', mark % 3, 'poweroff']
    script = os.path.join(tmp, 'script.txt')
    with open(script, 'w') as f:
        f.write(''.join(line + '\n' for line in lines))
    p = subprocess.Popen([a.hexsim, a.vmlinux, '--drive', 'file=' + img, '--script', script,
                          '--max-seconds', '600', '--stats'] + ROOT_ARGS, stdin=subprocess.DEVNULL,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    marks, guest, out = {}, {}, b''
    t0 = time.time()
    while True:
        chunk = os.read(p.stdout.fileno(), 65536)
        if not chunk:
            break
        out += chunk
        for m in re.finditer(rb'\nMARK-(\d) ([0-9.]+)\r*\n', out):
            marks.setdefault(int(m.group(1)), time.time())
            guest.setdefault(int(m.group(1)), float(m.group(2)))
    err = p.stderr.read().decode(errors='replace')
    p.wait()
    text = out.decode(errors='replace')
    m = re.search(r'first waited for console input.* ([0-9.]+) s after the start', err)
    records = re.findall(r'64\+0 records out', text)
    if len(marks) != 4 or len(records) != 2 or p.returncode != 0:
        errors.append('the dd runs did not complete (exit status %d, marks %s, %d of 2 dd '
                      'runs): %s' % (p.returncode, sorted(marks), len(records), text[-1500:]))
        return
    print('disk speed: boot to the prompt %s s; dd 64 MiB to the disk (conv=fsync) %.2f s host, '
          '%.2f s guest; from the disk %.2f s host, %.2f s guest; whole run %.1f s' %
          (m.group(1) if m else '?', marks[1] - marks[0], guest[1] - guest[0],
           marks[3] - marks[2], guest[3] - guest[2], time.time() - t0))
    r = subprocess.run(['debugfs', '-R', 'stat /big', img], capture_output=True, text=True,
                       env=ENV)
    if 'Size: 67108864' not in r.stdout:
        errors.append('/big is not 64 MiB in the image: ' + r.stdout[:300])


CASES = {'root': case_root, 'ctrlax': case_ctrlax, 'maxsec': case_maxsec, 'kill': case_kill,
         'readonly': case_readonly, 'lock': case_lock, 'snapshot': case_snapshot,
         'replay': case_replay, 'speed': case_speed}


def run_case(kind, cases, a):
    """Runs case a.case of cases (kind: disk, share) in a fresh scratch directory and
    prints its verdict; the exit status."""
    errors = []
    t0 = time.time()
    with tempfile.TemporaryDirectory(prefix='hexsim-%s-' % kind) as tmp:
        cases[a.case](a, tmp, errors)
    if errors:
        print('FAIL %s %s:\n  %s' % (kind, a.case, '\n  '.join(errors)))
        return 1
    print('%s %s: ok (%.1f s)' % (kind, a.case, time.time() - t0))
    return 0


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('case', choices=sorted(CASES))
    ap.add_argument('--hexsim', required=True)
    ap.add_argument('--vmlinux', required=True)
    ap.add_argument('--initrd', required=True)
    ap.add_argument('--max-seconds', type=int, default=30)
    a = ap.parse_args()
    for tool in ('mke2fs', 'debugfs', 'e2fsck'):
        if not shutil.which(tool, path=ENV['PATH']):
            print('disk %s: skipped: %s not found (e2fsprogs; tools/setup.sh)' % (a.case, tool))
            return 77
    return run_case('disk', CASES, a)


if __name__ == '__main__':
    sys.exit(main())
