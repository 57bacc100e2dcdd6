#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# User-mode benchmark: builds each guest program in tools/bench/progs/*.c with clang-16
# (freestanding, static, -O2, -mv67 so that qemu-hexagon 7.2 accepts it; a progs/*.py
# generator's output is built the same way: programs too large to keep as files), runs it under
# qemu-hexagon and `hexsim --user` side by side, checks that both print the same output (and
# the expected output a program states in a "Expected output:" comment), and prints a table:
# user CPU time of each (the machine may be shared: CPU time, not wall time, is compared),
# hexsim packets, instructions per packet and packets per CPU second (from hexsim --stats),
# the blocks hexsim compiled and built, and the time ratio qemu/hexsim (above 1: hexsim is
# faster), then the ratios' geometric mean and the least. Times are the best of --repeat
# runs. --host-check also builds each program natively (rt.h's host branch) and checks that
# it prints its "Expected output:".
# With a kernel (--kernel, default the guest/linux/build.sh cache, and --initrd, default
# build/rootfs.cpio, when both exist) it also boots Linux to the shell prompt, types
# poweroff, and prints the host time to the prompt and the packets per second of the boot
# (the best of --repeat boots).
# It also times a program that prints one line (the start-up cost) under both.
# --before OLD_HEXSIM times another hexsim in the same runs (its ratio in the output column,
# its geometric mean at the end), so that an engine change is measured under the same load.
# --guest measures the programs inside the booted guest instead (system mode, issue 34): they
# go into /bin of a benchmark initramfs (--initrd with a second cpio archive after it), each
# is run from the guest shell (--script: the program, then poweroff), and its in-guest CPU
# time is hexsim's host CPU time from the line typed at the prompt to the next line (--stats:
# the shell's fork and exec, the program, its exit and the next prompt; not the boot, which
# a difference of two runs' times would leave in as noise); the table compares it with
# `hexsim --user` (the whole process: ratio in-guest / user, 1 is as fast) and checks that
# both print the same; first the boot's host CPU time to the prompt. With --before, the
# other hexsim runs the same boots and programs in the same rounds (its ratio against its own
# --user time).
# The HVX set (tools/bench/hvx/h*.c: convolution, histogram, copies, dot products, matrix
# products, a sorting network; 128-byte vectors, built with -mhvx -mhvx-length=128b, each
# printing a checksum and the result of its own scalar check) runs after progs/, with its own
# geometric mean; --hvx runs it alone (no userland, no boot).
# Then the real userland (USERLAND below): BusyBox applets and musl programs on generated
# inputs of a few MB, the same way (a program whose output differs fails the run; one that is
# not there, no BusyBox binary or no musl sysroot, is skipped with a note).
# Other people's programs (Debian's sqlite3, zstd, xz, bzip2, Lua) are measured by
# tools/bench/packages.py, with --no-jit and host-native columns.
# Usage: tools/bench/bench.py [--hexsim build/hexsim] [--qemu qemu-hexagon] [--repeat N]
#                             [--before OLD_HEXSIM] [--host-check] [--kernel VMLINUX]
#                             [--initrd CPIO] [--no-boot] [--guest] [--busybox PATH]
#                             [--no-userland] [--hvx]
#                             [PROG.c|PROG.py|USERLAND_NAME...]
import argparse
import glob
import os
import re
import resource
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
CLANG = ['clang-16', '--target=hexagon-unknown-linux-musl', '-mv67', '-O2', '-ffreestanding',
         '-nostdlib', '-fuse-ld=lld', '-static']
# the HVX set (hvx/): clang-16 vectorizes plain loops for HVX only with -hexagon-autohvx
HVX_FLAGS = ['-mhvx', '-mhvx-length=128b', '-mllvm', '-hexagon-autohvx']


def is_hvx(path):
    return os.path.basename(os.path.dirname(os.path.abspath(path))) == 'hvx'


