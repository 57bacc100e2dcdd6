#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# SMP boot tests (ctest label "boot"): the guest kernel (CONFIG_SMP, NR_CPUS 6; its secondary
# CPUs start with vmstart, IPIs are vmintop posts on interrupt 26 + cpu) booted with
# --smp N and commands typed by --script.
#   count N  --smp N boots with N CPUs: "smp: Brought up 1 node, N CPUs", /proc/cpuinfo
#            lists processors 0..N-1, `nproc` says N, `taskset` pins a process to the last
#            CPU (its /proc/self/stat processor field), every CPU takes its IPI interrupt
#            (/proc/interrupts line 26 + cpu), the boot log has no WARNING and no "cut
#            here" and whole lines at the console handover (no line with two timestamps,
#            none starting in the middle of one), and printk timestamps advance before the first timer tick (sched_clock
#            on the pcycle counter); a guest `sleep 2` at the prompt takes few timer
#            interrupts and IPIs, at most 25 per CPU and second (each CPU has a oneshot clock
#            event, so NO_HZ_IDLE stops idle CPUs' ticks; the periodic tick is 100 per CPU
#            and second); exit status 0 after poweroff; with N = 2 also --record of the
#            console input and --replay of it: the same output, packets and pcycles
#   smp4     --smp 4 and four CPU-bound pipelines started together (`head -c | wc`, `&`,
#            `wait`, all on one command line): /proc/stat shows time run on every CPU; in
#            guest time (printk timestamps of lines written to /dev/kmsg around it) the work
#            takes at most 1/2.5 of what it takes with --smp 1 (every vCPU is a core); run
#            twice, with the same
#            console output, packets and pcycles (--stats-json); the second run also writes
#            a snapshot in the middle of the workload (--snapshot-at), which must not change
#            it, and --restore of that snapshot prints exactly the end of the straight run's
#            output and ends after the same packets and pcycles
# Usage: smp_test.py CASE [N] --hexsim BUILD/hexsim --vmlinux VMLINUX --initrd ROOTFS.cpio
import argparse
import json
import os
import re
import subprocess
import sys
import tempfile

BYTES = 100000
WORK = 'head -c %d /dev/zero | wc' % BYTES
# the kernel's line for a marker the smp4 script writes to /dev/kmsg (its time in group 1)
MARKER = r'\[\s*(\d+\.\d{6})\] smp-t[01]\r?\n'


def run(cmd):
    p = subprocess.run(cmd, stdin=subprocess.DEVNULL, capture_output=True, timeout=900)
    return p.returncode, p.stdout.decode(errors='replace'), p.stderr.decode(errors='replace')


def boot_checks(out, n):
    """Problems with a boot log of n CPUs (a list of strings, empty when right)."""
    bad = []
    if not re.search(r'smp: Brought up 1 node, %d CPUs?\r?\n' % n, out):
        m = re.search(r'smp: Brought up [^\r\n]*', out)
        bad.append('not "Brought up 1 node, %d CPUs": %s' % (n, m.group(0) if m else 'no line'))
    # the smp4 script's next command writes a marker to /dev/kmsg while cat's output may
    # still be draining to the console, so the kernel's line can land in the middle of
    # one of cpuinfo's lines ("proc[    0.113242] smp-t0\r\nessor : 1"): read the list
    # without the markers
    cpuinfo = re.sub(MARKER, '', out)
    procs = re.findall(r'\nprocessor\s*: (\d+)', cpuinfo)
    if procs != [str(i) for i in range(n)]:
        bad.append('/proc/cpuinfo lists processors %s, not 0-%d' % (procs, n - 1))
    for what in ('WARNING', 'cut here', 'Oops', 'BUG'):
        if what in out:
            bad.append('the boot log has "%s"' % what)
    # the console handover (angel boot console to ttyMSM2, both on the host's terminal):
    # whole lines, not one console's characters in the middle of the other's line
    mixed = re.search(r'[^\n]*\[\s*\d+\.\d{6}\][^\n]*\[\s*\d+\.\d{6}\] [^\n]*|'
                      r'\n\s+\d+\.\d{6}\] [^\n]*', out)
    if mixed:
        bad.append('interleaved console lines: %r' % mixed.group(0))
    # sched_clock on pcycles: lines before the first tick already have a time
    t = re.search(r'\[\s*(\d+\.\d+)\] PHYS_OFFSET=', out)
    if not t or float(t.group(1)) == 0.0:
        bad.append('printk timestamps stay at 0 before the first tick: %s' %
                   (t.group(0) if t else 'no "PHYS_OFFSET=" line'))
    table = out.partition('\nidle-start')[0]    # the first /proc/interrupts
    ipi = re.findall(r'\n\s*(2[6-9]|3[01]):((?:\s+\d+)+)\s+HEXAGON\s+ipi_handler', table)
    if len(ipi) != n:
        bad.append('%d IPI interrupts in /proc/interrupts, not %d' % (len(ipi), n))
    for irq, counts in ipi:
        c = [int(x) for x in counts.split()]
        cpu = int(irq) - 26
        if cpu >= len(c) or c[cpu] == 0:
            bad.append('CPU%d took no IPI (interrupt %s: %s)' % (cpu, irq, counts.strip()))
    if not re.search(r'reboot: (System halted|Power down)', out):
        bad.append('no poweroff')
    return bad


