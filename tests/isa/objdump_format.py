#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# The listing rules of hexsim-objdump against llvm-objdump-16, on small hand-made objects whose
# instructions are simple (nop, transfers, adds), so that what is checked is the layout:
# which symbol labels an address (several symbols at one address, STT_OBJECT data dumps, local,
# weak and global symbols, sections without a symbol at their start, empty sections), packets
# running past the next symbol, endloop markers, runs of zero bytes, words left over at a
# section's end, sections of odd sizes, --no-show-raw-insn, and --start-address/--stop-address
# in hex, octal, binary and decimal, --mcpu (llvm-objdump decodes for hexagonv60 unless told
# otherwise). Then the command line: errors for missing, non-ELF,
# non-Hexagon and truncated files and for bad addresses must name the problem and exit 1.
# Usage: objdump_format.py --hexsim BUILD/hexsim-objdump --work DIR
import argparse
import os
import sys

sys.dont_write_bytecode = True   # no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import odiff  # noqa: E402

FIXTURES = {
    "symbols": r"""
.text
  nop
.globl zz
.type zz,@function
zz:
aa:
.type obj1,@object
obj1:
  nop
.weak ww
ww:
  { r0 = r1 ; r2 = r3 ; r4 = r5; r6 = r7 }
.set mid, . + 4
  .long 0,0,0
  .long 0,0
  nop
  .long 0,0
  nop
  .long 0
  nop
.set abs1, 0x10
.type bb,@object
bb:
.type fa,@function
fa:
  nop
Zg:
ag:
  nop
.type t1,@tls_object
t1:
.type f1,@function
f1:
  nop
.type i1,@gnu_indirect_function
i1:
.type f2,@function
f2:
  nop
.type zo,@object
zo:
an:
  nop
.section .text.empty,"ax",@progbits
.section .text.two,"ax",@progbits
  nop
g:
  nop
.data
d: .long 1
""",
    "packets": r"""
.text
f:
  loop1(.La, #3)
.La:
  loop0(.Lb, #10)
.Lb:
  { r0 = add(r0,#1); r1 = add(r1,#1) }:endloop0:endloop1
  { r0 = add(r0,#1) }:endloop1
  { r0 = add(r0,#1); nop }:endloop1
  { r0 = add(r0,#1); r1 = add(r1,#1); nop;  }:endloop0
  { r1 = add(r1, ##123456) ; r2 = memw(r3+#8) }
  .long 0x70634002
mid1:
  .long 0x70654004
  .long 0x7f00c000
  .long 0x7f004000, 0x7f004000, 0x7f004000, 0x7f004000, 0x7f004000, 0x7f00c000
  .long 0x7f004000, 0xffffffff, 0x7f00c000
""",
    "data": r"""
.text
  nop
.type o1,@object
o1:
  .ascii "Hello, World! 0123456789abcdef"
  .long 0,0,0,0
  .ascii "xyz"
  .byte 0
.type o2,@object
o2:
  .long 0,0,0,0
  .ascii "ab"
  .byte 0,0
.type f3,@function
f3:
  nop
.type o4,@object
o4:
  .long 0x7f00c000
""",
    "tails": r"""
.section .text.a,"ax",@progbits
  .long 0x7f004000
  .long 0x7f004000
.section .text.c,"ax",@progbits
  .long 0x7f004000
  .short 0x1
.section .text.d,"ax",@progbits
  .long 0x7f00c000
  .byte 1
.section .text.e,"ax",@progbits
  .byte 1,2,3
.section .nb,"awx",@nobits
  .space 16
.data
  .long 0x11223344
""",
    "ranges": r"""
.text
.type o0,@object
o0:
 .long 0x7f00c000
 .long 0x7f00c000
f1:
  nop
  { r0 = r1; r2 = r3; r4 = add(r4,#100) }
  nop
.globl f2
f2:
  nop
  nop
.section .text.b,"ax",@progbits
  nop
h1:
  { r0 = r1; r2 = r3 }
  .long 0,0,0,0
  nop
""",
    "cpus": r"""
.text
  { r13 = memw_aq(r23) }
  { r1:0 = dfadd(r3:2,r5:4) }
  { r1:0 = vabsdiffb(r3:2,r5:4) }
  { r2 = add(r2,#1); r1:0 = dfadd(r3:2,r5:4); r3 = r4 }
  nop
""",
}
CPU_OPTIONS = [[], ["--mcpu=hexagonv60"], ["--mcpu=hexagonv62"], ["--mcpu=hexagonv67"],
               ["--mcpu=hexagonv68"]]

