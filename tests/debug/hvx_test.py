#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# HVX outside the executor: the debugger, the gdb stub with lldb-16, snapshots, --stats and
# --profile, on progs/hvxprog.c built for `hexsim --user` and as an HVM test kernel
# (tests/hvm/guest/crt.S) for system mode.
# Part "cli": session_hvx.gdb in both modes (stepi showing vector, predicate and vector-store
# writes, info vector, lanes in print and set, a watchpoint a vector store hits) compared with
# session_hvx.expected and session_hvx_system.expected; the debugger's disassembly of the HVX
# packets against hexsim-objdump --mattr=+hvx; --stats and --profile counting the HVX packets
# and instructions (3008 of each: vec_step has 5 HVX packets, vec_sum 3003) in both modes, with
# and without the block compiler.
# Part "lldb": lldb-16 over --gdb reads v4 and q0, writes q1, and writes v6 just before the
# loop that sums it, so the program's printed result shows the write reached hexsim; in
# system mode the same write of v6 shows in the hash done() gets (exit status 77, skipped,
# without lldb-16).
# Part "snap": user-mode --snapshot-at in the middle of vec_sum's loop (v6 and v7 live) and
# --restore give the straight run's output; in both modes savevm in the loop, then lanes of v6,
# v7 and q0 changed, then loadvm: the run ends with the straight run's result (a snapshot that
# dropped or did not restore the HVX state would not); a format-2 snapshot is refused with
# its version named.
# Usage: hvx_test.py --hexsim BUILD/hexsim --objdump BUILD/hexsim-objdump --work DIR
#        --part cli|lldb|snap [--update]
import argparse
import difflib
import os
import re
import shutil
import subprocess
import sys

import lldb_test   # tests/debug/lldb_test.py: the lldb-16 session

HERE = os.path.dirname(os.path.abspath(__file__))
CLANG = ['clang-16', '--target=hexagon-unknown-linux-musl', '-mv68', '-mhvx', '-mhvx-length=128b',
         '-O1', '-ffreestanding', '-nostdlib', '-fuse-ld=lld', '-static', '-mllvm', '-mno-pairing']
HVX_PACKETS = 3008   # vec_step: 5; vec_sum: v6 load, vxor, 3000 loop packets, the store
failures = []


def expect(what, cond, detail=''):
    if not cond:
        failures.append(what)
        print('FAIL: %s %s' % (what, detail))


def run(cmd, stdin=None, timeout=300):
    p = subprocess.run(cmd, input=stdin, capture_output=True, text=True, timeout=timeout)
    return p.returncode, p.stdout, p.stderr


def build(work):
    src = os.path.join(HERE, 'progs', 'hvxprog.c')
    user = os.path.join(work, 'hvxprog')
    kern = os.path.join(work, 'hvxprog-kernel')
    subprocess.run(CLANG + [src, '-o', user], check=True)
    subprocess.run(CLANG + ['-fno-builtin', '-Wl,-Ttext=0x100000', '-Wl,-e,_start', '-DHVM_KERNEL',
                            os.path.join(HERE, '..', 'hvm', 'guest', 'crt.S'), src, '-o', kern],
                   check=True)
    return user, kern


def mode_cmd(a, mode, prog, opts=()):
    return ([a.hexsim] + list(opts) + ['--user', prog] if mode == 'user'
            else [a.hexsim] + list(opts) + [prog, '--mem', '64M'])


def stat(text, label):
    m = re.search(r'^\s*%s\s+(\d+)\s*$' % re.escape(label), text, re.M)
    return int(m.group(1)) if m else None


