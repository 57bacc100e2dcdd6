#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# `hexsim --console sdl` end to end, on SDL's headless "offscreen" video driver:
#   boot  Linux (guest/linux) with the root file system boots with the console in the SDL
#         window; commands are typed through the window's key events (HEXSIM_SDL_TYPE),
#         the final screen (HEXSIM_SDL_DUMP) must show the prompt, their answers and the
#         power-off, stdout stays empty (the console is the window), exit status 0; a
#         session with `clear` (what was before it must be gone) and one without (the
#         answers of uname -a and echo $((6*7)) on the screen).
#   cli   bad --console values, an unusable video driver and a missing font (font=FILE
#         takes the rest of the value, commas too) exit with status 2 and say why;
#         hexsim does not link SDL2 (a NEEDED entry): it loads it when a window opens, so
#         that a start that opens none does not load SDL2's some 45 libraries (issue 33).
#         SDL's drivers' own stderr noise (libwayland without XDG_RUNTIME_DIR) is not shown
#         when the window opens, and is when SDL fails.
# Usage: sdl_boot_test.py boot|cli --hexsim HEXSIM [--vmlinux K --initrd R] --work DIR
import argparse
import os
import re
import subprocess
import sys
import time

TYPED = 'uname -a\necho $((6*7))\nprintf "\\033[1;31mred\\033[0m\\n"\nclear\necho after-clear\npoweroff\n'
SCREEN = [
    ('the prompt after clear', r'(?m)^root@hexagon:/# echo after-clear$'),
    ('the echo', r'(?m)^after-clear$'),
    ('poweroff', r'(?m)^root@hexagon:/# poweroff$'),
    ('the halt', r'reboot: (System halted|Power down)'),
]
GONE = ['Linux hexagon', '42']   # cleared from the screen by `clear`


def boot(a):
    os.makedirs(a.work, exist_ok=True)
    dump = os.path.join(a.work, 'screen.txt')
    if os.path.exists(dump):
        os.unlink(dump)
    env = dict(os.environ)
    env.setdefault('SDL_VIDEODRIVER', 'offscreen')
    env['HEXSIM_SDL_TYPE'] = TYPED
    env['HEXSIM_SDL_DUMP'] = dump
    t0 = time.time()
    p = subprocess.run([a.hexsim, a.vmlinux, '--initrd', a.initrd, '--console', 'sdl',
                        '--max-seconds', '300', '--stats'], stdin=subprocess.DEVNULL,
                       capture_output=True, env=env, timeout=400)
    took = time.time() - t0
    err = p.stderr.decode(errors='replace')
    screen = open(dump, encoding='latin-1').read() if os.path.exists(dump) else ''
    bad = []
    if p.returncode != 0:
        bad.append('exit status %d, expected 0' % p.returncode)
    if p.stdout:
        bad.append('%d bytes on stdout (the console should be the window)' % len(p.stdout))
    if 'every vCPU stopped (vmstop)' not in err:
        bad.append('no vmstop on stderr')
    if 'first waited for console input' not in err:
        bad.append('the guest never waited at the prompt')
    for what, rx in SCREEN:
        if not re.search(rx, screen):
            bad.append('no %s on the screen (/%s/)' % (what, rx))
    for s in GONE:
        if re.search(r'(?m)^%s' % re.escape(s), screen):
            bad.append('%r still on the screen after clear' % s)
    if bad:
        print('FAIL sdl boot: ' + '; '.join(bad))
        print('--- screen\n' + screen + '\n--- stderr\n' + err[-3000:])
        return 1
    print('sdl boot: ok (%.1f s)' % took)
    return 0


def boot_answers(a):
    # A shorter session without clear: the answers themselves on the screen.
    os.makedirs(a.work, exist_ok=True)
    dump = os.path.join(a.work, 'screen2.txt')
    env = dict(os.environ)
    env.setdefault('SDL_VIDEODRIVER', 'offscreen')
    env['HEXSIM_SDL_TYPE'] = 'uname -a\necho $((6*7))\npoweroff\n'
    env['HEXSIM_SDL_DUMP'] = dump
    p = subprocess.run([a.hexsim, a.vmlinux, '--initrd', a.initrd, '--console', 'sdl',
                        '--max-seconds', '300'], stdin=subprocess.DEVNULL,
                       capture_output=True, env=env, timeout=400)
    screen = open(dump, encoding='latin-1').read() if os.path.exists(dump) else ''
    want = [r'(?m)^root@hexagon:/# uname -a$', r'(?m)^Linux hexagon 6\.1\.\d+-comet #\d+ .* hexagon Linux$',
            r'(?m)^root@hexagon:/# echo \$\(\(6\*7\)\)$', r'(?m)^42$']
    bad = [rx for rx in want if not re.search(rx, screen)]
    if p.returncode != 0 or bad:
        print('FAIL sdl boot (answers): status %d, missing %s' % (p.returncode, bad))
        print('--- screen\n' + screen + '\n--- stderr\n' + p.stderr.decode(errors='replace')[-3000:])
        return 1
    print('sdl boot answers: ok')
    return 0


