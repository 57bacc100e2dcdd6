#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# Differential test of the semantics of HVX compute rows (src/cpu/isa/hvx_<group>.isa):
# every row of the given files runs in --cases cases, each with random contents in v0-v15
# (lanes mixing random values with 0, -1 and the saturation edges), random scalar operands
# in r0-r7 and random immediates, its vector operands drawn at random from v0-v15 (pairs:
# any field, the odd ones naming the reversed pairs), so sources and destinations overlap. A program per file loads each case's vectors, sets r0-r7, runs the row
# as a packet of its own, stores v0-v15 and at the end writes every case's vectors to
# stdout; the program runs under qemu-hexagon 7.2 (-cpu v67) and `hexsim --user` (also with
# --jit-threshold 1 and --no-jit, which must give the same bytes), and the outputs are
# compared vector by vector. Rows newer than qemu 7.2 runs (arch above v68) run
# in a second program under hexsim only, compared with the expected values of
# tests/isa/hvx_known_values.txt (hand-computed from the HVX PRM's pseudo-code).
# Usage: hvx_sem_diff.py --hexsim build/hexsim --isa-dir src/cpu/isa --work DIR
#        [--files hvx_perm.isa,hvx_shift.isa] [--only REGEX] [--cases N] [--seed S]
import argparse
import os
import random
import re
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import table_entries as TE  # noqa: E402

LLVM_MC = os.environ.get("LLVM_MC", "llvm-mc-16")
LLD = os.environ.get("LLD", "ld.lld-16")
QEMU = os.environ.get("QEMU_HEXAGON", "qemu-hexagon")
NVEC = 16            # v0-v15 hold each case's inputs and are all compared
OPND = re.compile(r"\b([VRQ])([a-z])(\2?)(32|8|4)\b|#Ii\b")
SPAN = NVEC * 128
# hexsim runs each program as it runs by default (the block compiler at its threshold) and
# also compiling every block at once and interpreting only
HEXSIM_MODES = [["--jit-threshold", "1"], ["--no-jit"]]


def arch_of(row):
    return max([int(a[6:]) for a in row.attrs if re.fullmatch(r"arch=v\d+", a)] or [60])


def rand_lane(rng, size):
    bits = 8 * size
    r = rng.random()
    if r < 0.55:
        return rng.getrandbits(bits)
    if r < 0.75:
        return rng.choice([0, (1 << bits) - 1, 1 << (bits - 1), (1 << (bits - 1)) - 1, 1])
    if r < 0.9:   # small magnitudes, both signs (shift amounts, table indices)
        v = rng.randrange(0, 40)
        return v if rng.random() < 0.5 else ((1 << bits) - v) & ((1 << bits) - 1)
    # near a narrower lane's saturation edge
    edge = rng.choice([0x7f, 0x80, 0xff, 0x100, 0x7fff, 0x8000, 0xffff, 0x10000])
    return (edge + rng.randrange(-2, 3)) & ((1 << bits) - 1)


def rand_vector(rng):
    size = rng.choice([1, 2, 4])
    out = bytearray()
    while len(out) < 128:
        out += rand_lane(rng, size).to_bytes(size, "little")
    return bytes(out)


def rand_scalar(rng):
    r = rng.random()
    if r < 0.4:
        return rng.randrange(0, 256)
    if r < 0.6:
        return rng.randrange(0, 33)
    return rng.getrandbits(32)