def part_cli(a, user, kern):
    script = os.path.join(HERE, 'session_hvx.gdb')
    for mode, prog, status, name in (('user', user, 109, 'session_hvx.expected'),
                                     ('system', kern, 0, 'session_hvx_system.expected')):
        rc, out, err = run(mode_cmd(a, mode, prog, ['-x', script]))
        path = os.path.join(HERE, name)
        if a.update:
            with open(path, 'w') as f:
                f.write(out)
        with open(path) as f:
            want = f.read()
        expect('%s session: exit status %d' % (mode, status), rc == status,
               'got %d, stderr: %s' % (rc, err[-2000:]))
        expect('%s session transcript' % mode, out == want, '\n' + ''.join(difflib.unified_diff(
            want.splitlines(True), out.splitlines(True), name, 'got')))

    # the debugger's packets of vec_step and vec_sum as hexsim-objdump --mattr=+hvx shows them
    rc, out, err = run([a.hexsim, '--user', '--debug', user],
                       stdin='disassemble vec_step\ndisassemble vec_sum\nquit\n')
    dbg = {}
    for m in re.finditer(r'^\s+0x([0-9a-f]{8}) <\+\d+>:\t\{ (.*) \}(:endloop0)?$', out, re.M):
        dbg[int(m.group(1), 16)] = re.sub(r' <[^>]*>', '', m.group(2)).split('; ')
    rc, od, err = run([a.objdump, '-d', '--mattr=+hvx', user])
    packets, cur, start = {}, None, None
    for line in od.splitlines():
        m = re.match(r'^\s+([0-9a-f]+):\t(?:[0-9a-f]{2} ){3}[0-9a-f]{2}\t[0-9a-f]{8} (.*)$', line)
        if not m:
            continue
        addr, text = int(m.group(1), 16), m.group(2)
        if text.lstrip().startswith('{'):
            cur, start = [], addr
        body = text.replace('{', '').replace('}', '').replace(':endloop0', '').strip()
        cur.append(body)
        if '}' in text:
            packets[start] = cur
    expect('disassemble: 13 packets of vec_step and vec_sum', len(dbg) == 13, out)
    for addr, insns in sorted(dbg.items()):
        expect('disassemble 0x%08x as hexsim-objdump' % addr, packets.get(addr) == insns,
               'debugger %s, hexsim-objdump %s' % (insns, packets.get(addr)))
    expect('disassemble shows HVX instructions', any('vadd' in ' '.join(i) for i in dbg.values()))

    # --stats and --profile: the HVX packets and instructions, in both modes, with and without
    # the block compiler (compiled after one run)
    for mode, prog in (('user', user), ('system', kern)):
        for opts in ([], ['--no-jit'], ['--jit-threshold', '1']):
            rc, out, err = run(mode_cmd(a, mode, prog, ['--stats'] + opts))
            text = out + err
            what = '%s %s' % (mode, ' '.join(opts) or 'default')
            expect('--stats %s: HVX packets %d' % (what, HVX_PACKETS),
                   stat(text, 'HVX packets') == HVX_PACKETS, text[-3000:])
            expect('--stats %s: HVX instructions %d' % (what, HVX_PACKETS),
                   stat(text, 'HVX instructions') == HVX_PACKETS, text[-3000:])
        prof = os.path.join(a.work, 'hvx-%s.prof' % mode)
        rc, out, err = run(mode_cmd(a, mode, prog, ['--profile', prof]))
        rows = {}
        if os.path.exists(prof):
            hvx = False
            for line in open(prof):
                hvx = hvx or line.startswith('# HVX')
                f = line.split()
                if hvx and len(f) == 3 and f[0].isdigit():
                    rows[f[2]] = (int(f[0]), int(f[1]))
        expect('--profile %s: HVX packets and instructions by function' % mode,
               rows == {'vec_sum': (3003, 3003), 'vec_step': (5, 5)}, str(rows))


def lldb_session(a, lldb, prog, cmds, mode='user'):
    # lldb's output, hexsim's stdout (or why it did not listen) and exit status
    text, out, _, rc = lldb_test.session_argv(mode_cmd(a, mode, prog, ['--gdb', '127.0.0.1:0']),
                                              lldb, prog, cmds)
    return text, out, rc


def symbol(prog, name):
    nm = subprocess.run(['llvm-nm-16', prog], capture_output=True, text=True).stdout
    m = re.search(r'^([0-9a-f]+) T %s$' % name, nm, re.M)
    return int(m.group(1), 16) if m else 0


def part_lldb(a, user, kern):
    lldb = shutil.which('lldb-16')
    if not lldb:
        print('lldb-16 not installed: skipped')
        return 77
    ones = '{' + ' '.join(['0x01'] * 128) + '}'
    q1 = '{' + ' '.join('0x%02x' % (0x11 * (i + 1) & 0xff) for i in range(16)) + '}'
    # v6.w = 0x01010101 in every lane: the sum of 3000 of them, and done's hash of it
    word = 3000 * 0x01010101 & 0xffffffff
    h = 68   # byte 20 of v5
    for b in b''.join(word.to_bytes(4, 'little') for _ in range(32)):
        h = (h * 31 + b) & 0xffffffff
    # system mode: the same write of v6, then done's argument (r0) is that hash
    ktext, kout, krc = lldb_session(a, lldb, kern, [
        'breakpoint set -a 0x%x' % (symbol(kern, 'vec_sum') + 8),
        'continue',
        'register read q0',
        'register write v6 "%s"' % ones,
        'breakpoint set -a 0x%x' % symbol(kern, 'done'),
        'continue',
        'register read r0',
        'kill'], 'system')
    if ktext is None:
        print('FAIL: %s' % kout)
        return 1
    text, out, rc = lldb_session(a, lldb, user, [
        'breakpoint set -a 0x%x' % (symbol(user, 'vec_sum') + 8),   # v6, v7 set, no loop yet
        'continue',
        'register read v4',
        'register read q0',
        'register write q1 "%s"' % q1,
        'register read q1',
        'register write v6 "%s"' % ones,
        'register read v6',
        'detach'])
    if text is None:
        print('FAIL: %s' % out)
        return 1
    v4 = ' '.join('0x%02x' % ((3 * i + 1) & 0xff) for i in range(128))
    checks = [
        ('stopped at vec_sum+8', 'stop reason = breakpoint 1.1' in text),
        ('register read v4: buf\'s first 128 bytes', 'v4 = {%s}' % v4 in text),
        ('register read q0: every lane set', 'q0 = {%s}' % ' '.join(['0xff'] * 16) in text),
        ('register write q1, read back', 'q1 = %s' % q1 in text),
        ('register write v6, read back', 'v6 = %s' % ones in text),
        ('the program summed the v6 lldb wrote', out.strip() == ' '.join(['%08x' % word] * 32)),
        ('system mode: q0 read', 'q0 = {%s}' % ' '.join(['0xff'] * 16) in ktext),
        ('system mode: the kernel summed the v6 lldb wrote (r0 at done = 0x%08x)' % h,
         'r0 = 0x%08x' % h in ktext),
    ]
    bad = [w for w, ok in checks if not ok]
    for w in bad:
        print('FAIL: %s' % w)
    if bad:
        print('lldb output:\n' + text + '\nprogram output:\n' + out)
        print('system mode, lldb output:\n' + ktext)
        return 1
    print('lldb-16 HVX session: all checks passed')
    return 0


