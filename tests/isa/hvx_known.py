#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# Known values for the HVX rows qemu-hexagon 7.2 cannot run (newer than V67; the others are
# compared with qemu by hvx_exec.py): tests/isa/hvx_known_values.txt gives packets with their
# input vectors and scalars and the expected vectors, computed by hand from the HVX PRM's
# pseudo-code. One program runs them all: it loads each case's v0-v15 and r0-r7, runs the
# packet, stores v0-v15 and at the end writes every case's vectors to stdout; it runs under
# `hexsim --user` (by default, with --jit-threshold 1 and with --no-jit: the three must give
# the same bytes) and the expected vectors are compared. Every row of the --cover files that
# qemu-hexagon 7.2 cannot run must have known values.
# Usage: hvx_known.py --hexsim build/hexsim --isa-dir src/cpu/isa --work DIR
#        [--cover hvx_perm.isa,hvx_shift.isa] [--known FILE]
import argparse
import os
import re
import shutil
import subprocess
import sys

sys.dont_write_bytecode = True   # no __pycache__ in the source tree
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import table_entries as TE  # noqa: E402

LLVM_MC = os.environ.get("LLVM_MC", "llvm-mc-16")
LLD = os.environ.get("LLD", "ld.lld-16")
NVEC = 16            # v0-v15 hold each case's inputs and are all compared
SPAN = NVEC * 128
# hexsim runs each program as it runs by default (the block compiler at its threshold) and
# also compiling every block at once and interpreting only
HEXSIM_MODES = [["--jit-threshold", "1"], ["--no-jit"]]


def arch_of(row):
    return max([int(a[6:]) for a in row.attrs if re.fullmatch(r"arch=v\d+", a)] or [60])


def program(cases, path):
    """cases: [(insn text, [16 vectors], [8 scalars])]"""
    lines = [".text", ".globl _start", "_start:"]
    for k, (insn, _vecs, regs) in enumerate(cases):
        lines.append("// case %d" % k)
        for half in range(2):
            lines.append("{ r10 = ##in%d+%d }" % (k, half * 1024))
            for i in range(8):
                lines.append("{ v%d = vmem(r10+#%d) }" % (half * 8 + i, i))
        for i, v in enumerate(regs):
            lines.append("{ r%d = ##0x%08x }" % (i, v))
        lines.append("{ %s }" % insn)
        for half in range(2):
            lines.append("{ r10 = ##out+%d }" % (k * SPAN + half * 1024))
            for i in range(8):
                lines.append("{ vmem(r10+#%d) = v%d }" % (i, half * 8 + i))
    lines += ["{ r0 = #1; r1 = ##out }", "{ r2 = ##%d; r6 = #64 }" % (len(cases) * SPAN),
              "{ trap0(#1) }", "{ r0 = #0; r6 = #93 }", "{ trap0(#1) }",
              ".data", ".p2align 7"]
    for k, (_insn, vecs, _regs) in enumerate(cases):
        lines.append("in%d:" % k)
        for v in vecs:
            for j in range(0, 128, 16):
                lines.append(".byte " + ",".join("0x%02x" % b for b in v[j:j + 16]))
    lines += [".bss", ".p2align 7", "out:", ".space %d" % max(len(cases) * SPAN, 128)]
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")


def build(src, elf, mcpu):
    obj = elf + ".o"
    for cmd in ([LLVM_MC, "-arch=hexagon", "-mcpu=" + mcpu, "-mhvx",
                 "-mattr=+hvxv%s,+hvx-length128b" % mcpu[-2:], "-filetype=obj", src, "-o", obj],
                [LLD, "-static", "-o", elf, obj]):
        p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        if p.returncode:
            sys.exit("%s failed: %s" % (cmd[0], p.stderr.strip()[:2000]))


def run(cmd, n):
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=600)
    if p.returncode or len(p.stdout) != n * SPAN:
        sys.exit("%s: exit %s, %d bytes of %d; %s" % (" ".join(cmd), p.returncode,
                                                     len(p.stdout), n * SPAN,
                                                     p.stderr.decode(errors="replace")[-2000:]))
    return p.stdout


