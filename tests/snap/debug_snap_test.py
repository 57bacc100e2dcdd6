#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# The debugger's savevm/loadvm in user mode (ctest snap_debug): a session piped into
# `hexsim --user --debug progs/snapprog` steps 20000 packets, saves, steps 30000 more,
# loads: registers (pcycles and PKTCOUNT included) and stack memory must be the saved ones;
# a damaged snapshot and one of another program are refused and change nothing; continuing
# prints exactly the straight run's output after packet 20000 and exits with its status;
# after the end, savevm is refused and loadvm brings the process back to run it again.
# Then `--user --debug --restore FILE` starts the debugger at the saved state.
# Usage: debug_snap_test.py --hexsim BUILD/hexsim --work DIR
import argparse
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
CLANG = ['clang-16', '--target=hexagon-unknown-linux-musl', '-mv67', '-O2', '-ffreestanding',
         '-nostdlib', '-fuse-ld=lld', '-static']
PROMPT = '(hexsim) '
failures = []


def expect(what, cond, detail=''):
    if not cond:
        failures.append(what)
        print('FAIL: %s %s' % (what, str(detail)[:1500]))
    return cond


def session(cmd, lines):
    p = subprocess.run(cmd, input=''.join(l + '\n' for l in lines), capture_output=True,
                       text=True, timeout=600)
    return p.returncode, p.stdout, p.stderr


def blocks(transcript):
    """[(command, its output)] of a piped session's transcript (the prompt echoes it)."""
    out = []
    for part in transcript.split(PROMPT)[1:]:
        cmd, _, text = part.partition('\n')
        out.append((cmd, text))
    return out


def continued(text):
    """The guest output of a continue block: after "Continuing." up to the exit report."""
    m = re.match(r'Continuing\.\n(.*)Program exited with code (\d+)\.\n$', text, re.S)
    return (m.group(1), int(m.group(2))) if m else (None, None)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--hexsim', required=True)
    ap.add_argument('--work', required=True)
    a = ap.parse_args()
    os.makedirs(a.work, exist_ok=True)
    prog = os.path.join(a.work, 'snapprog')
    subprocess.run(CLANG + [os.path.join(HERE, 'progs', 'snapprog.c'), '-o', prog], check=True)
    other = os.path.join(a.work, 'b1')
    subprocess.run(CLANG + [os.path.join(ROOT, 'tools', 'bench', 'progs', 'b1.c'), '-o', other],
                   check=True)
    h = a.hexsim
    p = subprocess.run([h, '--user', prog], capture_output=True, text=True, timeout=300)
    full, status = p.stdout, p.returncode
    p = subprocess.run([h, '--user', '--max-packets', '20000', prog], capture_output=True,
                       text=True, timeout=300)
    tail = full[len(p.stdout):]
    expect('the straight run prints rounds and exits 3; little of it by packet 20000',
           status == 3 and full.count('round') == 8 and p.returncode == 124 and
           full.startswith(p.stdout) and 'round 7' in tail, repr(p.stdout))

    snap = os.path.join(a.work, 'saved.snap')
    bad = os.path.join(a.work, 'damaged.snap')
    foreign = os.path.join(a.work, 'b1.snap')
    for f in (snap, bad):
        if os.path.exists(f):
            os.remove(f)
    r = subprocess.run([h, '--user', '--snapshot-at', '1000', '--snapshot-out', foreign,
                        '--max-packets', '1000', other], capture_output=True, timeout=300)
    expect('a snapshot of b1', os.path.exists(foreign), r.stderr)
    data = bytearray(open(foreign, 'rb').read())
    data[len(data) // 2] ^= 0x10
    with open(bad, 'wb') as f:
        f.write(data)
    lines = ['step 20000', 'info registers', 'x/8xw $sp', 'savevm ' + snap,
             'info registers', 'step 30000', 'info registers', 'loadvm ' + snap,
             'info registers', 'x/8xw $sp', 'loadvm ' + bad, 'info registers',
             'loadvm ' + foreign, 'info registers', 'continue', 'savevm ' + bad,
             'loadvm ' + snap, 'info registers', 'continue']
    rc, out, err = session([h, '--user', '--debug', prog], lines)
    b = blocks(out)
    expect('every command echoed', [c for c, _ in b] == lines, str([c for c, _ in b]))
    if len(b) != len(lines):
        print(out)
        return 1
    res = {i: t for i, (_, t) in enumerate(b)}
    expect('savevm reports the file', res[3] == 'Saved the process to %s.\n' % snap, res[3])
    regs, mem = res[1], res[2]
    expect('registers with PC, pcycles and PKTCOUNT', re.search(r'\npc\s+0x', regs) and
           'upcyclelo' in regs and 'pktcountlo' in regs, regs)
    expect('savevm changes nothing', res[4] == regs, res[4])
    expect('stepping on changes the registers', res[6] != regs, res[6])
    expect('loadvm reports the file and the location',
           res[7].startswith('Loaded the process from %s.\n=> 0x' % snap), res[7])
    expect('after loadvm: the saved registers', res[8] == regs, '\n' + res[8] + '\n' + regs)
    expect('after loadvm: the saved stack memory', res[9] == mem, res[9] + mem)
    expect('a damaged snapshot is refused', res[10].startswith('Error: ') and
           bad in res[10] and 'checksum' in res[10], res[10])
    expect('... and changes nothing', res[11] == regs, res[11])
    expect('a snapshot of another program is refused', res[12].startswith('Error: ') and
           'not loaded' in res[12], res[12])
    expect('... and changes nothing', res[13] == regs, res[13])
    got, code = continued(res[14])
    expect('continue after loadvm: the rest of the straight run', got == tail and
           code == status, repr(res[14][-300:]))
    expect('savevm after the end is refused', res[15] == 'The program is not being run.\n',
           res[15])
    expect('loadvm after the end: the process is back', res[17] == regs, res[17])
    got, code = continued(res[18])
    expect('... and runs to the same end again', got == tail and code == status,
           repr(res[18][-300:]))
    expect('session exit status: the program\'s', rc == status, 'exit %d: %s' % (rc, err))

    # --debug --restore: the debugger starts at the saved state
    rc, out, err = session([h, '--user', '--debug', '--restore', snap],
                           ['info registers', 'x/8xw $sp', 'continue'])
    b = blocks(out)
    ok = len(b) == 3
    expect('--debug --restore: the saved registers and memory', ok and b[0][1] == regs and
           b[1][1] == mem, out[:2000])
    got, code = continued(b[2][1]) if ok else (None, None)
    expect('--debug --restore: continue prints the rest', got == tail and code == status and
           rc == status, repr(out[-300:]))
    # a damaged snapshot at the start: refused before the debugger starts
    data = open(snap, 'rb').read()
    with open(bad, 'wb') as f:
        f.write(data[:len(data) // 2])
    rc, out, err = session([h, '--user', '--debug', '--restore', bad], ['continue'])
    expect('--debug --restore of a cut file: exit 1', rc == 1 and bad in err and
           PROMPT not in out, 'exit %d %s' % (rc, err))
    if failures:
        print('%d checks failed' % len(failures))
        return 1
    print('debugger savevm/loadvm: ok')
    return 0


if __name__ == '__main__':
    sys.exit(main())
