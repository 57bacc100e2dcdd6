#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# The debugger's command line end to end: builds progs/dbgprog.c with clang-16, runs the
# scripted session session.gdb through `hexsim --user -x FILE` and through a pipe on stdin,
# and compares both transcripts with session.expected (the program's exit status must come
# back too); the same for session_dwarf.gdb on progs/dwarfprog.c built with -g; checks the
# packet trace file, --break, info frame, user-mode fault reports (progs/faultprog.c) and
# --help naming the options; session_line.gdb (stepping by source line) on progs/lineprog.c,
# in user and system mode, and callers' registers through the call frame information (-O2);
# a breakpoint on an inlined function (progs/inlineprog.c, -O2: every inlined copy);
# session_dbg2.gdb on progs/dbg2prog.c (high addresses, conditions, ignore counts, v@n,
# ptype, run again).
# Usage: debug_test.py --hexsim BUILD/hexsim --work DIR [--update]
import argparse
import difflib
import os
import random
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
CLANG = ['clang-16', '--target=hexagon-unknown-linux-musl', '-mv67', '-O1', '-ffreestanding',
         '-nostdlib', '-fuse-ld=lld', '-static']
CLANG_G = ['clang-16', '--target=hexagon-unknown-linux-musl', '-mv67', '-g', '-O0',
           '-ffreestanding', '-nostdlib', '-fuse-ld=lld', '-static']
failures = []


def expect(what, cond, detail=''):
    if not cond:
        failures.append(what)
        print('FAIL: %s %s' % (what, detail))


def compile_g(prog, out, opt, extra=()):
    """progs/PROG compiled as CLANG_G does but at optimisation opt (-O1, -O2), to out."""
    subprocess.run([x if x != '-O0' else opt for x in CLANG_G] + list(extra) +
                   [os.path.join(HERE, 'progs', prog), '-o', out], check=True)


def run(cmd, stdin=subprocess.DEVNULL):
    p = subprocess.run(cmd, stdin=stdin, capture_output=True, text=True, timeout=120)
    return p.returncode, p.stdout, p.stderr