def build(src, exe):
    # a program of progs/ (or what a generator wrote), or of the HVX set
    flags = HVX_FLAGS + ['-I', os.path.join(HERE, 'hvx')] if is_hvx(src) else []
    subprocess.run(CLANG + flags + ['-I', os.path.join(HERE, 'progs'), src, '-o', exe],
                   check=True)


def timed(cmd):
    # CPU time (user + system, microseconds) of the child (wall time if the platform cannot say)
    t = time.monotonic()
    r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    p = subprocess.run(cmd, capture_output=True)
    r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (r1.ru_utime - r0.ru_utime) + (r1.ru_stime - r0.ru_stime)
    return (cpu if cpu > 0 else time.monotonic() - t), p


STATS_RE = re.compile(rb'\n  packets +(\d+)\n  instructions +(\d+)\n')
COMPILED_RE = re.compile(rb'\n  blocks compiled \(host\) +(\d+)\n')
BUILT_RE = re.compile(rb'\n  blocks built \(host\) +(\d+)\n')

# Real userland: BusyBox applets (the static binary of guest/busybox/build.sh, or --busybox)
# and musl C programs (tools/bench/musl/*.c, built with tools/hexagon-cc) under `--user` on
# inputs that userland_inputs() generates, the same bytes on every run (a fixed seed).
# Each entry: a name and the command line, {NAME} standing for an input's path; the
# command's first word is a BusyBox applet, or musl/NAME.c for a musl program. {out} is
# a new empty directory for each run, whose files (names, sizes, SHA-256) count as output.
USERLAND = [
    ('gzip', ['gzip', '-c', '-6', '{text}']),
    ('gunzip', ['gunzip', '-c', '{text_gz}']),
    ('sort', ['sort', '{lines}']),
    ('sort_k', ['sort', '-t', ',', '-k3,3n', '-k1,1', '{csv_small}']),
    ('md5sum', ['md5sum', '{text}', '{blob}']),
    ('sha256sum', ['sha256sum', '{text}', '{blob}']),
    ('awk', ['awk', '-F', ',', '{ n[$2]++; s[$2] += $3; if ($4 > m[$2]) m[$2] = $4 } '
             'END { for (k in n) printf "%s %d %d %.3f\\n", k, n[k], s[k], m[k] }', '{csv}']),
    ('sed', ['sed', '-E', '-e', 's/([a-z]+) ([a-z]+)/\\2 \\1/g', '-e', '/^(ka|ro)/d',
             '-e', 's/[aeiou]{2,}/<&>/g', '{half}']),
    ('grep', ['grep', '-E', '-n', '(^| )(ka|to)[a-z]*(na|ri)( |$)|[0-9]{3}', '{text}']),
    ('tar_c', ['tar', '-c', '-f', '-', '-C', '{tree}', '.']),
    ('tar_x', ['tar', '-x', '-f', '{tree_tar}', '-C', '{out}']),
    ('m1_wordfreq', ['musl/m1_wordfreq.c', '{text}']),
    ('m2_numfmt', ['musl/m2_numfmt.c', '30000']),
]


