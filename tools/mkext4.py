#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# Makes an ext4 disk image from a newc cpio archive (the initramfs format; build/rootfs.cpio
# from tools/mkcpio.py), without root privileges, with Debian's e2fsprogs: the archive is
# unpacked into a scratch directory (directories, files, symlinks), `mke2fs -t ext4 -d DIR`
# builds the file system from it, and debugfs then adds what an unprivileged unpack cannot
# make (device nodes) and gives every inode the archive's owner (uid/gid 0 in the project's
# archives) and mode. The image is sparse; hexsim boots it with
#     hexsim vmlinux --drive file=IMG --append "root=/dev/vda rw"
# Usage: mkext4.py ARCHIVE.cpio -o IMG [--size 256M] [--label rootfs]
# Facts: the newc header (cpio(5), "New ASCII Format": magic 070701, 13 fields of 8 hex
# digits: ino mode uid gid nlink mtime filesize devmajor devminor rdevmajor rdevminor
# namesize check), name and data each padded to 4 bytes; mke2fs(8) -d, -E root_owner;
# debugfs(8) mknod, set_inode_field (sif).
import argparse
import os
import shutil
import stat
import subprocess
import sys
import tempfile


def read_newc(data):
    """Yields (name, mode, uid, gid, rdev_major, rdev_minor, body) for each entry."""
    off = 0
    while True:
        if data[off:off + 6] != b'070701':
            sys.exit('mkext4: not a newc cpio archive (at byte %d)' % off)
        f = [int(data[off + 6 + 8 * i:off + 14 + 8 * i], 16) for i in range(13)]
        namesize, filesize = f[11], f[6]
        name = data[off + 110:off + 110 + namesize - 1].decode()
        off += 110 + namesize
        off += -off % 4
        body = data[off:off + filesize]
        off += filesize
        off += -off % 4
        if name == 'TRAILER!!!':
            return
        yield name, f[1], f[2], f[3], f[9], f[10], body


def size_bytes(s):
    units = {'K': 1 << 10, 'M': 1 << 20, 'G': 1 << 30}
    return int(s[:-1]) * units[s[-1].upper()] if s[-1].upper() in units else int(s)


def debugfs_path(p):
    return '"%s"' % p if ' ' in p else p


def main():
    ap = argparse.ArgumentParser(description='make an ext4 image from a newc cpio archive')
    ap.add_argument('archive')
    ap.add_argument('-o', '--output', required=True)
    ap.add_argument('--size', default='256M', help='image size (bytes, or with K, M, G)')
    ap.add_argument('--label', default='rootfs')
    a = ap.parse_args()
    for tool in ('mke2fs', 'debugfs'):
        if not shutil.which(tool) and not os.path.exists('/sbin/' + tool):
            sys.exit('mkext4: %s not found (apt-get install e2fsprogs, or tools/setup.sh)' % tool)
    env = dict(os.environ, PATH=os.environ.get('PATH', '') + ':/sbin:/usr/sbin')
    with open(a.archive, 'rb') as f:
        data = f.read()
    entries = list(read_newc(data))
    cmds = []
    with tempfile.TemporaryDirectory(prefix='mkext4-') as tree:
        dirs = []
        for name, mode, uid, gid, rmaj, rmin, body in entries:
            name = name.strip('/')
            if not name or name == '.':
                cmds.append('sif / uid %d\nsif / gid %d\nsif / mode 0%o' % (uid, gid, mode))
                continue
            host = os.path.join(tree, name)
            os.makedirs(os.path.dirname(host), exist_ok=True)
            path = '/' + name
            kind = stat.S_IFMT(mode)
            if kind == stat.S_IFDIR:
                os.makedirs(host, exist_ok=True)
                dirs.append((host, stat.S_IMODE(mode)))
            elif kind == stat.S_IFREG:
                with open(host, 'wb') as out:
                    out.write(body)
                os.chmod(host, stat.S_IMODE(mode))
            elif kind == stat.S_IFLNK:
                os.symlink(body.decode(), host)
            elif kind in (stat.S_IFCHR, stat.S_IFBLK):
                # debugfs's mknod makes its node in the current directory
                cmds.append('cd %s\nmknod %s %s %d %d\ncd /' % (
                    debugfs_path(os.path.dirname(path)), debugfs_path(os.path.basename(path)),
                    'c' if kind == stat.S_IFCHR else 'b', rmaj, rmin))
            else:
                sys.exit('mkext4: %s: entry type 0%o not supported' % (path, kind))
            cmds.append('sif %s uid %d\nsif %s gid %d\nsif %s mode 0%o' %
                        (debugfs_path(path), uid, debugfs_path(path), gid,
                         debugfs_path(path), mode))
        for host, mode in reversed(dirs):
            os.chmod(host, mode | 0o700)       # the owner must still read them for mke2fs
        tmp = a.output + '.tmp'
        if os.path.exists(tmp):
            os.unlink(tmp)
        with open(tmp, 'wb') as out:
            out.truncate(size_bytes(a.size))
        subprocess.run(['mke2fs', '-q', '-F', '-t', 'ext4', '-L', a.label, '-d', tree,
                        '-E', 'root_owner=0:0', tmp], check=True, env=env)
        for host, mode in dirs:
            os.chmod(host, 0o755)              # so the scratch tree can be removed
    cmdfile = a.output + '.debugfs'
    with open(cmdfile, 'w') as f:
        f.write('\n'.join(cmds) + '\n')
    r = subprocess.run(['debugfs', '-w', '-f', cmdfile, tmp], env=env, capture_output=True,
                       text=True)
    os.unlink(cmdfile)
    errors = [l for l in r.stderr.splitlines() if l and not l.startswith('debugfs ')]
    if r.returncode or errors:
        sys.exit('mkext4: debugfs failed:\n' + '\n'.join(errors[:20]))
    subprocess.run(['e2fsck', '-f', '-n', tmp], check=True, env=env, capture_output=True)
    os.replace(tmp, a.output)
    print('mkext4: %s (%s, %d entries from %s)' % (a.output, a.size, len(entries), a.archive),
          file=sys.stderr)


if __name__ == '__main__':
    main()
