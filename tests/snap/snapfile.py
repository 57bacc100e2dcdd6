# SPDX-License-Identifier: MIT
# The snapshot container of src/snap/snap_file.c read and written from Python, for the
# snapshot tests: compare two snapshots section by section, and build files whose checksums
# are right but whose contents are wrong (another kind, a bad field), which only the
# section checks of hexsim can refuse. Layout (little-endian): magic "HEXSIMSN", u32 format,
# u32 section count, 32 bytes of version text, u32 CRC32 of bytes 0-47 and the table; the
# table (48 bytes per section: name[16], u64 offset, u64 compressed length, u64 length,
# u32 CRC32 of the compressed bytes, u32 0); then the zlib streams.
import struct
import zlib

HDR = 52
ENT = 48


def read(data):
    """The file's (format, version text, [(name, bytes)]); raises ValueError if damaged."""
    if len(data) < HDR or data[:8] != b'HEXSIMSN':
        raise ValueError('not a snapshot')
    fmt, n = struct.unpack_from('<II', data, 8)
    table = data[HDR:HDR + n * ENT]
    if zlib.crc32(data[:48] + table) != struct.unpack_from('<I', data, 48)[0]:
        raise ValueError('header checksum')
    secs = []
    for i in range(n):
        name, off, zl, ul, crc, _ = struct.unpack_from('<16sQQQII', table, i * ENT)
        z = data[off:off + zl]
        if zlib.crc32(z) != crc:
            raise ValueError('checksum of ' + name.rstrip(b'\0').decode())
        body = zlib.decompress(z)
        if len(body) != ul:
            raise ValueError('length of ' + name.rstrip(b'\0').decode())
        secs.append((name.rstrip(b'\0').decode(), body))
    return fmt, data[16:48], secs


def write(fmt, version, secs):
    """A file with these sections and correct checksums."""
    table = b''
    blobs = b''
    off = HDR + ENT * len(secs)
    for name, body in secs:
        z = zlib.compress(body, 6)
        table += struct.pack('<16sQQQII', name.encode(), off + len(blobs), len(z), len(body),
                             zlib.crc32(z), 0)
        blobs += z
    head = b'HEXSIMSN' + struct.pack('<II', fmt, len(secs)) + version
    return head + struct.pack('<I', zlib.crc32(head + table)) + table + blobs
