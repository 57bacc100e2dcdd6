#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# Writes the seed corpus of tests/fuzz/corpus/<target>/ (seed-*; regression inputs found by
# fuzzing are named after the bug instead and are not touched). Code seeds are assembled with
# llvm-mc-16 and ELF seeds linked with ld.lld-16, so they are real Hexagon encodings; run it
# again after changing a seed here. Input layouts: the header comments of fuzz_<target>.c.
import os
import struct
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
CORPUS = os.path.join(HERE, 'corpus')

PROGRAMS = {
    'alu': '''
        { r0 = add(r1, r2); r3 = memw(r4+#8) }
        { memw(r5+#4) = r0; p0 = cmp.eq(r0, #1) }
        { if (p0) jump 1f }
    1:  { r1:0 = combine(#1, #2); r7 = ##0x12345678 }
        { loop0(2f, #3) }
    2:  { r0 = add(r0, #1) }:endloop0
        { r6 = #64; r0 = #1 }
        { r1 = r5; r2 = #4 }
        { trap0(#1) }
        { r0 = #0; r6 = #93 }
        { trap0(#1) }
    ''',
    'mem': '''
        { r2 = memw(r0+#0); r3 = memub(r1+#3) }
        { memd(r29+#-8) = r1:0; r4 = memh(r2+#2) }
        { r5 = add(r2, #1); memb(r1+#0) = r5.new }
        { r6 = memw_locked(r0) }
        { memw_locked(r0, p0) = r6 }
        { r7:6 = memd(r29+#-8); if (!p0) r8 = memw(r0+#4) }
        { allocframe(#16) }
        { r9 = memw(r30+#4); memw(r29+#0) = r9 }
        { r31:30 = deallocframe(r30):raw }
        { r0 = memw(r7+#0) }
    ''',
    'flow': '''
        { p0 = cmp.gt(r0, r1); if (p0.new) r2 = #1 }
        { r3 = #2; if (cmp.eq(r3.new, #2)) jump:t 1f }
        { r0 = #99 }
    1:  { call 2f }
        { jump 3f }
    2:  { r1 = add(r1, #1); jumpr r31 }
    3:  { loop1(4f, #2); r10 = #0 }
    4:  { r10 = add(r10, #1); nop }:endloop1
        { p3 = sp1loop0(5f, #2) }
    5:  { r11 = mpyi(r10, #3); if (p3) r12 = r11 }:endloop0
        { r0 = r10; r6 = #93 }
        { trap0(#1) }
    ''',
    'xtype': '''
        { r1:0 = vaddh(r3:2, r5:4); r6 = asl(r7, #3) }
        { r9:8 = mpy(r10, r11); r12 = sfadd(r13, r14) }
        { r17:16 = dfadd(r19:18, r21:20); p1 = sfcmp.eq(r2, r3) }
        { r22 = clb(r23); r24 = extractu(r25, #4, #2) }
        { r26 = convert_sf2w(r27):chop }
        { r1,p0 = sfrecipa(r2, r3) }
        { usr = r1 }
        { r2 = usr }
        { r3 = insert(r4, #8, #4); r5 = parity(r7:6, r9:8) }
        { trap0(#2) }
    ''',
    'duplex': '''
        { r0 = #1; r1 = #2 }
        { r2 = memw(r29+#4); r3 = r0 }
        { memw(r29+#8) = r1; r4 = add(r4, #-1) }
        { p0 = cmp.eq(r2, #0); r5 = and(r5, #1) }
        { r0 = #0; dealloc_return }
    ''',
}

DATA_BASE = 0x20000


def assemble(src, arch='hexagonv68'):
    with tempfile.TemporaryDirectory() as d:
        s, o, b = (os.path.join(d, n) for n in ('a.s', 'a.o', 'a.bin'))
        with open(s, 'w') as f:
            f.write('.text\n.globl _start\n_start:\n' + src + '\n')
        subprocess.run(['llvm-mc-16', '-triple=hexagon', '-mcpu=' + arch, '-filetype=obj', s,
                        '-o', o], check=True)
        subprocess.run(['llvm-objcopy-16', '-O', 'binary', '--only-section=.text', o, b],
                       check=True)
        return open(b, 'rb').read()


