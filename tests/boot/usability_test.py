#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# How a person meets hexsim (issue 38; ctest label "boot"):
#   wall   on a pseudo-terminal (the wall clock by default): an idle prompt costs the
#          hexsim process under 5% of a core in CPU time (its own utime+stime from
#          /proc, so a loaded machine does not make it fail), and a guest `sleep 2`
#          takes 2-4 s of host time.
#   eof    a pipe on stdin: when it ends, the shell gets a terminal's end of file, exits,
#          and the machine powers off (exit status 0), with the piped commands run.
#   rng    the entropy device seeds the kernel's RNG at boot ("crng init done" within the
#          first guest second, before the prompt), the same seed gives the same bytes
#          from /dev/urandom and another --rng-seed other ones.
#   snapkey Ctrl-A s on a terminal writes a snapshot (--snapshot-out's name), its message
#          on a line of its own after the prompt, and the run goes on; --restore of it
#          shows the prompt at once and the shell answers.
#   clock  (issue 48) on a terminal the guest's date is the host's and `stty size` the
#          terminal's (37x111 here); on a pipe the date starts at 2024-01-01T00:00:00 UTC,
#          or at --rtc-base's (a date, seconds), there is no size, and no timing line at
#          the end without --stats (with it, there is).
#   dbgquit Ctrl-A x at the guest's prompt under --debug ends hexsim (it left the debugger
#          waiting for commands).
#   refuse command-line mistakes that need a kernel to show: a non-cpio initrd, --mem
#          below 32M, --break at no such symbol (each exit 1 or 2 with a message, before
#          anything boots); a user program as KERNEL ends with a hint to use --user;
#          --smp 8 says how many vCPUs ran.
# Usage: usability_test.py CASE --hexsim BUILD/hexsim --vmlinux VMLINUX --initrd ROOTFS.cpio
#        [--user-prog PROG]
import argparse
import os
import re
import signal
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from ttylib import Tty  # noqa: E402


PROMPT = rb'[#$] $'


def case_wall(a):
    t = Tty([a.hexsim, a.vmlinux, '--initrd', a.initrd, '--max-seconds', '300'])
    errors = []
    try:
        if not t.wait(PROMPT, 240):
            return ['no prompt: ' + t.buf[-300:].decode(errors='replace')]
        time.sleep(0.5)                       # the prompt's last work settles
        c0, w0 = t.cpu_seconds(), time.time()
        time.sleep(3)
        cpu, wall = t.cpu_seconds() - c0, time.time() - w0
        print(f'idle at the prompt: {cpu:.2f} s of CPU in {wall:.2f} s')
        if cpu > 0.05 * wall:
            errors.append(f'an idle prompt used {cpu:.2f} s of CPU in {wall:.2f} s (>5%)')
        t.send(b'sleep 2; echo slept-$((40+2))\r')
        t0 = time.time()
        if not t.wait(rb'slept-42', 60):
            errors.append('sleep 2 did not finish in 60 s')
        took = time.time() - t0
        print(f'guest sleep 2: {took:.2f} s of host time')
        if not 2.0 <= took <= 4.0:
            errors.append(f'guest sleep 2 took {took:.2f} s of host time (want 2-4 s)')
        t.send(b'poweroff\r')
        if not t.wait(rb'reboot: (System halted|Power down)', 60):
            errors.append('no poweroff')
    finally:
        t.close()
    return errors


def case_snapkey(a):
    tmp = tempfile.mkdtemp()
    snap = os.path.join(tmp, 'prompt-%N.snap')
    errors = []
    t = Tty([a.hexsim, a.vmlinux, '--initrd', a.initrd, '--max-seconds', '300',
             '--snapshot-out', snap])
    try:
        if not t.wait(PROMPT, 240):
            return ['no prompt']
        t.send(b'\x01s')                      # Ctrl-A s: a snapshot of the machine now
        # (the sanitizer build on a loaded 2-core machine takes up to a minute to write it)
        if not t.wait(rb'snapshot at packet (\d+) written to \S+prompt-\d+\.snap', 180):
            errors.append('Ctrl-A s wrote no snapshot: ' + t.buf[-300:].decode(errors='replace'))
        elif not re.search(rb'[#$] \r+\nhexsim: snapshot at packet', t.buf):
            # (the terminal's ONLCR turns the message's \r\n into \r\r\n)
            # issue 48: hexsim's message starts a line of its own, not the prompt's
            errors.append('the Ctrl-A s message is not on a fresh line: %r' % t.buf[-200:])
        t.send(b'echo still-$((2+3))\r')       # the run goes on
        if not t.wait(rb'still-5', 60):
            errors.append('the run did not go on after Ctrl-A s')
        t.send(b'\x01x')
        t.wait(rb'quitting', 30)
    finally:
        t.close()
    files = [f for f in os.listdir(tmp) if f.endswith('.snap')]
    if len(files) != 1:
        return errors + [f'snapshot files: {files}']
    # the restored machine shows the prompt it was taken at, before anything is typed
    t = Tty([a.hexsim, '--restore', os.path.join(tmp, files[0]), '--max-seconds', '300'])
    try:
        if not t.wait(rb'restored .*\r?\n.*[#$] $', 60):
            errors.append('no prompt after --restore: ' + t.buf[-300:].decode(errors='replace'))
        t.send(b'echo restored-$((3+4))\r')
        if not t.wait(rb'restored-7', 60):
            errors.append('the restored shell does not answer')
        t.send(b'poweroff\r')
        t.wait(rb'reboot: (System halted|Power down)', 60)
    finally:
        t.close()
    for f in os.listdir(tmp):
        os.unlink(os.path.join(tmp, f))
    os.rmdir(tmp)
    return errors


