#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# Guest C programs (tests/isa/progs/*.c) built by clang-16 and disassembled by llvm-objdump-16
# and hexsim-objdump; the listings must be equal. Every program is compiled to an object at
# -O0, -O2 and -Os for -mv68, float.c and math64.c also for -mv60 and -mv67; all programs are
# linked into freestanding ELFs (start.c, helpers.c; ld.lld) at each level, and one ELF is also
# listed with --no-show-raw-insn and with --start-address/--stop-address ranges.
# Usage: programs.py --hexsim BUILD/hexsim-objdump --progs SRC/tests/isa/progs --work DIR
import argparse
import concurrent.futures
import glob
import os
import re
import sys

sys.dont_write_bytecode = True   # no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import odiff  # noqa: E402

TARGET = ["--target=hexagon-unknown-linux-musl", "-ffreestanding", "-fno-builtin",
          "-Wall", "-Werror"]
LEVELS = ["-O0", "-O2", "-Os"]
EXTRA_CPUS = {"float.c": ["-mv60", "-mv67"], "math64.c": ["-mv60", "-mv67"]}


def build(job):
    kind, out, srcs, flags = job
    cmd = [odiff.CLANG] + TARGET + flags + srcs + ["-o", out]
    if kind == "obj":
        cmd.insert(1, "-c")
    else:
        cmd[1:1] = ["-nostdlib", "-static", "-fuse-ld=lld"]
    odiff.run(cmd)
    return out


def text_range(listing):
    """Addresses of the first and last instruction lines of a listing."""
    addrs = [int(m.group(1), 16) for m in re.finditer(r"^ *([0-9a-f]+):\t", listing, re.M)]
    return min(addrs), max(addrs)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--hexsim", required=True)
    ap.add_argument("--progs", required=True)
    ap.add_argument("--work", required=True)
    ap.add_argument("--diffs", help="file to write every differing line to")
    args = ap.parse_args()
    odiff.require(odiff.CLANG, odiff.LLVM_OBJDUMP)
    os.makedirs(args.work, exist_ok=True)
    progs = sorted(glob.glob(os.path.join(args.progs, "*.c")))
    jobs = []
    for src in progs:
        base = os.path.splitext(os.path.basename(src))[0]
        cpus = ["-mv68"] + EXTRA_CPUS.get(os.path.basename(src), [])
        for cpu in cpus:
            for level in LEVELS:
                out = os.path.join(args.work, "%s%s%s.o" % (base, level, cpu))
                jobs.append(("obj", out, [src], [cpu, level]))
    links = []
    for cpu, levels in (("-mv68", LEVELS), ("-mv67", ["-O2"])):
        for level in levels:
            out = os.path.join(args.work, "progs%s%s.elf" % (level, cpu))
            links.append(out)
            jobs.append(("elf", out, progs, [cpu, level]))
    with concurrent.futures.ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as ex:
        files = list(ex.map(build, jobs))

    # Comparisons: every file, then one ELF with the listing options.
    runs = [([f], []) for f in files]
    elf = links[1]
    lo, _ = odiff.objdump_pair(args.hexsim, [elf])
    first, last = text_range(lo)
    mid = (first + last) // 2 & ~3
    runs += [
        ([elf], ["--no-show-raw-insn"]),
        ([elf], ["--start-address=0x%x" % (first + 0x44), "--stop-address=%d" % mid]),
        ([elf], ["--start-address=%d" % (mid + 6), "--stop-address=0x%x" % (last - 0x20)]),
        ([elf], ["--no-show-raw-insn", "--start-address=0x%X" % (mid + 2)]),
        ([elf], ["--stop-address=0x%x" % (first + 0x30)]),
        (files[:3], []),   # several inputs in one run
    ]

    insns, unknown, diffs = odiff.compare_runs(args.hexsim, runs)
    print("programs: %d programs, %d objects and %d linked ELFs built, %d listings compared "
          "(%d with listing options)" % (len(progs), len(files) - len(links), len(links),
                                         len(runs), len(runs) - len(files)))
    print("programs: llvm-objdump printed %d instruction lines, %d of them <unknown>" %
          (insns, unknown))
    ok = odiff.report("programs", insns, diffs, all_diffs_path=args.diffs)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