def cli(a):
    bad = []
    cases = [
        (['--console', 'tty'], {}, "--console needs stdio or sdl"),
        (['--console', 'sdl,scale=3'], {}, "--console needs stdio or sdl"),
        (['--console', 'sdl,size=10x5'], {}, "--console needs stdio or sdl"),
        (['--console'], {}, "missing value after '--console'"),
        (['--console', 'sdl'], {'SDL_VIDEODRIVER': 'no-such-driver'},
         'SDL console: cannot start SDL video'),
        (['--console', 'sdl,font=/nonexistent/a,b.psf'], {},
         "SDL console: cannot open the font '/nonexistent/a,b.psf': No such file or directory"),
        (['--console', 'sdl,font='], {}, "--console needs stdio or sdl"),
    ]
    kernel = a.vmlinux or a.hexsim   # any readable file: SDL is opened before loading
    for args, extra, want in cases:
        env = dict(os.environ)
        env.update(extra)
        p = subprocess.run([a.hexsim, kernel] + args, stdin=subprocess.DEVNULL,
                           capture_output=True, env=env, timeout=60)
        err = p.stderr.decode(errors='replace')
        if p.returncode != 2 or want not in err:
            bad.append('%s: status %d, stderr %r' % (' '.join(args), p.returncode, err[:300]))
    # no SDL noise when the window opens: libwayland complains that XDG_RUNTIME_DIR is not
    # set before SDL goes on to the next driver; hexsim keeps that to itself (it goes on to
    # say only that the file is no kernel) and shows it when SDL fails
    env = {k: v for k, v in os.environ.items() if k not in ('XDG_RUNTIME_DIR', 'WAYLAND_DISPLAY')}
    for drivers, shown in (('wayland,offscreen', False), ('wayland', True)):
        env['SDL_VIDEODRIVER'] = drivers
        p = subprocess.run([a.hexsim, a.hexsim, '--console', 'sdl'], stdin=subprocess.DEVNULL,
                           capture_output=True, env=env, timeout=60)
        err = p.stderr.decode(errors='replace')
        if ('XDG_RUNTIME_DIR' in err) != shown or (not shown and p.returncode != 1):
            bad.append('SDL_VIDEODRIVER=%s without XDG_RUNTIME_DIR: status %d, stderr %r' %
                       (drivers, p.returncode, err[:300]))
    d = subprocess.run(['readelf', '-d', '-W', a.hexsim], capture_output=True, timeout=60)
    needed = re.findall(rb'\(NEEDED\)\s+Shared library: \[([^\]]+)\]', d.stdout)
    if d.returncode != 0 or not needed:
        bad.append('readelf -d %s: status %d, no NEEDED entries' % (a.hexsim, d.returncode))
    sdl = [n.decode() for n in needed if n.startswith(b'libSDL2')]
    if sdl:
        bad.append('hexsim links %s: loaded at every start' % ', '.join(sdl))
    h = subprocess.run([a.hexsim, '--help'], capture_output=True, timeout=60)
    if b'--console sdl' not in h.stdout or b'--console stdio' not in h.stdout:
        bad.append('--help does not describe --console')
    if bad:
        print('FAIL sdl cli:\n  ' + '\n  '.join(bad))
        return 1
    print('sdl cli: ok')
    return 0


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('case', choices=['boot', 'cli'])
    ap.add_argument('--hexsim', required=True)
    ap.add_argument('--vmlinux')
    ap.add_argument('--initrd')
    ap.add_argument('--work', default='.')
    a = ap.parse_args()
    if a.case == 'cli':
        return cli(a)
    return boot(a) or boot_answers(a)


if __name__ == '__main__':
    sys.exit(main())
