#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# HVM system-mode tests: builds one freestanding test kernel from tests/hvm/guest with
# clang-16, runs it with hexsim and checks the exit status, the pass line the kernel prints
# through angel calls, and diagnostics on stderr.
# Usage: hvm_test.py --hexsim BUILD/hexsim --work DIR CASE
import argparse
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
GUEST = os.path.join(HERE, 'guest')
CLANG = ['clang-16', '--target=hexagon-unknown-linux-musl', '-mv67', '-O1', '-ffreestanding',
         '-nostdlib', '-fuse-ld=lld', '-static', '-fno-builtin', '-Wl,-Ttext=0x100000',
         '-Wl,-e,_start', '-I', GUEST]

# case: (sources, hexsim options, exit status, stdout line, stderr texts[, link options])
VEC0 = ['-Wl,--section-start=.vectors=0']
LIM = ['--mem', '64M', '--max-packets', '5000000']
CASES = {
    # the conformance suite (HVM specification Rev A): one vCPU and three; each kernel runs
    # about 12000 packets, the limit turns a guest stuck in an event loop into a failure
    'spec_calls': (['crt.S', 't_spec_calls.c'], LIM, 0, None, []),
    'spec_calls_smp3': (['crt.S', 't_spec_calls.c'], LIM + ['--smp', '3'], 0, None, []),
    'spec_mmu': (['crt.S', 't_spec_mmu.c'], LIM, 0, None, []),
    'spec_mmu_smp3': (['crt.S', 't_spec_mmu.c'], LIM + ['--smp', '3'], 0, None, []),
    'spec_vcpu': (['crt.S', 't_spec_vcpu.c'], LIM + ['--smp', '3'], 0, None, []),
    'spec_novec': (['t_spec_novec.c'], LIM + ['--smp', '2'], 3, 'PASSED spec_novec',
                   ['cpu1: trap0 (cause 0x9, address 0x00000000) at PC 0x',
                    'before the guest set its event vectors (vmsetvec): the vCPU is terminated',
                    'every vCPU stopped']),
    'spec_events': (['crt.S', 't_spec_events.c'], LIM, 0, None, []),
    'spec_events_smp3': (['crt.S', 't_spec_events.c'], LIM + ['--smp', '3'], 0, None, []),
    'spec_events_vec0': (['crt.S', 't_spec_events.c'], LIM, 0, None, [], VEC0),
    'basic': (['crt.S', 't_basic.c'], ['--mem', '64M', '--append', 'hvm-basic'], 0,
              'ABCDEF', ['trap1(#9)', 'angel call 0x99', 'every vCPU stopped']),
    'mmu': (['crt.S', 't_mmu.c'], LIM, 0, None, []),
    'smc': (['crt.S', 't_smc.c'], LIM, 0, None, []),
    # the vgather/vscatter region rule with the guest's page sizes (built with -mhvx)
    'hvx_region': (['crt.S', 't_hvx_region.c'], LIM, 0, None, [], ['-mhvx']),
    # system-mode blocks (issue 34): every block compiled at once, and packet by packet
    # (code written or remapped makes only its page's blocks stale: no flush of every block)
    'jit': (['crt.S', 't_jit.c'], LIM + ['--jit-threshold', '1', '--stats'], 0, None,
            ['code cache flushes (host)                                   0\n']),
    'jit_nojit': (['crt.S', 't_jit.c'], LIM + ['--no-jit'], 0, None, []),
    'smc_jit': (['crt.S', 't_smc.c'], LIM + ['--jit-threshold', '1'], 0, None, []),
    'user': (['crt.S', 't_user.c'], LIM, 0, None, []),
    # 20000 packets are far fewer than the 18.75 M pcycles waited: vmwait must fast-forward
    'timer': (['crt.S', 't_timer.c'], ['--mem', '64M', '--max-packets', '20000'], 0, None, []),
    'intop': (['crt.S', 't_intop.c'], LIM, 0, None, []),
    'smp': (['crt.S', 't_smp.c'], ['--mem', '64M', '--smp', '2', '--max-packets', '2000000'], 0,
            None, []),
    # parallel work in guest time: two vCPUs each a core (the default), or threads of one
    'par': (['crt.S', 't_par.c'], ['--mem', '64M', '--smp', '2', '--max-packets', '2000000'], 0,
            'pcycles: parallel\n', []),
    'par_threads': (['crt.S', 't_par.c'], ['--mem', '64M', '--smp', '2', '--max-packets',
                                           '2000000', '--timing-param', 'core_threads=2'], 0,
                    'pcycles: shared\n', []),
    'novec': (['t_novec.S'], ['--mem', '64M'], 3, None,
              ['trap0 (cause 0x5, address 0x00000000) at PC 0x00100004 in guest mode before '
               'the guest set its event vectors (vmsetvec): the vCPU is terminated',
               'every vCPU stopped']),
    'limit': (['crt.S', 't_timer.c'], ['--mem', '64M', '--max-packets', '50'], 124, None,
              ['stopped after 50 packets (--max-packets)']),
    # Linux copies at most 511 bytes of command line: a longer one is refused, not cut;
    # a usage error (status 2; --append itself is short enough, the board's additions are
    # not), not status 1, which --help keeps for files that cannot be read
    'cmdline': (['t_novec.S'], ['--mem', '64M', '--append', 'x' * 480], 2, None,
                ['kernel command line is 513 bytes; Linux/Hexagon takes at most 511']),
    # a Linux kernel's (vm_cmdline_set) command line: --append's kernel options, the board's,
    # then after `--` --append's words for init and the date for /init (issue 48)
    'cmdline_linux': (['crt.S', 't_cmdline.c'], ['--mem', '64M', '--append',
                      'quiet -- init.nopoweroff', '--rtc-base', '2030-01-01'], 0,
                      '[quiet console=ttyMSM2,115200n8 mem=64M virtio_mmio.device=0x200@'
                      '0xab100000:52 -- init.nopoweroff init.date=1893456000]\n', []),
    # Comet UART3 + SIRC (tests/devices): scripted stdin, output through the UART
    'uart': (['crt.S', 't_uart.c'], ['--mem', '64M', '--max-packets', '20000000'], 0,
             '#UART polled\nUART interrupt-driven TX: 0123456789abcdefghijklmnopqrstuvwxyz'
             'ABCDEFGHIJKLMNOPQRSTUVWXYZ 0123456789\n', []),
    # the virtio block device on the bus (tests/devices): --drive of an image the test makes
    'virtio_blk': (['crt.S', 't_virtio_blk.c'], ['--mem', '64M', '--max-packets', '20000000'],
                   0, None, []),
    # a snapshot of a machine with a writable disk is refused (the disk is not in it)
    'virtio_blk_nosnap': (['crt.S', 't_virtio_blk.c'], ['--mem', '64M', '--snapshot-at', '2000',
                          '--snapshot-out', os.devnull + '.never'], 1, None,
                          ['snapshot refused: --drive file=', 'is writable']),
}