def link(src, arch='hexagonv67', flags='0x67'):
    with tempfile.TemporaryDirectory() as d:
        s, o, e = (os.path.join(d, n) for n in ('a.s', 'a.o', 'a.elf'))
        with open(s, 'w') as f:
            f.write('.text\n.globl _start\n_start:\n' + src + '\n'
                    '.data\nmsg: .string "hi\\n"\n')
        subprocess.run(['llvm-mc-16', '-triple=hexagon', '-mcpu=' + arch, '-filetype=obj', s,
                        '-o', o], check=True)
        subprocess.run(['ld.lld-16', '-static', '-s', '--no-rosegment', '-z', 'norelro',
                        '-z', 'max-page-size=4096', o, '-o', e], check=True)
        return open(e, 'rb').read()


def write(target, name, data):
    os.makedirs(os.path.join(CORPUS, target), exist_ok=True)
    with open(os.path.join(CORPUS, target, 'seed-' + name), 'wb') as f:
        f.write(data)


def exec_input(code, flags=0x70, mask=0, regs=(), preds=0, usr=0):
    return struct.pack('<BIII', flags, mask, preds, usr) + b''.join(
        struct.pack('<I', r) for r in regs) + code


def syscall_input(calls, flags=0):
    out = bytes([flags])
    names = {'ioctl': 0, 'openat': 1, 'close': 2, 'llseek': 3, 'read': 4, 'write': 5,
             'readv': 6, 'writev': 7, 'fstatat': 8, 'fstat': 9, 'exit': 10, 'brk': 25,
             'munmap': 26, 'mmap2': 27, 'mprotect': 28, 'getrandom': 29, 'clock_gettime': 14,
             'nanosleep': 13, 'uname': 16, 'clock_gettime64': 30}
    for name, args in calls:
        kinds = 0
        words = []
        for i, a in enumerate(list(args) + [0] * (6 - len(args))):
            if isinstance(a, tuple):   # ('p', offset): pointer into the data area
                kinds |= 1 << (2 * i)
                a = a[1]
            words.append(a & 0xffffffff)
        out += bytes([names[name]]) + struct.pack('<I', kinds) + struct.pack('<6I', *words)
    return out


# Region numbers of fuzz_devices.c's table.
SIRC, CLK, UART1, UART2, UART3, SMSC, RTOS = range(7)


def dev_input(ops):
    """fuzz_devices records: ('r'|'w', region, offset, value[, size]), ('t', pcycles),
    ('uart', bytes) or ('frame', bytes) (the data follows, padded to 8 bytes)."""
    out = b''
    for op in ops:
        if op[0] in 'rw':
            size = op[4] if len(op) > 4 else 4
            code = (0 if op[0] == 'r' else 1) | {1: 0, 2: 4, 4: 8, 8: 12}[size]
            out += struct.pack('<BBHI', code, op[1], op[2], op[3])
        elif op[0] == 't':
            out += struct.pack('<BBHI', 2, 0, 0, op[1])
        else:
            data = op[1] + b'\0' * (-len(op[1]) % 8)
            out += struct.pack('<BBHI', 3, 1 if op[0] == 'frame' else 0, 0, len(op[1])) + data
    return out


def sys_input(code, flags=0x70, regs=()):
    """fuzz_system input: flags, R0-R7, then the code (run from physical 0)."""
    regs = list(regs) + [0] * (8 - len(regs))
    return bytes([flags]) + struct.pack('<8I', *regs) + code


