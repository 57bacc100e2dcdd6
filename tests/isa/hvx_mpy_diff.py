#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# Differential test of the HVX multiply group (every row of src/cpu/isa/hvx_mpy.isa) against
# qemu-hexagon 7.2, until the HVX differential harness of tests/isa covers these rows.
#
# For each row: CASES cases, each a fresh random state of v0-v31 (random bytes, or lanes of
# 1, 2 or 4 bytes drawn from edge values: 0, +-1, the extremes and their neighbours, for the
# saturating forms), random r1-r5 (Rt, Rtt; sometimes edge values), random operand registers
# (any of v0-v31, pairs of either order: an odd pair field names the reversed pair) and
# immediates. The case loads the vectors, runs the row's instruction in a packet of its own,
# stores v0-v31 and writes them to stdout. One program per row runs under `qemu-hexagon -cpu
# v67` (qemu 7.2 takes v68+ code only that way) and `hexsim --user`, compiled and with
# --no-jit; the outputs must be equal.
#
# Rows qemu-hexagon 7.2 does not implement (it stops on them) are checked instead against
# hvx_mpy_known.txt: lane values computed by hand from the HVX Programmer's Reference Manual.
# A row qemu cannot run and that has no known values is a failure; so is a row hexsim reports
# as unimplemented (hexsim stops with "unimplemented instruction"), unless it is in PENDING.
#
# Exit status: 0 when every row matches; 1 otherwise; 77 when qemu-hexagon, llvm-mc-16 or
# ld.lld-16 is missing. Usage: hvx_mpy_diff.py --hexsim build/hexsim --work DIR
#                               [--qemu qemu-hexagon] [--cases N] [--seed S] [--only REGEX]
import argparse
import os
import random
import re
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
ISA = os.path.join(ROOT, "src", "cpu", "isa", "hvx_mpy.isa")
KNOWN = os.path.join(HERE, "hvx_mpy_known.txt")
LLVM_MC = os.environ.get("LLVM_MC", "llvm-mc-16")
LLD = os.environ.get("LLD", "ld.lld-16")
VB = 128                     # vector bytes
# Rows whose semantics are not written yet (hexsim stops on them): the V68 v6mpy rows and the
# V65 vrmpy with Rtt, which qemu-hexagon 7.2 does not implement either.
PENDING = {"V6_v6mpyhubs10", "V6_v6mpyhubs10_vxx", "V6_v6mpyvubs10", "V6_v6mpyvubs10_vxx",
           "V6_vrmpybub_rtt", "V6_vrmpybub_rtt_acc", "V6_vrmpyub_rtt", "V6_vrmpyub_rtt_acc"}

EDGE = {1: [0, 1, 0x7f, 0x80, 0x81, 0xff, 0xfe, 0x7e],
        2: [0, 1, 0x7fff, 0x8000, 0x8001, 0xffff, 0xfffe, 0x7ffe, 0x00ff, 0xff00],
        4: [0, 1, 0x7fffffff, 0x80000000, 0x80000001, 0xffffffff, 0xfffffffe, 0x0000ffff,
            0xffff0000, 0x00008000]}
REDGE = [0, 1, 0xffffffff, 0x7fffffff, 0x80000000, 0x80808080, 0x7f7f7f7f, 0x80008000,
         0x7fff7fff, 0xffff0001, 0x01ff7f80]


def load_rows(only):
    rows = []
    for line in open(ISA):
        if line.startswith("V6_"):
            f = [c.strip() for c in line.split("|")]
            if not only or re.search(only, f[0]):
                rows.append((f[0], f[1].replace(" ", ""), f[2]))
    return rows