def part_snap(a, user, kern):
    rc0, out0, err0 = run([a.hexsim, '--user', user])
    expect('straight run: exit status 77 and the result line', rc0 == 77 and
           len(out0.split()) == 32, 'status %d, output %r' % (rc0, out0))
    # in vec_sum's loop (it runs from about packet 400 to 3400): v6 and v7 hold its state
    snap = os.path.join(a.work, 'hvx-%N.snap')
    rc, out, err = run([a.hexsim, '--user', '--snapshot-at', '150,2000',
                        '--snapshot-out', snap, user])
    expect('--snapshot-at run: same output', (rc, out) == (rc0, out0), err)
    for n in (150, 2000):
        rc, out, err = run([a.hexsim, '--user', '--restore', snap.replace('%N', str(n))])
        expect('--restore at packet %d: same output and status' % n, (rc, out) == (rc0, out0),
               'status %d, output %r, stderr %s' % (rc, out, err))

    # savevm in the loop, HVX lanes changed, loadvm: the straight run's result (r0 at done)
    state = os.path.join(a.work, 'hvx-vm.snap')
    for mode, prog in (('user', user), ('system', kern)):
        base = mode_cmd(a, mode, prog, ['--debug'])
        rc, out, err = run(base, stdin='break done\ncontinue\nprint/x $r0\nquit\n')
        m = re.search(r'\$1 = (0x[0-9a-f]+)', out)
        expect('%s: straight run to done' % mode, m is not None, out[-2000:])
        want = m.group(1) if m else None
        if os.path.exists(state):
            os.unlink(state)
        rc, out, err = run(base, stdin='break *vec_sum+12\ncontinue\ndelete\nnexti 500\n'
                           'savevm %s\nset $v6.w[3] = 77\nset $v7.w[5] = 1234\n'
                           'set $v7.b[100] = -1\nset $q0.b[0] = 0\nloadvm %s\n'
                           'print $q0\nbreak done\ncontinue\nprint/x $r0\nquit\n'
                           % (state, state))
        got = re.findall(r'\$\d+ = (0x[0-9a-f]+)\n', out)
        expect('%s: savevm, HVX lanes changed, loadvm: q0 back' % mode,
               '= 0xffffffffffffffffffffffffffffffff' in out, out[-3000:])
        expect('%s: savevm, HVX lanes changed, loadvm: the straight run\'s result %s' %
               (mode, want), got and got[-1] == want, 'got %s' % got[-1:])

    # a format-2 snapshot (before the HVX state) is refused, naming the versions
    one = snap.replace('%N', '2000')
    with open(one, 'rb') as f:
        data = bytearray(f.read())
    data[8:12] = (2).to_bytes(4, 'little')
    old = os.path.join(a.work, 'hvx-format2.snap')
    with open(old, 'wb') as f:
        f.write(data)
    rc, out, err = run([a.hexsim, '--user', '--restore', old])
    expect('format-2 snapshot refused with its version named', rc != 0 and re.search(
        r'format version 2 \(written by hexsim [^)]*\), this hexsim reads version 3; older '
        r'snapshots cannot be restored', err), 'status %d, stderr %s' % (rc, err))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--hexsim', required=True)
    ap.add_argument('--objdump', required=True)
    ap.add_argument('--work', required=True)
    ap.add_argument('--part', choices=('cli', 'lldb', 'snap'), required=True)
    ap.add_argument('--update', action='store_true', help='rewrite the expected transcripts')
    a = ap.parse_args()
    a.work = os.path.join(a.work, a.part)
    os.makedirs(a.work, exist_ok=True)
    user, kern = build(a.work)
    if a.part == 'lldb':
        return part_lldb(a, user, kern)
    if a.part == 'cli':
        part_cli(a, user, kern)
    else:
        part_snap(a, user, kern)
    if failures:
        print('%d failure(s)' % len(failures))
        return 1
    print('HVX %s: all checks passed' % a.part)
    return 0


if __name__ == '__main__':
    sys.exit(main())