def userland_inputs(work):
    # the input files (text 2 MB, lines 1 MB, half 0.5 MB, csv 0.5 MB, csv_small 160 KB,
    # blob 4 MB, a tree of 240 files and its tar archive: 6 MB), made from one seed;
    # returns {name: path}
    import gzip
    import random
    import tarfile
    rng = random.Random(33)
    d = os.path.join(work, 'in')
    os.makedirs(d, exist_ok=True)
    letters = 'etaoinshrdlcumwfgypbvkjxqz'
    syll = [a + b for a in 'bdfghjklmnprstvz' for b in 'aeiou'] + list('aeiou')
    vocab = sorted({''.join(rng.choice(syll) for _ in range(rng.randint(1, 4)))
                    for _ in range(6000)})
    rng.shuffle(vocab)
    cum, t = [], 0.0
    for i in range(len(vocab)):   # Zipf-like word frequencies
        t += 1.0 / (i + 1)
        cum.append(t)

    def text(nbytes):
        out, size = [], 0
        while size < nbytes:
            words = rng.choices(vocab, cum_weights=cum, k=rng.randint(3, 14))
            if rng.random() < 0.1:
                words.insert(rng.randrange(len(words)), str(rng.randrange(10 ** rng.randint(1, 6))))
            line = ' '.join(words)
            if rng.random() < 0.2:
                line = line.capitalize() + '.'
            out.append(line)
            size += len(line) + 1
        return ('\n'.join(out) + '\n').encode()
    files = {}

    def put(name, data):
        path = os.path.join(d, name)
        with open(path, 'wb') as f:
            f.write(data)
        os.utime(path, (1700000000, 1700000000))
        files[name.replace('.', '_')] = path
        return path
    big = put('text', text(2 << 20))
    put('lines', text(1 << 20))
    put('half', text(1 << 19))
    rows, size = [], 0
    while size < 1 << 19:
        row = '%s,%s,%d,%.3f' % (rng.choice(vocab), rng.choice(letters[:20]) + rng.choice(letters),
                                 rng.randrange(-100000, 1000000), rng.random() * 1000)
        rows.append(row)
        size += len(row) + 1
    put('csv', ('\n'.join(rows) + '\n').encode())
    put('csv.small', ('\n'.join(rows[:len(rows) * 5 // 16]) + '\n').encode())
    put('blob', rng.randbytes(4 << 20))
    with open(big, 'rb') as f:
        put('text.gz', gzip.compress(f.read(), 6, mtime=0))
    tree = os.path.join(d, 'tree')
    os.makedirs(os.path.join(tree, 'sub'), exist_ok=True)
    for i in range(240):   # 240 files of 0-50 KiB, about 6 MB
        path = os.path.join(tree, 'sub' if i % 3 else '', 'f%03d.txt' % i)
        with open(path, 'wb') as f:
            f.write(text(rng.randint(0, 50) << 10))
        os.utime(path, (1700000000, 1700000000))
    for p in (os.path.join(tree, 'sub'), tree):
        os.utime(p, (1700000000, 1700000000))
    files['tree'] = tree
    tar = os.path.join(d, 'tree.tar')
    with tarfile.open(tar, 'w', format=tarfile.USTAR_FORMAT) as tf:
        def norm(ti):
            ti.uid = ti.gid = 0
            ti.uname = ti.gname = 'root'
            ti.mtime = 1700000000
            return ti
        tf.add(tree, arcname='tree', filter=norm, recursive=True)
    files['tree_tar'] = tar
    return files


def out_digest(out):
    # the files under out: each one's relative path, size and SHA-256, in name order
    import hashlib
    lines = []
    for top, dirs, names in os.walk(out):
        dirs.sort()
        for name in sorted(names):
            path = os.path.join(top, name)
            with open(path, 'rb') as f:
                data = f.read()
            lines.append('%s %d %s\n' % (os.path.relpath(path, out), len(data),
                                          hashlib.sha256(data).hexdigest()))
    return ''.join(lines).encode()


def busybox_default():
    # what guest/busybox/build.sh prints (it builds BusyBox if the cache is out of date), or
    # the cached binary when the script is not there; None if neither gives one
    script = os.path.join(ROOT, 'guest', 'busybox', 'build.sh')
    if os.path.exists(script):
        p = subprocess.run([script], capture_output=True, env=dict(os.environ,
                           HEXSIM_BUSYBOX_QUIET='1'))
        path = p.stdout.decode().strip()
        return path if p.returncode == 0 and os.path.exists(path) else None
    cache = os.environ.get('HEXSIM_CACHE', os.path.expanduser('~/.cache/hexsim'))
    path = os.path.join(cache, 'busybox', 'out', 'busybox')
    return path if os.path.exists(path) else None


def programs(names, ap, hvx_only=False):
    # progs/*.c and the progs/*.py generators (b15_bigcode.py), the HVX set hvx/h*.c and the
    # USERLAND entries, or those named: (C programs, USERLAND entries)
    def number(path):   # b1, b2, ... b10, then h1, h2 ... in that order
        m = re.match(r'([bh])(\d+)', os.path.basename(path))
        return (m.group(1), int(m.group(2))) if m else ('z', 1 << 30), path
    hvx = sorted(glob.glob(os.path.join(HERE, 'hvx', 'h*.c')), key=number)
    found = sorted(glob.glob(os.path.join(HERE, 'progs', '*.c')) +
                   glob.glob(os.path.join(HERE, 'progs', 'b*.py')), key=number) + hvx
    if hvx_only and not names:
        return hvx, []
    if not names:
        return found, USERLAND
    out, user = [], []
    for name in names:   # a path, or the name of one of progs/*.c or progs/*.py or USERLAND
        base = os.path.splitext(os.path.basename(name))[0]
        hits = [p for p in found if os.path.splitext(os.path.basename(p))[0] in (base, )
                or os.path.basename(p).startswith(base + '_')]
        uhits = [u for u in USERLAND if u[0] == name]
        if os.path.exists(name):
            out.append(name)
        elif hits:
            out.append(hits[0])
        elif uhits:
            user.append(uhits[0])
        else:
            ap.error('no such program: %s' % name)
    return out, user


def source(src, work):
    # the C file to build: src itself, or what the generator src writes
    if not src.endswith('.py'):
        return src
    c = os.path.join(work, os.path.splitext(os.path.basename(src))[0] + '.c')
    with open(c, 'w') as f:
        subprocess.run([sys.executable, src], stdout=f, check=True)
    return c
PROMPT_RE = re.compile(rb'first waited for console input \(the shell prompt\) ([0-9.]+) s')
PKTS_RE = re.compile(rb'packets per host CPU second +(\d+)')
INPUT_FIRST_RE = re.compile(rb'host CPU s at the first input +([0-9.]+)')
INPUT_LAST_RE = re.compile(rb'host CPU s at the last input +([0-9.]+)')


def boot(hexsim, kernel, initrd, repeat, work):
    # the best host time to the shell prompt, and the boot's packets per CPU second
    script = os.path.join(work, 'poweroff.txt')
    with open(script, 'w') as f:
        f.write('poweroff\n')
    best = None
    for _ in range(repeat):
        p = subprocess.run([hexsim, kernel, '--initrd', initrd, '--script', script, '--stats'],
                           capture_output=True, timeout=600)
        m, k = PROMPT_RE.search(p.stderr), PKTS_RE.search(p.stderr)
        if p.returncode != 0 or not m or not k:
            print('boot: FAILED (exit %d): %s' % (p.returncode, p.stderr.decode()[-500:]))
            return False
        t = (float(m.group(1)), int(k.group(1)))
        best = t if best is None or t[0] < best[0] else best
    print('boot to the shell prompt: %.2f s host time, %.3g packets/s' % best)
    return True


def startup(a, work):
    # the start-up cost: a program that prints one line, best CPU time of 10 * --repeat runs
    src = os.path.join(work, 'hello.c')
    with open(src, 'w') as f:
        f.write('#include "rt.h"\nint main(void) { put_str("hello\\n"); return 0; }\n')
    exe = os.path.join(work, 'hello')
    subprocess.run(CLANG + ['-I', os.path.join(HERE, 'progs'), src, '-o', exe], check=True)
    best = {}
    for _ in range(10 * a.repeat):
        for name, cmd in (('qemu', [a.qemu, exe]), ('hexsim', [a.hexsim, '--user', exe])):
            t, _p = timed(cmd)
            best[name] = min(best.get(name, t), t)
    print('start-up (a one-line program, best of %d): qemu %.1f ms, hexsim %.1f ms' % (
        10 * a.repeat, 1000 * best['qemu'], 1000 * best['hexsim']))


def guest(a, progs, work):
    """--guest: each program in the booted guest against hexsim --user (see the top)."""
    if not (os.path.exists(a.kernel) and os.path.exists(a.initrd)):
        print('--guest: no %s or %s' % (a.kernel, a.initrd))
        return 1
    names, lst = [], os.path.join(work, 'bench.list')
    with open(lst, 'w') as f:
        for gen in progs:
            name = os.path.splitext(os.path.basename(gen))[0]
            build(source(gen, work), os.path.join(work, name))
            f.write('file /bin/%s 755 bin:%s\n' % (name, name))
            names.append(name)
    extra = os.path.join(work, 'bench-extra.cpio')
    subprocess.run([sys.executable, os.path.join(ROOT, 'tools', 'mkcpio.py'), '--list', lst,
                    '--bin', work, '-o', extra], check=True)
    initrd = os.path.join(work, 'bench.cpio')
    with open(initrd, 'wb') as out:
        for part in (a.initrd, extra):
            with open(part, 'rb') as f:
                out.write(f.read())

    def boot_with(hexsim, cmd):
        # the host CPU time (s) at the prompt (the first line typed), the command's (from
        # that line to the next: fork, exec, the program, its exit, the next prompt; the boot
        # is not in it), and the run
        script = os.path.join(work, 'guest-script.txt')
        with open(script, 'w') as f:
            f.write((cmd + '\n' if cmd else '') + 'poweroff\n')
        p = subprocess.run([hexsim, a.kernel, '--initrd', initrd, '--script', script,
                            '--stats'], capture_output=True, stdin=subprocess.DEVNULL)
        first, last = INPUT_FIRST_RE.search(p.stderr), INPUT_LAST_RE.search(p.stderr)
        if p.returncode != 0 or not first or not last:
            print('boot: FAILED (exit %d): %s' % (p.returncode, p.stderr.decode()[-500:]))
            sys.exit(1)
        return float(first.group(1)), float(last.group(1)) - float(first.group(1)), p

    # each hexsim (this one, and --before's) in the same rounds: its boot to the prompt, then
    # per program its in-guest time, against its own --user time
    sims = [a.hexsim] + ([a.before] if a.before else [])
    base, prompt = {}, {}
    for _ in range(a.repeat):
        for h in sims:
            t, _c, p = boot_with(h, None)
            m = PROMPT_RE.search(p.stderr)
            base[h] = min(base.get(h, t), t)
            prompt[h] = min(prompt.get(h, float(m.group(1))), float(m.group(1)))
    for h in sims:
        print('%sboot to the shell prompt: %.3f s host CPU time (%.2f s host time)' % (
            '--before: ' if h != a.hexsim else '', base[h], prompt[h]))
    print('%-12s %9s %9s %7s %s %s' % ('program', 'guest s', 'user s', 'ratio',
                                       ' before' if a.before else '', ' output'))
    bad, ratios = 0, {h: [] for h in sims}
    for name in names:
        tg, tu, ok = {}, {}, True
        for _ in range(a.repeat):
            for h in sims:
                _b, t, g = boot_with(h, name)
                tg[h] = min(tg.get(h, t), t)
                t, u = timed([h, '--user', os.path.join(work, name)])
                tu[h] = min(tu.get(h, t), t)
                out = u.stdout.decode().strip()
                ok &= g.returncode == 0 and u.returncode == 0 and bool(out) and \
                    out in g.stdout.decode()
        bad += not ok
        r = {}
        for h in sims:
            r[h] = tg[h] / tu[h]
            ratios[h].append(r[h])
        print('%-12s %9.3f %9.3f %7.2f %s  %s' % (
            name, tg[a.hexsim], tu[a.hexsim], r[a.hexsim],
            '%7.2f' % r[a.before] if a.before else '',
            'same' if ok else 'DIFFERENT: user %r' % out[:80]))
        sys.stdout.flush()
    for h in sims:
        geo = 1.0
        for x in ratios[h]:
            geo *= x
        print('%sin-guest / user CPU time: geometric mean %.2f, most %.2f (%d programs)' % (
            '--before: ' if h != a.hexsim else '', geo ** (1.0 / len(ratios[h])),
            max(ratios[h]), len(ratios[h])))
    return 1 if bad else 0


def run_one(a, res, name, argv, want=None, host_ok=True, work=None):
    # times argv under qemu-hexagon, hexsim (and --before) --repeat times, checks that the
    # outputs agree (and with want), prints the program's row and adds to res; {out} in
    # argv is a new empty directory in work for each run, its files part of the output
    tq = th = tb = None
    runs = [0]

    def cmd(prefix):
        if not any('{out}' in w for w in argv):
            return prefix + argv, None
        runs[0] += 1
        out = os.path.join(work, 'out-%s-%d' % (name, runs[0]))
        os.makedirs(out)
        return prefix + [w.replace('{out}', out) for w in argv], out

    def run(prefix):
        c, out = cmd(prefix)
        t, p = timed(c)
        if out:
            p.stdout += out_digest(out)
            shutil.rmtree(out)
        return t, p
    for _ in range(a.repeat):
        t, q = run([a.qemu])
        tq = t if tq is None else min(tq, t)
        t, h = run([a.hexsim, '--user', '--stats'])
        th = t if th is None else min(th, t)
        if a.before:
            t, hb = run([a.before, '--user'])
            tb = t if tb is None else min(tb, t)
            if hb.stdout != h.stdout or hb.returncode != h.returncode:
                tb = float('nan')
    ok = (q.stdout == h.stdout and q.returncode == h.returncode and
          (want is None or q.stdout.decode().strip() == want))
    if not ok or not host_ok:
        res['bad'] += 1
    m = STATS_RE.search(h.stderr)
    npk, nin = (int(m.group(1)), int(m.group(2))) if m else (0, 0)
    mc, mb = COMPILED_RE.search(h.stderr), BUILT_RE.search(h.stderr)
    ncomp = mc.group(1).decode() if mc else '-'
    nbuilt = mb.group(1).decode() if mb else '-'
    res['ratios'].append(tq / th)
    status = 'same' if ok else ('DIFFERENT: qemu %r (%d) hexsim %r (%d) %s' % (
        q.stdout[:80], q.returncode, h.stdout[:80], h.returncode, h.stderr.decode()[:300]))
    if not host_ok:
        status += '; HOST BUILD DIFFERS'
    if a.before:
        res['before'].append(tq / tb)
        status = 'before %.2f; %s' % (tq / tb, status)
    print('%-12s %8.2f %8.2f %10d %6.2f %10.3g %8s %8s %7.2f  %s' % (
        name, tq, th, npk, nin / npk if npk else 0, npk / th if th else 0, ncomp, nbuilt,
        tq / th, status))
    sys.stdout.flush()


def userland(a, res, entries, work):
    # the USERLAND entries: BusyBox applets and musl programs on the generated inputs; a
    # program that cannot be found or built is skipped with a note
    busybox = a.busybox if a.busybox else busybox_default()
    if a.busybox and not os.path.exists(a.busybox):
        busybox = None
    files = userland_inputs(work)
    cc = os.path.join(ROOT, 'tools', 'hexagon-cc')
    for name, argv in entries:
        first = argv[0]
        if first.startswith('musl/'):
            exe = os.path.join(work, name)
            p = subprocess.run([cc, '-O2', os.path.join(HERE, first), '-o', exe, '-lm'],
                               capture_output=True)
            if p.returncode != 0:
                print('%-12s skipped: %s does not build: %s' % (
                    name, first, p.stderr.decode().strip()[-300:]))
                continue
            prefix = [exe]
        elif busybox:
            prefix = [busybox, first]
        else:
            print('%-12s skipped: no BusyBox binary (--busybox PATH, or guest/busybox/build.sh)'
                  % name)
            continue
        args = [re.sub(r'\{(\w+)\}', lambda m: files.get(m.group(1), m.group(0)), w)
                for w in argv[1:]]   # {out} stays for run_one
        run_one(a, res, name, prefix + args, work=work)


def main():
    ap = argparse.ArgumentParser(description='user-mode benchmark: hexsim against qemu-hexagon')
    ap.add_argument('--hexsim', default=os.path.join(ROOT, 'build', 'hexsim'))
    ap.add_argument('--qemu', default='qemu-hexagon')
    ap.add_argument('--repeat', type=int, default=1)
    ap.add_argument('--before', metavar='HEXSIM',
                    help='also time this (older) hexsim in the same runs: its ratio column')
    ap.add_argument('--host-check', action='store_true',
                    help='also build each program for the host and check its expected output')
    ap.add_argument('--kernel', default=os.path.expanduser('~/.cache/hexsim/linux/build/vmlinux'))
    ap.add_argument('--initrd', default=os.path.join(ROOT, 'build', 'rootfs.cpio'))
    ap.add_argument('--no-boot', action='store_true', help='do not time the Linux boot')
    ap.add_argument('--guest', action='store_true',
                    help='run the programs inside the booted guest against hexsim --user')
    ap.add_argument('--busybox', metavar='PATH',
                    help='the static Hexagon BusyBox for the USERLAND programs (default: what '
                         'guest/busybox/build.sh prints)')
    ap.add_argument('--no-userland', action='store_true',
                    help='only the C programs of progs/, not the BusyBox and musl programs')
    ap.add_argument('--hvx', action='store_true',
                    help='only the HVX set (hvx/h*.c): no userland, no boot')
    ap.add_argument('progs', nargs='*')
    a = ap.parse_args()
    progs, user = programs(a.progs, ap, a.hvx)
    if a.hvx:
        a.no_boot = True
    if a.no_userland:
        user = []
    work = tempfile.mkdtemp(prefix='hexsim-bench-')
    if a.guest:
        return guest(a, progs, work)
    print('%-12s %8s %8s %10s %6s %10s %8s %8s %7s  %s' % (
          'program', 'qemu s', 'hexsim s', 'packets', 'ins/pk', 'packets/s', 'compiled',
          'built', 'ratio', 'output'))
    res = {'bad': 0, 'ratios': [], 'before': []}
    hvx = {'bad': 0, 'ratios': [], 'before': []}   # the HVX set's rows again
    for gen in progs:
        name = os.path.splitext(os.path.basename(gen))[0]
        exe = os.path.join(work, name)
        src = source(gen, work)
        build(src, exe)
        with open(src) as f:
            m = re.search(r'Expected output: (.*)', f.read())
        want = m.group(1).replace('*/', '').strip() if m else None
        host_ok = True
        if a.host_check and not is_hvx(src):
            hexe = exe + '.host'
            subprocess.run(['cc', '-O2', '-I', os.path.join(HERE, 'progs'), src, '-o', hexe,
                            '-lm'], check=True)
            hp = subprocess.run([hexe], capture_output=True)
            host_ok = hp.returncode == 0 and (want is None or hp.stdout.decode().strip() == want)
        n = len(res['ratios'])
        run_one(a, res, name, [exe], want, host_ok)
        if is_hvx(src):
            hvx['ratios'] += res['ratios'][n:]
            hvx['before'] += res['before'][n:]
    if user:
        userland(a, res, user, work)
    ratios, before, bad = res['ratios'], res['before'], res['bad']
    sets = [('', ratios), (' (--before)', before)]
    if hvx['ratios'] and len(hvx['ratios']) < len(ratios):
        sets += [(' of the HVX set', hvx['ratios']), (' of the HVX set (--before)', hvx['before'])]
    for what, rs in sets:
        if rs:
            geo = 1.0
            for r in rs:
                geo *= r
            print('geometric mean of the ratios%s %.2f, least %.2f (%d programs)' % (
                what, geo ** (1.0 / len(rs)), min(rs), len(rs)))
    startup(a, work)
    if a.no_boot:
        pass
    elif os.path.exists(a.kernel) and os.path.exists(a.initrd):
        if not boot(a.hexsim, a.kernel, a.initrd, a.repeat, work):
            bad += 1
    else:
        print('boot: not measured (no %s or %s)' % (a.kernel, a.initrd))
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main())