def vector(rng):
    mode = rng.choice(["rand", "rand", 1, 2, 4])
    if mode == "rand":
        return bytes(rng.getrandbits(8) for _ in range(VB))
    out = b""
    for _ in range(VB // mode):
        v = rng.choice(EDGE[mode]) if rng.random() < 0.6 else rng.getrandbits(8 * mode)
        out += v.to_bytes(mode, "little")
    return out


def pair_name(n):
    return "v%d:%d" % ((n + 1, n) if n % 2 == 0 else (n - 1, n))


def instantiate(encoding, syntax, rng):
    """The instruction text with random operands (v0-v31, pairs of both orders, r1-r5,
    immediates in the field's range)."""
    text = syntax
    for name in sorted(set(re.findall(r"\b([VR][a-z]{1,2}32)\b", syntax)), key=len, reverse=True):
        pair = len(name) == 5
        if name[0] == "V":
            n = rng.randrange(32)
            text = re.sub(r"\b%s\b" % name, pair_name(n) if pair else "v%d" % n, text)
        else:
            n = rng.choice([2, 4]) if pair else rng.randrange(1, 6)
            text = re.sub(r"\b%s\b" % name, "r%d:%d" % (n + 1, n) if pair else "r%d" % n, text)
    if "#Ii" in text:
        text = text.replace("#Ii", "#%d" % rng.randrange(1 << encoding.count("i")))
    return text


def program(cases):
    """Assembly of a program running `cases`: [(instruction, [32 vectors], [r1..r5])]."""
    s = ["    .text", "    .globl _start", "_start:"]
    for c, (insn, _, regs) in enumerate(cases):
        s.append("    r0 = ##img%d" % c)
        s += ["    { v%d = vmem(r0++#1) }" % k for k in range(32)]
        s += ["    r%d = ##0x%x" % (k + 1, v) for k, v in enumerate(regs)]
        s.append("    { %s }" % insn)
        s.append("    r0 = ##out")
        s += ["    { vmem(r0++#1) = v%d }" % k for k in range(32)]
        s += ["    { r0 = #1; r1 = ##out }", "    { r2 = ##%d; r6 = #64 }" % (32 * VB),
              "    trap0(#1)"]
    s += ["    { r0 = #0; r6 = #93 }", "    trap0(#1)", "    .data", "    .p2align 7",
          "out:", "    .space %d" % (32 * VB)]
    for c, (_, vecs, _) in enumerate(cases):
        s.append("img%d:" % c)
        data = b"".join(vecs)
        for k in range(0, len(data), 32):
            s.append("    .byte " + ",".join(str(b) for b in data[k:k + 32]))
    return "\n".join(s) + "\n"


def build(src, work, name):
    path = os.path.join(work, name)
    with open(path + ".s", "w") as f:
        f.write(src)
    subprocess.run([LLVM_MC, "-arch=hexagon", "-mcpu=hexagonv69", "-mhvx", "-filetype=obj",
                    path + ".s", "-o", path + ".o"], check=True)
    subprocess.run([LLD, "-static", "-o", path, path + ".o"], check=True)
    return path


def run(cmd):
    try:
        p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=120)
    except subprocess.TimeoutExpired:
        return -1, b"", "timeout"
    return p.returncode, p.stdout, p.stderr.decode("utf-8", "replace")


def first_difference(cases, q, h):
    for c, (insn, _, _) in enumerate(cases):
        a, b = q[c * 32 * VB:(c + 1) * 32 * VB], h[c * 32 * VB:(c + 1) * 32 * VB]
        if a != b:
            k = next(i for i in range(len(a)) if i >= len(b) or a[i] != b[i])
            v, off = divmod(k, VB)
            w = off & ~3
            return ("case %d `%s`: v%d byte %d: qemu word %s, hexsim %s" %
                    (c, insn, v, off, a[v * VB + w:v * VB + w + 4].hex(),
                     b[v * VB + w:v * VB + w + 4].hex() if len(b) > v * VB + w else "(none)"))
    return "outputs of different lengths (qemu %d, hexsim %d bytes)" % (len(q), len(h))


# ---- known values (hvx_mpy_known.txt)
def load_known():
    """[(name, tag, instruction, {reg: (lane size, [values])}, {reg: (size, [values])})]:
    the listed lanes repeat to fill the vector."""
    out, cur = [], None
    for line in open(KNOWN):
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        m = re.fullmatch(r"\[(\w+)\]", line)
        if m:
            cur = {"name": m.group(1), "in": {}, "expect": {}}
            out.append(cur)
            continue
        key, _, val = line.partition(":")
        key, val = key.strip(), val.strip()
        if key in ("tag", "insn"):
            cur[key] = val
        elif key in ("in", "expect"):
            reg, size, *vals = val.split()
            cur[key][reg] = (int(size), [int(v, 0) for v in vals])
        else:
            raise SystemExit("%s: unknown key %r" % (KNOWN, key))
    return out


