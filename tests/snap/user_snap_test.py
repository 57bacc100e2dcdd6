#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# User-mode snapshots, two parts (ctest snap_user and snap_debug).
# Part "user": `hexsim --user --snapshot-at N[,N...]
# --snapshot-out FILE` and `hexsim --user --restore FILE` on two guest programs: the
# benchmark b1 (tools/bench/progs/b1.c, about 256 million packets) and progs/snapprog.c
# (brk, mmap/munmap, getrandom, clock_gettime, nanosleep, output over the whole run).
# For each program:
#   - the straight run gives stdout, exit status and the --stats-json values (not host time);
#   - one run takes snapshots at 16 points (12 spread over the run, 4 in its last few
#     thousand packets, where the output is written) with stderr on the same pipe as stdout,
#     so each "snapshot at packet N" message shows how much output came before N; it must
#     run exactly as the straight run;
#   - each snapshot is restored: run to the end (snapprog always; b1 for points in its last
#     eighth), the output must be the straight run's after that point, with the same exit
#     status and final statistics; b1's other points are checked by state instead (running
#     each to the end would take minutes in a sanitizer build): restored and run 200000
#     packets, the snapshot taken there must equal the one of the straight run at the same
#     packet, section by section. snapprog's first point's run to the end also takes
#     snapshots at every later point and compares them all.
# snapprog runs the same checks again under --timing=cache (the caches are part of the
# snapshot; restoring it without --timing=cache is refused).
# Then refusals (exit status 1, a message naming the file, nothing run): damaged, cut,
# foreign and wrong-kind files (a system snapshot in user mode; a user snapshot without
# --user is not refused: the file says its mode, and it runs as with --user),
# snapshots with right checksums but impossible contents (snapfile.py writes them); a process
# with a host file open; and usage errors (exit status 2).
# Part "debug": the debugger's savevm/loadvm. A session piped into `hexsim --user --debug
# snapprog` steps 20000 packets, saves, steps 30000 more, loads: registers (pcycles and
# PKTCOUNT included) and stack memory must be the saved ones; a damaged snapshot and one of
# another program are refused and change nothing; continuing prints exactly the straight
# run's output after packet 20000 and exits with its status; after the end, savevm is
# refused and loadvm brings the process back to run it again. Then `--user --debug
# --restore FILE` starts the debugger at the saved state.
# Usage: user_snap_test.py user|debug --hexsim BUILD/hexsim --work DIR
import argparse
import json
import os
import re
import struct
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
import snapfile  # noqa: E402

CLANG = ['clang-16', '--target=hexagon-unknown-linux-musl', '-mv67', '-O2', '-ffreestanding',
         '-nostdlib', '-fuse-ld=lld', '-static']
# --stats-json values that belong to the host, not to the simulated run
HOST_STATS = ('host_', 'packets_per_second')
SNAPPED = re.compile(rb'hexsim: snapshot at packet (\d+) written to [^\n]* in [0-9.]+ s\n')
RESTORED = re.compile(rb'hexsim: restored [^\n]* at packet (\d+) in [0-9.]+ s\n')
STEP = 200000
PROMPT = '(hexsim) '
failures = []


def expect(what, cond, detail=''):
    if not cond:
        failures.append(what)
        print('FAIL: %s %s' % (what, str(detail)[:1500]))
    return cond


def run(cmd, limit=1500):
    """Exit status and stdout+stderr on one pipe (so their order is kept)."""
    p = subprocess.run(cmd, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, timeout=limit)
    return p.returncode, p.stdout


def stats_run(a, cmd):
    """run() with --stats-json: exit status, output and the run's statistics (None: no file)."""
    path = os.path.join(a.work, 'stats.json')
    if os.path.exists(path):
        os.remove(path)
    rc, text = run(cmd[:2] + ['--stats-json', path] + cmd[2:])
    try:
        with open(path) as f:
            stats = {k: v for k, v in json.load(f).items() if not k.startswith(HOST_STATS)}
    except (OSError, ValueError):
        stats = None
    return rc, text, stats


def parse(text):
    """Guest output split at the snapshot messages, and the points."""
    text = RESTORED.sub(b'', text)
    points = [int(n) for n in SNAPPED.findall(text)]
    return SNAPPED.split(text)[::2], points


def brief(stats):
    return {k: stats[k] for k in ('packets', 'pcycles', 'instructions')} if stats else None


def sections(path):
    try:
        return snapfile.read(open(path, 'rb').read())[2]
    except (OSError, ValueError) as e:
        return [('unreadable', str(e).encode())]


def same_state(a, b):
    """'' when the snapshots a and b hold the same sections, else what differs."""
    sa, sb = sections(a), sections(b)
    diff = [na for (na, da), (nb, db) in zip(sa, sb) if na != nb or da != db]
    if len(sa) != len(sb):
        diff.append('number of sections')
    return ', '.join(diff)


