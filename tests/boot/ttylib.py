# SPDX-License-Identifier: MIT
# Driving hexsim on a pseudo-terminal, for the boot tests (usability_test.py,
# debug_tty_test.py, ash_test.py): hexsim runs as the pty's child with the pty as its
# terminal (so it uses the wall clock and raw console mode as it does for a person);
# the test types bytes and waits for regular expressions in what comes back.
import fcntl
import os
import pty
import re
import select
import signal
import struct
import termios
import time


class Tty:
    def __init__(self, argv, winsize=None):
        self.pid, self.fd = pty.fork()
        if self.pid == 0:
            if winsize:   # (rows, cols) of the terminal, set before hexsim looks
                fcntl.ioctl(0, termios.TIOCSWINSZ, struct.pack('HHHH', winsize[0],
                                                               winsize[1], 0, 0))
            os.execv(argv[0], argv)
        self.buf = b''
        self.status = None

    def wait(self, rx, timeout=120):
        """Reads until rx matches what came after the call began; False at the timeout
        or the end of output."""
        end = time.time() + timeout
        start = len(self.buf)
        while time.time() < end:
            r, _, _ = select.select([self.fd], [], [], 0.05)
            if r:
                try:
                    data = os.read(self.fd, 65536)
                except OSError:
                    return False
                if not data:
                    return False
                self.buf += data
            if re.search(rx, self.buf[start:]):
                return True
        return False

    def send(self, b):
        os.write(self.fd, b)

    def cpu_seconds(self):
        with open(f'/proc/{self.pid}/stat') as f:
            fields = f.read().rsplit(')', 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf('SC_CLK_TCK')

    def exit_status(self, timeout):
        """hexsim's exit status once it ends within timeout seconds (reading its last
        output meanwhile), else None."""
        end = time.time() + timeout
        while time.time() < end:
            pid, st = os.waitpid(self.pid, os.WNOHANG)
            if pid:
                self.status = os.waitstatus_to_exitcode(st)
                return self.status
            self.wait(rb'$^', 0.2)
        return None

    def close(self):
        if self.status is None:
            try:
                os.kill(self.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            try:
                os.waitpid(self.pid, 0)
            except ChildProcessError:
                pass
        os.close(self.fd)
