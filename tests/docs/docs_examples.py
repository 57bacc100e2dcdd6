#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# Runs the examples of the Markdown documentation (README.md, docs/**/*.md) against the
# build and compares what each prints with the output written under it, so that the docs
# cannot drift from the programs (ctest docs_examples, label "docs").
#
# Markup (see docs/internals/testing.md, "Examples in the docs"):
#   <!-- file: NAME -->         the next fenced block is written to NAME in the page's
#                               working directory (one fresh directory per page)
#   <!-- test[: OPTS] -->       the next ```sh block is run with sh in that directory,
#                               stdout and stderr together; a ```text block right after
#                               it is the expected output (none: no output expected)
#   OPTS, space-separated:      needs=cc (the musl sysroot), needs=cxx (the C++ runtime,
#                               guest/libcxx), needs=e2fsprogs (mke2fs, debugfs),
#                               needs=kernel (a kernel and rootfs.cpio,
#                               linked into the directory as vmlinux and rootfs.cpio;
#                               hexsim then runs with --max-seconds), exit=N (expected
#                               exit status, default 0)
# On the PATH: hexsim, hexsim-objdump, hexagon-cc, hexagon-c++; in the directory: tools/
# (the source tree's, so tools/hexagon-cc and tools/mkcpio.py work as the pages write
# them).
# Relative links ([text](path#anchor)) must name an existing file and heading.
# In expected output a line "..." matches any number of lines, and "..." inside a line any
# text (addresses, times); trailing blanks and carriage returns are ignored. Blocks that need what the build lacks are skipped and counted as such.
import argparse
import contextlib
import io
import os
import re
import shutil
import subprocess
import sys
import tempfile

MARK = re.compile(r'^<!--\s*(test|file)(?::\s*(.*?))?\s*-->\s*$')
FENCE = re.compile(r'^(`{3,})\s*([\w+-]*)')


def fenced(lines, i):
    """The fenced block starting at or after line i (only blank lines before it):
    (info, body, index after the closing fence), or None."""
    while i < len(lines) and not lines[i].strip():
        i += 1
    if i >= len(lines):
        return None
    m = FENCE.match(lines[i])
    if not m:
        return None
    ticks, info = m.group(1), m.group(2)
    body = []
    j = i + 1
    while j < len(lines) and not lines[j].startswith(ticks):
        body.append(lines[j])
        j += 1
    if j >= len(lines):
        raise ValueError(f'line {i + 1}: fence not closed')
    return info, body, j + 1


def parse(path):
    """Items of one page: ('file', name, body, line) and ('test', opts, cmd, expected, line)."""
    with open(path, encoding='utf-8') as f:
        lines = f.read().split('\n')
    items = []
    i = 0
    while i < len(lines):
        m = MARK.match(lines[i])
        if not m:
            i += 1
            continue
        kind, arg, line = m.group(1), (m.group(2) or ''), i + 1
        block = fenced(lines, i + 1)
        if block is None:
            raise ValueError(f'{path}:{line}: <!-- {kind} --> without a fenced block after it')
        info, body, i = block
        if kind == 'file':
            if not arg or '/' in arg:
                raise ValueError(f'{path}:{line}: file marker needs a plain file name')
            items.append(('file', arg, body, line))
            continue
        if info != 'sh':
            raise ValueError(f'{path}:{line}: a test block must be ```sh, not ```{info}')
        opts = {'needs': set(), 'exit': 0}
        for word in arg.split():
            key, _, val = word.partition('=')
            if key == 'needs' and val:
                opts['needs'].update(val.split(','))
            elif key == 'exit' and val.isdigit():
                opts['exit'] = int(val)
            else:
                raise ValueError(f'{path}:{line}: unknown test option {word!r}')
        unknown = opts['needs'] - {'cc', 'cxx', 'e2fsprogs', 'kernel'}
        if unknown:
            raise ValueError(f'{path}:{line}: unknown needs {sorted(unknown)}')
        expected = []
        span = (i, i)            # lines [a, b) that hold the expected block (none: empty)
        out = fenced(lines, i)
        if out is not None and out[0] == 'text':
            a = i
            while not lines[a].strip():
                a += 1
            expected, i = out[1], out[2]
            span = (a, i)
        opts['span'] = span
        items.append(('test', opts, body, expected, line))
    return items


def matches(expected, actual):
    """Line-by-line match; an expected line '...' stands for any number of lines, '...'
    inside a line for any text."""
    exp = [l.rstrip() for l in expected]
    act = [l.rstrip() for l in actual]
    while act and not act[-1]:
        act.pop()
    while exp and not exp[-1]:
        exp.pop()

    memo = {}

    def go(e, a):
        key = (e, a)
        if key in memo:
            return memo[key]
        if e == len(exp):
            r = a == len(act)
        elif exp[e] == '...':
            r = any(go(e + 1, k) for k in range(a, len(act) + 1))
        else:
            r = a < len(act) and line_matches(exp[e], act[a]) and go(e + 1, a + 1)
        memo[key] = r
        return r

    return go(0, 0)


