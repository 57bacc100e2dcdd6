#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# Kernel-aware debugging with the debug-info kernel (guest/linux/build.sh --debug-info;
# ctest labels boot, debug, kdebug). Boots it under the debugger with a -x command file and
# the console input (a user program's open, then poweroff) on stdin, and checks the answers:
#   syscall  a breakpoint on do_sys_openat2, a function the kernel has only as copies inlined
#            into its callers (DWARF inlined-subroutine entries: several locations), with a
#            condition that picks the user program `cat` by its task's name through the
#            kernel's types (r19 holds the current thread_info); the stop names the task and
#            its pid; bt runs from the inlined copy through do_trap0 and the event entry,
#            marks the boundary (system call 56, openat, from user mode) and goes on in user
#            space at the PC after the trap0 (the pt_regs' ELR, the program's own registers);
#            ps lists init, cat (the current task, marked) and kernel threads in brackets;
#            dmesg prints the kernel's log buffer (the boot's first line and the line the
#            console showed just before); vtop translates the program's stack pointer through
#            its page tables to a physical address whose bytes x/p reads as the virtual ones;
#            the guest then runs on to poweroff
#   same     the debug kernel boots with the console output of the default kernel (--vmlinux-
#            default): the debug information adds only sections that are not loaded
# Exits 77 (skipped) when no debug kernel was configured (-DHEXSIM_VMLINUX_DEBUG=PATH).
# Usage: kdebug_test.py CASE --hexsim HEXSIM --vmlinux DEBUG_VMLINUX [--vmlinux-default K]
#        --initrd ROOTFS
import argparse
import os
import re
import subprocess
import sys
import tempfile

HEX = r'0x[0-9a-f]{8}'
KHEX = r'0xc[0-9a-f]{7}'

SYSCALL_SCRIPT = """break do_sys_openat2 if ((struct thread_info *)$r19)->task->comm[0] == 'c' && ((struct thread_info *)$r19)->task->comm[1] == 'a'
continue
bt
ps
dmesg
vtop $sp
x/4xw $sp
delete
continue
"""

SYSCALL_CHECKS = [
    ('a breakpoint on the inlined copies', r'\(hexsim\) break do_sys_openat2 if [^\n]*\n'
     r'Breakpoint 1 at ' + KHEX + r': do_sys_openat2\. \((\d+) locations\)\n'),
    ('the stop in the user program, named with its pid',
     r'\nBreakpoint 1, [^\n]*\n=> ' + KHEX + r' <[^>]+>: \{[^\n]*\n\[task cat, pid (\d+)\]\n'),
    ('bt from the inlined copy down to the event entry',
     r'\(hexsim\) bt\n#0  [^\n]*\n(#\d+  [^\n]*\n)*#\d+  ' + KHEX +
     r' in do_trap0 [^\n]*\n#(\d+)  ' + KHEX + r' <event_dispatch\+\d+>\n'),
    ('the boundary: system call 56 (openat) from user mode',
     r'\n--- system call 56 from user mode, pt_regs at ' + KHEX + r' ---\n#\d+  0x000[0-9a-f]{5}'
     r'\n'),
    ('ps: init, cat current, kernel threads in brackets',
     r'\(hexsim\) ps\n    PID  S  TASK        COMM\n      0  R  ' + KHEX + r'  \[swapper\]\n'
     r'       1  [RSD]  ' + KHEX + r'  init\n(.*\n)*  +2  [RSDI]  ' + KHEX + r'  \[kthreadd\]\n'
     r'(.*\n)*> +\d+  R  ' + KHEX + r'  cat\n'),
    ('dmesg: the log buffer from the boot\'s first line',
     r'\(hexsim\) dmesg\n\[    0\.000000\] Linux version 6\.1[^\n]*\n(\[ *\d+\.\d{6}\] .*\n)*'
     r'\[ *\d+\.\d{6}\] Run /init as init process\n'),
    ('vtop: the stack pointer through cat\'s page tables',
     r'\(hexsim\) vtop \$sp\n(0x[0-9a-f]{8}) in process \d+ is physical (0x[0-9a-f]{8}) '
     r'\(page table at physical ' + HEX + r'\)\n'),
    ('the guest ran on to poweroff', r'reboot: (System halted|Power down)\n(.*\n)*'
     r'Program exited with code 0\.\n'),
]


