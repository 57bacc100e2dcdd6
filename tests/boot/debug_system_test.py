#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# System-mode debugger test (ctest label "boot"): boot the guest kernel under the debugger
# with a -x command file and the console input (poweroff) on stdin, and check each
# command's answer. The physical view is checked against the virtual one: the kernel's
# linear map puts virtual 0xC0000000 + X at physical X (DESIGN.md, Linux guest facts), so
# the words of linux_banner read both ways must agree (and spell "Linux ve").
#   uni  one vCPU: break start_kernel, continue, info registers, bt, print of a symbol
#        without debug info (refused as gdb does), of its address and through casts, $sp
#        typed as a pointer, the stop naming the task (swapper), ps refused without the
#        kernel's DWARF (the message says how to build a kernel with it), thread 2 refused, x/4wx, x/4wxp, a device
#        address refused, x/s and x/2wx at an int address above 0x80000000 (as a
#        register holds one), disassemble, stepi, info tlb/hvm/irq/devices, watch jiffies (the
#        timer interrupt writes it: a stop inside the guest's interrupt handler), delete,
#        continue to poweroff; exit status 0
#   smp  four vCPUs: at start_kernel (before the guest starts the others) info threads
#        says the second is stopped, thread 2 says why, stepi/next on it are refused,
#        thread 1 steps; a breakpoint on start_secondary (the vmstart entry) stops on each
#        secondary vCPU in turn, reported with its number ("Thread 2 hit Breakpoint 2");
#        stepi there steps only that vCPU (thread 1's PC stays), then on to poweroff
#   snap one vCPU: break start_kernel, continue, savevm FILE, step 20000, loadvm FILE: the
#        registers are the saved ones again (a missing file is refused and changes
#        nothing); continue to poweroff. Then `--restore FILE KERNEL --debug` starts the
#        debugger at that state (symbols from KERNEL) and runs to poweroff too
# Usage: debug_system_test.py CASE --hexsim BUILD/hexsim --vmlinux VMLINUX --initrd ROOTFS
import argparse
import os
import re
import subprocess
import sys
import tempfile

