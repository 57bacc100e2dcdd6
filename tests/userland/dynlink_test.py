#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# The sysroot's redirected symbols and dynamically linked programs (issue 43 item 6,
# issue 44 item 2). Cases (--case):
#   redir    every symbol musl's installed headers redirect (`__REDIR(name, target)`, the
#            time64 names on this 32-bit port) is listed from the headers at test time; one
#            program takes the address of each, links statically (every target must be
#            defined in it) and runs a few of them; hexsim --user against qemu-hexagon.
#   nointerp a dynamically linked program without a guest root: hexsim refuses it before
#            it runs (exit 127, a message naming the loader and -L / QEMU_LD_PREFIX), and so
#            with a root that lacks the loader; execve of it from a --user program gives
#            ENOENT, as Linux does.
#   dynamic  a dynamically linked program with a shared library of its own and a plugin it
#            dlopens, run against a guest root (the sysroot's libc.so as the loader) with -L
#            and with QEMU_LD_PREFIX, against qemu-hexagon -L; and the root's walls: a
#            PT_INTERP with "..", and a loader that is a symbolic link out of the root, are
#            not found outside it.
#
# Usage: dynlink_test.py --case NAME --hexsim BUILD/hexsim --work DIR [--sysroot DIR]
import argparse
import os
import re
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
HEXAGON_CC = os.path.join(ROOT, 'tools', 'hexagon-cc')
QEMU = shutil.which('qemu-hexagon') or '/usr/bin/qemu-hexagon'
NM = shutil.which('llvm-nm-16') or 'llvm-nm-16'
LIMIT = 120
LOADER = '/lib/ld-musl-hexagon.so.1'


def run(cmd, env=None, timeout=LIMIT):
    try:
        p = subprocess.run(cmd, capture_output=True, env=env, timeout=timeout)
    except subprocess.TimeoutExpired:
        return None, b'', b'timed out'
    rc = p.returncode if p.returncode >= 0 else 128 - p.returncode
    return rc, p.stdout, p.stderr


def fail(msg, res=None):
    print('FAIL: ' + msg)
    if res:
        print('  status %s\n  stdout: %s\n  stderr: %s' % (
            res[0], res[1].decode(errors='replace')[-2000:],
            res[2].decode(errors='replace')[-2000:]))
    sys.exit(1)


def cc(args, sysroot, what):
    env = dict(os.environ)
    if sysroot:
        env['HEXSIM_SYSROOT'] = sysroot
    res = run([HEXAGON_CC] + args, env, timeout=600)
    if res[0] != 0:
        fail('%s: hexagon-cc %s' % (what, ' '.join(args)), res)


def sysroot_of(sysroot):
    if sysroot:
        return sysroot
    res = run([HEXAGON_CC, '-print-sysroot'], timeout=900)
    if res[0] != 0:
        fail('hexagon-cc -print-sysroot', res)
    return res[1].decode().strip()


def clean_env(**extra):
    env = {k: v for k, v in os.environ.items() if k != 'QEMU_LD_PREFIX'}
    env.update(extra)
    return env


def compare(name, hexsim_res, qemu_res):
    if qemu_res[0] != 0:
        fail('%s: qemu-hexagon' % name, qemu_res)
    if hexsim_res[:2] != qemu_res[:2]:
        print('qemu-hexagon:')
        print(qemu_res[1].decode(errors='replace'))
        fail('%s: hexsim --user differs from qemu-hexagon' % name, hexsim_res)
    print('%s: hexsim --user = qemu-hexagon (%d lines)' % (name, qemu_res[1].count(b'\n')))


# ---- redir

REDIR = re.compile(rb'__REDIR\s*\(\s*(\w+)\s*,\s*(\w+)\s*\)')