def run(a, args, script, stdin, tmp):
    cmds = os.path.join(tmp, 'cmds.gdb')
    with open(cmds, 'w') as f:
        f.write(script)
    p = subprocess.run([a.hexsim, *args, '--initrd', a.initrd, '-x', cmds], input=stdin,
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=800)
    return p, p.stdout.decode('utf-8', 'replace').replace('\r\n', '\n')


def check_syscall(a, tmp):
    stdin = b'cat /etc/hostname\npoweroff\n'
    p, out = run(a, [a.vmlinux], SYSCALL_SCRIPT, stdin, tmp)
    bad = [what for what, rx in SYSCALL_CHECKS if not re.search(rx, out)]
    v = re.search(r'\n(0x[0-9a-f]{8}) in process \d+ is physical (0x[0-9a-f]{8})', out)
    words = re.search(r'\(hexsim\) x/4xw \$sp\n' + HEX + r':((\t0x[0-9a-f]{8}){4})\n', out)
    if not v or not words:
        bad.append('x/4xw $sp after vtop')
    else:   # the physical view of the translated address holds the same words
        # the same boot again (deterministic), reading the physical address
        p2, out2 = run(a, [a.vmlinux], SYSCALL_SCRIPT.replace('x/4xw $sp',
                                                              'x/4xwp %s' % v.group(2)),
                       stdin, tmp)
        w2 = re.search(r'\(hexsim\) x/4xwp ' + v.group(2) + r'\n' + HEX + r':((\t0x[0-9a-f]{8})'
                       r'{4})\n', out2)
        if not w2 or w2.group(1) != words.group(1):
            bad.append('vtop: the physical address holds the virtual address\'s words')
    m = re.search(SYSCALL_CHECKS[0][1], out)
    if m and int(m.group(1)) < 2:
        bad.append('do_sys_openat2 has several inlined copies')
    if p.returncode != 0:
        bad.append('exit status %d' % p.returncode)
    return bad, out, p.stderr.decode('utf-8', 'replace')


def check_same(a, tmp):
    outs = []
    for k in (a.vmlinux_default, a.vmlinux):
        p = subprocess.run([a.hexsim, k, '--initrd', a.initrd, '--stats'],
                           input=b'cat /proc/version\npoweroff\n', stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, timeout=800)
        packets = re.search(r'\n  packets +(\d+)\n', p.stderr.decode('utf-8', 'replace'))
        outs.append((p.returncode, p.stdout, packets.group(1) if packets else None))
    bad = []
    if outs[0][1] != outs[1][1]:
        bad.append('the console output differs')
    if outs[0][2] != outs[1][2] or outs[0][2] is None:
        bad.append('the packet counts differ (%s, %s)' % (outs[0][2], outs[1][2]))
    if outs[0][0] != 0 or outs[1][0] != 0:
        bad.append('exit status %d, %d' % (outs[0][0], outs[1][0]))
    return bad, outs[1][1].decode('utf-8', 'replace'), ''


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('case', choices=['syscall', 'same'])
    ap.add_argument('--hexsim', required=True)
    ap.add_argument('--vmlinux', default='')
    ap.add_argument('--vmlinux-default', default='')
    ap.add_argument('--initrd', required=True)
    a = ap.parse_args()
    if not a.vmlinux or not os.path.isfile(a.vmlinux):
        print('SKIP: no debug-info kernel: build one with guest/linux/build.sh --debug-info '
              'and configure with -DHEXSIM_VMLINUX_DEBUG=PATH')
        return 77
    if a.case == 'same' and not os.path.isfile(a.vmlinux_default):
        print('SKIP: no default kernel to compare with (HEXSIM_VMLINUX)')
        return 77
    with tempfile.TemporaryDirectory() as tmp:
        bad, out, err = (check_syscall if a.case == 'syscall' else check_same)(a, tmp)
    if bad:
        print('FAILED: ' + '; '.join(bad))
        print('--- transcript ---\n' + out[-20000:])
        print('--- stderr ---\n' + err[-4000:])
        return 1
    print('ok: ' + a.case)
    return 0


if __name__ == '__main__':
    sys.exit(main())