HEX = r'0x[0-9a-f]{8}'
CASES = {
    'uni': ([], """break start_kernel
continue
info registers
bt
print jiffies
print &jiffies
print/x *(unsigned long *)&jiffies == (unsigned long)jiffies
print $sp
ps
thread 2
x/4wx &linux_banner
x/4wxp &linux_banner - 0xc0000000
x/1wxp 0xab000000
x/s (int)&linux_banner
x/2wx (int)&linux_banner
disassemble
stepi
info tlb
info hvm
info irq
info devices
watch jiffies
continue
bt
delete
continue
""", [
        ('breakpoint', r'Breakpoint 1 at (0xc[0-9a-f]{7}) <start_kernel>\n'),
        ('the stop', r'\nBreakpoint 1, 0xc[0-9a-f]{7} <start_kernel>\n=> 0xc[0-9a-f]{7} '
         r'<start_kernel>: \{'),
        ('info registers: PC', r'\npc\s+0xc[0-9a-f]{7}\s+<start_kernel>\n'),
        ('info registers: SP in the kernel', r'\nr29 \(sp\)\s+0xc[0-9a-f]{7}'),
        ('info registers: G0-G3, HTID', r'\nhtid\s+0x00000000\n(g[0-3]\s+' + HEX + r'\n){4}'),
        ('bt', r'\(hexsim\) bt\n#0  0xc[0-9a-f]{7} <start_kernel>\n#1  '),
        ('print of a symbol without debug info', r'\(hexsim\) print jiffies\n\'jiffies\' has '
         r'unknown type; cast it to its declared type\n'),
        ('print of its address, in hex', r'\(hexsim\) print &jiffies\n\$1 = \(<data variable, '
         r'no debug info> \*\) 0xc[0-9a-f]{7} <jiffies(_64)?>\n'),
        ('casts', r'\(hexsim\) print/x \*\(unsigned long \*\)&jiffies == \(unsigned long\)'
         r'jiffies\n\$2 = 0x1\n'),
        ('a pointer register', r'\(hexsim\) print \$sp\n\$3 = \(void \*\) 0xc[0-9a-f]{7}'),
        ('the stop names the boot task', r'<start_kernel>: \{[^\n]*\n\[task swapper\]\n'),
        ('ps without the kernel\'s DWARF says how to get it', r'\(hexsim\) ps\nError: the '
         r'kernel has no DWARF, [^\n]*guest/linux/build\.sh --debug-info'),
        ('no second vCPU', r'\(hexsim\) thread 2\nInvalid thread ID: 2 \(threads 1-1\)\n'),
        ('x/4wx (virtual)', r'\n(0xc[0-9a-f]{7}) <linux_banner>:\t0x756e694c\t0x65762078'
         r'(\t' + HEX + r'){2}\n'),
        ('x/4wxp (physical)', r'\n(0x00[0-9a-f]{6}):\t0x756e694c\t0x65762078(\t' + HEX +
         r'){2}\n'),
        ('a device register is refused', r'\(hexsim\) x/1wxp 0xab000000\n0xab000000:\n'
         r'Cannot access memory at address 0xab000000\n'),
        # issue 48: an int (a register) at or above 0x80000000 is a 32-bit address too
        ('x/s of an int address', r'\(hexsim\) x/s \(int\)&linux_banner\n0xc[0-9a-f]{7}: '
         r'"Linux version 6\.1'),
        ('x/2wx of an int address', r'\(hexsim\) x/2wx \(int\)&linux_banner\n0xc[0-9a-f]{7} '
         r'<linux_banner>:\t0x756e694c\t0x65762078\n'),
        ('disassemble', r'Dump of assembler code for function start_kernel:\n=> 0xc[0-9a-f]{7} '
         r'<\+0>:\t\{[^\n]*allocframe'),
        ('stepi: the write log', r'\(hexsim\) stepi\n0xc[0-9a-f]{7} <start_kernel>:\n(.*\n)*'
         r'\s+allocframe\(#0x[0-9a-f]+\)\s+r29 = 0xc[0-9a-f]{7}, r30 = 0xc[0-9a-f]{7}, '
         r'memd\[0xc[0-9a-f]{7}\] = 0x[0-9a-f]{16}\n=> 0xc[0-9a-f]{7} <start_kernel\+\d+>'),
        ('info tlb', r'\ncpu0: MMU on, page table at physical ' + HEX + r', guest mode\n  guest '
         r'soft TLB: [1-9]\d* of \d+ entries valid\n    va 0xc[0-9a-f]{7} -> pa ' + HEX),
        ('info hvm', r'\ncpu0: running, guest mode, interrupts disabled, event vectors at '
         r'0xc[0-9a-f]{7}, PC 0xc[0-9a-f]{7}\n\s+GELR ' + HEX + r'\s+GSR ' + HEX),
        ('info irq', r'\nHVM interrupt controller \(vmintop\): pending ' + HEX + r'(.*\n)*'
         r'SIRC0 \(L1 23\): enable ' + HEX + r'(.*\n)*SIRC1 \(L1 24\)'),
        ('info devices', r'\n0x00000000-0x0fffffff  RAM \(256 MiB\)\n(.*\n)*0xab000000-0xab000fff'
         r'  rtos_timer\n(.*\n)*0xa9c00000-0xa9c00fff  msm_uart\n(.*\n)*0x84000000-0x84000fff'
         r'  smsc911x\n'),
        ('watch jiffies', r'\nWatchpoint 2: jiffies \(written at 0xc[0-9a-f]{7}\)\nOld value = '
         r'(0x[0-9a-f]+)\nNew value = (0x[0-9a-f]+)\n'),
        ('bt in the timer interrupt', r'\(hexsim\) bt\n#0  [^\n]*\n(#\d+  .*\n)*#\d+  '
         r'0xc[0-9a-f]{7} <timer_interrupt\+\d+>\n'),
        ('the guest ran on to poweroff', r'reboot: (System halted|Power down)\n(.*\n)*'
         r'Program exited with code 0\.\n'),
    ]),
    'smp': (['--smp', '4'], """break start_kernel
continue
info threads
thread 2
stepi
next
thread 1
stepi
break start_secondary
continue
info threads
stepi
info threads
continue
continue
delete
continue
""", [
        ('info threads: the second vCPU is stopped', r'\n  2    0x[0-9a-f]{8}  .*stopped \(the '
         r'guest has not started this vCPU'),
        ('thread 2 switches and says why it will not run', r'\(hexsim\) thread 2\n\[Switching '
         r'to thread 2\]\nThread 2 is stopped \(.*\); step and next run nothing on it'),
        ('stepi on it is refused', r'\(hexsim\) stepi\nError: thread 2 is stopped \(.*\): it '
         r'cannot step'),
        ('next on it is refused', r'\(hexsim\) next\nError: thread 2 is stopped'),
        ('thread 1 steps', r'\(hexsim\) thread 1\n\[Switching to thread 1\]\n=> 0xc[0-9a-f]{7} '
         r'<start_kernel>: \{.*\n\(hexsim\) stepi\n0xc[0-9a-f]{7} <start_kernel>:\n'),
        ('the second vCPU stops at start_secondary, with its number',
         r'\nThread 2 hit Breakpoint 2, 0xc[0-9a-f]{7} <start_secondary>\n'),
        ('info threads there: thread 2 current, thread 3 not started',
         r'\(hexsim\) info threads\n  Id   PC          Where\n  1    0xc[0-9a-f]{7}  <[^>]+>\n'
         r'\* 2    0xc[0-9a-f]{7}  <start_secondary>\n  3    0x[0-9a-f]{8}  .*stopped'),
        ('stepi steps thread 2', r'\(hexsim\) stepi\n0xc[0-9a-f]{7} <start_secondary>:\n'),
        ('the third vCPU stops there next', r'\nThread 3 hit Breakpoint 2, 0xc[0-9a-f]{7} '
         r'<start_secondary>\n'),
        ('then the fourth', r'\nThread 4 hit Breakpoint 2, 0xc[0-9a-f]{7} <start_secondary>\n'),
        ('the guest ran on to poweroff', r'reboot: (System halted|Power down)\n(.*\n)*'
         r'Program exited with code 0\.\n'),
    ]),
    'snap': ([], """break start_kernel
continue
info registers
savevm SNAPFILE
step 20000
info registers
loadvm SNAPFILE
info registers
loadvm SNAPFILE.missing
info registers
continue
""", [
        ('savevm', r'\(hexsim\) savevm \S+\nSaved the machine to \S+sys\.snap\.\n'),
        ('loadvm: back at start_kernel', r'\(hexsim\) loadvm \S+\nLoaded the machine from '
         r'\S+sys\.snap\.\n=> 0xc[0-9a-f]{7} <start_kernel>: \{'),
        ('a missing snapshot is refused', r'\(hexsim\) loadvm \S+missing\nError: cannot read '
         r'snapshot \S+missing'),
        ('the guest ran on to poweroff', r'reboot: (System halted|Power down)\n(.*\n)*'
         r'Program exited with code 0\.\n'),
    ]),
}


