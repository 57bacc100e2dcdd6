#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# Compares the listings of llvm-objdump-16 -d and hexsim-objdump -d for given Hexagon ELF files
# (e.g. the guest kernel vmlinux). Linked files are listed in address ranges of RANGE bytes of
# their executable sections (--start-address/--stop-address), the ranges in parallel, so that a
# large kernel is compared in reasonable time and memory.
# Usage: elf_diff.py --hexsim BUILD/hexsim-objdump [--optional] [--name NAME] FILE...
# With --optional, a missing FILE makes the test skip (exit 77) instead of fail.
import argparse
import os
import struct
import sys

sys.dont_write_bytecode = True   # no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import odiff  # noqa: E402

RANGE = 1 << 20
SKIP = 77


def exec_ranges(path):
    """[(start, stop)] covering the SHF_EXECINSTR sections of a linked ELF32, or None for an
    object file (whose sections all start at 0) or anything unexpected."""
    with open(path, "rb") as f:
        data = f.read()
    if len(data) < 52 or data[:4] != b"\x7fELF" or data[4] != 1 or data[5] != 1:
        return None
    e_type, = struct.unpack_from("<H", data, 16)
    e_shoff, = struct.unpack_from("<I", data, 32)
    e_shentsize, e_shnum = struct.unpack_from("<HH", data, 46)
    if e_type == 1 or e_shentsize < 40 or e_shoff + e_shnum * e_shentsize > len(data):
        return None
    ranges = []
    for i in range(e_shnum):
        _, sh_type, flags, addr, _, size = struct.unpack_from("<IIIIII", data,
                                                              e_shoff + i * e_shentsize)
        if flags & 4 and sh_type != 8 and size:
            for start in range(addr, addr + size, RANGE):
                ranges.append((start, min(start + RANGE, addr + size)))
    return ranges


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--hexsim", required=True)
    ap.add_argument("--optional", action="store_true")
    ap.add_argument("--name", default="elf_diff")
    ap.add_argument("--diffs", help="file to write every differing line to")
    ap.add_argument("files", nargs="+")
    args = ap.parse_args()
    odiff.require(odiff.LLVM_OBJDUMP)
    missing = [f for f in args.files if not os.path.isfile(f)]
    if missing:
        if args.optional:
            print("%s: SKIP: %s not found. Build the guest kernel (guest/linux) or configure "
                  "with -DHEXSIM_VMLINUX=/path/to/vmlinux." % (args.name, ", ".join(missing)))
            return SKIP
        print("%s: %s not found" % (args.name, ", ".join(missing)))
        return 1
    runs = []
    for f in args.files:
        ranges = exec_ranges(f)
        if not ranges:
            runs.append((f, []))
        for start, stop in ranges or []:
            runs.append((f, ["--start-address=0x%x" % start, "--stop-address=0x%x" % stop]))

    insns, unknown, diffs = odiff.compare_runs(args.hexsim, [([f], extra) for f, extra in runs])
    print("%s: %d files in %d listings; llvm-objdump printed %d instruction lines, %d of them "
          "<unknown>" % (args.name, len(args.files), len(runs), insns, unknown))
    ok = odiff.report(args.name, insns, diffs, all_diffs_path=args.diffs)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
