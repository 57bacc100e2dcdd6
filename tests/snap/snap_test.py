#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# Snapshot tests (ctest label "boot"): the guest kernel with the root file system, commands
# typed by --script, in three ways: straight; with --snapshot-at N --snapshot-out FILE (at
# the packet where the shell first waits for input, and at a third of it, in the middle of
# the boot); and continued with --restore FILE. The restored run must print exactly the
# end of the straight run's console output and stop after the same number of packets.
# Then damaged copies of the snapshot (a flipped byte in a section, in the header, cut
# short, another magic, another format version) must be refused with exit status 1 and a
# message naming the file, and nothing run. Last, --record FILE of a run with the commands
# piped on stdin, and --replay FILE with nothing on stdin: the same output and packets.
# Usage: snap_test.py --hexsim BUILD/hexsim --vmlinux VMLINUX --initrd ROOTFS.cpio
import argparse
import json
import os
import re
import subprocess
import sys
import tempfile

TYPED = 'uname -a\necho $((6*7))\nls /\npoweroff\n'


def run(cmd, typed=None):
    p = subprocess.run(cmd, input=typed, stdin=None if typed else subprocess.DEVNULL,
                       capture_output=True, timeout=400)
    return p.returncode, p.stdout, p.stderr.decode(errors='replace')