def guest_answers(cmd, typed):
    """Runs a boot with typed on a pipe (the virtual clock); returns stdout."""
    p = subprocess.run(cmd, input=typed.encode(), capture_output=True, timeout=400)
    return p.returncode, p.stdout.decode(errors='replace'), p.stderr.decode(errors='replace')


def case_clock(a):
    """issue 48: the guest's date and the console's size. On a terminal (the wall clock) the
    guest's date is the host's and `stty size` the terminal's; on a pipe (the virtual
    clock) the fixed date 2024-01-01 UTC, or --rtc-base's; and the end of a run is quiet
    without --stats (no timing line)."""
    errors = []
    t = Tty([a.hexsim, a.vmlinux, '--initrd', a.initrd, '--max-seconds', '300'],
            winsize=(37, 111))
    try:
        if not t.wait(PROMPT, 240):
            return ['no prompt']
        t.send(b'stty size; echo host-date-$(date +%s)\r')
        if not t.wait(rb'host-date-(\d+)\r*\n', 60):
            errors.append('no date: ' + t.buf[-300:].decode(errors='replace'))
        else:
            got = int(re.findall(rb'host-date-(\d+)\r*\n', t.buf)[-1])
            if abs(got - time.time()) > 300:
                errors.append(f'the guest date on a terminal is {got}, the host\'s {time.time():.0f}')
            if not re.search(rb'\n37 111\r*\n', t.buf):
                errors.append('stty size is not 37 111: ' + t.buf[-300:].decode(errors='replace'))
        t.send(b'poweroff\r')
        t.exit_status(60)
    finally:
        t.close()
    boot = [a.hexsim, a.vmlinux, '--initrd', a.initrd, '--max-seconds', '300']
    typed = 'date -u +%FT%T\nstty size || echo no-size\npoweroff\n'
    for extra, want in (([], rb'2024-01-01T00:0[0-4]:\d\d'),
                        (['--rtc-base', '2031-05-06T07:08:09'],
                         rb'2031-05-06T07:(08:09|08:[1-5]\d|09:\d\d)'),
                        (['--rtc-base', '1000000000'], rb'2001-09-09T01:(46:[4-5]|47:)\d')):
        rc, out, err = guest_answers(boot + extra, typed)
        if rc != 0 or not re.search(want.decode(), out):
            errors.append(f'{extra}: exit {rc}, no /{want.decode()}/ in: {out[-400:]}')
        if extra:
            continue
        # not a terminal: no size (BusyBox's stty says so on stderr, which is the console)
        if re.search(r'\n\d+ \d+\r*\n', out) or not re.search(r'no-size|stty: standard input', out):
            errors.append('stty size on a pipe: ' + out[-200:])
        if 'first waited for console input' in err:
            errors.append('the timing line without --stats: ' + err[-300:])
    rc, out, err = guest_answers(boot + ['--stats'], 'poweroff\n')
    if 'first waited for console input (the shell prompt)' not in err:
        errors.append('no timing line with --stats: ' + err[-300:])
    return errors


def case_dbgquit(a):
    t = Tty([a.hexsim, a.vmlinux, '--initrd', a.initrd, '--debug', '--max-seconds', '300'])
    errors = []
    try:
        if not t.wait(rb'\(hexsim\) ', 120):
            return ['no debugger prompt']
        t.send(b'continue\r')
        if not t.wait(PROMPT, 240):
            return ['no guest prompt']
        t.send(b'\x01x')                      # Ctrl-A x: hexsim ends, debugger and all
        end = time.time() + 30
        while time.time() < end and os.waitpid(t.pid, os.WNOHANG)[0] == 0:
            t.wait(rb'NEVER', 0.2)
        if os.waitpid(t.pid, os.WNOHANG)[0] == 0 and time.time() >= end:
            errors.append('Ctrl-A x under --debug did not end hexsim: ' +
                          t.buf[-200:].decode(errors='replace'))
    except ChildProcessError:
        pass                                   # ended and reaped
    finally:
        try:
            os.kill(t.pid, signal.SIGKILL)
            os.waitpid(t.pid, 0)
        except (ProcessLookupError, ChildProcessError):
            pass
    return errors


