#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# Per-instruction differential execution test of the HVX rows (src/cpu/isa/hvx_*.isa):
# every row qemu-hexagon 7.2 runs (`-cpu v67`: HVX up to V67, without the V68 floating
# point) is executed in random cases under qemu-hexagon and `hexsim --user`, and the state
# after each case must be equal byte for byte: r0-r27, the 32 vector registers, the 4
# vector predicates and a 4 KiB scratch buffer. The V68 IEEE floating-point rows that
# qemu-hexagon 7.2 lacks and that have a host model here (HOST_MODEL: Python's IEEE binary64
# arithmetic rounded once, to nearest even, to binary16/binary32 by struct; a NaN result is
# the all-ones default NaN) run under hexsim only, and the record must equal the case's
# inputs with the destination replaced by the model's lanes.
#
# One program per row (hexsim stops at the first instruction without semantics: the row is
# then pending, listed in tests/isa/hvx_pending.txt). Each case
#   - copies its random image into the scratch buffer, sets q0-q3 (from random vectors:
#     qN = vand(vN,r27) with r27 = -1), v0-v31 (random bytes, now and then an edge pattern:
#     zeros, ones, 0x80, 0x7f, alternating), p3:0, m0/m1 and r0-r27;
#   - runs the row once, its operands random: scalar registers r0-r25, vectors v0-v31 (the
#     new-value operand's producer `vN = vxor(v30,v31)` before it), predicates, immediates;
#     memory rows get a base in the middle of the scratch buffer (any alignment), so that
#     every offset and modifier stays inside it;
#   - dumps r0-r27, v0-v31, q0-q3 (as vand(qN,r27)) and the buffer with one write.
# The harness itself uses vmem loads and stores, vand between vectors and predicates and
# scalar transfers: rows whose semantics every case relies on.
# Exit status: 0 when every compared case matches and every row hexsim reports as
# unimplemented is listed in the pending file (and no listed row passes: the list shrinks as
# semantics are written); 1 otherwise; 77 without qemu-hexagon or the LLVM tools.
# Usage: hvx_exec.py --hexsim build/hexsim --isa-dir src/cpu/isa [--group hvx_alu]
#                    [--only TAG-REGEX] [--cases N] [--seed S] [--work DIR] [--jobs N]
#                    [--pending FILE] [--write-pending] [--details FILE]
import argparse
import concurrent.futures
import os
import random
import re
import shutil
import struct
import subprocess
import sys

sys.dont_write_bytecode = True   # no __pycache__ in the source tree
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import table_entries as TE  # noqa: E402

LLVM_MC = os.environ.get("LLVM_MC", "llvm-mc-16")
LLD = os.environ.get("LLD", "ld.lld-16")
QEMU = "qemu-hexagon"
VB = 128                      # vector bytes
BUF = 4096                    # scratch buffer bytes
NSCALAR = 28                  # r0-r27 are dumped; r28 is the record base
SREC = VB                     # their part of the record, padded to a vector (vmem aligns)
REC = SREC + 32 * VB + 4 * VB + BUF
UNIMPLEMENTED = re.compile(r"unimplemented instruction\s+([A-Za-z0-9_]+)")
# rows this test cannot run (yet), with the reason
SKIP = [
    (r"V6_vgather|V6_vscatter", "gather/scatter need VTCM (not modelled yet)"),
    (r"_srls_", "scatter-release (a VTCM synchronisation)"),
    (r"hist", "histograms read the .tmp load of their packet (not generated yet)"),
    (r"V6_extractw", "scalar result from the load pipe (generated with the scalar harness later)"),
]


def _f16(x):
    """binary16 bits of x (rounded to nearest even), the default NaN for a NaN."""
    if x != x:
        return 0xffff
    try:
        return struct.unpack("<H", struct.pack("<e", x))[0]
    except OverflowError:
        return 0xfc00 if x < 0 else 0x7c00


def _f32(x):
    if x != x:
        return 0xffffffff
    try:
        return struct.unpack("<I", struct.pack("<f", x))[0]
    except OverflowError:
        return 0xff800000 if x < 0 else 0x7f800000


def _bits(fmt, op):
    n = VB // struct.calcsize(fmt)
    return lambda vu: struct.pack("<%d%s" % (n, fmt),
                                  *[op(x) for x in struct.unpack("<%d%s" % (n, fmt), vu)])