def check_program(a, name, exe, args, full_runs, timing=()):
    """The straight run against snapshots taken over it and restored (every run with the
    timing options timing): output, exit status and all of --stats-json but host time."""
    hx = [a.hexsim, '--user'] + list(timing)
    rc0, text, stats0 = stats_run(a, hx + [exe] + args)
    out0 = parse(text)[0][0]
    if not expect('%s: straight run with --stats-json' % name, stats0 is not None,
                  text[-500:]):
        return None
    total = stats0['packets']
    spread = [total * k // 13 for k in range(1, 13)]
    points = sorted(set(p for p in spread + [total - d for d in (3000, 300, 30, 2)] if p > 0))
    by_state = [] if full_runs else [p for p in points if total - p > total // 8]
    taken = sorted(set(points + [p + STEP for p in by_state]))
    pattern = os.path.join(a.work, name + '-%N.snap')
    snap = {p: pattern.replace('%N', str(p)) for p in taken}
    for f in snap.values():
        if os.path.exists(f):
            os.remove(f)
    rc, text, stats = stats_run(a, hx + ['--snapshot-at', ','.join(map(str, taken)),
                                         '--snapshot-out', pattern, exe] + args)
    segs, seen = parse(text)
    ok = expect('%s: the run with %d snapshots is the straight run' % (name, len(taken)),
                rc == rc0 and stats == stats0 and b''.join(segs) == out0 and seen == taken,
                'exit %d/%d, stats %s/%s, points %s' % (rc, rc0, brief(stats), brief(stats0), seen))
    if not ok:
        return None
    before = {p: b''.join(segs[:i + 1]) for i, p in enumerate(taken)}
    expect('%s: some points fall between output writes' % name,
           len(set(before.values())) > 2, str(sorted(set(len(v) for v in before.values()))))
    for p in points:
        if p in by_state:
            cut = os.path.join(a.work, name + '-check.snap')
            rc, text = run(hx + ['--restore', snap[p], '--snapshot-at', str(p + STEP),
                                 '--snapshot-out', cut, '--max-packets', str(p + STEP)])
            segs, seen = parse(text)
            diff = same_state(cut, snap[p + STEP])
            expect('%s: restored at %d, after %d packets the state is the straight run\'s'
                   % (name, p, STEP), rc == 124 and seen == [p + STEP] and not diff and
                   before[p] + segs[0] == before[p + STEP],
                   'exit %d, points %s, differing sections: %s' % (rc, seen, diff))
            continue
        later = [q for q in taken if q > p] if p == points[0] else []
        cmd = hx + ['--restore', snap[p]]
        if later:
            cmd += ['--snapshot-at', ','.join(map(str, later)), '--snapshot-out',
                    os.path.join(a.work, name + '-again-%N.snap')]
        rc, text, stats = stats_run(a, cmd)
        segs, seen = parse(text)
        expect('%s: restored at packet %d and run to the end' % (name, p),
               rc == rc0 and stats == stats0 and before[p] + b''.join(segs) == out0 and
               seen == later, 'exit %d/%d, stats %s/%s, output %r' %
               (rc, rc0, brief(stats), brief(stats0), b''.join(segs)[-200:]))
        for q in later:
            diff = same_state(os.path.join(a.work, name + '-again-%d.snap' % q), snap[q])
            expect('%s: restored at %d, the state at %d is the straight run\'s' % (name, p, q),
                   not diff, 'differing sections: ' + diff)
    return snap[points[len(points) // 2]], rc0, os.path.getsize(snap[points[len(points) // 2]])


def refusals(a, good, prog):
    """Files and command lines that must be refused."""
    data = open(good, 'rb').read()
    fmt, version, secs = snapfile.read(data)
    names = [n for n, _ in secs]
    hdr = 52 + 48 * len(secs)

    def with_section(name, body):
        return snapfile.write(fmt, version, [(n, body if n == name else b) for n, b in secs])

    proc = dict(secs)['process']
    cfg = dict(secs)['config']
    bad_fd = bytearray(proc)
    bad_fd[120 + 3] = 5        # guest fd 3 -> host fd 5 (struct snap_proc: fd[] at 120)
    bad_mem = dict(secs)['mem'] + struct.pack('<I', 0xfffff) + bytes(4096)
    damaged = {
        'a byte of a section': (data[:hdr + 40] + bytes([data[hdr + 40] ^ 0x40]) +
                                data[hdr + 41:], 'checksum mismatch'),
        'cut short': (data[:len(data) * 2 // 3], 'outside the file|truncated'),
        'another magic': (b'NOTASNAP' + data[8:], 'not a hexsim snapshot'),
        'format version 99': (data[:8] + (99).to_bytes(4, 'little') + data[12:],
                              'format version 99'),
        'empty': (b'', 'truncated'),
        'a system-mode snapshot': (with_section('config', struct.pack('<I', 1) + cfg[4:]),
                                   'system-mode machine'),
        'an unknown kind': (with_section('config', struct.pack('<I', 7) + cfg[4:]),
                            'unknown kind'),
        'a host file descriptor': (with_section('process', bytes(bad_fd)), 'descriptor'),
        'a page that is not mapped': (with_section('mem', bad_mem), 'not mapped'),
        'a cpu of another size': (with_section('cpu', dict(secs)['cpu'] + b'\0' * 8),
                                  'bytes, this hexsim expects'),
        'no mem section': (snapfile.write(fmt, version, [s for s in secs if s[0] != 'mem']),
                           'section mem: missing'),
        'no timing section': (snapfile.write(fmt, version,
                                             [s for s in secs if s[0] != 'timing']),
                              'section timing: missing'),
        'timing of another size': (with_section('timing', dict(secs)['timing'][:-4]),
                                   'section timing: another size'),
    }
    expect('the snapshot has the six sections', names == ['config', 'process', 'cpu', 'maps',
                                                         'mem', 'timing'], str(names))
    path = os.path.join(a.work, 'damaged.snap')
    for what, (blob, rx) in damaged.items():
        with open(path, 'wb') as f:
            f.write(blob)
        rc, text = run([a.hexsim, '--user', '--restore', path])
        err = text.decode(errors='replace')
        expect('%s is refused' % what, rc == 1 and path in err and re.search(rx, err) and
               'round' not in err, 'exit %d: %s' % (rc, err.strip()[-300:]))
    # the file says its mode: without --user it continues as with it
    rc, text = run([a.hexsim, '--restore', good])
    rc_u, text_u = run([a.hexsim, '--user', '--restore', good])
    expect('a user snapshot restored without --user runs as with it',
           rc == rc_u and b'round' in text and
           re.sub(rb' in [0-9.]+ s', b'', text) == re.sub(rb' in [0-9.]+ s', b'', text_u),
           'exit %d (with --user %d): %s' % (rc, rc_u, text[-300:]))
    rc, text = run([a.hexsim, '--user', '--restore', os.path.join(a.work, 'missing.snap')])
    expect('a missing snapshot', rc == 1 and b'missing.snap' in text, text[-200:])
    out = os.path.join(a.work, 'file-open.snap')
    rc, text = run([a.hexsim, '--user', '--snapshot-at', '1000', '--snapshot-out', out, prog,
                    'file'])
    expect('a process with a host file open is not saved', rc == 1 and
           b'host file open' in text and not os.path.exists(out), 'exit %d: %s' % (rc, text))
    rc, text = run([a.hexsim, '--user', '--snapshot-at', '900000000', '--snapshot-out', out,
                    prog])
    expect('a point after the end: no snapshot, the program\'s status', rc == 3 and
           b'ended before packet 900000000' in text and not os.path.exists(out), text[-300:])
    usage = {
        '--restore with a PROG': ['--user', '--restore', good, prog],
        '--snapshot-at under the debugger': ['--user', '--debug', '--snapshot-at', '5',
                                             '--snapshot-out', out, prog],
        'several points without %N': ['--user', '--snapshot-at', '5,9', '--snapshot-out', out,
                                      prog],
        'points out of order': ['--user', '--snapshot-at', '9,5', '--snapshot-out', out + '%N',
                                prog],
        '--user without PROG or --restore': ['--user'],
    }
    for what, args in usage.items():
        rc, text = run([a.hexsim] + args)
        expect('usage error: ' + what, rc == 2, 'exit %d: %s' % (rc, text[-300:]))


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


def debug_part(a, prog, other):
    """The debugger's savevm/loadvm (see the top of the file)."""
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
        return
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


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('part', choices=['user', 'debug'])
    ap.add_argument('--hexsim', required=True)
    ap.add_argument('--work', required=True)
    a = ap.parse_args()
    os.makedirs(a.work, exist_ok=True)
    exe = {}
    for name, src in (('snapprog', os.path.join(HERE, 'progs', 'snapprog.c')),
                      ('b1', os.path.join(ROOT, 'tools', 'bench', 'progs', 'b1.c'))):
        exe[name] = os.path.join(a.work, name)
        subprocess.run(CLANG + [src, '-o', exe[name]], check=True)
    if a.part == 'debug':
        debug_part(a, exe['snapprog'], exe['b1'])
        summary = 'debugger savevm/loadvm: ok'
    else:
        small = check_program(a, 'snapprog', exe['snapprog'], [], True)
        if small:
            refusals(a, small[0], exe['snapprog'])
        cached = check_program(a, 'snapprog-cache', exe['snapprog'], [], True,
                               ['--timing=cache'])
        if cached:
            rc, text = run([a.hexsim, '--user', '--restore', cached[0]])
            expect('a cache-mode snapshot restored without --timing=cache is refused',
                   rc == 1 and b'taken with --timing=cache' in text, text[-300:])
        big = check_program(a, 'b1', exe['b1'], [], False)
        summary = 'user snapshots: ok (b1: a snapshot of %d bytes)' % (big[2] if big else 0)
    if failures:
        print('%d checks failed' % len(failures))
        return 1
    print(summary)
    return 0


if __name__ == '__main__':
    sys.exit(main())