def case_eof(a):
    p = subprocess.run([a.hexsim, a.vmlinux, '--initrd', a.initrd, '--max-seconds', '200'],
                       input=b'echo piped-$((6*7))\nsleep 1\necho after-sleep\n',
                       capture_output=True, timeout=300)
    out, err = p.stdout.decode(errors='replace'), p.stderr.decode(errors='replace')
    errors = []
    if p.returncode != 0:
        errors.append(f'exit status {p.returncode}, expected 0 (stderr: {err[-400:]})')
    for what, rx in [('the first command ran', r'\npiped-42\r?\n'),
                     ('the last command ran', r'\nafter-sleep\r?\n'),
                     ('the shell ended', r'init: shell exited'),
                     ('poweroff', r'reboot: (System halted|Power down)')]:
        if not re.search(rx, out):
            errors.append(f'{what}: /{rx}/ not in the output')
    return errors


def urandom_bytes(a, seed):
    cmd = [a.hexsim, a.vmlinux, '--initrd', a.initrd, '--max-seconds', '200']
    if seed is not None:
        cmd += ['--rng-seed', seed]
    p = subprocess.run(cmd, input=b'head -n 1 < /dev/urandom | hexdump\ndmesg | grep crng\n'
                       b'poweroff\n', capture_output=True, timeout=300)
    out = p.stdout.decode(errors='replace')
    dump = re.search(r'\n(0000000 [0-9a-f ]+)\r?\n', out)
    crng = re.search(r'\[\s*(\d+)\.(\d+)\] random: crng init done', out)
    return p.returncode, out, dump.group(1) if dump else None, crng


def case_rng(a):
    errors = []
    rc, out, d1, crng = urandom_bytes(a, None)
    if rc != 0 or not d1:
        return [f'exit status {rc}, hexdump line {d1!r}: {out[-600:]}']
    if not crng:
        errors.append('no "random: crng init done" in the boot log')
    elif int(crng.group(1)) >= 1:
        errors.append(f'crng init done only at {crng.group(0)} (want within the first second)')
    elif out.find('random: crng init done') > out.find('login') > 0:
        errors.append('crng init done after the shell started')
    _, _, d2, _ = urandom_bytes(a, '0')
    _, _, d3, _ = urandom_bytes(a, '0x1234')
    print(f'seed 0 (default): {d1}\nseed 0: {d2}\nseed 0x1234: {d3}')
    if d1 != d2:
        errors.append('the same seed gave other bytes')
    if d3 is None or d3 == d1:
        errors.append('another seed gave the same bytes')
    return errors


def case_refuse(a):
    errors = []
    tmp = tempfile.mkdtemp()
    bad = os.path.join(tmp, 'initrd.img')
    with open(bad, 'wb') as f:
        f.write(b'\x7fELF not a cpio archive at all')

    def check(what, args, rc, text, stdin=b''):
        t0 = time.time()
        p = subprocess.run([a.hexsim, *args], input=stdin, capture_output=True, timeout=300)
        err = p.stderr.decode(errors='replace')
        if p.returncode != rc or text not in err:
            errors.append(f'{what}: exit status {p.returncode} (want {rc}), stderr '
                          f'{err[-300:]!r} (want {text!r})')
        return p, time.time() - t0

    check('non-cpio initrd', [a.vmlinux, '--initrd', bad], 1, 'is not a newc cpio archive')
    check('--mem 16M', [a.vmlinux, '--initrd', a.initrd, '--mem', '16M'], 2,
          'panics at boot with less than 32 MiB')
    check('--mem 31M', [a.vmlinux, '--initrd', a.initrd, '--mem', '31M'], 2,
          'panics at boot with less than 32 MiB')
    check('--break nowhere', [a.vmlinux, '--initrd', a.initrd, '--break',
                              'no_such_function_anywhere'], 2, '--break no_such_function')
    if a.user_prog and os.path.exists(a.user_prog):
        check('a user program as KERNEL', [a.user_prog, '--initrd', a.initrd], 3,
              'run it with hexsim --user PROG')
    p, _ = check('--smp 8 on a 6-CPU kernel',
                 [a.vmlinux, '--initrd', a.initrd, '--smp', '8', '--max-seconds', '200'], 0,
                 'the guest started 6 of its 8 vCPUs', stdin=b'poweroff\n')
    os.unlink(bad)
    os.rmdir(tmp)
    return errors


CASES = {'wall': case_wall, 'eof': case_eof, 'rng': case_rng, 'refuse': case_refuse,
         'snapkey': case_snapkey, 'dbgquit': case_dbgquit, 'clock': case_clock}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('case', choices=sorted(CASES))
    ap.add_argument('--hexsim', required=True)
    ap.add_argument('--vmlinux', required=True)
    ap.add_argument('--initrd', required=True)
    ap.add_argument('--user-prog')
    a = ap.parse_args()
    errors = CASES[a.case](a)
    for e in errors:
        print('FAIL:', e)
    if errors:
        sys.exit(1)
    print(f'usability {a.case}: all checks passed')


if __name__ == '__main__':
    main()