def hexdiff(a, b):
    lanes = [i for i in range(128) if a[i] != b[i]]
    return "bytes %s...: want %s got %s" % (lanes[:8], a[lanes[0]:lanes[0] + 8].hex(),
                                           b[lanes[0]:lanes[0] + 8].hex())


def load_known(path):
    """hvx_known_values.txt: blocks `TAG | insn` followed by `vN = <pattern>` inputs,
    `rN = value` scalars and `=> vN = <pattern>` expected outputs; a pattern is `bytes:` or
    `h:`/`w:` then lane values, repeated cyclically to fill 128 bytes."""
    blocks, cur = [], None
    with open(path) as f:
        for lineno, line in enumerate(f, 1):
            s = line.split("//")[0].strip()
            if not s or s.startswith("#"):
                continue
            if "|" in s:
                tag, insn = [x.strip() for x in s.split("|", 1)]
                cur = {"tag": tag, "insn": insn, "v": {}, "r": {}, "want": {},
                       "where": "%s:%d" % (os.path.basename(path), lineno)}
                blocks.append(cur)
                continue
            m = re.fullmatch(r"(=>\s*)?([vr])(\d+)\s*=\s*(.*)", s)
            if not m or cur is None:
                sys.exit("%s:%d: cannot parse %r" % (path, lineno, s))
            arrow, kind, n, val = m.groups()
            if kind == "r":
                cur["r"][int(n)] = int(val, 0) & 0xffffffff
            else:
                size, vals = val.split(":", 1)
                size = {"b": 1, "h": 2, "w": 4}[size.strip()]
                lanes = [int(x, 0) for x in vals.replace(",", " ").split()]
                data = bytearray()
                while len(data) < 128:
                    data += (lanes[(len(data) // size) % len(lanes)] &
                             ((1 << 8 * size) - 1)).to_bytes(size, "little")
                (cur["want"] if arrow else cur["v"])[int(n)] = bytes(data)
    return blocks


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--hexsim", required=True)
    ap.add_argument("--isa-dir", required=True)
    ap.add_argument("--work", required=True)
    ap.add_argument("--cover", default="hvx_perm.isa,hvx_shift.isa",
                    help="files whose rows newer than V67 must all have known values")
    ap.add_argument("--known", default=os.path.join(HERE, "hvx_known_values.txt"))
    args = ap.parse_args()
    for tool in (LLVM_MC, LLD):
        if not shutil.which(tool):
            print("SKIP: %s not found" % tool)
            return 77
    os.makedirs(args.work, exist_ok=True)
    rows, _ = TE.load_table(args.isa_dir)
    tags = {r.tag for r in rows}
    cover = set(args.cover.split(","))
    newer = {r.tag for r in rows if r.where.split(":")[0] in cover and arch_of(r) > 67}
    known = load_known(args.known)
    failures = 0
    for b in known:
        if b["tag"] not in tags:
            failures += 1
            print("FAIL %s: no row %s" % (b["where"], b["tag"]))
    missing = sorted(newer - {b["tag"] for b in known})
    if missing:
        failures += len(missing)
        print("FAIL: no known values for %s" % " ".join(missing))
    cases = []
    for b in known:
        vecs = [b["v"].get(n, bytes(128)) for n in range(NVEC)]
        regs = [b["r"].get(n, 0) for n in range(8)]
        cases.append((b["insn"], vecs, regs))
    base = os.path.join(args.work, "known")
    program(cases, base + ".s")
    build(base + ".s", base, "hexagonv73")
    hexsim = [args.hexsim, "--user"]
    got = run(hexsim + [base], len(cases))
    for mode in HEXSIM_MODES:
        if run(hexsim[:1] + mode + hexsim[1:] + [base], len(cases)) != got:
            failures += 1
            print("FAIL: hexsim %s differs from its default run" % " ".join(mode))
    for k, b in enumerate(known):
        for n, want in sorted(b["want"].items()):
            have = got[k * SPAN + n * 128:k * SPAN + (n + 1) * 128]
            if have != want:
                failures += 1
                print("MISMATCH %s (%s): %s: v%d %s" % (b["tag"], b["where"], b["insn"],
                                                        n, hexdiff(want, have)))
    print("hvx_known: %d cases of %d rows, %d mismatches" %
          (len(known), len({b["tag"] for b in known}), failures))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