def packets(err):
    m = re.search(r'every vCPU stopped \(vmstop\) after (\d+) packets', err)
    return int(m.group(1)) if m else None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--hexsim', required=True)
    ap.add_argument('--vmlinux', required=True)
    ap.add_argument('--initrd', required=True)
    a = ap.parse_args()
    bad = []
    with tempfile.TemporaryDirectory() as d:
        script = os.path.join(d, 'typed.txt')
        with open(script, 'w') as f:
            f.write(TYPED)
        boot = [a.hexsim, a.vmlinux, '--initrd', a.initrd, '--script', script,
                '--max-seconds', '300']
        rc, out, err = run(boot + ['--stats'])   # --stats: the prompt's packet (timing line)
        total = packets(err)
        m = re.search(r'first waited for console input.*packet (\d+)\)', err)
        if rc != 0 or total is None or not m or b'\n42\r\n' not in out:
            print('FAIL snapshot: the straight run: exit %d\n%s' % (rc, err[-2000:]))
            return 1
        prompt = int(m.group(1))
        snap_shell = None
        for n in (prompt, prompt // 3):
            snap = os.path.join(d, 'at%d.snap' % n)
            rc2, out2, err2 = run(boot + ['--snapshot-at', str(n), '--snapshot-out', snap])
            if rc2 != 0 or out2 != out or packets(err2) != total or not os.path.exists(snap):
                bad.append('--snapshot-at %d changed the run (exit %d, %s packets)' %
                           (n, rc2, packets(err2)))
                continue
            rc3, out3, err3 = run([a.hexsim, '--restore', snap, '--script', script,
                                   '--max-seconds', '300'])
            if rc3 != 0 or packets(err3) != total:
                bad.append('--restore of packet %d: exit %d, %s packets, not %d: %s' %
                           (n, rc3, packets(err3), total, err3[-800:]))
            elif not out3 or not out.endswith(out3):
                bad.append('--restore of packet %d: its console output is not the end of '
                           'the straight run\'s' % n)
            if n == prompt:
                snap_shell = snap
                if b'/# uname -a' not in out3 or b'Linux hexagon' not in out3:
                    bad.append('--restore at the prompt: the commands did not run after it')
        if snap_shell:
            data = open(snap_shell, 'rb').read()
            hdr = 52 + 48 * int.from_bytes(data[12:16], 'little')
            damaged = {
                'a byte of a section': (data[:hdr + 100] + bytes([data[hdr + 100] ^ 0x40]) +
                                        data[hdr + 101:], r'checksum mismatch'),
                'a byte of the table': (data[:60] + bytes([data[60] ^ 1]) + data[61:],
                                        r'checksum mismatch|outside the file|section'),
                'cut short': (data[:len(data) // 2], r'outside the file|truncated'),
                'another magic': (b'NOTASNAP' + data[8:], r'not a hexsim snapshot'),
                'format version 99': (data[:8] + (99).to_bytes(4, 'little') + data[12:],
                                      r'format version 99'),
                'empty': (b'', r'truncated'),
            }
            for what, (blob, rx) in damaged.items():
                path = os.path.join(d, 'damaged.snap')
                with open(path, 'wb') as f:
                    f.write(blob)
                rc4, out4, err4 = run([a.hexsim, '--restore', path])
                if rc4 != 1 or path not in err4 or not re.search(rx, err4) or out4:
                    bad.append('%s: exit %d, stderr %r' % (what, rc4, err4.strip()[-300:]))
            rc5, _, err5 = run([a.hexsim, '--restore', os.path.join(d, 'missing.snap')])
            if rc5 != 1 or 'missing.snap' not in err5:
                bad.append('a missing snapshot: exit %d, %r' % (rc5, err5.strip()))
            rc6, _, err6 = run([a.hexsim, a.vmlinux, '--restore', snap_shell])
            if rc6 != 2:
                bad.append('--restore with a KERNEL: exit %d, not 2 (usage)' % rc6)
            size = len(data)
        # cache mode: the caches are part of the machine; a restore continues the same pcycles
        # and refuses other timing options
        js = os.path.join(d, 'cache.json')
        cache = boot + ['--timing=cache', '--stats-json', js]
        rc10, out10, err10 = run(cache)
        pc_straight = json.load(open(js))['pcycles'] if rc10 == 0 else None
        csnap = os.path.join(d, 'cache.snap')
        run(cache + ['--snapshot-at', str(prompt // 2), '--snapshot-out', csnap])
        rc11, out11, err11 = run([a.hexsim, '--restore', csnap, '--script', script,
                                  '--timing=cache', '--stats-json', js])
        pc_restored = json.load(open(js))['pcycles'] if rc11 == 0 else None
        if pc_straight is None or pc_restored != pc_straight or not out10.endswith(out11):
            bad.append('--timing=cache restore: pcycles %s, straight run %s: %s' %
                       (pc_restored, pc_straight, err11[-500:]))
        rc12, _, err12 = run([a.hexsim, '--restore', csnap, '--script', script])
        if rc12 != 1 or 'same timing options' not in err12:
            bad.append('a cache-mode snapshot restored in simple mode: exit %d, %r' %
                       (rc12, err12.strip()[-300:]))
        rec = os.path.join(d, 'input.rec')
        plain = [a.hexsim, a.vmlinux, '--initrd', a.initrd, '--max-seconds', '300']
        rc7, out7, err7 = run(plain + ['--record', rec], TYPED.encode())
        rc8, out8, err8 = run(plain + ['--replay', rec])
        if rc7 != 0 or b'\n42\r\n' not in out7:
            bad.append('--record: exit %d: %s' % (rc7, err7[-500:]))
        elif rc8 != 0 or out8 != out7 or packets(err8) != packets(err7):
            bad.append('--replay: exit %d, %s packets (recorded %s), output %s' %
                       (rc8, packets(err8), packets(err7), 'same' if out8 == out7 else 'differs'))
        with open(rec, 'a') as f:
            f.write('12 potato\n')
        rc9, _, err9 = run(plain + ['--replay', rec])
        if rc9 != 1 or 'input.rec' not in err9:
            bad.append('a damaged record: exit %d, %r' % (rc9, err9.strip()[-200:]))
    if bad:
        print('FAIL snapshot: ' + '\n  '.join(bad))
        return 1
    print('snapshot: ok (%d packets; at the prompt, packet %d: %d bytes)' % (total, prompt, size))
    return 0


if __name__ == '__main__':
    sys.exit(main())