def line_matches(exp, act):
    if '...' not in exp:
        return exp == act
    pattern = '.*'.join(re.escape(part) for part in exp.split('...'))
    return re.fullmatch(pattern, act, re.S) is not None


class Env:
    def __init__(self, args, scratch):
        self.args = args
        self.have = set()
        if args.sysroot and os.path.isfile(os.path.join(args.sysroot, 'usr/lib/libc.a')):
            self.have.add('cc')
            if args.libcxx and os.path.isfile(os.path.join(args.libcxx, 'lib/libc++.a')):
                self.have.add('cxx')
        # e2fsprogs lives in /sbin, which a user's PATH may lack; run() adds it
        if all(shutil.which(t, path=os.environ.get('PATH', '') + ':/sbin:/usr/sbin')
               for t in ('mke2fs', 'debugfs')):
            self.have.add('e2fsprogs')
        if (args.vmlinux and os.path.isfile(args.vmlinux) and args.initrd
                and os.path.isfile(args.initrd)):
            self.have.add('kernel')
        # Two bin directories: the plain one, and one whose hexsim bounds the run
        # (kernel examples), so that a boot that never ends fails instead of hanging.
        self.bins = {}
        for kind in ('plain', 'kernel'):
            d = os.path.join(scratch, 'bin-' + kind)
            os.mkdir(d)
            if kind == 'plain':
                os.symlink(args.hexsim, os.path.join(d, 'hexsim'))
            else:
                with open(os.path.join(d, 'hexsim'), 'w') as f:
                    f.write('#!/bin/sh\nexec "%s" --max-seconds %d "$@"\n'
                            % (args.hexsim, args.max_seconds))
                os.chmod(os.path.join(d, 'hexsim'), 0o755)
            os.symlink(args.objdump, os.path.join(d, 'hexsim-objdump'))
            os.symlink(args.cc, os.path.join(d, 'hexagon-cc'))
            os.symlink(os.path.join(os.path.dirname(args.cc), 'hexagon-c++'),
                       os.path.join(d, 'hexagon-c++'))
            self.bins[kind] = d

    def run(self, cwd, opts, cmd):
        env = dict(os.environ)
        kind = 'kernel' if 'kernel' in opts['needs'] else 'plain'
        tools = os.path.join(cwd, 'tools')     # the pages write tools/hexagon-cc, ...
        if not os.path.lexists(tools):
            os.symlink(os.path.dirname(self.args.cc), tools)
        env['PATH'] = self.bins[kind] + os.pathsep + env.get('PATH', '') + ':/sbin:/usr/sbin'
        if self.args.sysroot:
            env['HEXSIM_SYSROOT'] = self.args.sysroot
        if self.args.libcxx:
            env['HEXSIM_LIBCXX'] = self.args.libcxx
        env.pop('HEXSIM_VMLINUX', None)
        env.pop('QEMU_LD_PREFIX', None)     # the pages say when they use a guest root
        env['COLUMNS'] = '80'
        if kind == 'kernel':
            for name, src in (('vmlinux', self.args.vmlinux), ('rootfs.cpio', self.args.initrd)):
                dst = os.path.join(cwd, name)
                if not os.path.lexists(dst):
                    os.symlink(src, dst)
        timeout = self.args.max_seconds + 30 if kind == 'kernel' else 60
        p = subprocess.run(['sh', '-c', '\n'.join(cmd)], cwd=cwd, env=env,
                           stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, timeout=timeout)
        return p.returncode, p.stdout.decode('utf-8', 'replace').split('\n')


LINK = re.compile(r'\]\(([^)\s]+)\)')


def slug(heading):
    """The anchor GitHub gives a heading: lowercase, punctuation dropped, blanks to '-'."""
    h = re.sub(r'[^\w\- ]', '', heading.strip().lower())
    return h.replace(' ', '-')


def anchors(path):
    with open(path, encoding='utf-8') as f:
        text = re.sub(r'```.*?```', '', f.read(), flags=re.S)
    names = {slug(m.group(1)) for m in re.finditer(r'^#+\s+(.*)$', text, re.M)}
    names |= set(re.findall(r'<a id="([^"]+)">', text))
    return names


def check_links(path):
    """Relative links of a page whose file or #anchor does not exist: a list of messages."""
    with open(path, encoding='utf-8') as f:
        text = re.sub(r'```.*?```', '', f.read(), flags=re.S)
    bad = []
    for target in LINK.findall(text):
        if re.match(r'^[a-z]+:', target):
            continue                      # http:, mailto: ...
        file, _, anchor = target.partition('#')
        dest = os.path.normpath(os.path.join(os.path.dirname(path), file)) if file else path
        if not os.path.exists(dest):
            bad.append(f'{path}: link to {target}: no such file')
        elif anchor and dest.endswith('.md') and anchor not in anchors(dest):
            bad.append(f'{path}: link to {target}: no such heading')
    return bad


def update_page(path, edits):
    """Writes each failing example's output as its expected block (--update)."""
    with open(path, encoding='utf-8') as f:
        lines = f.read().split('\n')
    for (a, b), out in sorted(edits, reverse=True):
        out = [l.rstrip() for l in out]
        while out and not out[-1]:
            out.pop()
        block = ['```text'] + out + ['```'] if out else []
        lines[a:b] = block
    with open(path, 'w', encoding='utf-8') as f:
        f.write('\n'.join(lines))