def instantiate(row, rng):
    """The row's syntax with operands chosen; returns (text, description)."""
    used = {}
    out = []
    pos = 0
    for m in OPND.finditer(row.syntax):
        out.append(row.syntax[pos:m.start()])
        pos = m.end()
        if m.group(0) == "#Ii":
            signed, _scale = row.imm.get("Ii", (False, 0))
            bits = row.bits("Ii")
            v = rng.randrange(0, 1 << bits)
            out.append("#%d" % v)
            continue
        kind, letter, dbl, width = m.groups()
        if kind == "R":
            n = rng.randrange(0, 8)
            out.append("r%d" % n)
        elif kind == "V" and dbl:
            # an even field n names vn+1:vn, an odd one (V67 on) the reversed pair vn-1:vn
            n = rng.randrange(0, NVEC)
            used[letter] = n
            out.append("v%d:%d" % (n + 1 if n % 2 == 0 else n - 1, n))
        elif kind == "V":
            while True:
                n = rng.randrange(0, NVEC)
                # vshuff/vdeal(Vy,Vx): two different registers
                if not (letter in "xy" and n in [used.get(c) for c in "xy"]):
                    break
            used[letter] = n
            out.append("v%d" % n)
        else:
            raise ValueError("%s: operand %s not supported by this test" % (row.tag, m.group(0)))
    out.append(row.syntax[pos:])
    return "".join(out)


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
    ap.add_argument("--files", default="hvx_perm.isa,hvx_shift.isa")
    ap.add_argument("--only", default=None, help="regex on row tags")
    ap.add_argument("--cases", type=int, default=int(os.environ.get("HEXSIM_HVX_CASES", "6")))
    ap.add_argument("--seed", type=int, default=int(os.environ.get("HEXSIM_RANDOM_SEED", "1")))
    ap.add_argument("--known", default=os.path.join(HERE, "hvx_known_values.txt"))
    args = ap.parse_args()
    for tool in (LLVM_MC, LLD, QEMU):
        if not shutil.which(tool):
            print("SKIP: %s not found" % tool)
            return 77
    os.makedirs(args.work, exist_ok=True)
    rows, _ = TE.load_table(args.isa_dir)
    files = set(args.files.split(","))
    rows = [r for r in rows if r.where.split(":")[0] in files and
            (not args.only or re.search(args.only, r.tag))]
    rng = random.Random(args.seed)
    hexsim = [args.hexsim, "--user"]
    failures = 0
    compared = 0
    newer = [r for r in rows if arch_of(r) > 68]
    older = [r for r in rows if arch_of(r) <= 68]
    # rows qemu-hexagon 7.2 runs: random cases compared with it
    for fname in sorted(files):
        frows = [r for r in older if r.where.startswith(fname + ":")]
        if not frows:
            continue
        cases, owner = [], []
        for r in frows:
            for _ in range(args.cases):
                vecs = [rand_vector(rng) for _ in range(NVEC)]
                regs = [rand_scalar(rng) for _ in range(8)]
                cases.append((instantiate(r, rng), vecs, regs))
                owner.append(r.tag)
        base = os.path.join(args.work, fname.replace(".isa", ""))
        program(cases, base + ".s")
        build(base + ".s", base, "hexagonv68")
        want = run([QEMU, "-cpu", "v67", base], len(cases))
        got = run(hexsim + [base], len(cases))
        for mode in HEXSIM_MODES:   # the other execution paths give the same bytes
            if run(hexsim[:1] + mode + hexsim[1:] + [base], len(cases)) != got:
                failures += 1
                print("FAIL %s: hexsim %s differs from hexsim's default run" % (fname, mode))
        bad_rows = set()
        for k, (insn, _v, regs) in enumerate(cases):
            compared += 1
            for n in range(NVEC):
                a = want[k * SPAN + n * 128:k * SPAN + (n + 1) * 128]
                b = got[k * SPAN + n * 128:k * SPAN + (n + 1) * 128]
                if a != b:
                    failures += 1
                    bad_rows.add(owner[k])
                    print("MISMATCH %s case %d: %s (r0-r7 %s): v%d %s" %
                          (owner[k], k, insn, " ".join("%x" % x for x in regs), n,
                           hexdiff(a, b)))
                    break
        print("%s: %d rows, %d cases against qemu-hexagon, %d rows differ%s" %
              (fname, len(frows), len(cases), len(bad_rows),
               (": " + " ".join(sorted(bad_rows))) if bad_rows else ""))
    # rows qemu-hexagon 7.2 cannot run: known values from the PRM
    if newer:
        known = [b for b in load_known(args.known) if b["tag"] in {r.tag for r in newer}]
        missing = sorted({r.tag for r in newer} - {b["tag"] for b in known})
        if missing:
            print("FAIL: no known values for %s" % " ".join(missing))
            failures += len(missing)
        if known:
            cases = []
            for b in known:
                vecs = [b["v"].get(n, bytes(128)) for n in range(NVEC)]
                regs = [b["r"].get(n, 0) for n in range(8)]
                cases.append((b["insn"], vecs, regs))
            base = os.path.join(args.work, "known")
            program(cases, base + ".s")
            build(base + ".s", base, "hexagonv73")
            got = run(hexsim + [base], len(cases))
            for mode in HEXSIM_MODES:
                if run(hexsim[:1] + mode + hexsim[1:] + [base], len(cases)) != got:
                    failures += 1
                    print("FAIL known values: hexsim %s differs from its default run" % mode)
            for k, b in enumerate(known):
                compared += 1
                for n, want in sorted(b["want"].items()):
                    have = got[k * SPAN + n * 128:k * SPAN + (n + 1) * 128]
                    if have != want:
                        failures += 1
                        print("MISMATCH %s (%s): %s: v%d %s" % (b["tag"], b["where"], b["insn"],
                                                                n, hexdiff(want, have)))
            print("known values (PRM) for %d rows qemu-hexagon 7.2 cannot run: %d cases"
                  % (len({b['tag'] for b in known}), len(known)))
    print("%d cases compared, %d mismatches" % (compared, failures))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