def interrupt_counts(table):
    """Timer and IPI interrupts taken, summed over the CPUs, in a /proc/interrupts dump."""
    total = 0
    for counts in re.findall(r'\n\s*(?:3|2[6-9]|3[01]):((?:\s+\d+)+)\s+HEXAGON\s+(?:rtos_timer|'
                             r'ipi_handler)', table):
        total += sum(int(x) for x in counts.split())
    return total


def case_count(a, n, d):
    script = os.path.join(d, 'typed.txt')
    with open(script, 'w') as f:
        f.write('cat /proc/cpuinfo\nnproc\ntaskset %x cat /proc/self/stat\ncat /proc/interrupts\n'
                'echo idle-start\nsleep 2\necho idle-end\ncat /proc/interrupts\npoweroff\n'
                % (1 << (n - 1)))
    js, rec = os.path.join(d, 'stats.json'), os.path.join(d, 'input.rec')
    cmd = [a.hexsim, a.vmlinux, '--initrd', a.initrd, '--smp', str(n), '--max-seconds', '600',
           '--stats-json', js]
    rc, out, err = run(cmd + ['--script', script, '--record', rec])
    before, _, after = out.partition('\nidle-start')
    bad = boot_checks(out, n)
    if n == 2:   # record/replay with several vCPUs (one count case: CI time)
        st = stats(js)
        rc2, out2, _ = run(cmd + ['--replay', rec])
        if rc2 != rc or out2 != out or stats(js) != st or st is None:
            bad.append('--replay of the recorded input: exit %d, %s packets/pcycles (recorded '
                       'run %s), output %s' % (rc2, stats(js), st,
                                               'same' if out2 == out else 'differs'))
    ticks = interrupt_counts(after.partition('\nidle-end')[2]) - interrupt_counts(before)
    if 'idle-end' not in after or not 0 < ticks <= 50 * n:
        bad.append('%d timer interrupts and IPIs during sleep 2 on %d CPUs (want 1-%d: idle CPUs '
                   'take no ticks)' % (ticks, n, 50 * n))
    if not re.search(r'# nproc\r*\n%d\r?\n' % n, out):
        bad.append('nproc does not say %d' % n)
    stat = re.search(r'\n\d+ \(cat\) (.*)', out)   # field 39 (processor): the CPU it ran on
    cpu = stat.group(1).split()[36] if stat and len(stat.group(1).split()) > 36 else None
    if cpu != str(n - 1):
        bad.append('taskset %x cat /proc/self/stat: it ran on CPU %s, not %d' %
                   (1 << (n - 1), cpu, n - 1))
    if rc != 0:
        bad.append('exit status %d: %s' % (rc, err[-600:]))
    return bad, 'count %d (%d timer interrupts and IPIs in sleep 2)' % (n, ticks)


def stats(path):
    try:
        j = json.load(open(path))
        return j['packets'], j['pcycles']
    except (OSError, ValueError, KeyError):
        return None


def work_seconds(out):
    """Guest seconds between the smp-t0 and smp-t1 lines written to /dev/kmsg."""
    t = [float(x) for x in re.findall(MARKER, out)]
    return round(t[1] - t[0], 6) if len(t) == 2 else None


