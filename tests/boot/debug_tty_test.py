#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# The interactive system-mode debugger on a terminal (ctest label "boot"): hexsim --debug on
# a pseudo-terminal, so readline reads the commands while the guest's console owns the tty
# in raw mode between them. Types: break start_kernel, continue (the stop), delete and
# continue typed ahead in one write (both must survive the switch back to raw mode), a shell
# command at the guest's prompt, Ctrl-A d there (the run stops in the debugger; its message
# starts a new line, not after the prompt; both stops name the current task), info hvm,
# continue, poweroff (the program's end), quit.
# Usage: debug_tty_test.py --hexsim BUILD/hexsim --vmlinux VMLINUX --initrd ROOTFS.cpio
import argparse
import os
import signal
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from ttylib import Tty  # noqa: E402


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--hexsim', required=True)
    ap.add_argument('--vmlinux', required=True)
    ap.add_argument('--initrd', required=True)
    a = ap.parse_args()
    t = Tty([a.hexsim, a.vmlinux, '--initrd', a.initrd, '--debug'])
    steps = [
        ('the first prompt', None, rb'\(hexsim\) '),
        ('break start_kernel', b'break start_kernel\r', rb'Breakpoint 1 at 0xc[0-9a-f]{7} '
         rb'<start_kernel>'),
        ('continue to the breakpoint', b'continue\r', rb'Breakpoint 1, 0xc[0-9a-f]{7} '
         rb'<start_kernel>\r\n=> .*\r\n\[task swapper\]\r\n.*\(hexsim\) '),
        ('delete and continue typed ahead: the shell prompt', b'delete\rcontinue\r',
         rb'root@hexagon:/# '),
        ('a shell command and the prompt after it', b'echo $((6*7))\r',
         rb'\r\n42\r*\n(.*\n)*root@hexagon:/# $'),
        # the stop message starts a line of its own, not after the guest's prompt
        ('Ctrl-A d stops the guest', b'\x01d', rb'^\r\nProgram received signal SIGINT\.\r\n=> '
         rb'0x[0-9a-f]{8} .*\r\n(\[task [^\]\r\n]+\]\r\n)?.*\(hexsim\) '),
        ('info hvm', b'info hvm\r', rb'cpu0: running, guest mode'),
        ('continue, poweroff', b'continue\r', rb'Continuing\.'),
        ('the program ends', b'poweroff\r', rb'reboot: (System halted|Power down)(.*\n)*'
         rb'.*Program exited with code 0\.'),
    ]
    bad = None
    for what, keys, rx in steps:
        if keys:
            t.send(keys)
        if not t.wait(rx):
            bad = what
            break
    t.send(b'quit\r')
    status = None
    end = time.time() + 30
    while time.time() < end and status is None:
        t.wait(rb'$^', 0.3)
        pid, st = os.waitpid(t.pid, os.WNOHANG)
        if pid:
            status = os.waitstatus_to_exitcode(st)
    if status is None:
        os.kill(t.pid, signal.SIGKILL)
        os.waitpid(t.pid, 0)
        bad = bad or 'quit ends hexsim'
    if bad:
        sys.stdout.write(t.buf.decode('utf-8', 'replace')[-5000:])
        print('\nFAILED: %s' % bad)
        return 1
    print('interactive session: %d steps passed, exit status %s' % (len(steps), status))
    return 0


if __name__ == '__main__':
    sys.exit(main())
