#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# BusyBox's ash and vi in the booted guest (ctest label "boot"):
#   session  tests/boot/ash_session.sh, shipped in a second cpio archive appended to the
#            root file system's (the kernel unpacks both), runs in the guest with its
#            output compared with ash_session.expected (pipes, command substitution,
#            functions, loops, case, here-documents, subshells, `&` and `wait`, kill and
#            traps, tar -z, find, xargs); bash with the host's tools gives the same output
#            (checked when bash is there). The commands come on a pipe, whose end types
#            Ctrl-D: the shell exits and the machine powers off, exit status 0.
#   tty      on a pseudo-terminal: line editing (backspace, cursor keys, history, Ctrl-A/E,
#            Ctrl-C of a half-typed line), tab completion, Ctrl-C of a running `sleep`
#            (status 130), job control (`sleep &`, jobs, kill %1), and vi: open a file,
#            insert two lines, save and quit, `cat` it; Ctrl-D ends the shell and hexsim
#            exits with status 0.
# Usage: ash_test.py CASE --hexsim BUILD/hexsim --vmlinux VMLINUX --initrd ROOTFS.cpio
import argparse
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
from ttylib import Tty  # noqa: E402


def extra_cpio(tmp, files):
    """A newc archive (tools/mkcpio.py) holding files {guest path: host path}."""
    lst = os.path.join(tmp, 'extra.list')
    with open(lst, 'w') as f:
        for guest, host in files.items():
            f.write('file %s 755 %s\n' % (guest, host))
    out = os.path.join(tmp, 'extra.cpio')
    subprocess.run([sys.executable, os.path.join(ROOT, 'tools', 'mkcpio.py'), '--list', lst,
                    '--bin', tmp, '-o', out], check=True)
    return out


def case_session(a):
    errors = []
    script = os.path.join(HERE, 'ash_session.sh')
    want = open(os.path.join(HERE, 'ash_session.expected')).read()
    with tempfile.TemporaryDirectory() as tmp:
        initrd = os.path.join(tmp, 'initrd.cpio')
        with open(initrd, 'wb') as f:
            f.write(open(a.initrd, 'rb').read())
            f.write(open(extra_cpio(tmp, {'/test/ash_session.sh': script}), 'rb').read())
        typed = (b'mkdir /tmp/s; cd /tmp; TMPD=/tmp/s sh /test/ash_session.sh > /tmp/out 2>&1; '
                 b'echo "session status $?"; sed "s/^/|/" /tmp/out\n')
        p = subprocess.run([a.hexsim, a.vmlinux, '--initrd', initrd, '--max-seconds', '300'],
                           input=typed, capture_output=True, timeout=400)
        out = p.stdout.decode(errors='replace').replace('\r', '')
        if p.returncode != 0:
            errors.append('exit status %d, expected 0' % p.returncode)
        if not re.search(r'\nsession status 3\n', out):
            errors.append('no "session status 3" (the script\'s exit 3)')
        got = ''.join(line[1:] + '\n' for line in out.split('\n') if line.startswith('|'))
        got = got.replace('/tmp/s', '@TMPD@')
        if got != want:
            errors.append('the session\'s output differs from ash_session.expected:\n--- got\n%s'
                          '--- expected\n%s' % (got, want))
        if 'init: shell exited (status 0); powering off' not in out:
            errors.append('the end of input did not end the shell and power off')
        # The oracle: bash and the host's tools.
        if os.path.exists('/bin/bash'):
            work = os.path.join(tmp, 'w')
            os.mkdir(work)
            m = subprocess.run(['/bin/bash', '-c', '/bin/bash "$0" 2>&1', script], cwd=tmp,
                               capture_output=True, env={'PATH': '/usr/bin:/bin', 'TMPD': work},
                               stdin=subprocess.DEVNULL, timeout=60)
            bash_got = m.stdout.decode().replace(work, '@TMPD@')
            if m.returncode != 3 or bash_got != want:
                errors.append('bash does not give ash_session.expected (exit %d):\n%s' %
                              (m.returncode, bash_got))
    return errors


PROMPT = rb'root@hexagon:[^\r\n]*# $'