def case_smp4(a, _n, d):
    script = os.path.join(d, 'typed.txt')
    with open(script, 'w') as f:
        # one line: a run restored in the middle of it needs no more input
        f.write('cat /proc/cpuinfo; echo smp-t0 >/dev/kmsg; %s; echo smp-t1 >/dev/kmsg; '
                'cat /proc/stat; cat /proc/interrupts; poweroff\n' % ' & '.join([WORK] * 4 + ['wait']))
    js = os.path.join(d, 'stats.json')
    boot = [a.hexsim, a.vmlinux, '--initrd', a.initrd, '--smp', '4', '--script', script,
            '--max-seconds', '600', '--stats-json', js]
    rc, out, err = run(boot)
    bad = boot_checks(out, 4)
    st = stats(js)
    if rc != 0 or st is None:
        return bad + ['exit status %d: %s' % (rc, err[-600:])], 'smp4'
    # lines, words (BusyBox's wc counts none in NUL bytes), bytes; the kernel's smp-t1 line
    # may land anywhere in the last count's line (printk writes to the console while the
    # tty's output is still going out), so count without the markers
    clean = re.sub(MARKER, '', out)
    if len(re.findall(r'^\s*0\s+\d+\s+%d\r?$' % BYTES, clean, re.M)) != 4:
        bad.append('the four pipelines did not each count %d bytes' % BYTES)
    used = re.findall(r'\ncpu(\d) (\d+) (\d+) (\d+) ', out)
    if len(used) != 4:
        bad.append('/proc/stat has %d CPU lines, not 4' % len(used))
    for cpu, user, nice, system in used:
        if int(user) + int(system) == 0:
            bad.append('CPU%s ran nothing (/proc/stat: no user or system time)' % cpu)
    # the speed-up in guest time over one CPU
    rc1, out1, err1 = run([a.hexsim, a.vmlinux, '--initrd', a.initrd, '--smp', '1', '--script',
                           script, '--max-seconds', '600'])
    t4, t1 = work_seconds(out), work_seconds(out1)
    speedup = t1 / t4 if t1 and t4 else 0
    if rc1 != 0 or speedup < 2.5:
        bad.append('four pipelines took %s s of guest time with --smp 4 and %s s with --smp 1 '
                   '(exit %d): not 2.5 times sooner' % (t4, t1, rc1))
    # the snapshot: halfway from the prompt to the end, in the workload
    m = re.search(r'first waited for console input.*packet (\d+)\)', err)
    prompt = int(m.group(1)) if m else 0
    at = prompt + (st[0] - prompt) // 2
    snap = os.path.join(d, 'mid.snap')
    rc2, out2, err2 = run(boot + ['--snapshot-at', str(at), '--snapshot-out', snap])
    st2 = stats(js)
    if rc2 != 0 or out2 != out or st2 != st:
        bad.append('a second run differs: exit %d, %s packets/pcycles (first %s), output %s' %
                   (rc2, st2, st, 'same' if out2 == out else 'differs'))
    rc3, out3, err3 = run([a.hexsim, '--restore', snap, '--max-seconds', '600',
                           '--stats-json', js])
    st3 = stats(js)
    if rc3 != 0 or st3 != st:
        bad.append('--restore at packet %d: exit %d, %s packets/pcycles, not %s: %s' %
                   (at, rc3, st3, st, err3[-600:]))
    elif not out3 or not out.endswith(out3) or 'Power down' not in out3 and 'halted' not in out3:
        bad.append('--restore at packet %d: its output is not the end of the straight run\'s' %
                   at)
    return bad, 'smp4 (%d packets, %d pcycles; snapshot at packet %d; the work %.2fx sooner ' \
        'in guest time than with --smp 1)' % (st[0], st[1], at, speedup)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('case', choices=['count', 'smp4'])
    ap.add_argument('n', type=int, nargs='?', default=4)
    ap.add_argument('--hexsim', required=True)
    ap.add_argument('--vmlinux', required=True)
    ap.add_argument('--initrd', required=True)
    a = ap.parse_args()
    with tempfile.TemporaryDirectory() as d:
        bad, what = (case_count if a.case == 'count' else case_smp4)(a, a.n, d)
    if bad:
        print('FAIL smp %s:\n  %s' % (what, '\n  '.join(bad)))
        return 1
    print('smp %s: ok' % what)
    return 0


if __name__ == '__main__':
    sys.exit(main())