# fuzz_system seeds: HVM calls the way the Linux port makes them (trap1(#n), arguments in
# r0-r3), an MMU set-up, a second vCPU, an event through the guest's vectors, a hot loop of
# loads and stores (compiled blocks) that faults in its block past the end of RAM.
SYSTEM = {
    'blocks': '''
        { r0 = ##0x2000 }
        trap1(#2)
        { r1 = ##0x8000; r3 = #0 }
    loop:
        { r2 = memw(r1+#0); r3 = add(r3,#1) }
        { memw(r1+#8) = r3; r1 = add(r1,##0x20000) }
        { r4 = add(r2,r3) }
        { jump loop }
    ''',
    'hvm-calls': '''
        { r0 = #0 }
        trap1(#0)
        { r0 = ##0x2000 }
        trap1(#2)
        { r0 = #1 }
        trap1(#3)
        trap1(#4)
        trap1(#14)
        { r0 = #1; r1 = #3 }
        trap1(#5)
        { r0 = #3; r1 = #3 }
        trap1(#5)
        { r0 = #8; r1 = #3 }
        trap1(#5)
        trap1(#20)
        trap1(#22)
        trap1(#17)
        trap1(#19)
    ''',
    'mmu': '''
        { r2 = ##0x10000; r3 = ##0xc00 }
        { r4 = ##0x00000e05 }
        { memw(r2+r3<<#0) = r4 }
        { memw(r2+#0) = r4 }
        { r0 = r2; r1 = #1 }
        trap1(#11)
        { r5 = ##0xc0000000 }
        { r6 = memw(r5+#0) }
        { r0 = #0; r1 = #0 }
        trap1(#10)
        trap1(#19)
    ''',
    'smp': '''
        { r0 = ##0x100; r1 = ##0x8000 }
        trap1(#18)
        { r0 = #1 }
        trap1(#3)
        trap1(#16)
        trap1(#19)
    ''',
    'event': '''
        { r0 = ##0x1000 }
        trap1(#2)
        trap0(#1)
        { r1 = ##0xab000000 }
        { r2 = memw(r1+#4) }
        { r0 = ##0x100; memw(r1+#0) = r0 }
        { r0 = #1; memw(r1+#8) = r0 }
        { r0 = #1 }
        trap1(#3)
        trap1(#16)
        trap1(#19)
    ''',
}


def blk_input(requests, flags=0, qnum=8):
    """fuzz_virtio_blk input: requests are lists of (addr, len, writable, content or None)
    buffers, each list one chain; placed in the descriptor table in order and offered."""
    ram = bytearray(0x6000)
    d = 0
    heads = []
    for chain in requests:
        heads.append(d)
        for i, (addr, length, w, content) in enumerate(chain):
            last = i == len(chain) - 1
            struct.pack_into('<QIHH', ram, 16 * d, addr, length,
                             (0 if last else 1) | (2 if w else 0), 0 if last else d + 1)
            if content:
                ram[addr:addr + len(content)] = content
            d += 1
    struct.pack_into('<HH', ram, 0x1000, 0, len(heads))
    for i, h in enumerate(heads):
        struct.pack_into('<H', ram, 0x1004 + 2 * i, h)
    return bytes([flags, qnum]) + bytes(ram)


def blk_hdr(kind, sector):
    return struct.pack('<IIQ', kind, 0, sector)


def p9(kind, tag, *fields):
    """A 9P message: fields are (format, value) pairs; format 's' is a string, 'raw'
    bytes as they are."""
    body = b''
    for f, v in fields:
        if f == 'raw':
            body += v
        else:
            body += struct.pack('<H', len(v)) + v.encode() if f == 's' else struct.pack('<' + f, v)
    return struct.pack('<IBH', 7 + len(body), kind, tag) + body


P9_SESSION = [  # after the target's own Tversion and Tattach (fid 0 at the top)
    p9(110, 1, ('I', 0), ('I', 1), ('H', 0)),                                  # clone
    p9(14, 2, ('I', 1), ('s', 'new'), ('I', 2), ('I', 0o644), ('I', 0)),      # lcreate
    p9(118, 3, ('I', 1), ('Q', 0), ('I', 5), ('raw', b'hello')),                     # write
    p9(116, 4, ('I', 1), ('Q', 0), ('I', 64)),                                 # read
    p9(24, 5, ('I', 1), ('Q', 0x7ff)),                                         # getattr
    p9(26, 6, ('I', 1), ('I', 0x9), ('I', 0o600), ('I', 0), ('I', 0), ('Q', 2),
       ('Q', 0), ('Q', 0), ('Q', 0), ('Q', 0)),                                # setattr
    p9(72, 7, ('I', 0), ('s', 'd'), ('I', 0o755), ('I', 0)),                   # mkdir
    p9(16, 8, ('I', 0), ('s', 'ln'), ('s', '../outside/secret'), ('I', 0)),    # symlink
    p9(74, 9, ('I', 0), ('s', 'new'), ('I', 0), ('s', 'moved')),               # renameat
    p9(110, 10, ('I', 0), ('I', 2), ('H', 2), ('s', 'out'), ('s', 'secret')),  # walk out
    p9(110, 11, ('I', 0), ('I', 3), ('H', 1), ('s', 'out')),
    p9(12, 12, ('I', 3), ('I', 0)),                                            # lopen link
    p9(22, 13, ('I', 3)),                                                      # readlink
    p9(110, 14, ('I', 0), ('I', 4), ('H', 0)),
    p9(12, 15, ('I', 4), ('I', 0)),
    p9(40, 16, ('I', 4), ('Q', 0), ('I', 200)),                                # readdir
    p9(76, 17, ('I', 0), ('s', 'd'), ('I', 0x200)),                            # unlinkat
    p9(120, 18, ('I', 1)),                                                     # clunk
]


