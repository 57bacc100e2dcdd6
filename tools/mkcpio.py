#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# Writes a cpio archive in the "newc" format (the kernel's initramfs format) from a list
# file, without needing root: device nodes, owners and modes come from the list.
# List lines (# starts a comment; paths inside the image are absolute):
#   dir     PATH MODE
#   file    PATH MODE SOURCE          SOURCE "bin:NAME" is taken from --bin, others are
#                                     relative to the list file's directory
#   slink   PATH TARGET
#   nod     PATH MODE c|b MAJOR MINOR
#   links   TARGET LINKSFILE          a symlink PATH -> TARGET for every absolute PATH in
#                                     LINKSFILE, one a line (BusyBox's busybox.links),
#                                     except paths the list names before this line;
#                                     LINKSFILE as SOURCE above
# Parent directories are created (mode 755) when the list does not name them first. Entries
# are written in list order with mtime 0 (or $SOURCE_DATE_EPOCH) and uid/gid 0, so the image
# is reproducible. Usage: mkcpio.py --list FILE --bin DIR -o OUT.cpio
import argparse
import os
import stat
import sys


def newc_entry(ino, mode, nlink, mtime, data, name, rmaj=0, rmin=0):
    name_b = name.encode() + b'\0'
    fields = [ino, mode, 0, 0, nlink, mtime, len(data), 0, 0, rmaj, rmin, len(name_b), 0]
    hdr = b'070701' + b''.join(b'%08X' % f for f in fields)
    out = hdr + name_b
    out += b'\0' * (-len(out) % 4)
    out += data
    out += b'\0' * (-len(data) % 4)
    return out


def main():
    ap = argparse.ArgumentParser(description='write a newc cpio image from a list file')
    ap.add_argument('--list', required=True)
    ap.add_argument('--bin', required=True, help='directory holding the built programs')
    ap.add_argument('-o', '--output', required=True)
    a = ap.parse_args()
    base = os.path.dirname(os.path.abspath(a.list))
    mtime = int(os.environ.get('SOURCE_DATE_EPOCH', '0'))
    entries = []          # (path, mode, data, rmaj, rmin)
    seen = set()

    def add(path, mode, data=b'', rmaj=0, rmin=0):
        path = '/' + path.strip('/')
        parent = os.path.dirname(path)
        if parent != '/' and parent not in seen:
            add(parent, stat.S_IFDIR | 0o755)
        if path in seen:
            sys.exit('mkcpio: %s listed twice' % path)
        seen.add(path)
        entries.append((path, mode, data, rmaj, rmin))

    def source(name):
        return os.path.join(a.bin, name[4:]) if name.startswith('bin:') else os.path.join(base, name)

    with open(a.list) as f:
        for lineno, line in enumerate(f, 1):
            words = line.split('#', 1)[0].split()
            if not words:
                continue
            kind, args = words[0], words[1:]
            try:
                if kind == 'dir':
                    add(args[0], stat.S_IFDIR | int(args[1], 8))
                elif kind == 'file':
                    with open(source(args[2]), 'rb') as s:
                        add(args[0], stat.S_IFREG | int(args[1], 8), s.read())
                elif kind == 'slink':
                    add(args[0], stat.S_IFLNK | 0o777, args[1].encode())
                elif kind == 'nod':
                    t = stat.S_IFCHR if args[2] == 'c' else stat.S_IFBLK
                    add(args[0], t | int(args[1], 8), b'', int(args[3]), int(args[4]))
                elif kind == 'links':
                    with open(source(args[1])) as d:
                        paths = d.read().split()
                    if not paths or not all(p.startswith('/') for p in paths):
                        sys.exit('mkcpio: %s:%d: %s does not list absolute paths' %
                                 (a.list, lineno, args[1]))
                    for path in paths:
                        if '/' + path.strip('/') not in seen:
                            add(path, stat.S_IFLNK | 0o777, args[0].encode())
                else:
                    sys.exit('mkcpio: %s:%d: unknown entry type %r' % (a.list, lineno, kind))
            except (IndexError, ValueError):
                sys.exit('mkcpio: %s:%d: bad line: %s' % (a.list, lineno, line.strip()))

    out = bytearray()
    for ino, (path, mode, data, rmaj, rmin) in enumerate(entries, 1):
        nlink = 2 if stat.S_ISDIR(mode) else 1
        out += newc_entry(ino, mode, nlink, mtime, data, path.lstrip('/'), rmaj, rmin)
    out += newc_entry(0, 0, 1, 0, b'', 'TRAILER!!!')
    out += b'\0' * (-len(out) % 512)
    tmp = a.output + '.tmp'
    with open(tmp, 'wb') as f:
        f.write(out)
    os.replace(tmp, a.output)


if __name__ == '__main__':
    main()