# What the program does with a few of the symbols, to show that they are the time64
# functions (the rest are only linked: calling them needs arguments of their own).
REDIR_MAIN = r'''
int main(void)
{
	size_t i, n = sizeof(syms) / sizeof(syms[0]);
	for (i = 0; i < n; i++)
		if (!syms[i]) { printf("%s is null\n", names[i]); return 1; }
	printf("%zu redirected symbols linked\n", n);
	time_t t = time(0);
	printf("time: %s\n", t > 1000000000 ? "after 2001" : "wrong");
	struct timespec ts;
	printf("clock_gettime: %d %s\n", clock_gettime(CLOCK_REALTIME, &ts),
	       ts.tv_sec > 1000000000 ? "after 2001" : "wrong");
	struct stat st;
	printf("stat /: %d dir %d\n", stat("/", &st), S_ISDIR(st.st_mode));
	struct timeval tv;
	printf("gettimeofday: %d\n", gettimeofday(&tv, 0));
	printf("sizeof time_t %zu, struct timespec %zu\n", sizeof(time_t), sizeof ts);
	void *p = dlsym(RTLD_DEFAULT, "printf");
	const char *e = dlerror();
	printf("dlsym(RTLD_DEFAULT, \"printf\"): %s, dlerror %s\n", p ? "found" : "null",
	       e ? "set" : "null");
	struct tm tm;
	time_t epoch = 86400 * 365;
	printf("gmtime_r: %d\n", gmtime_r(&epoch, &tm) ? tm.tm_year : -1);
	printf("difftime: %.0f\n", difftime(epoch, 0));
	return 0;
}
'''


def case_redir(args):
    sysroot = sysroot_of(args.sysroot)
    inc = os.path.join(sysroot, 'usr', 'include')
    pairs = {}   # name -> (target, header)
    for d, _, files in os.walk(inc):
        for f in sorted(files):
            if not f.endswith('.h'):
                continue
            path = os.path.join(d, f)
            with open(path, 'rb') as fh:
                text = fh.read()
            for m in REDIR.finditer(text):
                name, target = m.group(1).decode(), m.group(2).decode()
                if name == 'x':   # the macro's own definition in features.h
                    continue
                pairs.setdefault(name, (target, os.path.relpath(path, inc)))
    if len(pairs) < 50:
        fail('only %d __REDIR symbols found in %s' % (len(pairs), inc))
    headers = sorted({h for _, h in pairs.values()} |
                     {'stdio.h', 'time.h', 'sys/stat.h', 'sys/time.h', 'dlfcn.h'})
    src = ['#define _GNU_SOURCE', '#define _BSD_SOURCE']
    src += ['#include <%s>' % h for h in headers]
    names = sorted(pairs)
    # external, so that the compiler keeps every address (a static array it can see is
    # never null, and drops)
    src.append('void *const syms[] = {')
    src += ['\t(void *)&%s,' % n for n in names]
    src.append('};')
    src.append('static const char *const names[] = {')
    src += ['\t"%s",' % n for n in names]
    src.append('};')
    os.makedirs(args.work, exist_ok=True)
    c = os.path.join(args.work, 'redir.c')
    with open(c, 'w') as fh:
        fh.write('\n'.join(src) + REDIR_MAIN)
    exe = os.path.join(args.work, 'redir')
    cc(['-O1', '-Wall', '-Werror', c, '-o', exe, '-lm', '-pthread', '-lrt'], args.sysroot,
       'redir (static)')
    res = run([NM, '--defined-only', exe])
    defined = set(l.split()[-1].decode() for l in res[1].splitlines() if l.split())
    missing = sorted(t for t, _ in pairs.values() if t not in defined)
    if missing:
        fail('redirect targets not defined in the static program: %s' % ' '.join(missing))
    print('%d redirected symbols from %d headers: all link statically' %
          (len(pairs), len({h for _, h in pairs.values()})))
    compare('redir (static)', run([args.hexsim, '--user', exe], clean_env()),
            run([QEMU, exe], clean_env()))
    if os.path.exists(os.path.join(sysroot, 'usr', 'lib', 'libc.so')):
        dexe = os.path.join(args.work, 'redir-dyn')
        cc(['-dynamic', '-O1', c, '-o', dexe], args.sysroot, 'redir (dynamic)')
        compare('redir (dynamic)',
                run([args.hexsim, '--user', '-L', sysroot, dexe], clean_env()),
                run([QEMU, '-L', sysroot, dexe], clean_env()))


