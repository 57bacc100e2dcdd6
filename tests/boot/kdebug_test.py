#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# Kernel-aware debugging with the debug-info kernel (guest/linux/build.sh --debug-info;
# ctest labels boot, debug, kdebug). Boots it under the debugger with a -x command file and
# the console input (a user program's open, then poweroff) on stdin, and checks the answers:
#   syscall  a breakpoint on do_sys_open, a function the kernel has mostly as copies inlined
#            into its callers (DWARF inlined-subroutine entries: several locations), with a
#            condition that picks the user program `cat` by its task's name through the
#            kernel's types (r19 holds the current thread_info); the stop names the task and
#            its pid; bt runs from the inlined copy through do_trap0 and the event entry,
#            marks the boundary (system call 56, openat, from user mode) and goes on in user
#            space at the PC after the trap0 (the pt_regs' ELR, the program's own registers),
#            its frames named by the unstripped BusyBox (--user-symbols, add-symbol-file:
#            __syscall_cp_c, open, ..., bb_cat) when the build has one;
#            ps lists init, cat (the current task, marked) and kernel threads in brackets;
#            dmesg prints the kernel's log buffer (the boot's first line and the line the
#            console showed just before); in the outermost (user) frame, vtop translates the
#            program's stack pointer through its page tables to a physical address whose
#            words x/p reads as the virtual ones (a second run of the same boot);
#            the guest then runs on to poweroff
#   same     the debug kernel boots with the console output of the default kernel (--vmlinux-
#            default) but for printk's timestamps and the lines that give the kernel image's
#            size (the initrd's address after it): clang-16 with -g emits slightly different
#            Hexagon code (900 functions differ in size, .text 3 KiB larger), so the packet
#            counts differ too (printed, about 1% more)
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

SYSCALL_SCRIPT = """USER_SYMBOLS
break do_sys_open if ((struct thread_info *)$r19)->task->comm[0] == 'c' && ((struct thread_info *)$r19)->task->comm[1] == 'a'
continue
bt
ps
dmesg
up 100
vtop $sp
x/4xw $sp
delete
continue
"""

SYSCALL_CHECKS = [
    ('a breakpoint on the inlined copies', r'\(hexsim\) break do_sys_open if [^\n]*\n'
     r'Breakpoint 1 at ' + KHEX + r': do_sys_open\. \((\d+) locations\)\n'),
    ('the stop in the user program, named with its pid',
     r'\nBreakpoint 1, __se_sys_openat \(dfd=-100, [^\n]*\) at open\.c:\d+, inlined \w+\n'
     r'(\d+\t[^\n]*\n)?=> ' + KHEX + r' <[^>]+>: \{[^\n]*\n\[task cat, pid (\d+)\]\n'),
    ('bt from the inlined copy down to the event entry',
     r'\(hexsim\) bt\n#0  __se_sys_openat [^\n]*\n(#\d+  [^\n]*\n)*#\d+  ' + KHEX +
     r' in do_trap0 [^\n]*\n#(\d+)  ' + KHEX + r' <event_dispatch\+\d+>\n'),
    ('the boundary: system call 56 (openat) from user mode',
     r'\n--- system call 56 from user mode, pt_regs at ' + KHEX + r' ---\n#\d+  0x000[0-9a-f]{5}'
     r'( <[^>]+>)?\n'),
    ('ps: init, cat current, kernel threads in brackets',
     r'\(hexsim\) ps\n    PID  S  TASK        COMM\n      0  R  ' + KHEX + r'  \[swapper/0\]\n'
     r' +1  [RSD]  ' + KHEX + r'  init\n(.*\n)*  +2  [RSDI]  ' + KHEX + r'  \[kthreadd\]\n'
     r'(.*\n)*> +\d+  R  ' + KHEX + r'  cat\n'),
    ('dmesg: the log buffer from the boot\'s first line',
     r'\(hexsim\) dmesg\n\[    0\.000000\] Linux version 6\.1[^\n]*\n(\[ *\d+\.\d{6}\] .*\n)*'
     r'\[ *\d+\.\d{6}\] Run /init as init process\n'),
    ('vtop: the stack pointer through cat\'s page tables',
     r'\(hexsim\) vtop \$sp\n(0x[0-7][0-9a-f]{7}|0x[ab][0-9a-f]{7}) in process \d+ is physical '
     r'(0x[0-9a-f]{8}) '
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
    global SYSCALL_SCRIPT
    stdin = b'cat /etc/hostname\npoweroff\n'
    SYSCALL_SCRIPT = SYSCALL_SCRIPT.replace(
        'USER_SYMBOLS', 'add-symbol-file ' + a.user_symbols if a.user_symbols else '')
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
    if a.user_symbols and not re.search(   # the user frames named by BusyBox's symbols
            r'\n--- system call 56 [^\n]*\n#\d+  0x000[0-9a-f]{5} <__syscall_cp_c\+\d+>\n'
            r'#\d+  0x000[0-9a-f]{5} <open\+\d+>\n(#\d+  [^\n]*\n)*#\d+  0x000[0-9a-f]{5} '
            r'<bb_cat\+\d+>\n', out):
        bad.append('add-symbol-file: the user frames named (open, bb_cat)')
    m = re.search(SYSCALL_CHECKS[0][1], out)
    if m and int(m.group(1)) < 2:
        bad.append('do_sys_open has several inlined copies')
    if p.returncode != 0:
        bad.append('exit status %d' % p.returncode)
    return bad, out, p.stderr.decode('utf-8', 'replace')


# Console lines that name the kernel image's size or what follows it in RAM (the initrd):
# the debug kernel's code is slightly larger (clang-16 -g changes some Hexagon code).
SIZE_LINES = re.compile(r'^(bootmem_startpg:|Kernel command line:|Memory: )')


def console(out):
    """The console without printk's timestamps and the lines that depend on the size."""
    lines = [re.sub(r'^\[ *\d+\.\d{6}\] ', '', ln) for ln in out.split('\n')]
    return [ln for ln in lines if not SIZE_LINES.match(ln)]


def check_same(a, tmp):
    outs = []
    for k in (a.vmlinux_default, a.vmlinux):
        p = subprocess.run([a.hexsim, k, '--initrd', a.initrd],
                           input=b'cat /proc/version\npoweroff\n', stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, timeout=800)
        out = p.stdout.decode('utf-8', 'replace').replace('\r\n', '\n')
        packets = re.search(r'after (\d+) packets', p.stderr.decode('utf-8', 'replace'))
        outs.append((p.returncode, out, int(packets.group(1)) if packets else 0))
    bad = []
    if console(outs[0][1]) != console(outs[1][1]):
        bad.append('the console output differs')
    if outs[0][0] != 0 or outs[1][0] != 0:
        bad.append('exit status %d, %d' % (outs[0][0], outs[1][0]))
    if not re.search(r'reboot: (System halted|Power down)', outs[1][1]):
        bad.append('the debug kernel did not reach poweroff')
    print('packets to poweroff: default kernel %d, debug kernel %d' % (outs[0][2], outs[1][2]))
    return bad, outs[1][1], ''


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('case', choices=['syscall', 'same'])
    ap.add_argument('--hexsim', required=True)
    ap.add_argument('--vmlinux', default='')
    ap.add_argument('--vmlinux-default', default='')
    ap.add_argument('--initrd', required=True)
    ap.add_argument('--user-symbols', default='', help='the unstripped BusyBox of the rootfs')
    a = ap.parse_args()
    if a.user_symbols and not os.path.isfile(a.user_symbols):
        a.user_symbols = ''
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