def run_page(env, path, scratch, verbose, update=False):
    passed = failed = skipped = 0
    edits = []
    cwd = tempfile.mkdtemp(dir=scratch, prefix='page-')
    for item in parse(path):
        if item[0] == 'file':
            _, name, body, _ = item
            with open(os.path.join(cwd, name), 'w', encoding='utf-8') as f:
                f.write('\n'.join(body) + '\n')
            continue
        _, opts, cmd, expected, line = item
        where = f'{path}:{line}'
        missing = opts['needs'] - env.have
        if missing:
            skipped += 1
            if verbose:
                print(f'SKIP {where} (needs {",".join(sorted(missing))})')
            continue
        try:
            status, out = env.run(cwd, opts, cmd)
        except subprocess.TimeoutExpired:
            failed += 1
            print(f'FAIL {where}: timed out\n  ' + '\n  '.join(cmd))
            continue
        ok_out = matches(expected, out)
        if status == opts['exit'] and ok_out:
            passed += 1
            if verbose:
                print(f'ok   {where}')
            continue
        failed += 1
        if update and not ok_out:
            edits.append((opts['span'], out))
        print(f'FAIL {where}: exit status {status} (expected {opts["exit"]})'
              + ('' if ok_out else ', output differs'))
        print('--- command\n' + '\n'.join(cmd))
        print('--- expected\n' + '\n'.join(expected))
        print('--- got\n' + '\n'.join(out).rstrip())
    if edits:
        update_page(path, edits)
        print(f'{path}: {len(edits)} expected output(s) rewritten; check them, put "..." '
              'where the output may vary')
    return passed, failed, skipped


SELF_TEST = '''<!-- file: t.txt -->
```
one
two
```
<!-- test -->
```sh
cat t.txt
```
```text
one
three
```
<!-- test: exit=3 -->
```sh
exit 3
```
'''


def self_test(env, scratch):
    """The checker must report a changed output and accept a matching exit status: a page
    with one wrong expectation and one right one gives 1 passed, 1 failed."""
    page = os.path.join(scratch, 'self.md')
    with open(page, 'w') as f:
        f.write(SELF_TEST)
    with contextlib.redirect_stdout(io.StringIO()):
        r = run_page(env, page, scratch, False)
    assert matches(['a', '...', 'd'], ['a', 'b', 'c', 'd'])
    assert matches(['at 0x... in main'], ['at 0x00020d98 in main'])
    assert not matches(['at 0x... in main'], ['at 0x00020d98 in area'])
    assert matches(['...'], [])
    assert not matches(['a', '...'], ['b'])
    if r != (1, 1, 0):
        print(f'self-test: expected (1 passed, 1 failed, 0 skipped), got {r}')
        return False
    return True


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument('--hexsim', required=True)
    ap.add_argument('--objdump', required=True)
    ap.add_argument('--cc', required=True, help='tools/hexagon-cc')
    ap.add_argument('--sysroot', default='')
    ap.add_argument('--libcxx', default='', help='the C++ runtime (guest/libcxx/build.sh)')
    ap.add_argument('--vmlinux', default='')
    ap.add_argument('--initrd', default='')
    ap.add_argument('--max-seconds', type=int, default=60)
    ap.add_argument('-v', '--verbose', action='store_true')
    ap.add_argument('--update', action='store_true',
                    help='write the actual output of each failing example into its page')
    ap.add_argument('pages', nargs='+', help='Markdown files or directories')
    args = ap.parse_args()
    for a in ('hexsim', 'objdump', 'cc'):
        setattr(args, a, os.path.abspath(getattr(args, a)))
    for a in ('sysroot', 'libcxx', 'vmlinux', 'initrd'):
        if getattr(args, a):
            setattr(args, a, os.path.abspath(getattr(args, a)))
    pages = []
    for p in args.pages:
        if os.path.isdir(p):
            for root, _, files in sorted(os.walk(p)):
                pages += [os.path.join(root, f) for f in sorted(files) if f.endswith('.md')]
        else:
            pages.append(p)
    scratch = tempfile.mkdtemp(prefix='hexsim-docs-')
    try:
        env = Env(args, scratch)
        if not self_test(env, scratch):
            return 1
        total = [0, 0, 0]
        for page in pages:
            try:
                r = run_page(env, page, scratch, args.verbose, args.update)
            except ValueError as e:
                print(f'FAIL {e}')
                r = (0, 1, 0)
            for msg in check_links(page):     # a dead link fails like a changed output
                print(f'FAIL {msg}')
                r = (r[0], r[1] + 1, r[2])
            total = [t + x for t, x in zip(total, r)]
        print(f'docs: {total[0]} passed, {total[1]} failed, {total[2]} skipped')
        if total[0] + total[1] == 0:
            print('docs: no example ran')
            return 1
        return 1 if total[1] else 0
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


if __name__ == '__main__':
    sys.exit(main())