RANGE_OPTIONS = [[]] + [["--start-address=" + a] for a in
                        ["0", "4", "6", "8", "0xc", "0x10", "20", "0x18", "0x1c", "0x20",
                         "0b11", "010", "0o7", "0X1C", "0x1ffffffff"]] + \
    [["--stop-address=" + a] for a in ["1", "4", "8", "9", "0xc", "0x10", "0x19", "0x20"]] + \
    [["--start-address=0x10", "--stop-address=0x19"], ["--no-show-raw-insn"],
     ["--no-show-raw-insn", "--start-address=6", "--stop-address=0x15"]]

HOST_C = "int host_function(int x) { return x + 1; }\n"


def cli_checks(hexsim, work, fixture_obj):
    """Returns a list of failure messages for the command-line checks."""
    failures = []
    notelf = os.path.join(work, "notelf.txt")
    with open(notelf, "w") as f:
        f.write("hello\n")
    trunc = os.path.join(work, "truncated.elf")
    with open(fixture_obj, "rb") as f:
        head = f.read(100)
    with open(trunc, "wb") as f:
        f.write(head)
    host = os.path.join(work, "host.o")
    hsrc = os.path.join(work, "host.c")
    with open(hsrc, "w") as f:
        f.write(HOST_C)
    rc, _, _ = odiff.run([odiff.CLANG, "-c", hsrc, "-o", host], check=False)
    bad_files = [("missing", os.path.join(work, "no-such-file.o")), ("not ELF", notelf),
                 ("truncated", trunc)]
    if rc == 0:
        bad_files.append(("non-Hexagon ELF", host))
    for what, path in bad_files:
        rc, out, err = odiff.run([hexsim, "-d", path], check=False)
        if rc != 1 or path not in err or "error" not in err:
            failures.append("%s file: exit %d, stderr %r" % (what, rc, err.strip()))
        rc, out, err = odiff.run([hexsim, "-d", fixture_obj, path], check=False)
        if rc != 1 or "file format elf32-hexagon" not in out:
            failures.append("%s file after a good one: exit %d, stdout %d bytes" %
                            (what, rc, len(out)))
    for opts in (["--start-address=1e"], ["--stop-address=-4"], ["--start-address="],
                 ["--start-address=08"], ["--start-address=99999999999999999999"],
                 ["--start-address=0x10", "--stop-address=0x10"], ["--stop-address=0"],
                 ["--bogus"], ["--mcpu=foo"], ["--mcpu=v99"], []):
        rc, out, err = odiff.run([hexsim] + (opts if opts else []) +
                                 (["-d"] if opts else []) + [fixture_obj], check=False)
        if rc != 1 or "error" not in err:
            failures.append("options %s: exit %d, stderr %r" % (opts or "(no -d)", rc,
                                                                err.strip()))
    for opt, want in (("--help", "--start-address"), ("--version", "hexsim")):
        rc, out, _ = odiff.run([hexsim, opt], check=False)
        if rc != 0 or want not in out:
            failures.append("%s: exit %d, stdout %r" % (opt, rc, out[:80]))
    return failures


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--hexsim", required=True)
    ap.add_argument("--work", required=True)
    args = ap.parse_args()
    odiff.require(odiff.LLVM_MC, odiff.LLVM_OBJDUMP, odiff.CLANG)
    os.makedirs(args.work, exist_ok=True)
    objs = {}
    for name, text in FIXTURES.items():
        src = os.path.join(args.work, name + ".s")
        obj = os.path.join(args.work, name + ".o")
        with open(src, "w") as f:
            f.write(text)
        odiff.run([odiff.LLVM_MC, "-arch=hexagon", "-mv68", "-filetype=obj", src, "-o", obj])
        objs[name] = obj
    insns, diffs, listings = 0, [], 0
    for name, obj in objs.items():
        options = {"ranges": RANGE_OPTIONS, "cpus": CPU_OPTIONS}
        for opts in options.get(name, [[], ["--no-show-raw-insn"]]):
            lo, ho = odiff.objdump_pair(args.hexsim, [obj], opts)
            n, _, d = odiff.compare(lo, ho)
            insns += n
            listings += 1
            diffs += [(a and "[%s %s] %s" % (name, " ".join(opts), a), b) for a, b in d]
    lo, ho = odiff.objdump_pair(args.hexsim, list(objs.values()))
    n, _, d = odiff.compare(lo, ho)
    insns, listings, diffs = insns + n, listings + 1, diffs + d
    print("objdump_format: %d fixtures, %d listings" % (len(objs), listings))
    ok = odiff.report("objdump_format", insns, diffs)
    failures = cli_checks(args.hexsim, args.work, objs["symbols"])
    print("objdump_format: command-line checks: %d failures" % len(failures))
    for f in failures:
        print("  " + f)
    return 0 if ok and not failures else 1


if __name__ == "__main__":
    sys.exit(main())