def fill(size, vals):
    lanes = [vals[i % len(vals)] for i in range(VB // size)]
    return b"".join(v.to_bytes(size, "little") for v in lanes)


def check_known(entries, hexsim, work):
    """Runs every entry under hexsim; returns (tags checked, failure messages)."""
    cases, fails = [], []
    for e in entries:
        vecs = [bytes(VB)] * 32
        regs = [0] * 5
        for reg, (size, vals) in e["in"].items():
            if reg[0] == "v":
                vecs[int(reg[1:])] = fill(size, vals)
            else:
                regs[int(reg[1:]) - 1] = vals[0]
        cases.append((e["insn"], vecs, regs))
    elf = build(program(cases), work, "known")
    rc, out, err = run([hexsim, "--user", elf])
    if rc != 0:
        return set(), ["known values: hexsim exit %d: %s" % (rc, err.strip()[:300])]
    if run([hexsim, "--user", "--no-jit", elf])[:2] != (rc, out):
        fails.append("known values: hexsim --no-jit differs from compiled")
    for c, e in enumerate(entries):
        for reg, (size, vals) in e["expect"].items():
            n = int(reg[1:])
            got = out[(c * 32 + n) * VB:(c * 32 + n + 1) * VB]
            if got != fill(size, vals):
                fails.append("known value [%s] `%s`: %s is %s, the manual gives %s" %
                             (e["name"], e["insn"], reg, got[:16].hex(), fill(size, vals)[:16].hex()))
    return {e["tag"] for e in entries}, fails


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--hexsim", required=True)
    ap.add_argument("--qemu", default="qemu-hexagon")
    ap.add_argument("--work", required=True)
    ap.add_argument("--cases", type=int, default=int(os.environ.get("HEXSIM_HVX_CASES", "24")))
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--only")
    args = ap.parse_args()
    for tool in (args.qemu, LLVM_MC, LLD):
        if not shutil.which(tool):
            print("SKIP: %s not found" % tool)
            return 77
    os.makedirs(args.work, exist_ok=True)
    rows = load_rows(args.only)
    known_entries = [e for e in load_known() if not args.only or re.search(args.only, e["tag"])]
    known_tags, fails = check_known(known_entries, args.hexsim, args.work) if known_entries else (set(), [])
    compared = qemu_cannot = pending = 0
    for tag, enc, syntax in rows:
        rng = random.Random("%d:%s" % (args.seed, tag))
        cases = [(instantiate(enc, syntax, rng), [vector(rng) for _ in range(32)],
                  [rng.choice(REDGE) if rng.random() < 0.3 else rng.getrandbits(32)
                   for _ in range(5)]) for _ in range(args.cases)]
        elf = build(program(cases), args.work, tag)
        qrc, qout, qerr = run([args.qemu, "-cpu", "v67", elf])
        hrc, hout, herr = run([args.hexsim, "--user", elf])
        irc, iout, ierr = run([args.hexsim, "--user", "--no-jit", elf])
        if (irc, iout) != (hrc, hout) and "unimplemented instruction" not in herr:
            fails.append("%s: hexsim --no-jit differs from compiled: exit %d/%d %s" %
                         (tag, irc, hrc, ierr.strip()[:200]))
        if "unimplemented instruction" in herr:
            if tag in PENDING:
                pending += 1
                continue
            fails.append("%s: hexsim: %s" % (tag, herr.strip().splitlines()[0]))
            continue
        if tag in PENDING:
            fails.append("%s: implemented now: remove it from PENDING" % tag)
        if qrc != 0:
            qemu_cannot += 1
            if tag not in known_tags:
                fails.append("%s: qemu-hexagon cannot run it (exit %d) and hvx_mpy_known.txt has "
                             "no known values for it" % (tag, qrc))
            continue
        if hrc != 0:
            fails.append("%s: hexsim exit %d: %s" % (tag, hrc, herr.strip()[:300]))
            continue
        compared += 1
        if qout != hout:
            fails.append("%s: %s" % (tag, first_difference(cases, qout, hout)))
    for f in fails:
        print("FAIL " + f)
    print("hvx_mpy_diff: %d rows, %d compared with qemu-hexagon (%d cases each), %d checked "
          "against the manual's known values (%d entries), %d qemu cannot run, %d pending; "
          "%d failures" % (len(rows), compared, args.cases, len(known_tags), len(known_entries),
                           qemu_cannot, pending, len(fails)))
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