# ---- nointerp

HELLO = r"""
#include <stdio.h>
int main(void) { puts("hello from a dynamic program"); return 0; }
"""

EXECER = r"""
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
int main(int argc, char **argv)
{
	char *av[] = { argv[1], 0 };
	execv(argv[1], av);
	printf("execv: %s\n", errno == ENOENT ? "ENOENT" : strerror(errno));
	return 0;
}
"""


def write(path, text):
    with open(path, 'w') as fh:
        fh.write(text)


def expect_refused(what, res, root=None):
    err = res[2].decode(errors='replace')
    if res[0] != 127 or res[1] or LOADER not in err or '-L DIR' not in err or \
            'QEMU_LD_PREFIX' not in err or (root and root not in err):
        fail('%s: not refused with status 127 naming %s, -L DIR and QEMU_LD_PREFIX' %
             (what, LOADER), res)
    print('%s: refused: %s' % (what, err.strip()))


def case_nointerp(args):
    w = args.work
    write(os.path.join(w, 'hello.c'), HELLO)
    write(os.path.join(w, 'execer.c'), EXECER)
    exe = os.path.join(w, 'hello')
    cc(['-dynamic', os.path.join(w, 'hello.c'), '-o', exe], args.sysroot, 'hello (dynamic)')
    cc([os.path.join(w, 'execer.c'), '-o', os.path.join(w, 'execer')], args.sysroot, 'execer')
    expect_refused('no guest root', run([args.hexsim, '--user', exe], clean_env()))
    empty = os.path.join(w, 'empty-root')
    os.makedirs(empty)
    expect_refused('-L with no loader in it',
                   run([args.hexsim, '--user', '-L', empty, exe], clean_env()), empty)
    expect_refused('QEMU_LD_PREFIX with no loader in it',
                   run([args.hexsim, '--user', exe], clean_env(QEMU_LD_PREFIX=empty)), empty)
    res = run([args.hexsim, '--user', '-L', os.path.join(w, 'nonexistent'), exe], clean_env())
    if res[0] != 1 or b'not a directory' not in res[2]:
        fail('-L with a directory that does not exist: not status 1', res)
    res = run([args.hexsim, '-L', empty, 'vmlinux'], clean_env())
    if res[0] != 2 or b"'-L'" not in res[2]:
        fail('-L in system mode: not a usage error (status 2)', res)
    res = run([args.hexsim, '--user', os.path.join(w, 'execer'), exe], clean_env())
    if res[0] != 0 or res[1] != b'execv: ENOENT\n' or LOADER.encode() not in res[2]:
        fail('execve of a dynamic program without its loader: not ENOENT', res)
    print('execve of it from a --user program: ENOENT')


# ---- dynamic

GREET = r"""
#include <stdio.h>
int greet_calls;
static __thread int tls_calls = 40;
int greet(const char *who)
{
	greet_calls++;
	tls_calls++;
	return printf("libgreet: hello, %s (call %d, tls %d)\n", who, greet_calls, tls_calls);
}
"""

PLUGIN = r"""
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
extern int greet(const char *);
extern int greet_calls;
static __thread char tls_buf[32] = "plugin tls";
static int ctor_ran;
__attribute__((constructor)) static void init(void) { ctor_ran = 1; }
int plugin_run(int x)
{
	greet("the plugin");
	strcat(tls_buf, "!");
	char *p = malloc(64);
	snprintf(p, 64, "%s, ctor %d, calls %d", tls_buf, ctor_ran, greet_calls);
	printf("plugin: %s, x*x = %d\n", p, x * x);
	free(p);
	return x * x + greet_calls;
}
"""