def _hf(op):
    return lambda vu, vv: struct.pack("<64H", *[_f16(op(x, y)) for x, y in zip(
        struct.unpack("<64e", vu), struct.unpack("<64e", vv))])


def _sf(op):
    return lambda vu, vv: struct.pack("<32I", *[_f32(op(x, y)) for x, y in zip(
        struct.unpack("<32f", vu), struct.unpack("<32f", vv))])


# the V68 IEEE rows checked against a host model (no qemu-hexagon oracle for them)
HOST_MODEL = {
    "V6_vabs_hf": _bits("H", lambda x: x & 0x7fff),
    "V6_vabs_sf": _bits("I", lambda x: x & 0x7fffffff),
    "V6_vfneg_hf": _bits("H", lambda x: x ^ 0x8000),
    "V6_vfneg_sf": _bits("I", lambda x: x ^ 0x80000000),
    "V6_vassign_fp": lambda vu: vu,
    "V6_vadd_hf_hf": _hf(lambda a, b: a + b),
    "V6_vsub_hf_hf": _hf(lambda a, b: a - b),
    "V6_vmpy_hf_hf": _hf(lambda a, b: a * b),
    "V6_vadd_sf_sf": _sf(lambda a, b: a + b),
    "V6_vsub_sf_sf": _sf(lambda a, b: a - b),
    "V6_vmpy_sf_sf": _sf(lambda a, b: a * b),
    "V6_vcvt_hf_h": lambda vu: struct.pack("<64H", *[_f16(float(x)) for x in
                                                     struct.unpack("<64h", vu)]),
    "V6_vcvt_hf_uh": lambda vu: struct.pack("<64H", *[_f16(float(x)) for x in
                                                      struct.unpack("<64H", vu)]),
}


def float_vec(rng, fmt):
    """Random moderate floats (normal range, some subnormal and overflowing results)."""
    n = VB // struct.calcsize(fmt)
    span = 18 if fmt == "e" else 130
    return struct.pack("<%d%s" % (n, fmt), *[
        rng.choice([-1, 1]) * rng.random() * 2.0 ** rng.randint(-span, span // 2 if fmt == "e"
                                                                 else span - 4)
        for _ in range(n)])


def skip_reason(row):
    attrs = set(row.attrs)
    if "hvx" not in attrs:
        return "not HVX"
    if row.tag in HOST_MODEL:
        return None
    if "hvxieee" in attrs or "hvxqf" in attrs:
        return "HVX floating point (qemu-hexagon 7.2 has none; PRM model to do)"
    arch = max([int(a[6:]) for a in attrs if a.startswith("arch=v")] or [60])
    if arch > 67:
        return "V%d instruction (qemu-hexagon 7.2 runs up to V67; PRM model to do)" % arch
    for pat, why in SKIP:
        if re.search(pat, row.tag):
            return why
    return None


