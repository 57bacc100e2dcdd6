#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# The gdb remote stub against lldb-16: `hexsim --gdb 127.0.0.1:0 --user dbgprog` (port 0:
# hexsim picks one and names it on stderr), then lldb-16 in batch mode connects, sets a
# breakpoint on a symbol, continues, reads registers and memory, writes a register, steps one
# instruction, and detaches; the program then runs to its end (exit status 42). A second
# session kills the program at the breakpoint: lldb reports it killed (the stub answers k
# with X09) and hexsim ends with exit status 137 (128 + SIGKILL), its last line whole.
# Exit status 77 (skipped) when lldb-16 is not installed.
# Usage: lldb_test.py --hexsim BUILD/hexsim --work DIR
import argparse
import os
import re
import shutil
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
CLANG = ['clang-16', '--target=hexagon-unknown-linux-musl', '-mv67', '-O1', '-ffreestanding',
         '-nostdlib', '-fuse-ld=lld', '-static']


def session_argv(argv, lldb, prog, cmds, stdin=None, sim_input=None, lldb_timeout=120,
                 sim_timeout=60):
    """Runs hexsim's command line argv (with --gdb 127.0.0.1:0 among its options; its
    standard input stdin as subprocess takes it, or a pipe that gets the text sim_input) and
    lldb-16 with cmds after connecting to it, each within its timeout (seconds). Returns
    lldb's output, hexsim's stdout, stderr and exit status (None, a reason, None, None when
    hexsim does not listen)."""
    sim = subprocess.Popen(argv, stdin=stdin if sim_input is None else subprocess.PIPE,
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    line = sim.stderr.readline()
    m = re.search(r'connection on ([\d.]+):(\d+)', line)
    if not m:
        sim.kill()
        sim.communicate()
        return None, 'no listening address from hexsim: %r' % line, None, None
    args = [lldb, '--no-lldbinit', '--batch', '-o', 'gdb-remote %s:%s' % (m.group(1), m.group(2))]
    for c in cmds:
        args += ['-o', c]
    p = subprocess.run(args + [prog], capture_output=True, text=True, timeout=lldb_timeout)
    try:
        out, err = sim.communicate(sim_input, timeout=sim_timeout)
    except subprocess.TimeoutExpired:
        sim.kill()
        out, err = sim.communicate()
    return p.stdout + p.stderr, out, line + err, sim.returncode


def session(hexsim, lldb, prog, cmds):
    """session_argv for `hexsim --gdb ... --user prog`: lldb's output, hexsim's stderr and
    exit status (None and a reason when hexsim does not listen)."""
    text, out, err, rc = session_argv([hexsim, '--gdb', '127.0.0.1:0', '--user', prog], lldb,
                                      prog, cmds)
    return (None, out, None) if text is None else (text, err, rc)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--hexsim', required=True)
    ap.add_argument('--work', required=True)
    a = ap.parse_args()
    lldb = shutil.which('lldb-16')
    if not lldb:
        print('lldb-16 not installed: skipped')
        return 77
    os.makedirs(a.work, exist_ok=True)
    prog = os.path.join(a.work, 'dbgprog')
    subprocess.run(CLANG + [os.path.join(HERE, 'progs', 'dbgprog.c'), '-o', prog], check=True)
    text, err, rc = session(a.hexsim, lldb, prog, [
        'breakpoint set -n add3',
        'continue',
        'register read pc r0 r1 r2',
        'memory read -s4 -fx -c4 &table',
        'register write r1 5',
        'thread step-inst',
        'register read pc r2',
        'memory write -s4 &table 0x99',
        'memory read -s4 -fx -c1 &table',
        'detach'])
    if text is None:
        print('FAIL: %s' % err)
        return 1
    # the debugger's own look-only commands through qRcmd (lldb: process plugin packet
    # monitor CMD), and one that would run the target refused
    ktext, kerr, krc = session(a.hexsim, lldb, prog, ['breakpoint set -n add3', 'continue',
                                                      'process plugin packet monitor bt',
                                                      'process plugin packet monitor stepi',
                                                      'kill'])
    if ktext is None:
        print('FAIL: %s' % kerr)
        return 1
    checks = [
        ('stopped at the breakpoint', 'stop reason = breakpoint 1.1' in text),
        ('frame is dbgprog`add3', 'dbgprog`add3' in text),
        ('pc at add3', re.search(r'pc = 0x00020130', text) is not None),
        ('r0 = 10 at add3 (first argument)', re.search(r'r0 = 0x0000000a', text) is not None),
        ('table read', '0x00000001 0x00000002 0x00000003 0x00000004' in text),
        ('single step', 'instruction step into' in text),
        ('r2 = 10 + 5 + 20 after the step', re.search(r'r2 = 0x00000023', text) is not None),
        ('memory write read back', '0x00000099' in text),
        ('detached', 'detached' in text),
        # r1 = 5 instead of 10: add3 returns 35, main (10 + 35 + 120) & 0x7f = 37
        ('program ran to its end after detach, exit status 37', rc == 37),
        ('monitor bt: the debugger\'s backtrace', re.search(
            r'monitor bt\n#0  0x00020130 <add3>\n#1  0x[0-9a-f]{8} <main\+\d+>\n', ktext)
         is not None),
        ('monitor stepi: refused', 'monitor: stepi is not one of hexsim\'s monitor commands'
         in ktext),
        ('kill: lldb reports the process killed', re.search(
            r'Process 1 exited with status = 9 \(0x00000009\) killed', ktext) is not None),
        ('kill: hexsim says so on a line of its own', re.search(
            r'(^|\n)hexsim: the gdb client killed the program \(exit status 137\)\n$', kerr)
         is not None),
        ('kill: exit status 137', krc == 137),
    ]
    bad = [w for w, ok in checks if not ok]
    for w in bad:
        print('FAIL: %s' % w)
    if bad:
        print('lldb output:\n' + text + '\nhexsim stderr:\n' + err)
        print('kill session, lldb output:\n' + ktext + '\nhexsim stderr:\n' + kerr)
        return 1
    print('lldb-16 session: all checks passed')
    return 0


if __name__ == '__main__':
    sys.exit(main())