def transcript(a, what, cmd, name, status, stdin=subprocess.DEVNULL, fix=None, label='got',
               update=True):
    """Runs cmd (a debugger session) and checks its exit status and its stdout (after fix)
    against tests/debug/NAME, which --update rewrites first. Returns its stderr."""
    rc, out, err = run(cmd, stdin=stdin)
    if fix:
        out = fix(out)
    path = os.path.join(HERE, name)
    if a.update and update:
        with open(path, 'w') as f:
            f.write(out)
    with open(path) as f:
        expected = f.read()
    expect('%s: exit status %d' % (what, status), rc == status, 'got %d, stderr: %s' % (rc, err))
    expect('%s transcript' % what, out == expected, '\n' + ''.join(difflib.unified_diff(
        expected.splitlines(True), out.splitlines(True), name, label)))
    return err


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--hexsim', required=True)
    ap.add_argument('--work', required=True)
    ap.add_argument('--update', action='store_true', help='rewrite session.expected')
    a = ap.parse_args()
    os.makedirs(a.work, exist_ok=True)
    prog = os.path.join(a.work, 'dbgprog')
    subprocess.run(CLANG + [os.path.join(HERE, 'progs', 'dbgprog.c'), '-o', prog], check=True)
    trace = os.path.join(a.work, 'trace.txt')
    if os.path.exists(trace):
        os.remove(trace)
    with open(os.path.join(HERE, 'session.gdb')) as f:
        script = f.read().replace('TRACEFILE', trace)
    sfile = os.path.join(a.work, 'session.gdb')
    with open(sfile, 'w') as f:
        f.write(script)
    err = transcript(a, '-x session', [a.hexsim, '--user', '-x', sfile, prog], 'session.expected',
                     42, fix=lambda o: o.replace(trace, 'TRACEFILE'))
    expect('-x session: nothing on stderr', err == '', err)
    with open(trace) if os.path.exists(trace) else open(os.devnull) as f:
        lines = f.read().splitlines()
    expect('trace file has the packets until and advance ran', len(lines) >= 3 and '<main+96>' in ''.join(lines),
           '%d lines' % len(lines))

    # the same commands through a pipe: the same transcript
    with open(sfile) as f:
        transcript(a, 'piped session', [a.hexsim, '--user', '--debug', prog], 'session.expected',
                   42, stdin=f, fix=lambda o: o.replace(trace, 'TRACEFILE'), label='piped',
                   update=False)

    # the DWARF session: progs/dwarfprog.c with -g -O0 (its source is listed from here)
    dprog = os.path.join(a.work, 'dwarfprog')
    subprocess.run(CLANG_G + [os.path.join(HERE, 'progs', 'dwarfprog.c'), '-o', dprog],
                   check=True)
    transcript(a, 'DWARF session', [a.hexsim, '--user', '-x',
                                    os.path.join(HERE, 'session_dwarf.gdb'), dprog],
               'session_dwarf.expected', 4)
    # session_dbg2.gdb on progs/dbg2prog.c (-g -O0): addresses above 0x80000000 from
    # registers, conditional breakpoints and ignore counts, v@n, ptype of nested
    # aggregates, run after a start and after the end (the path it names varies)
    d2prog = os.path.join(a.work, 'dbg2prog')
    subprocess.run(CLANG_G + [os.path.join(HERE, 'progs', 'dbg2prog.c'), '-o', d2prog],
                   check=True)
    err = transcript(a, 'dbg2 session', [a.hexsim, '--user', '-x',
                                         os.path.join(HERE, 'session_dbg2.gdb'), d2prog],
                     'session_dbg2.expected', 38, fix=lambda o: o.replace(d2prog, 'DBG2PROG'))
    expect('dbg2 session: nothing on stderr', err == '', err)
    # stepping by source line: progs/lineprog.c with -g -O0, session_line.gdb
    lprog = os.path.join(a.work, 'lineprog')
    subprocess.run(CLANG_G + [os.path.join(HERE, 'progs', 'lineprog.c'), '-o', lprog],
                   check=True)
    transcript(a, 'line session', [a.hexsim, '--user', '-x',
                                   os.path.join(HERE, 'session_line.gdb'), lprog],
               'session_line.expected', 39)

    # callers' callee-saved registers from the call frame information: lineprog.c with -O2,
    # where main keeps k in r16 and mid keeps keep in r16 (and leaf(b) in r17) across calls;
    # mid's prologue saves main's r17:16 on the stack, leaf saves nothing
    oprog = os.path.join(a.work, 'lineprog-O2')
    compile_g('lineprog.c', oprog, '-O2')
    p = subprocess.run([a.hexsim, '--user', '--break', 'leaf', oprog],
                       input='frame 1\nprint keep\ninfo registers r16 r0\nframe 2\nprint k\n'
                       'info registers r16 pc\ncontinue\nframe 1\nprint $r17\nframe 2\nprint k\n'
                       'print $r17\nframe 1\ninfo frame\nquit\n', capture_output=True, text=True,
                       timeout=60)
    o = p.stdout
    expect('CFI: a variable in r16 in the caller of a leaf (same value)', re.search(
        r'\(hexsim\) print keep\n\$1 = 37\n\(hexsim\) info registers r16 r0\n'
        r'r16        0x00000025  37\nr0         <not saved>\n', o), o)
    expect('CFI: a variable in r16 two frames up (saved by mid\'s prologue)', re.search(
        r'\(hexsim\) print k\n\$2 = 5\n\(hexsim\) info registers r16 pc\n'
        r'r16        0x00000005  5\npc         0x[0-9a-f]{8}  <main\+\d+>\n', o), o)
    expect('CFI: r17 in the caller, and the caller\'s caller\'s from the stack', re.search(
        r'\(hexsim\) print \$r17\n\$3 = 7\n(.*\n)*\(hexsim\) print k\n\$4 = 5\n'
        r'\(hexsim\) print \$r17\n\$5 = 0\n', o), o)
    expect('CFI: info frame lists the registers mid saved', re.search(
        r' Saved registers:\n  r16 at 0x([0-9a-f]+), r17 at 0x[0-9a-f]+, r30 at 0x[0-9a-f]+, '
        r'r31 at 0x[0-9a-f]+\n', o), o)

    # the same from .eh_frame (unwind tables: a 'zR' CIE, pc-relative FDE addresses)
    ehprog = os.path.join(a.work, 'lineprog-O2-eh')
    compile_g('lineprog.c', ehprog, '-O2', ['-fasynchronous-unwind-tables'])
    p = subprocess.run([a.hexsim, '--user', '--break', 'leaf', ehprog],
                       input='frame 2\nprint k\nframe 1\ninfo frame\nquit\n',
                       capture_output=True, text=True, timeout=60)
    expect('CFI from .eh_frame', re.search(
        r'\(hexsim\) print k\n\$1 = 5\n(.*\n)* Saved registers:\n  r16 at 0x[0-9a-f]+, r17 at ',
        p.stdout), p.stdout)

    # a breakpoint on an inlined function (progs/inlineprog.c, -O2): scale() exists only as
    # the copies inlined into twice() and thrice(); `break scale` has both locations, each
    # stops, a condition applies to both, delete removes both
    iprog = os.path.join(a.work, 'inlineprog')
    compile_g('inlineprog.c', iprog, '-O2')
    p = subprocess.run([a.hexsim, '--user', '--debug', iprog],
                       input='break scale\ninfo breakpoints\ncontinue\ncontinue\n'
                       'condition 1 a == 1\ncontinue\ndelete 1\ninfo breakpoints\ncontinue\n',
                       capture_output=True, text=True, timeout=60)
    o = p.stdout
    expect('inline: break on an inlined function has a location per inlined copy', re.search(
        r'\(hexsim\) break scale\nBreakpoint 1 at (0x[0-9a-f]{8}): scale\. \(2 locations\)\n'
        r'\(hexsim\) info breakpoints\n.*\n1 +breakpoint +keep +y +0x[0-9a-f]{8} +in twice at '
        r'inlineprog\.c:\d+\n1 +breakpoint +keep +y +0x[0-9a-f]{8} +in thrice at ', o), o)
    expect('inline: each copy stops, in the function it was inlined into', re.search(
        r'\nBreakpoint 1, twice \(a=4\) at inlineprog\.c:\d+, inlined scale\n(.*\n)+'
        r'Breakpoint 1, thrice \(a=2\) at inlineprog\.c:\d+, inlined scale\n', o), o)
    expect('inline: a condition applies to every location', re.search(
        r'\(hexsim\) condition 1 a == 1\n\(hexsim\) continue\nContinuing\.\nBreakpoint 1, '
        r'twice \(a=1\)', o), o)
    expect('inline: delete removes every location, the program runs to its end', re.search(
        r'\(hexsim\) delete 1\n\(hexsim\) info breakpoints\nNo breakpoints or watchpoints\.\n'
        r'\(hexsim\) continue\nContinuing\.\nProgram exited with code 21\.\n', o) and
           p.returncode == 21, o)

    # damaged call frame information: unwinding gives up, the debugger neither crashes nor
    # hangs (random bytes, and the real section cut short or with its lengths inflated)
    frame = subprocess.run(['llvm-objcopy-16', '--dump-section', '.debug_frame=/dev/stdout',
                            oprog, os.path.join(a.work, 'scratch.o')], capture_output=True).stdout
    expect('the -O2 program has a .debug_frame', len(frame) > 40, '%d bytes' % len(frame))
    rnd = random.Random(38)
    variants = [bytes(rnd.randrange(256) for _ in range(len(frame))) for _ in range(3)]
    variants += [frame[:len(frame) // 2] + bytes(len(frame) - len(frame) // 2),
                 b'\xf0\xff\xff\x0f' + frame[4:], frame[:20] + b'\xff' * (len(frame) - 20)]
    for i, v in enumerate(variants):
        blob, bad_prog = os.path.join(a.work, 'frame.bin'), os.path.join(a.work, 'badcfi')
        with open(blob, 'wb') as f:
            f.write(v)
        subprocess.run(['llvm-objcopy-16', '--update-section', '.debug_frame=' + blob, oprog,
                        bad_prog], check=True)
        p = subprocess.run([a.hexsim, '--user', '--break', 'leaf', bad_prog],
                           input='bt\nframe 2\nprint k\ninfo registers r16\ninfo frame\nquit\n',
                           capture_output=True, text=True, timeout=60)
        expect('damaged CFI %d: the session ends normally' % i,
               p.returncode == 0 and '(hexsim) quit' not in p.stderr and
               'ERROR: AddressSanitizer' not in p.stderr and 'runtime error' not in p.stderr,
               'status %d, stderr: %s' % (p.returncode, p.stderr[-2000:]))

    # the same in system mode: lineprog.c as an HVM test kernel (tests/hvm/guest/crt.S)
    kprog = os.path.join(a.work, 'lineprog-kernel')
    subprocess.run(CLANG_G + ['-fno-builtin', '-mllvm', '-mno-pairing', '-Wl,-Ttext=0x100000',
                              '-Wl,-e,_start', '-DHVM_KERNEL',
                              os.path.join(HERE, '..', 'hvm', 'guest', 'crt.S'),
                              os.path.join(HERE, 'progs', 'lineprog.c'), '-o', kprog], check=True)
    p = subprocess.run([a.hexsim, kprog, '--mem', '64M', '--debug'],
                       input='break mid\ncontinue\nnext\nstep\nnext\nnext\nnext\nnexti\n'
                       'run\ncontinue\n', capture_output=True, text=True, timeout=60)
    expect('system mode: step and next by source line', re.search(
        r'\(hexsim\) next\n43\t    int r = leaf\(b\);\n\(hexsim\) step\nleaf \(x=2\) at '
        r'lineprog\.c:36\n36\t    sink = x;\n\(hexsim\) next\n37\t    return x \* 3 \+ 1;\n'
        r'\(hexsim\) next\nmid \(a=5, b=2\) at lineprog\.c:44\n44\t    r \+= leaf\(keep\);\n'
        r'\(hexsim\) next\n45\t    return r \+ keep;\n\(hexsim\) nexti\n0x[0-9a-f]{8} in mid ',
        p.stdout), p.stdout)
    expect('system mode: run after a start is refused (no restart of a machine)', re.search(
        r'\(hexsim\) run\nError: the system target cannot start again from the beginning',
        p.stdout), p.stdout)

    # info frame (stack addresses vary with the environment: checked by pattern)
    p = subprocess.run([a.hexsim, '--user', '--break', 'fact', dprog],
                       input='up\ninfo frame\nquit\n', capture_output=True, text=True,
                       timeout=60)
    expect('info frame', re.search(r'Stack level 1, frame at 0x[0-9a-f]+:\n pc = 0x[0-9a-f]+ '
                                   r'in main \(dwarfprog\.c:64\); saved pc = 0x[0-9a-f]+\n'
                                   r'(.*\n)* Saved registers:\n  r30 at 0x[0-9a-f]+, r31 at ',
                                   p.stdout), p.stdout)

    # watch on a local with DWARF: its own 4 bytes (the stack address varies: by pattern)
    p = subprocess.run([a.hexsim, '--user', '--break', 'fact', dprog],
                       input='watch n\ndelete 1\ncontinue\nquit\n', capture_output=True, text=True,
                       timeout=60)
    expect('watch of a local variable', re.search(
        r'Watchpoint 2: n \(0x[0-9a-f]{8}, 4 bytes\)\n(.*\n)*Watchpoint 2: n \(written at '
        r'0x[0-9a-f]{8}\)\nOld value = 0x5\n', p.stdout), p.stdout)

    # -O1: a function with another inlined into it (sys3 in finish_prog: the frame names it,
    # its line being sys3's), values in registers and constants
    dprog1 = os.path.join(a.work, 'dwarfprog-O1')
    compile_g('dwarfprog.c', dprog1, '-O1')
    p = subprocess.run([a.hexsim, '--user', '--break', 'finish_prog', dprog1],
                       input='info args\nprint nr\nbt\nquit\n', capture_output=True, text=True,
                       timeout=60)
    expect('-O1: the function an inline was inlined into, its argument, the inline\'s constant',
           re.search(r'Breakpoint 1, finish_prog \(code=4\) at dwarfprog\.c:37, inlined sys3\n'
                     r'(.*\n)*\(hexsim\) info args\ncode = 4\n\(hexsim\) print nr\n\$1 = 93\n'
                     r'\(hexsim\) bt\n#0  finish_prog \(code=4\) at dwarfprog\.c:37, inlined sys3\n'
                     r'#1  0x[0-9a-f]{8} in main \(\) at dwarfprog\.c:67\n', p.stdout), p.stdout)

    # user-mode fault reports: function and offset, source line (with -g), a short
    # backtrace, and the stack overflow hint
    fsrc = os.path.join(HERE, 'progs', 'faultprog.c')
    fprog_g, fprog = os.path.join(a.work, 'faultprog-g'), os.path.join(a.work, 'faultprog')
    subprocess.run(CLANG_G + [fsrc, '-o', fprog_g], check=True)
    subprocess.run([x for x in CLANG_G if x != '-g'] + [fsrc, '-o', fprog], check=True)
    rc, out, err = run([a.hexsim, '--user', fprog_g, 'null'])
    expect('fault report: SIGSEGV', rc == 139, 'got %d' % rc)
    expect('fault report with DWARF: function, arguments, file:line and the source line',
           re.search(r'\nhexsim:   at 0x[0-9a-f]{8} in poke \(p=\(int \*\) 0x0, v=42\) at '
                     r'faultprog\.c:17\nhexsim:     17\t    \*p = v;\n', err), err)
    expect('fault report with DWARF: the callers',
           re.search(r'\nhexsim:   called from:\nhexsim:     #1  0x[0-9a-f]{8} in store_via '
                     r'\(p=\(int \*\) 0x0\) at faultprog\.c:22\nhexsim:     #2  0x[0-9a-f]{8} in '
                     r'main \(argc=2, ', err), err)
    expect('fault report: no stack hint for a null pointer', 'hint' not in err, err)
    rc, out, err = run([a.hexsim, '--user', fprog, 'null'])
    expect('fault report without DWARF: function+offset and callers',
           re.search(r'\nhexsim:   at 0x[0-9a-f]{8} <poke\+\d+>\nhexsim:   called from:\n'
                     r'hexsim:     #1  0x[0-9a-f]{8} <store_via\+\d+>\n'
                     r'hexsim:     #2  0x[0-9a-f]{8} <main\+\d+>\n', err), err)
    rc, out, err = run([a.hexsim, '--user', fprog_g, 'deep'])
    expect('fault report: stack overflow hint',
           rc == 139 and re.search(r'\nhexsim:   hint: address 0xbf7f[0-9a-f]{4} is \d+ bytes '
                                   r'below the stack \(0xbf800000-0xc0000000, 8 MiB\): a stack '
                                   r'overflow', err) and '(more frames)' in err, err)

    # --break runs to the breakpoint, then reads commands
    p = subprocess.run([a.hexsim, '--break', 'fact', '--user', prog], input='bt\nquit\n',
                       capture_output=True, text=True, timeout=60)
    expect('--break stops at fact', 'Breakpoint 1, 0x' in p.stdout and '<fact>' in p.stdout
           and '#1  ' in p.stdout, p.stdout)
    expect('quit before the end: exit 0', p.returncode == 0, 'got %d' % p.returncode)

    rc, out, err = run([a.hexsim, '--help'])
    for opt in ('--debug', '--break', '-x FILE', '--gdb'):
        expect('--help names %s' % opt, opt in out)

    if failures:
        print('%d failure(s)' % len(failures))
        return 1
    print('debugger CLI: all checks passed')
    return 0


if __name__ == '__main__':
    sys.exit(main())