MAIN = r"""
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
extern int greet(const char *);
extern int greet_calls;
static void *thread_main(void *arg) { greet(arg); return arg; }
int main(int argc, char **argv)
{
	greet("main");
	pthread_t t;
	void *r;
	if (pthread_create(&t, 0, thread_main, "a thread") || pthread_join(t, &r))
		return 2;
	void *h = dlopen(argc > 1 ? argv[1] : "libplugin.so", RTLD_NOW);
	if (!h) { printf("dlopen: %s\n", dlerror()); return 3; }
	int (*run)(int) = (int (*)(int))dlsym(h, "plugin_run");
	if (!run) { printf("dlsym: %s\n", dlerror()); return 4; }
	printf("plugin_run(7) = %d\n", run(7));
	printf("dlsym(missing): %s\n", dlsym(h, "no_such_symbol") ? "found" : "null");
	printf("dlerror: %s\n", dlerror() ? "set" : "null");
	printf("greet_calls %d, dlclose %d\n", greet_calls, dlclose(h));
	return 0;
}
"""


def make_root(args, root, absolute=False):
    sysroot = sysroot_of(args.sysroot)
    os.makedirs(os.path.join(root, 'lib'))
    os.makedirs(os.path.join(root, 'usr', 'lib'))
    shutil.copy(os.path.join(sysroot, 'usr', 'lib', 'libc.so'),
                os.path.join(root, 'usr', 'lib', 'libc.so'))
    # relative, as the sysroot has it (qemu-hexagon follows links on the host); or
    # absolute, as musl installs it, which hexsim must look up inside the root
    os.symlink('/usr/lib/libc.so' if absolute else '../usr/lib/libc.so',
               os.path.join(root, 'lib', 'ld-musl-hexagon.so.1'))
    return sysroot


def build_dynamic(args, w):
    """The guest root w/root (the loader, libgreet.so, libplugin.so in /usr/lib) and the
    dynamic program w/main that uses them: (root, program, sysroot). The booted guest's
    test (tests/boot/guest_userland_test.py --dynamic) runs the same files."""
    root = os.path.join(w, 'root')
    shutil.rmtree(root, ignore_errors=True)
    sysroot = make_root(args, root)
    lib = os.path.join(root, 'usr', 'lib')
    for name, text in (('greet.c', GREET), ('plugin.c', PLUGIN), ('main.c', MAIN)):
        write(os.path.join(w, name), text)
    cc(['-fPIC', '-shared', '-O1', os.path.join(w, 'greet.c'), '-o',
        os.path.join(lib, 'libgreet.so')], args.sysroot, 'libgreet.so')
    cc(['-fPIC', '-shared', '-O1', os.path.join(w, 'plugin.c'), '-L', lib, '-lgreet', '-o',
        os.path.join(lib, 'libplugin.so')], args.sysroot, 'libplugin.so')
    exe = os.path.join(w, 'main')
    cc(['-dynamic', '-O1', os.path.join(w, 'main.c'), '-L', lib, '-lgreet', '-pthread', '-o',
        exe], args.sysroot, 'main (dynamic)')
    return root, exe, sysroot


