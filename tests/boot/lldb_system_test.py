#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# The gdb remote stub in system mode against lldb-16 (ctest label "boot"): `hexsim VMLINUX
# --gdb 127.0.0.1:0` with the console input (poweroff) on stdin; lldb-16 in batch mode
# connects, breaks on start_kernel, continues, reads registers (PC, SP, G0) and the words of
# linux_banner, steps one packet, reads PC again and detaches; the guest then boots on to
# poweroff (exit status 0). A second session breaks at the first file open and kills the
# machine: lldb reports it killed, hexsim ends with exit status 137 after the kernel's last
# line whole (the UART's FIFO reaches the host). A third, with --smp 4, breaks on
# start_secondary: lldb sees one thread per vCPU, the stop on the second vCPU's thread, steps
# that thread alone (thread 1's PC stays), stops next on the third vCPU and kills the
# machine (early in the boot: the test stays short). Exit status 77 (skipped) when lldb-16 is not installed.
# Usage: lldb_system_test.py --hexsim BUILD/hexsim --vmlinux VMLINUX --initrd ROOTFS.cpio
import argparse
import os
import re
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                                'debug'))
import lldb_test  # noqa: E402


def kill_session(a, lldb):
    """lldb-16 breaks at the first file open and kills the machine. Returns lldb's output,
    hexsim's stdout, stderr and exit status."""
    text, out, err, rc = lldb_test.session_argv(
        [a.hexsim, a.vmlinux, '--initrd', a.initrd, '--gdb', '127.0.0.1:0'], lldb, a.vmlinux,
        ['breakpoint set -n do_sys_openat2', 'continue', 'kill'], stdin=subprocess.DEVNULL,
        lldb_timeout=300)
    return (out, '', '', None) if text is None else (text, out, err, rc)


def smp_session(a, lldb):
    """lldb-16 with four vCPUs. Returns the failed checks and the outputs."""
    text, out, err, rc = lldb_test.session_argv(
        [a.hexsim, a.vmlinux, '--initrd', a.initrd, '--smp', '4', '--gdb', '127.0.0.1:0'], lldb,
        a.vmlinux, ['breakpoint set -n start_secondary', 'continue', 'thread list',
                    'thread step-inst', 'thread list', 'continue', 'kill'],
        stdin=subprocess.DEVNULL, lldb_timeout=300, sim_timeout=300)
    if text is None:
        return ['smp: ' + out], ''
    lists = re.findall(r'\(lldb\) thread list\nProcess 1 stopped\n((?:[ *] thread #.*\n)+)', text)
    pcs = [dict(re.findall(r'thread #(\d): tid = 0x[0-9a-f]+, (0x[0-9a-f]+)', t)) for t in lists]
    checks = [
        ('smp: the stop on the second vCPU', re.search(
            r'\* thread #2, stop reason = breakpoint 1\.1\n.*vmlinux`start_secondary', text)),
        ('smp: one thread per vCPU', len(pcs) == 2 and all(len(x) == 4 for x in pcs)),
        ('smp: step-inst on thread 2', re.search(
            r'\* thread #2, stop reason = instruction step into\n.*start_secondary \+ \d+', text)),
        ('smp: thread 1 stood still meanwhile', len(pcs) == 2 and pcs[0].get('1') is not None
         and pcs[0].get('1') == pcs[1].get('1') and pcs[0].get('2') != pcs[1].get('2')),
        ('smp: the next stop on the third vCPU', re.search(
            r'\* thread #3, stop reason = breakpoint 1\.1\n.*vmlinux`start_secondary', text)),
        ('smp: killed', re.search(r'Process 1 exited with status = 9', text)),
        ('smp: exit status 137', rc == 137),
    ]
    return [w for w, ok in checks if not ok], ('lldb output:\n' + text + '\nhexsim stdout (end):\n'
                                               + out[-1500:] + '\nhexsim stderr:\n' + err)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--hexsim', required=True)
    ap.add_argument('--vmlinux', required=True)
    ap.add_argument('--initrd', required=True)
    a = ap.parse_args()
    lldb = shutil.which('lldb-16')
    if not lldb:
        print('lldb-16 not installed: skipped')
        return 77
    text, out, err, rc = lldb_test.session_argv(
        [a.hexsim, a.vmlinux, '--initrd', a.initrd, '--gdb', '127.0.0.1:0'], lldb, a.vmlinux,
        ['breakpoint set -n start_kernel', 'continue', 'register read pc r29 g0',
         'memory read -s4 -fx -c2 &linux_banner', 'thread step-inst', 'register read pc',
         'detach'], sim_input='poweroff\n', lldb_timeout=300, sim_timeout=300)
    if text is None:
        print('FAIL: %s' % out)
        return 1
    checks = [
        ('stopped at the breakpoint', 'stop reason = breakpoint 1.1' in text),
        ('pc at start_kernel', re.search(r'pc = 0xc[0-9a-f]{7} vmlinux`start_kernel\s', text)
         is not None),
        ('sp in the kernel', re.search(r'r29 = 0xc[0-9a-f]{7}', text) is not None),
        ('g0 readable', re.search(r'g0 = 0x[0-9a-f]{8}', text) is not None),
        ('linux_banner read through the MMU', re.search(r'0xc[0-9a-f]{7}: 0x756e694c '
                                                        r'0x65762078', text) is not None),
        ('single step', 'instruction step into' in text and
         re.search(r'pc = 0xc[0-9a-f]{7} vmlinux`start_kernel \+ \d+', text) is not None),
        ('detached', 'detached' in text),
        ('the guest booted on to poweroff', re.search(r'reboot: (System halted|Power down)', out)
         is not None),
        ('exit status 0', rc == 0),
    ]
    ktext, kout, kerr, krc = kill_session(a, lldb)
    checks += [
        ('kill: lldb reports the machine killed', re.search(
            r'Process 1 exited with status = 9 \(0x00000009\) killed', ktext) is not None),
        ('kill: the kernel\'s last line whole', re.search(r'\n\[ *\d+\.\d{6}\] [^\n]*\n$', kout)
         is not None),
        ('kill: hexsim says so last', kerr.endswith(
            '\nhexsim: the gdb client killed the program (exit status 137)\n')),
        ('kill: exit status 137', krc == 137),
    ]
    bad = [w for w, ok in checks if not ok]
    smp_bad, smp_text = smp_session(a, lldb)
    bad += smp_bad
    for w in bad:
        print('FAIL: %s' % w)
    if smp_bad:
        print('smp session, ' + smp_text)
    if bad:
        print('lldb output:\n' + text + '\nhexsim stdout (end):\n' + out[-2000:] +
              '\nhexsim stderr:\n' + err)
        print('kill session, lldb output:\n' + ktext + '\nhexsim stdout (end):\n' +
              kout[-500:] + '\nhexsim stderr:\n' + kerr)
        return 1
    print('lldb-16 system-mode session: all checks passed')
    return 0


if __name__ == '__main__':
    sys.exit(main())