OPERAND = re.compile(r"\b([RPMVQO])([a-z])(\2?)(32|8|4|2)\b|#(I[iI])\b")
EDGE = [b"\x00" * VB, b"\xff" * VB, b"\x80" * VB, b"\x7f" * VB, b"\x55\xaa" * (VB // 2),
        bytes(range(VB)), b"\x00\x80" * (VB // 2), b"\xff\x7f" * (VB // 2)]


def rand_vec(rng):
    if rng.randrange(6) == 0:
        return rng.choice(EDGE)
    return bytes(rng.getrandbits(8) for _ in range(VB))


def instantiate(row, rng):
    """The row's syntax with random operands; returns (text, producers, scalar overrides)."""
    chosen, producers, regs = {}, [], {}
    used_r = set()
    mem = "vmem" in row.syntax or "vmemu" in row.syntax

    def pick_r(width):
        free = [r for r in range(0, 26, width) if not any(r + k in used_r for k in range(width))]
        r = rng.choice(free)
        used_r.update(range(r, r + width))
        return r

    def operand(m):
        if m.group(5):
            name = m.group(5)
            signed, _ = row.imm.get(name, (False, 0))
            n = row.bits(name)
            lo, hi = (-(1 << (n - 1)), (1 << (n - 1)) - 1) if signed else (0, (1 << n) - 1)
            return "#%d" % rng.randint(lo, hi)
        kind, letter, double, width = m.groups()[:4]
        key = m.group(0)
        if key in chosen:
            return chosen[key]
        if kind == "R":
            if width == "8":
                r = rng.choice([r for r in range(8) if r not in used_r])
                used_r.add(r)
                text = "r%d" % r
            elif double:
                r = pick_r(2)
                text = "r%d:%d" % (r + 1, r)
            else:
                r = pick_r(1)
                text = "r%d" % r
            if mem and letter in "tx" and not double:
                # a base in the middle of the scratch buffer, any alignment
                regs[r] = ("buf", BUF // 2 + rng.randrange(-256, 256))
        elif kind == "V":
            if double:
                r = rng.randrange(0, 32, 2)
                text = "v%d:%d" % (r + 1, r)
            else:
                text = "v%d" % rng.randrange(30)
        elif kind == "O":
            r = rng.randrange(30)
            producers.append("v%d = vxor(v30,v31)" % r)
            text = "v%d" % r
        elif kind == "Q":
            text = "q%d" % rng.randrange(4)
        elif kind == "P":
            text = "p%d" % rng.randrange(4)
        else:   # M
            text = "m%d" % rng.randrange(2)
        chosen[key] = text
        return text

    text = OPERAND.sub(operand, row.syntax)
    return text, producers, regs, chosen


class Case:
    def __init__(self, row, rng):
        self.body, producers, self.regs, self.chosen = instantiate(row, rng)
        self.packet = "{ " + "; ".join(producers + [self.body]) + " }"
        self.vecs = [rand_vec(rng) for _ in range(32)]
        self.qsrc = [rand_vec(rng) for _ in range(4)]
        self.image = bytes(rng.getrandbits(8) for _ in range(BUF))
        self.scalars = []
        for r in range(NSCALAR):
            v = rng.choice([0, 1, 0xffffffff, 0x80000000, 0x7fffffff, rng.getrandbits(32),
                            rng.getrandbits(32), rng.getrandbits(32), rng.randrange(64)])
            self.scalars.append(v)
        self.preds = rng.getrandbits(32)
        self.mods = [rng.randrange(-8, 8) * VB + rng.randrange(-3, 4) for _ in range(2)]
        fmt = "e" if "Vu32.hf" in row.syntax else "f" if "Vu32.sf" in row.syntax else None
        if row.tag in HOST_MODEL and fmt:   # floating-point lanes of the row's type, often
            self.vecs = [float_vec(rng, fmt) if rng.randrange(3) else v for v in self.vecs]

    def expected(self, row):
        """The record a HOST_MODEL row must leave: its inputs, Vd replaced by the model's."""
        vecs = list(self.vecs)
        vn = lambda key: int(self.chosen[key][1:])
        ops = [vecs[vn(k)] for k in ("Vu32", "Vv32") if k in self.chosen]
        vecs[vn("Vd32")] = HOST_MODEL[row.tag](*ops)
        q = [bytes(0xff if b else 0 for b in s) for s in self.qsrc]
        scalars = struct.pack("<%dI" % NSCALAR, *self.scalars).ljust(SREC, b"\0")
        return scalars + b"".join(vecs) + b"".join(q) + self.image


def program(cases, tag):
    out = ["  .text", "  .globl _start", "_start:"]
    data = ["  .data", "  .p2align 7"]
    for i, c in enumerate(cases):
        d = "d%d" % i
        # the scratch buffer from the case's image
        out += ["  { r2 = ##buf; r3 = ##%s_img }" % d]
        out += ["  { v0 = vmem(r3++#1) }\n  { vmem(r2++#1) = v0 }"] * (BUF // VB)
        # q0-q3, then v0-v31
        out += ["  { r3 = ##%s_q; r27 = #-1 }" % d]
        for q in range(4):
            out += ["  { v%d = vmem(r3++#1) }" % q]
        for q in range(4):
            out += ["  { q%d = vand(v%d,r27) }" % (q, q)]
        out += ["  { r3 = ##%s_v }" % d]
        for v in range(32):
            out += ["  { v%d = vmem(r3++#1) }" % v]
        out += ["  { r3 = ##0x%x }" % (c.preds & 0xffffffff), "  { p3:0 = r3 }",
                "  { r3 = ##%d }" % (c.mods[0] & 0xffffffff), "  { m0 = r3 }",
                "  { r3 = ##%d }" % (c.mods[1] & 0xffffffff), "  { m1 = r3 }"]
        for r in range(NSCALAR):
            v = c.regs.get(r)
            if v:
                out.append("  { r%d = ##(buf+%d) }" % (r, v[1]))
            else:
                out.append("  { r%d = ##%d }" % (r, c.scalars[r]))
        out.append("case%d:" % i)
        out.append("  " + c.packet)
        # the dump: scalars, vectors, predicates, buffer; one write
        out.append("  { r28 = ##rec }")
        for r in range(NSCALAR):
            out.append("  { memw(r28+#%d) = r%d }" % (4 * r, r))
        out.append("  { r28 = ##rec+%d }" % SREC)
        for v in range(32):
            out.append("  { vmem(r28++#1) = v%d }" % v)
        out.append("  { r27 = #-1 }")
        for q in range(4):
            out.append("  { v0 = vand(q%d,r27) }\n  { vmem(r28++#1) = v0 }" % q)
        out.append("  { r2 = ##buf }")
        out += ["  { v0 = vmem(r2++#1) }\n  { vmem(r28++#1) = v0 }"] * (BUF // VB)
        out += ["  { r0 = #1; r1 = ##rec }", "  { r2 = ##%d; r6 = #64 }" % REC, "  { trap0(#1) }"]
        data += ["%s_img:" % d, "  .byte " + ",".join(str(b) for b in c.image)]
        data += ["%s_q:" % d] + ["  .byte " + ",".join(str(b) for b in q) for q in c.qsrc]
        data += ["%s_v:" % d] + ["  .byte " + ",".join(str(b) for b in v) for v in c.vecs]
    out += ["  { r0 = #0; r6 = #93 }", "  { trap0(#1) }"]
    data += ["  .p2align 7", "buf:", "  .space %d" % BUF, "  .p2align 7", "rec:",
             "  .space %d" % REC]
    return "\n".join(out + data) + "\n"


def run(cmd, timeout=120):
    try:
        p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           timeout=timeout)
        return p.returncode, p.stdout, p.stderr.decode("utf-8", "replace")
    except subprocess.TimeoutExpired:
        return None, b"", "timed out"


def describe(cid, q, h):
    """The first differing fields of a record: register names and byte offsets."""
    out = []
    for off in range(0, REC, 4):
        if q[off:off + 4] == h[off:off + 4]:
            continue
        if off < 4 * NSCALAR:
            name = "r%d" % (off // 4)
        elif off < SREC:
            name = "pad+%d" % off
        elif off < SREC + 32 * VB:
            k = off - SREC
            name = "v%d.w[%d]" % (k // VB, (k % VB) // 4)
        elif off < SREC + 36 * VB:
            k = off - SREC - 32 * VB
            name = "q%d bytes %d-%d" % (k // VB, k % VB, k % VB + 3)
        else:
            name = "buf+%d" % (off - SREC - 36 * VB)
        out.append("%s: reference %08x hexsim %08x" % (name, struct.unpack_from("<I", q, off)[0],
                                                   struct.unpack_from("<I", h, off)[0]))
        if len(out) == 4:
            break
    return out


def test_row(args, row, seed):
    """Returns (status, details): status 'pass', 'fail', 'pending', 'skip: why'."""
    rng = random.Random("%d:%s" % (seed, row.tag))
    cases = [Case(row, rng) for _ in range(args.cases)]
    work = os.path.join(args.work, row.tag)
    os.makedirs(work, exist_ok=True)
    src, obj, elf = (os.path.join(work, row.tag + e) for e in (".s", ".o", ""))
    with open(src, "w") as f:
        f.write(program(cases, row.tag))
    model = row.tag in HOST_MODEL
    cpu = ["-mcpu=hexagonv68", "-mhvx", "-mattr=+hvx-ieee-fp"] if model else \
        ["-mcpu=hexagonv67", "-mhvx"]
    rc, _, err = run([LLVM_MC, "-arch=hexagon"] + cpu + ["-filetype=obj", src, "-o", obj])
    if rc != 0:
        msg = [ln for ln in err.splitlines() if "error:" in ln]
        return "skip: llvm-mc-16 -mv67 -mhvx rejects it (%s)" % (msg[0] if msg else err[:80]), []
    rc, _, err = run([LLD, "-static", "-o", elf, obj])
    if rc != 0:
        return "skip: ld.lld-16 fails (%s)" % err.strip()[:80], []
    if not model:
        qrc, qout, qerr = run([args.qemu, "-cpu", "v67", elf])
    if not model and (qrc != 0 or len(qout) != REC * len(cases)):
        return "skip: qemu-hexagon 7.2 cannot run it (status %s)" % qrc, []
    hrc, hout, herr = run([args.hexsim, "--user", elf])
    m = UNIMPLEMENTED.search(herr)
    if m:
        return "pending", [m.group(1)]
    details = []
    if model:
        qout = b"".join(c.expected(row) for c in cases)
    for i, c in enumerate(cases):
        q, h = qout[i * REC:(i + 1) * REC], hout[i * REC:(i + 1) * REC]
        if q != h:
            details.append("%s case %d: %s" % (row.tag, i, c.packet))
            details += ["    " + d for d in describe(i, q, h.ljust(REC, b"\0"))]
    if hrc != 0 and not details:
        details.append("%s: hexsim exited with %s: %s" % (row.tag, hrc, herr.strip()[:200]))
    if not args.keep:
        shutil.rmtree(work, ignore_errors=True)
    return ("fail" if details else "pass"), details


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--hexsim", required=True)
    ap.add_argument("--qemu", default=QEMU)
    ap.add_argument("--isa-dir", default=os.path.join(HERE, "..", "..", "src", "cpu", "isa"))
    ap.add_argument("--group", help="only the rows of src/cpu/isa/GROUP.isa (e.g. hvx_alu)")
    ap.add_argument("--only", help="only the rows whose tag matches this regular expression")
    ap.add_argument("--cases", type=int, default=8)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--work", default="/tmp/hvx_exec")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    ap.add_argument("--pending", default=os.path.join(HERE, "hvx_pending.txt"))
    ap.add_argument("--write-pending", action="store_true")
    ap.add_argument("--details", help="file to write every mismatch to")
    ap.add_argument("--keep", action="store_true", help="keep the programs of passing rows")
    args = ap.parse_args()
    missing = [t for t in (LLVM_MC, LLD, args.qemu) if not shutil.which(t)]
    if missing:
        print("SKIP: %s not found (tools/setup.sh installs them)" % ", ".join(missing))
        return 77
    rows, _ = TE.load_table(args.isa_dir)
    rows = [r for r in rows if "hvx" in r.attrs]
    if args.group:
        rows = [r for r in rows if r.where.split(":")[0] == args.group + ".isa"]
    if args.only:
        rows = [r for r in rows if re.search(args.only, r.tag)]
    skipped, todo = {}, []
    for r in rows:
        why = skip_reason(r)
        if why:
            skipped.setdefault(why, []).append(r.tag)
        else:
            todo.append(r)
    os.makedirs(args.work, exist_ok=True)
    results = {}
    with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as ex:
        for r, res in zip(todo, ex.map(lambda r: test_row(args, r, args.seed), todo)):
            results[r.tag] = res
    passing = sorted(t for t, (s, _) in results.items() if s == "pass")
    failing = sorted(t for t, (s, _) in results.items() if s == "fail")
    pending = sorted(t for t, (s, _) in results.items() if s == "pending")
    for t, (s, _) in results.items():
        if s.startswith("skip: "):
            skipped.setdefault(s[6:], []).append(t)
    listed = set()
    if os.path.exists(args.pending):
        with open(args.pending) as f:
            listed = {ln.split()[0] for ln in f if ln.strip() and not ln.startswith("#")}
    print("hvx_exec: %d HVX rows, %d compared (%d cases each): %d passing, %d failing, "
          "%d without semantics" % (len(rows), len(passing) + len(failing), args.cases,
                                     len(passing), len(failing), len(pending)))
    for why, tags in sorted(skipped.items()):
        print("  skipped, %s: %d" % (why, len(tags)))
    details = [d for t in failing for d in results[t][1]]
    for d in details[:60]:
        print("  " + d)
    if args.details:
        with open(args.details, "w") as f:
            f.write("\n".join(details) + "\n")
    ok = not failing
    unlisted = [t for t in pending if t not in listed]
    stale = [t for t in passing if t in listed]
    if args.write_pending and not (args.group or args.only):
        with open(args.pending, "w") as f:
            f.write("# HVX rows without semantics yet (tests/isa/hvx_exec.py --write-pending)\n")
            f.write("".join(t + "\n" for t in pending))
    elif unlisted or stale:
        if unlisted:
            print("hvx_exec: rows without semantics not in %s: %s" % (args.pending,
                                                                     " ".join(unlisted)))
        if stale:
            print("hvx_exec: rows in %s that now pass (remove them): %s" % (args.pending,
                                                                            " ".join(stale)))
        ok = False
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