def registers(out):
    """The output of each info registers command in a transcript."""
    return [part.partition('\n')[2] for part in out.split('(hexsim) ')
            if part.startswith('info registers\n')]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('case', choices=sorted(CASES))
    ap.add_argument('--hexsim', required=True)
    ap.add_argument('--vmlinux', required=True)
    ap.add_argument('--initrd', required=True)
    a = ap.parse_args()
    extra, script, checks = CASES[a.case]
    with tempfile.TemporaryDirectory() as tmp:
        cmds = os.path.join(tmp, 'cmds.gdb')
        snapfile = os.path.join(tmp, 'sys.snap')
        with open(cmds, 'w') as f:
            f.write(script.replace('SNAPFILE', snapfile))
        p = subprocess.run([a.hexsim, a.vmlinux, '--initrd', a.initrd, *extra, '-x', cmds],
                           input=b'poweroff\n', stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           timeout=500)
        if a.case == 'snap':   # the debugger started at the snapshot, symbols from KERNEL
            with open(cmds, 'w') as f:
                f.write('info registers\ncontinue\n')
            p2 = subprocess.run([a.hexsim, '--restore', snapfile, a.vmlinux, '--debug', '-x',
                                 cmds], input=b'poweroff\n', stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, timeout=500)
    out = p.stdout.decode('utf-8', 'replace').replace('\r\n', '\n')
    err = p.stderr.decode('utf-8', 'replace')
    bad = []
    found = {}
    for what, rx in checks:
        m = re.search(rx, out)
        if not m:
            bad.append(what)
        else:
            found[what] = m
    if a.case == 'uni' and 'x/4wx (virtual)' in found and 'x/4wxp (physical)' in found:
        va = int(found['x/4wx (virtual)'].group(1), 16)
        pa = int(found['x/4wxp (physical)'].group(1), 16)
        words_v = found['x/4wx (virtual)'].group(0).split('\t')[1:]
        words_p = found['x/4wxp (physical)'].group(0).split('\t')[1:]
        if pa != va - 0xc0000000 or words_v != words_p:
            bad.append('the physical view of linux_banner differs from the virtual one')
    if a.case == 'uni' and 'watch jiffies' in found:
        old, new = (int(x, 16) for x in found['watch jiffies'].groups())
        if new != (old + 1) & 0xffffffff:
            bad.append('jiffies did not advance by one at the watchpoint')
    if a.case == 'smp':
        # stepi on thread 2 ran only thread 2: thread 1's PC is the same before and after
        tables = re.findall(r'\(hexsim\) info threads\n  Id   PC          Where\n((?:.*\n){4})',
                            out)
        pcs = [dict(re.findall(r'^[* ] (\d)    (0x[0-9a-f]{8})', t, re.M)) for t in tables]
        if len(pcs) != 3 or pcs[1].get('1') != pcs[2].get('1') or \
                pcs[1].get('2') == pcs[2].get('2') or None in (pcs[1].get('1'), pcs[1].get('2')):
            bad.append('stepi on thread 2 did not step it alone: info threads %s' % pcs[1:])
    if a.case == 'snap':
        regs = registers(out)
        out2 = p2.stdout.decode('utf-8', 'replace').replace('\r\n', '\n')
        regs2 = registers(out2)
        if len(regs) != 4 or regs[0] != regs[2] or regs[0] != regs[3] or regs[0] == regs[1]:
            bad.append('loadvm did not give back the saved registers (or step changed none)')
        if not regs2 or not regs or regs2[0] != regs[0] or '<start_kernel>' not in regs2[0]:
            bad.append('--restore --debug: not the saved registers, or no kernel symbols')
        if p2.returncode != 0 or not re.search(checks[-1][1], out2):
            bad.append('--restore --debug: did not run to poweroff (exit %d): %s' %
                       (p2.returncode, out2[-1500:]))
    if p.returncode != 0:
        bad.append('exit status %d (expected 0)' % p.returncode)
    if bad:
        sys.stdout.write(out[-6000:])
        sys.stdout.write('\n--- stderr ---\n' + err[-3000:])
        for b in bad:
            print('FAILED: %s' % b)
        return 1
    print('%s: %d checks passed' % (a.case, len(checks)))
    return 0


if __name__ == '__main__':
    sys.exit(main())