def p9_input(flags, messages):
    """fuzz_virtio_9p input in message mode (flags bit 1)."""
    return bytes([flags | 2, 0]) + b''.join(messages)


def main():
    for name, src in SYSTEM.items():
        write('system', name, sys_input(assemble(src), flags=0x71 if name == 'smp' else 0x70))
    # virtio-blk requests as Linux's virtio_blk makes them: header, data, status
    write('virtio_blk', 'read', blk_input([[(0x4000, 16, False, blk_hdr(0, 3)),
                                            (0x5000, 1024, True, None),
                                            (0x4100, 1, True, None)]]))
    write('virtio_blk', 'write-flush-id', blk_input([
        [(0x4000, 16, False, blk_hdr(1, 62)), (0x5000, 1024, False, b'\x5a' * 1024),
         (0x4100, 1, True, None)],
        [(0x4200, 16, False, blk_hdr(4, 0)), (0x4300, 1, True, None)],
        [(0x4400, 16, False, blk_hdr(8, 0)), (0x4500, 21, True, None)]]))
    write('virtio_blk', 'discard-ro', blk_input([
        [(0x4000, 32, False, blk_hdr(11, 0) + struct.pack('<QII', 8, 4, 0)),
         (0x4100, 1, True, None)],
        [(0x4200, 16, False, blk_hdr(13, 0)), (0x4210, 16, False, struct.pack('<QII', 60, 8, 1)),
         (0x4300, 1, True, None)]], flags=1))
    # 9P: a session straight to the server (read-write and read-only), and through the
    # device: Tversion, Tattach and a walk as chains of a request and a reply buffer
    write('virtio_9p', 'session', p9_input(0, P9_SESSION))
    write('virtio_9p', 'session-ro', p9_input(1, P9_SESSION))
    hello = [p9(100, 0xffff, ('I', 8192), ('s', '9P2000.L')),
             p9(104, 1, ('I', 0), ('I', 0xffffffff), ('s', ''), ('s', ''), ('I', 0)),
             p9(110, 2, ('I', 0), ('I', 1), ('H', 1), ('s', 'file')),
             p9(12, 3, ('I', 1), ('I', 0)), p9(116, 4, ('I', 1), ('Q', 0), ('I', 32))]
    write('virtio_9p', 'chains', blk_input([[(0x4000 + 0x100 * i, len(m), False, m),
                                             (0x6000 + 0x200 * i, 0x200, True, None)]
                                            for i, m in enumerate(hello)], qnum=16))
    # the board code's and the drivers' first steps on each device
    write('devices', 'uart', dev_input([
        ('w', CLK, 0xC0, 0x20000), ('w', UART3, 0x10, 0x05), ('w', UART3, 0x14, 0x19),
        ('w', UART3, 0x1C, 10), ('w', UART3, 0x20, 1), ('w', UART3, 0x0C, 0x41),
        ('w', UART3, 0x0C, 0x42), ('t', 100000), ('r', UART3, 0x08, 0), ('r', UART3, 0x14, 0),
        ('uart', b'uname -a\n'), ('t', 200000), ('r', UART3, 0x0C, 0), ('r', UART3, 0x08, 0),
        ('w', UART3, 0x10, 0x40), ('r', UART3, 0x10, 0)]))
    write('devices', 'sirc', dev_input([
        ('w', SIRC, 0x0C, 0x00080000), ('w', SIRC, 0x10, 0x00080000), ('w', SIRC, 0x08, 0xFFFFFFFF),
        ('w', SIRC, 0x1C, 0x1), ('r', SIRC, 0x14, 0), ('w', SIRC, 0x18, 0xFFFFFFFF),
        ('w', SIRC, 0x408, 0x40000), ('r', SIRC, 0x420, 0), ('w', RTOS, 0x0, 100),
        ('w', RTOS, 0x8, 3), ('t', 10000000), ('r', RTOS, 0x4, 0), ('w', RTOS, 0xC, 1)]))
    frame = bytes(range(6)) + b'\x52\x54\x00\x12\x34\x56\x08\x00' + bytes(50)
    write('devices', 'smsc', dev_input([
        ('r', SMSC, 0x50, 0), ('r', SMSC, 0x64, 0), ('w', SMSC, 0x74, 1), ('t', 100000),
        ('r', SMSC, 0x84, 0), ('w', SMSC, 0xA8, 0x00100000 | 0x0C), ('w', SMSC, 0xA4, 0x80000001),
        ('w', SMSC, 0xA8, 0x000C0000), ('w', SMSC, 0xA4, 0x80000001), ('w', SMSC, 0x70, 0x2),
        ('w', SMSC, 0x5C, 0xFFFFFFFF), ('w', SMSC, 0x54, 0x100), ('w', SMSC, 0x20, 0x00003040),
        ('w', SMSC, 0x20, 64), ('w', SMSC, 0x20, 0x01020304), ('w', SMSC, 0x20, 0x05060708),
        ('frame', frame), ('t', 100000), ('r', SMSC, 0x7C, 0), ('r', SMSC, 0x40, 0),
        ('r', SMSC, 0x00, 0), ('r', SMSC, 0x58, 0), ('r', SMSC, 0x48, 0), ('r', SMSC, 0x9C, 0, 8)]))
    for name, src in PROGRAMS.items():
        code = assemble(src)
        write('decode', name, code)
        write('exec', name, exec_input(code))
    write('decode', 'v60-alu', assemble(PROGRAMS['alu'], 'hexagonv60'))
    mem = assemble(PROGRAMS['mem'])
    write('exec', 'mem-regs', exec_input(mem, flags=0x53, mask=0x3,
                                         regs=(DATA_BASE + 0x40, DATA_BASE + 0x81)))
    # self-modifying: store a word into the code page, then run it
    smc = assemble('''
        { r0 = ##0x10020; r1 = ##0x7800c0a0 }
        { memw(r0+#0) = r1 }
        { nop }
        { nop }
        { nop }
        { nop }
        { r0 = add(r0, #1) }
    ''')
    write('exec', 'smc', exec_input(smc, flags=0x71))

    P = lambda off: ('p', off)
    write('syscall', 'io', syscall_input([
        ('write', (1, P(0), 16)), ('read', (3, P(0x100), 64)), ('llseek', (3, 0, 4, P(0x200), 0)),
        ('fstat', (3, P(0x300))), ('writev', (2, P(0), 2)), ('readv', (0, P(0x10), 1)),
        ('ioctl', (1, 0x5401, P(0x400))), ('close', (3,)), ('read', (3, P(0x100), 4)),
        ('openat', (0xffffff9c, P(1), 0x241, 0o644)), ('fstatat', (0xffffff9c, P(1), P(0x500), 0)),
    ]))
    write('syscall', 'mem', syscall_input([
        ('brk', (0,)), ('brk', (0x00104000,)), ('mmap2', (0, 0x3000, 3, 0x22, 0xffffffff, 0)),
        ('mmap2', (0, 0x2000, 1, 0x02, 3, 0)), ('mprotect', (0x40000000, 0x1000, 1)),
        ('munmap', (0x40001000, 0x1000)), ('mmap2', (0x50000000, 0x1000, 7, 0x32, 0, 0)),
        ('brk', (0x00101000,)),
    ]))
    write('syscall', 'time', syscall_input([
        ('clock_gettime', (1, P(0x600))), ('clock_gettime64', (0, P(0x610))),
        ('nanosleep', (P(0x20), 0)), ('uname', (P(0x700),)), ('getrandom', (P(0x800), 32, 0)),
        ('exit', (3,)),
    ]))

    write('elf', 'exit', link('''
        { r0 = #7; r6 = #93 }
        { trap0(#1) }
    '''))
    write('elf', 'write', link('''
        { r0 = #1; r1 = ##msg; r2 = #3; r6 = #64 }
        { trap0(#1) }
        { r0 = memw(r29+#0); r6 = #93 }
        { trap0(#1) }
    '''))
    return 0


if __name__ == '__main__':
    sys.exit(main())