# Disk images per case: 64 sectors, sector i filled with the byte i (afterwards sector 5
# must hold what the kernel wrote there, byte j = j * 7 + 1), and a read-only one of 16
DRIVE = {'virtio_blk', 'virtio_blk_nosnap'}

# Scripted standard input per case (written to a file, so the run is reproducible)
STDIN = {'uart': 'ab\ncdefgh'}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--hexsim', required=True)
    ap.add_argument('--work', required=True)
    ap.add_argument('case', choices=sorted(CASES))
    a = ap.parse_args()
    srcs, opts, want_rc, want_out, want_err = CASES[a.case][:5]
    link = CASES[a.case][5] if len(CASES[a.case]) > 5 else []
    name = a.case.replace('_smp3', '').replace('_vec0', '').replace('_nojit', '').replace(
        '_jit', '').replace('_threads', '')
    os.makedirs(a.work, exist_ok=True)
    elf = os.path.join(a.work, 'hvm_' + a.case + '.elf')
    subprocess.run(CLANG + link + [os.path.join(GUEST, s) for s in srcs] + ['-o', elf],
                   check=True)
    # lld-16 corrupts relocated extended SA1_addi duplexes: a test kernel must have none
    subprocess.run([sys.executable, os.path.join(HERE, '..', '..', 'tools', 'lld_duplex_check.py'),
                    elf], check=True)
    stdin = subprocess.DEVNULL
    if a.case in STDIN:
        path = os.path.join(a.work, 'hvm_' + a.case + '.stdin')
        with open(path, 'w') as f:
            f.write(STDIN[a.case])
        stdin = open(path, 'rb')
    img = None
    if a.case in DRIVE:
        img = os.path.join(a.work, 'hvm_' + a.case + '.img')
        with open(img, 'wb') as f:
            f.write(b''.join(bytes([i]) * 512 for i in range(64)))
        ro = os.path.join(a.work, 'hvm_' + a.case + '_ro.img')
        with open(ro, 'wb') as f:
            f.write(b''.join(bytes([i]) * 512 for i in range(16)))
        opts = opts + ['--drive', 'file=' + img, '--drive', 'file=%s,readonly=on' % ro]
    p = subprocess.run([a.hexsim, elf] + opts, capture_output=True, text=True, timeout=120,
                       stdin=stdin)
    bad = []
    if img:
        with open(img, 'rb') as f:
            disk = f.read()
        if a.case == 'virtio_blk_nosnap':
            pass                       # stopped at the refused snapshot, before any write
        elif disk[5 * 512:6 * 512] != bytes((j * 7 + 1) & 0xff for j in range(512)):
            bad.append('sector 5 of the image does not hold what the kernel wrote')
        if disk[:5 * 512] + disk[6 * 512:] != b''.join(bytes([i]) * 512 for i in range(64)
                                                      if i != 5):
            bad.append('other sectors of the image changed')
    if p.returncode != want_rc:
        bad.append('exit status %d, expected %d' % (p.returncode, want_rc))
    if 'FAIL' in p.stdout:
        bad.append('the kernel reported failures')
    if want_rc == 0 and ('PASSED ' + name) not in p.stdout:
        bad.append('no "PASSED %s" line' % name)
    if want_out and want_out not in p.stdout:
        bad.append('%r not in stdout' % want_out)
    for e in want_err:
        if e not in p.stderr:
            bad.append('%r not in stderr' % e)
    if bad:
        print('FAIL hvm %s: %s' % (a.case, '; '.join(bad)))
        print('--- stdout\n' + p.stdout + '--- stderr\n' + p.stderr)
        return 1
    # conformance cases: "ok   SECTION | STATEMENT" lines
    for line in p.stdout.splitlines():
        if line.startswith('ok   '):
            print('  ' + line)
    print('hvm %s: ok' % a.case)
    return 0


if __name__ == '__main__':
    sys.exit(main())