def case_dynamic(args):
    w = args.work
    root, exe, sysroot = build_dynamic(args, w)
    lib = os.path.join(root, 'usr', 'lib')
    qemu = run([QEMU, '-L', root, exe], clean_env())
    compare('plugin with -L', run([args.hexsim, '--user', '-L', root, exe], clean_env()), qemu)
    compare('plugin with QEMU_LD_PREFIX',
            run([args.hexsim, '--user', exe], clean_env(QEMU_LD_PREFIX=root)), qemu)
    # the same program position-independent (ET_DYN, loaded at a base of hexsim's choice)
    pie = os.path.join(w, 'main-pie')
    cc(['-fPIE', '-pie', '-O1', os.path.join(w, 'main.c'), '-L', lib, '-lgreet', '-pthread',
        '-o', pie], args.sysroot, 'main (PIE)')
    compare('PIE with -L', run([args.hexsim, '--user', '-L', root, pie], clean_env()),
            run([QEMU, '-L', root, pie], clean_env()))
    # the loader run as a command (ET_DYN as the program; it maps main at its link
    # address with an mmap hint)
    ld = os.path.join(root, 'lib', 'ld-musl-hexagon.so.1')
    compare('the loader as a command', run([args.hexsim, '--user', '-L', root, ld, exe],
                                           clean_env()),
            run([QEMU, '-L', root, ld, exe], clean_env()))
    # the loader as an absolute link: looked up inside the root
    aroot = os.path.join(w, 'absroot')
    make_root(args, aroot, absolute=True)
    for f in ('libgreet.so', 'libplugin.so'):
        shutil.copy(os.path.join(lib, f), os.path.join(aroot, 'usr', 'lib', f))
    compare('plugin, loader an absolute link in the root',
            run([args.hexsim, '--user', '-L', aroot, exe], clean_env()), qemu)
    compare('plugin by absolute path',
            run([args.hexsim, '--user', '-L', root, exe, '/usr/lib/libplugin.so'],
                clean_env()),
            run([QEMU, '-L', root, exe, '/usr/lib/libplugin.so'], clean_env()))

    # The root's walls. A loader named with ".." past the root's top: it stays inside, so
    # the real loader outside (the sysroot's) is not found.
    up = '/..' * (os.path.abspath(root).count('/') + 2)
    esc = os.path.join(w, 'escape-dotdot')
    cc(['-dynamic', os.path.join(w, 'main.c'), '-L', lib, '-lgreet', '-o', esc,
        '-Wl,--dynamic-linker=%s%s/lib/ld-musl-hexagon.so.1' % (up, sysroot)],
       args.sysroot, 'escape-dotdot')
    expect_refused('PT_INTERP with ".." past the root',
                   run([args.hexsim, '--user', '-L', root, esc], clean_env()), root)
    # A root whose loader is a link out of it (absolute, and relative with ".."): the
    # link's target is looked up inside the root, where there is none.
    for kind, target in (('absolute', os.path.join(sysroot, 'usr', 'lib', 'libc.so')),
                         ('relative', '..' + up + sysroot + '/usr/lib/libc.so')):
        r2 = os.path.join(w, 'linkroot-' + kind)
        os.makedirs(os.path.join(r2, 'lib'))
        os.symlink(target, os.path.join(r2, 'lib', 'ld-musl-hexagon.so.1'))
        expect_refused('loader linked out of the root (%s)' % kind,
                       run([args.hexsim, '--user', '-L', r2, exe], clean_env()), r2)
    # A library linked out of the root: the loader does not find it there, and fails as
    # it does for a missing library (the file outside exists and is never read).
    r3 = os.path.join(w, 'libroot')
    make_root(args, r3)
    outside = os.path.join(w, 'outside')
    os.makedirs(outside)
    shutil.copy(os.path.join(lib, 'libgreet.so'), os.path.join(outside, 'libgreet.so'))
    os.symlink(os.path.join(outside, 'libgreet.so'),
               os.path.join(r3, 'usr', 'lib', 'libgreet.so'))
    res = run([args.hexsim, '--user', '-L', r3, exe], clean_env())
    if res[0] == 0 or b'libgreet.so' not in res[2]:
        fail('a library linked out of the root was loaded', res)
    print('library linked out of the root: not loaded (%s)' %
          res[2].decode(errors='replace').strip().splitlines()[-1])


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--case', required=True, choices=['redir', 'nointerp', 'dynamic'])
    ap.add_argument('--hexsim', required=True)
    ap.add_argument('--work', required=True)
    ap.add_argument('--sysroot')
    args = ap.parse_args()
    args.work = os.path.join(args.work, args.case)
    shutil.rmtree(args.work, ignore_errors=True)
    os.makedirs(args.work)
    globals()['case_' + args.case](args)
    print('ok')


if __name__ == '__main__':
    main()