def case_tty(a):
    errors = []
    t = Tty([a.hexsim, a.vmlinux, '--initrd', a.initrd, '--max-seconds', '400'])

    def step(what, keys, rx, timeout=60):
        if keys:
            t.send(keys)
        if not t.wait(rx, timeout):
            errors.append('%s: /%s/ did not come: %r' % (what, rx.decode(errors='replace'),
                                                         t.buf[-400:].decode(errors='replace')))
            return False
        return True

    try:
        if not step('the prompt', None, PROMPT, 240):
            return errors
        steps = [
            ('backspace', b'echo hellx\x7fo\r', rb'\nhello\r*\n' + PROMPT),
            ('cursor left, insert', b'echo abc\x1b[D\x1b[DX\r', rb'\naXbc\r*\n' + PROMPT),
            ('history: up twice', b'echo one\r', rb'\none\r*\n' + PROMPT),
            ('history recalls the line', b'\x1b[A\x1b[A\r', rb'\naXbc\r*\n' + PROMPT),
            ('Ctrl-C cancels a half-typed line', b'half typed\x03', PROMPT),
            ('status after Ctrl-C', b'echo status $?\r', rb'status 130\r*\n' + PROMPT),
            # Ctrl-A typed twice: once alone is hexsim's escape key
            ('Ctrl-A, Ctrl-E', b'\x01\x01echo \x05start\r', rb'\nstart\r*\n' + PROMPT),
            ('tab completion of a command', b'ech\t', rb'echo (\x1b\[J)?$'),
            ('the completed command runs', b'tab-done\r', rb'\ntab-done\r*\n' + PROMPT),
            ('tab completion of a file', b'cat /etc/hostn\t', rb'cat /etc/hostname (\x1b\[J)?$'),
            ('the completed file', b'\r', rb'\nhexagon\r*\n' + PROMPT),
            ('a running sleep', b'sleep 30\r', rb'sleep 30\r*\n'),
        ]
        for what, keys, rx in steps:
            if not step(what, keys, rx):
                return errors
        import time
        time.sleep(1.0)
        if not step('Ctrl-C of a running sleep', b'\x03', PROMPT, 20):
            return errors
        steps = [
            ('the status of the interrupted sleep', b'echo after $?\r', rb'after 130\r*\n' + PROMPT),
            ('a background job', b'sleep 40 &\r', PROMPT),
            ('jobs', b'jobs\r', rb'\[1\]\+\s+Running\s+sleep 40\r*\n' + PROMPT),
            ('kill %1', b'kill %1; wait %1; echo killed $?\r', rb'killed 143\r*\n(.*\n)*' + PROMPT),
            ('vi opens a new file', b'vi /tmp/v.txt\r', rb'/tmp/v\.txt'),
            ('vi insert mode', b'ihello from vi\rsecond line\x1b', rb'second line'),
            ('vi :wq', b':wq\r', PROMPT),
            ('cat the file vi wrote', b'cat /tmp/v.txt\r',
             rb'\nhello from vi\r*\nsecond line\r*\n' + PROMPT),
            ('vi edits it: dd on line 1, append to the last line', b'vi /tmp/v.txt\r',
             rb'second line'),
            # Escape and the next key in one write would read as an escape sequence; a
            # person types them apart, and so does the test
            ('vi commands', b'ddA, appended\x1b', rb'appended'),
            ('vi :wq again', b':wq\r', PROMPT),
            ('the edited file', b'cat /tmp/v.txt\r', rb'\nsecond line, appended\r*\n' + PROMPT),
            ('Ctrl-D ends the shell; the machine powers off', b'\x04',
             rb'init: shell exited \(status 0\); powering off(.*\n)*.*reboot: (System halted|Power down)'),
        ]
        for what, keys, rx in steps:
            if not step(what, keys, rx):
                return errors
        rc = t.exit_status(60)
        if rc != 0:
            errors.append('hexsim exit status %r, expected 0' % rc)
    finally:
        t.close()
    return errors


CASES = {'session': case_session, 'tty': case_tty}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('case', choices=sorted(CASES))
    ap.add_argument('--hexsim', required=True)
    ap.add_argument('--vmlinux', required=True)
    ap.add_argument('--initrd', required=True)
    a = ap.parse_args()
    errors = CASES[a.case](a)
    for e in errors:
        print('FAIL:', e)
    if errors:
        return 1
    print('ash %s: all checks passed' % a.case)
    return 0


if __name__ == '__main__':
    sys.exit(main())
