#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# Per-instruction differential execution test of the HVX rows (src/cpu/isa/hvx_*.isa):
# every row qemu-hexagon 7.2 runs (`-cpu v67`: HVX up to V67, without the V68 floating
# point) is executed in random cases under qemu-hexagon and `hexsim --user`, and the state
# after each case must be equal byte for byte: r0-r27, the 32 vector registers, the 4
# vector predicates and a 4 KiB scratch buffer.
#
# The cases of --batch rows (8) make one program: one llvm-mc-16, ld.lld-16, qemu-hexagon and
# hexsim run per mode for them, the process launches being most of the cost (in the
# sanitizer build above all); a program that does not run cleanly is made again row by row,
# one program per row (hexsim stops at the first instruction without semantics: the row is
# then pending, listed in tests/isa/hvx_pending.txt, and run alone). Each case
#   - copies its random image into the scratch buffer, sets q0-q3 (from random vectors:
#     qN = vand(vN,r27) with r27 = -1), v0-v31 (random bytes, now and then an edge pattern:
#     zeros, ones, 0x80, 0x7f, alternating, or lanes of edge values), p3:0, m0/m1 and r0-r27;
#   - runs the row once, its operands random: scalar registers r0-r25, vectors v0-v31 (pairs
#     in both forms: v(n+1):n and, half of the time, the reversed v(n-1):n that llvm-mc-16
#     takes from V67 on; the new-value operand's producer `vN = vxor(v30,v31)` before it),
#     predicates, immediates;
#     memory rows get a base in the middle of the scratch buffer (any alignment), so that
#     every offset and modifier stays inside it; a gather's packet also stores its vtmp
#     (`vmem(r26+#i) = vtmp.new`), a histogram's has the .tmp load it reads, and gathers and
#     scatters get a region in the buffer and element offsets in it (special_setup; the
#     region often crosses the 4 KiB page boundary inside the buffer);
#   - dumps r0-r27, v0-v31, q0-q3 (as vand(qN,r27)) and the buffer with one write.
# The harness itself uses vmem loads and stores, vand between vectors and predicates and
# scalar transfers: rows whose semantics every case relies on.
# With --packets N, N random packets of 2-4 HVX instructions (rows with semantics that this
# test runs) are compared the same way, in programs of 50 cases (one packet in three has a
# new-value store, whose producer is now and then a row writing two vector registers or a
# .cur load, the store naming either register); packets llvm-mc-16 refuses
# (the packet rules: about 45% of random packets) are drawn again, so that N are compared.
# With --chain K each case runs K random packets one after the other (no packet assigns a
# register another uses as a memory base), which makes long runs about K times cheaper.
# Every program also runs under hexsim --no-jit and --jit-threshold 1 (with and without
# --no-stencils): the output must be the
# same as the default run's. Some vectors are built lane by lane (1-, 2- or 4-byte lanes) from
# edge values (0, +-1, the extremes and their neighbours), for the saturating forms.
# Rows qemu-hexagon 7.2 cannot run are checked against a model of the PRM pseudo-code when
# tests/isa/hvx_models.py has one (--model-check: also the rows qemu runs, a check of the
# models), and against hand-computed known values from the PRM in tests/isa/hvx_known_values.txt
# (one program, hexsim only); every such row with semantics must have a model or known values.
# The gathers and scatters are compared with qemu-hexagon 7.2 in the cases where it follows the
# PRM and with their models (hvx_models.ALSO) in all, the scatter-release stores with their
# models only (qemu-hexagon 7.2 leaves out their post-increment).
# Exit status: 0 when every compared case matches and the pending file lists exactly the HVX
# rows without semantic lines (--write-pending writes it; the list shrinks as semantics are
# written); 1 otherwise; 77 without qemu-hexagon or the LLVM tools.
# Usage: hvx_exec.py --hexsim build/hexsim --isa-dir src/cpu/isa [--group hvx_alu]
#                    [--only TAG-REGEX] [--cases N] [--seed S] [--work DIR] [--jobs N]
#                    [--pending FILE] [--write-pending] [--details FILE] [--known FILE]
#                    [--packets N] [--batch ROWS]
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
import hvx_models  # noqa: E402

LLVM_MC = os.environ.get("LLVM_MC", "llvm-mc-16")
LLD = os.environ.get("LLD", "ld.lld-16")
QEMU = "qemu-hexagon"
VB = 128                      # vector bytes
BUF = 4096                    # scratch buffer bytes
NSCALAR = 28                  # r0-r27 are dumped; r28 is the record base
SCALARS = VB                  # their part of the record (the vectors after it are aligned)
REC = SCALARS + 32 * VB + 4 * VB + BUF
UNIMPLEMENTED = re.compile(r"unimplemented instruction\s+([A-Za-z0-9_]+)")
# rows this test cannot run (yet), with the reason
SKIP = [
    (r"_srls_p", "qemu-hexagon 7.2 leaves out the post-increment of the scatter-release "
     "(PRM: Rx32++)"),
]
# r26 is no operand (instantiate picks r0-r25): the extra instruction of a gather's or a
# histogram's packet (special_setup) takes its base from it
EXTRA_BASE = 26


def skip_reason(row):
    attrs = set(row.attrs)
    if "hvx" not in attrs:
        return "not HVX"
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
# edge values of 1-, 2- and 4-byte lanes (0, +-1, the extremes and their neighbours), for the
# saturating and rounding forms
EDGE_LANES = {1: [0, 1, 0x7f, 0x80, 0x81, 0xff, 0xfe, 0x7e],
              2: [0, 1, 0x7fff, 0x8000, 0x8001, 0xffff, 0xfffe, 0x7ffe, 0x00ff, 0xff00],
              4: [0, 1, 0x7fffffff, 0x80000000, 0x80000001, 0xffffffff, 0xfffffffe,
                  0x0000ffff, 0xffff0000, 0x00008000]}
# hexsim runs every program as it runs by default (the block compiler at its threshold), then
# interpreting only, compiling every block at once (with the stencils, and calling the
# semantic functions instead): the four outputs must be equal
HEXSIM_MODES = [[], ["--no-jit"], ["--jit-threshold", "1"], ["--jit-threshold", "1", "--no-stencils"]]


# edge values of float lanes, for the rows of hvx_fp.isa: hf and bf (2 bytes), sf (4 bytes):
# zeros, infinities, quiet and signalling NaNs of both signs, the smallest subnormals, the
# largest finite values, 1, rounding ties, values that saturate conversions
FP_EDGE_LANES = {2: [0x0000, 0x8000, 0x7c00, 0xfc00, 0x7e00, 0xfe00, 0x7d00, 0xfd00, 0x0001,
                     0x8001, 0x03ff, 0x0400, 0x7bff, 0xfbff, 0x3c00, 0xbc00, 0x3800, 0x3e00,
                     0x4100, 0x57f8, 0x7f80, 0xff80, 0x7fc0, 0xffc0, 0x7fa0, 0x3f80, 0xbf80],
                 4: [0x00000000, 0x80000000, 0x7f800000, 0xff800000, 0x7fc00000, 0xffc00000,
                     0x7fa00000, 0xffa00000, 0x00000001, 0x80000001, 0x00800000, 0x7f7fffff,
                     0xff7fffff, 0x3f800000, 0xbf800000, 0x3f808000, 0x3f818000, 0x4f000000,
                     0xcf000000, 0x477ff000, 0x33000000, 0x3fc00000]}


def rand_vec(rng, fp=False):
    k = rng.randrange(6)
    if k == 0:
        return rng.choice(EDGE)
    if fp and k in (2, 3):   # float rows: lanes of float edge values (70%) or random ones
        size = rng.choice([2, 4])
        return b"".join((rng.choice(FP_EDGE_LANES[size]) if rng.random() < 0.7 else
                         rng.getrandbits(8 * size)).to_bytes(size, "little")
                        for _ in range(VB // size))
    if k <= 2:   # lane by lane: an edge value (60%) or a random one
        size = rng.choice([1, 2, 4])
        return b"".join((rng.choice(EDGE_LANES[size]) if rng.random() < 0.6 else
                         rng.getrandbits(8 * size)).to_bytes(size, "little")
                        for _ in range(VB // size))
    return bytes(rng.getrandbits(8) for _ in range(VB))


def instantiate(row, rng, producer_rows=None, used_r=None):
    """The row's syntax with random operands; returns (text, producers, scalar overrides,
    operands: {name without the width digits ("Vd", "Vuu", "Rt", "Qv", "Ii"): register
    number (a pair's low register) or immediate value}). A new-value operand's producer is
    `vN = vxor(v30,v31)`, or (producer_rows given: random packets) now and then a random row
    of producer_rows, and the operand names one of the registers it writes (new_value_producer)."""
    chosen, producers, regs, ops = {}, [], {}, {}
    used_r = set() if used_r is None else used_r
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
            ops[name] = rng.randint(lo, hi)
            return "#%d" % ops[name]
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
                # an even field n names v(n+1):n, an odd one (V67 on) the reversed pair v(n-1):n;
                # the low register is vn either way
                r = rng.randrange(32)
                text = "v%d:%d" % (r + 1, r) if r % 2 == 0 else "v%d:%d" % (r - 1, r)
            else:
                while True:
                    text = "v%d" % rng.randrange(30)
                    # vshuff/vdeal(Vy,Vx,Rt): two registers (one twice is undefined;
                    # qemu-hexagon 7.2 then writes the register below it)
                    if letter not in "xy" or text not in (chosen.get("Vx32"), chosen.get("Vy32")):
                        break
        elif kind == "O":
            text, more, more_regs = new_value_producer(rng, producer_rows, used_r)
            producers.extend(more)
            regs.update(more_regs)
        elif kind == "Q":
            text = "q%d" % rng.randrange(4)
        elif kind == "P":
            text = "p%d" % rng.randrange(4)
        else:   # M
            text = "m%d" % rng.randrange(2)
        chosen[key] = text
        ops[re.sub(r"\d+$", "", key)] = int(re.findall(r"\d+", text)[-1])
        return text

    text = OPERAND.sub(operand, row.syntax)
    return text, producers, regs, ops


def new_value_producer(rng, rows, used_r):
    """A new-value store's producer, placed just before it: (the register the store names,
    the producer's text in a list, its scalar overrides). Without rows, or one time in eight,
    `vN = vxor(v30,v31)`; else the next row of rows (a Cycle; random packets: every row writing two
    vector registers, vdeal/vshuff with Rt and the pair-writing rows, and the .cur loads) and
    one of the registers it writes, each as often: for a pair the high or the low
    register, for vdeal/vshuff(Vy,Vx,Rt) Vy or Vx (the store's Os8 field: bit 0, decode.c).
    rows may also be a Fixed: that row, always, and the register its pick says."""
    pick = getattr(rows, "pick", None)
    if rows and (pick is not None or rng.randrange(8)):
        for _ in range(20):
            body, more, regs, _ = instantiate(rows.next(), rng, None, used_r)
            written = sorted(vector_writes(body))
            if written and not more:
                reg = rng.choice(written) if pick is None else written[pick % len(written)]
                return "v%d" % reg, [body], regs
    r = rng.randrange(30)
    return "v%d" % r, ["v%d = vxor(v30,v31)" % r], {}


def special_setup(c, row, parts, rng, full):
    """The set-up some rows need: a gather's packet stores its vtmp (`vmem(r26+#i) =
    vtmp.new`), a histogram's packet has the .tmp load it reads (`vN.tmp = vmem(r26+#i)`);
    gathers and scatters get a region (Rt in the scratch buffer, Mu its length - 1) and element
    offsets in it (full: also now and then past its end, negative word offsets, unaligned
    scatter-accumulate offsets and an unaligned base for the vtmp store: the cases only
    hvx_models.py checks, where qemu-hexagon 7.2 does not follow the PRM)."""
    tag, ops = row.tag, c.ops
    if "hist" in tag:
        parts.insert(0, "v%d.tmp = vmem(r%d+#%d)" % (rng.randrange(32), EXTRA_BASE,
                                                     rng.randrange(-2, 3)))
        c.regs[EXTRA_BASE] = ("buf", BUF // 2 + rng.randrange(-256, 256))
    if not re.match(r"V6_v(gather|scatter)m", tag):
        return
    if "gather" in tag:
        ops["_st"] = rng.randrange(-2, 3)
        parts.append("vmem(r%d+#%d) = vtmp.new" % (EXTRA_BASE, ops["_st"]))
        # (an aligned base for qemu-hexagon 7.2, which writes this store at the unaligned
        # address instead of the aligned block)
        c.regs[EXTRA_BASE] = ("buf", 3 * BUF // 4 + (rng.randrange(-128, 128) if full else 0))
    size = 4 if re.match(r"V6_v(gather|scatter)mw", tag) else 2
    length = rng.choice([rng.randrange(1, 1024), rng.randrange(1, 64), 1024, size])
    c.regs[ops["Rt"]] = ("buf", rng.randrange(64, BUF // 2 - 1024))
    c.mods[ops["Mu"]] = length - 1
    last = (length - 1) | (size - 1)

    def offset():
        k = rng.randrange(20) if full else 19
        if k == 0:
            return rng.getrandbits(32 if "hw" in tag or size == 4 else 16)
        if k == 1:
            return last + 1 - rng.randrange(size)   # across the end
        if k == 2:
            return rng.choice([last + 1, last + size])
        if k == 3:
            return (rng.randrange(0, last + 1) * size) & 0xffff   # (may be past the end)
        o = rng.randrange(0, last - size + 2)
        # (qemu-hexagon 7.2 aligns a scatter-accumulate's offsets in the offset register
        # itself, which the PRM leaves unchanged: aligned ones for it)
        return o & ~(size - 1) if tag.endswith("_add") and not full else o
    n = VB // size
    offs = [offset() for _ in range(n)]
    if "hw" in tag:   # a pair of word offsets: even elements in the low vector
        lo = ops["Vvv"]
        c.vecs[lo] = b"".join(struct.pack("<I", o & 0xffffffff) for o in offs[0::2])
        c.vecs[lo ^ 1] = b"".join(struct.pack("<I", o & 0xffffffff) for o in offs[1::2])
    else:
        fmt = "<H" if size == 2 else "<I"
        c.vecs[ops["Vv"]] = b"".join(struct.pack(fmt, o & (0xffff if size == 2 else 0xffffffff))
                                     for o in offs)


class Case:
    def __init__(self, rows, rng, packets=None, full=True):
        # one row, or (random packets) several in one packet; or packets: [(text, regs)], run
        # one after the other
        parts, self.regs = [], {}
        listed = [] if packets else rows if isinstance(rows, list) else [rows]
        fp = any(r.where.startswith("hvx_fp.isa") for r in listed)
        self.mods = [rng.randrange(-8, 8) * VB + rng.randrange(-3, 4) for _ in range(2)]
        self.vecs = [rand_vec(rng, fp) for _ in range(32)]
        for row in listed:
            body, producers, regs, self.ops = instantiate(row, rng)
            row_parts = producers + [body]
            self.regs.update(regs)
            special_setup(self, row, row_parts, rng, full)
            parts += row_parts
        self.packet = "{ " + "; ".join(parts) + " }"
        if packets:
            self.packet = "\n  ".join(t for t, _ in packets)
            for _, regs in packets:
                self.regs.update(regs)
        self.qsrc = [rand_vec(rng) for _ in range(4)]
        self.image = bytes(rng.getrandbits(8) for _ in range(BUF))
        self.scalars = []
        for r in range(NSCALAR):
            v = rng.choice([0, 1, 0xffffffff, 0x80000000, 0x7fffffff, rng.getrandbits(32),
                            rng.getrandbits(32), rng.getrandbits(32), rng.randrange(64),
                            rng.choice([0x80808080, 0x7f7f7f7f, 0x80008000, 0x7fff7fff,
                                        0xffff0001, 0x01ff7f80])])
            self.scalars.append(v)
        self.preds = rng.getrandbits(32)


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
        out.append("  { r28 = ##rec+%d }" % SCALARS)
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
    # (buf starts 3 KiB into a 4 KiB page: the gather and scatter regions, which special_setup
    # puts in its first half, often cross the 4 KiB boundary at buf+1024, which user mode
    # allows, as qemu-hexagon does: src/cpu/hvx_mem.c)
    data += ["  .p2align 12", "  .space 3072", "buf:", "  .space %d" % BUF, "  .p2align 7",
             "rec:",
             "  .space %d" % REC]
    return "\n".join(out + data) + "\n"


def run(cmd, timeout=120):
    try:
        p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           timeout=timeout)
        return p.returncode, p.stdout, p.stderr.decode("utf-8", "replace")
    except subprocess.TimeoutExpired:
        return None, b"", "timed out"


def run_hexsim(args, elf, what):
    """hexsim --user ELF in each of HEXSIM_MODES; returns (status, stdout, stderr, problem):
    the default run's results and, when another mode's status or output differs, what."""
    hrc, hout, herr = run([args.hexsim, "--user", elf])
    if UNIMPLEMENTED.search(herr):
        return hrc, hout, herr, None
    for mode in HEXSIM_MODES[1:]:
        rc, out, err = run([args.hexsim] + mode + ["--user", elf])
        if (rc, out) != (hrc, hout):
            n = min(len(out), len(hout))
            k = next((i for i in range(n) if out[i] != hout[i]), n)
            return hrc, hout, herr, ("%s: hexsim %s differs from its default run (status %s/%s, "
                                     "output byte %d (record %d) of %d/%d bytes) %s" %
                                     (what, " ".join(mode), rc, hrc, k, k // REC, len(out),
                                      len(hout), err.strip()[:200]))
    return hrc, hout, herr, None


def describe(cid, q, h):
    """The first differing fields of a record: register names and byte offsets."""
    out = []
    for off in range(0, REC, 4):
        if q[off:off + 4] == h[off:off + 4]:
            continue
        if off < SCALARS:
            name = "r%d" % (off // 4)
        elif off < SCALARS + 32 * VB:
            k = off - SCALARS
            name = "v%d.w[%d]" % (k // VB, (k % VB) // 4)
        elif off < SCALARS + 36 * VB:
            k = off - SCALARS - 32 * VB
            name = "q%d bytes %d-%d" % (k // VB, k % VB, k % VB + 3)
        else:
            name = "buf+%d" % (off - SCALARS - 36 * VB)
        out.append("%s: qemu %08x hexsim %08x" % (name, struct.unpack_from("<I", q, off)[0],
                                                   struct.unpack_from("<I", h, off)[0]))
        if len(out) == 4:
            break
    return out


class State:
    """A case's state for the models (hvx_models.py)."""
    def __init__(self, c):
        self.r = [c.regs[r][1] + BUF_ADDR if r in c.regs else c.scalars[r] for r in range(NSCALAR)]
        self.v = [bytearray(v) for v in c.vecs]
        self.q = [[1 if b else 0 for b in q] for q in c.qsrc]
        self.p = [(c.preds >> (8 * k)) & 0xff for k in range(4)]
        self.m = list(c.mods)
        self.buf = bytearray(c.image)
        self.buf_addr = BUF_ADDR

    def record(self):
        out = b"".join(struct.pack("<I", x & 0xffffffff) for x in self.r)
        out = out.ljust(SCALARS, b"\0")
        out += b"".join(bytes(v) for v in self.v)
        out += b"".join(bytes(0xff if b else 0 for b in q) for q in self.q)
        return out + bytes(self.buf)


BUF_ADDR = None   # the scratch buffer's address in the programs (from the ELF: buf)


def buf_address(elf):
    rc, out, _ = run(["llvm-nm-16", elf])
    for line in out.decode().splitlines():
        f = line.split()
        if len(f) == 3 and f[2] == "buf":
            return int(f[0], 16)
    raise RuntimeError("%s: no symbol buf" % elf)


def test_row_model(args, row, seed):
    """A row checked against its model (hvx_models.py) under hexsim --user only."""
    global BUF_ADDR
    rng = random.Random("%d:%s" % (seed, row.tag))
    cases = [Case(row, rng) for _ in range(args.cases)]
    work = os.path.join(args.work, row.tag + "_model")
    os.makedirs(work, exist_ok=True)
    src, obj, elf = (os.path.join(work, row.tag + e) for e in (".s", ".o", ""))
    with open(src, "w") as f:
        f.write(program(cases, row.tag))
    rc, _, err = run([LLVM_MC, "-arch=hexagon"] + MODEL_MC + ["-filetype=obj", src, "-o", obj])
    if rc != 0 or run([LLD, "-static", "-o", elf, obj])[0] != 0:
        return "skip: llvm-mc-16/ld.lld-16 reject the model's program", []
    BUF_ADDR = buf_address(elf)
    hrc, hout, herr, modes = run_hexsim(args, elf, row.tag)
    m = UNIMPLEMENTED.search(herr)
    if m:
        return "pending", [m.group(1)]
    details = [modes] if modes else []
    for i, c in enumerate(cases):
        st = State(c)
        hvx_models.MODELS[row.tag](st, c.ops)
        want, h = st.record(), hout[i * REC:(i + 1) * REC].ljust(REC, b"\0")
        if want != h:
            details.append("%s case %d (model): %s" % (row.tag, i, c.packet))
            details += ["    " + d.replace("qemu", "model") for d in describe(i, want, h)]
    if not args.keep:
        shutil.rmtree(work, ignore_errors=True)
    return ("fail" if details else "pass"), details


# llvm-mc-16 options of the programs: those qemu-hexagon 7.2 runs (-cpu v67), and those of
# rows checked against their models (any version, the V68+ float extensions)
QEMU_MC = ["-mcpu=hexagonv67", "-mhvx"]
MODEL_MC = ["-mcpu=hexagonv73", "-mhvx", "-mattr=+hvx-ieee-fp,+hvx-qfloat"]


def batch_program(args, rows, seed, name, full, mc):
    """The cases of rows (each row's as test_row/test_row_model draw them: full as Case
    takes it) in one program `name`, assembled with llvm-mc-16 options mc: (cases, owner
    ((row, case number in the row) per case), work directory, ELF path, or None when
    llvm-mc-16 or ld.lld-16 fails)."""
    cases, owner = [], []
    for row in rows:
        rng = random.Random("%d:%s" % (seed, row.tag))
        for k in range(args.cases):
            cases.append(Case(row, rng, full=full))
            owner.append((row, k))
    work = os.path.join(args.work, name)
    os.makedirs(work, exist_ok=True)
    src, obj, elf = (os.path.join(work, name + e) for e in (".s", ".o", ""))
    with open(src, "w") as f:
        f.write(program(cases, name))
    if (run([LLVM_MC, "-arch=hexagon"] + mc + ["-filetype=obj", src, "-o", obj])[0] != 0 or
            run([LLD, "-static", "-o", elf, obj])[0] != 0):
        return cases, owner, work, None
    return cases, owner, work, elf


def test_rows_model(args, rows, seed):
    """{tag: (status, details)} for rows checked against their models, as test_row_model
    gives them (the same cases), all in one program (as test_rows); anything but a clean run
    falls back to test_row_model for each row."""
    global BUF_ADDR
    if len(rows) == 1:
        return {rows[0].tag: test_row_model(args, rows[0], seed)}
    name = "batch_model_" + rows[0].tag
    cases, owner, work, elf = batch_program(args, rows, seed, name, True, MODEL_MC)

    def one_by_one():
        if not args.keep:
            shutil.rmtree(work, ignore_errors=True)
        return {r.tag: test_row_model(args, r, seed) for r in rows}
    if elf is None:
        return one_by_one()
    BUF_ADDR = buf_address(elf)
    hrc, hout, herr, modes = run_hexsim(args, elf, name)
    if hrc != 0 or modes or UNIMPLEMENTED.search(herr) or len(hout) != REC * len(cases):
        return one_by_one()
    out = {r.tag: ("pass", []) for r in rows}
    for i, (row, k) in enumerate(owner):
        c = cases[i]
        st = State(c)
        hvx_models.MODELS[row.tag](st, c.ops)
        want, h = st.record(), hout[i * REC:(i + 1) * REC]
        if want != h:
            out[row.tag] = ("fail", out[row.tag][1] + ["%s case %d (model): %s" %
                                                       (row.tag, k, c.packet)] +
                            ["    " + d.replace("qemu", "model") for d in describe(k, want, h)])
    if not args.keep:
        shutil.rmtree(work, ignore_errors=True)
    return out


def test_row(args, row, seed):
    """Returns (status, details): status 'pass', 'fail', 'pending', 'skip: why'."""
    rng = random.Random("%d:%s" % (seed, row.tag))
    cases = [Case(row, rng, full=False) for _ in range(args.cases)]
    work = os.path.join(args.work, row.tag)
    os.makedirs(work, exist_ok=True)
    src, obj, elf = (os.path.join(work, row.tag + e) for e in (".s", ".o", ""))
    with open(src, "w") as f:
        f.write(program(cases, row.tag))
    rc, _, err = run([LLVM_MC, "-arch=hexagon"] + QEMU_MC + ["-filetype=obj", src, "-o", obj])
    if rc != 0:
        msg = [ln for ln in err.splitlines() if "error:" in ln]
        return "skip: llvm-mc-16 -mv67 -mhvx rejects it (%s)" % (msg[0] if msg else err[:80]), []
    rc, _, err = run([LLD, "-static", "-o", elf, obj])
    if rc != 0:
        return "skip: ld.lld-16 fails (%s)" % err.strip()[:80], []
    qrc, qout, qerr = run([args.qemu, "-cpu", "v67", elf])
    if qrc != 0 or len(qout) != REC * len(cases):
        return "skip: qemu-hexagon 7.2 cannot run it (status %s)" % qrc, []
    hrc, hout, herr, modes = run_hexsim(args, elf, row.tag)
    m = UNIMPLEMENTED.search(herr)
    if m:
        return "pending", [m.group(1)]
    details = [modes] if modes else []
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


BATCH = 8   # rows per program in test_rows


def test_rows(args, rows, seed):
    """{tag: (status, details)} for rows, as test_row gives them (the same cases), with the
    cases of all the rows in one program: one llvm-mc-16, ld.lld-16, qemu-hexagon and hexsim
    run per mode for the lot, which is what a row costs (about 0.05 s of CPU per hexsim
    process in the sanitizer build). Anything but a clean run of every case (llvm-mc-16 or
    qemu-hexagon refusing, a row hexsim has no semantics for, hexsim's modes disagreeing, an
    exit status) falls back to test_row for each row, which says which row and why."""
    if len(rows) == 1:
        return {rows[0].tag: test_row(args, rows[0], seed)}
    name = "batch_" + rows[0].tag
    cases, owner, work, elf = batch_program(args, rows, seed, name, False, QEMU_MC)

    def one_by_one():
        if not args.keep:
            shutil.rmtree(work, ignore_errors=True)
        return {r.tag: test_row(args, r, seed) for r in rows}
    if elf is None:
        return one_by_one()
    qrc, qout, _ = run([args.qemu, "-cpu", "v67", elf])
    if qrc != 0 or len(qout) != REC * len(cases):
        return one_by_one()
    hrc, hout, herr, modes = run_hexsim(args, elf, name)
    if hrc != 0 or modes or UNIMPLEMENTED.search(herr) or len(hout) != len(qout):
        return one_by_one()
    out = {r.tag: ("pass", []) for r in rows}
    for i, (row, k) in enumerate(owner):
        tag = row.tag
        q, h = qout[i * REC:(i + 1) * REC], hout[i * REC:(i + 1) * REC]
        if q != h:
            c = cases[i]
            out[tag] = ("fail", out[tag][1] + ["%s case %d: %s" % (tag, k, c.packet)] +
                        ["    " + d for d in describe(k, q, h)])
    if not args.keep:
        shutil.rmtree(work, ignore_errors=True)
    return out


# ---- known values (hvx_known_values.txt): packets whose results were computed by hand from
# the PRM, for rows qemu-hexagon 7.2 cannot run. One program runs them all: per case it loads
# v0-v15 and r0-r7, runs the packet and writes v0-v15 out, then the case's 128-byte aligned
# scratch vector (`mem = ...`, else zero, before the packet; `rN = buf` points rN at it).
KNOWN_NVEC = 16
KNOWN_SPAN = (KNOWN_NVEC + 1) * VB


def load_known(path):
    """Blocks `TAG | packet body`, then inputs `vN = b:|h:|w: lanes` (repeated to fill the
    vector), `mem = ...` (the scratch vector) and `rN = value` (or `rN = buf`: the scratch
    vector's address), and expected
    results `=> vN = ...` and `=> mem = ...` (the scratch vector: KNOWN_NVEC in "want")."""
    blocks, cur = [], None
    with open(path) as f:
        for lineno, line in enumerate(f, 1):
            s = line.split("//")[0].strip()
            if not s or s.startswith("#"):
                continue
            where = "%s:%d" % (os.path.basename(path), lineno)
            if "|" in s:
                tag, insn = [x.strip() for x in s.split("|", 1)]
                cur = {"tag": tag, "insn": insn, "v": {}, "r": {}, "want": {}, "where": where}
                blocks.append(cur)
                continue
            s = re.sub(r"^(=>\s*)?mem\b", r"\g<1>v%d" % KNOWN_NVEC, s)
            m = re.fullmatch(r"(=>\s*)?([vr])(\d+)\s*=\s*(.*)", s)
            if not m or cur is None or int(m.group(3)) > (KNOWN_NVEC if m.group(2) == "v" else 7):
                raise SystemExit("%s: cannot parse %r" % (where, s))
            arrow, kind, n, val = m.groups()
            if kind == "r":
                cur["r"][int(n)] = "buf" if val == "buf" else int(val, 0) & 0xffffffff
                continue
            size, vals = val.split(":", 1)
            size = {"b": 1, "h": 2, "w": 4}[size.strip()]
            lanes = [int(x, 0) for x in vals.replace(",", " ").split()]
            data = b"".join((lanes[k % len(lanes)] & ((1 << 8 * size) - 1)).to_bytes(size, "little")
                            for k in range(VB // size))
            (cur["want"] if arrow else cur["v"])[int(n)] = data
    return blocks


def known_program(blocks):
    out = ["  .text", "  .globl _start", "_start:"]
    data = ["  .data", "  .p2align 7"]
    for k, b in enumerate(blocks):
        out.append("  { r10 = ##kin%d }" % k)
        out += ["  { v%d = vmem(r10++#1) }" % n for n in range(KNOWN_NVEC)]
        out += ["  { r%d = ##%s }" % (n, "kbuf%d" % k if b["r"].get(n) == "buf" else
                                       "0x%08x" % b["r"].get(n, 0)) for n in range(8)]
        out.append("  { %s }" % b["insn"])
        out.append("  { r10 = ##kout+%d }" % (k * KNOWN_SPAN))
        out += ["  { vmem(r10++#1) = v%d }" % n for n in range(KNOWN_NVEC)]
        out += ["  { r11 = ##kbuf%d }" % k, "  { v0 = vmem(r11+#0) }", "  { vmem(r10+#0) = v0 }"]
        data += ["kbuf%d:" % k, "  .byte " + ",".join(str(x) for x in
                                                     b["v"].get(KNOWN_NVEC, bytes(VB)))]
        data.append("kin%d:" % k)
        data += ["  .byte " + ",".join(str(x) for x in b["v"].get(n, bytes(VB)))
                 for n in range(KNOWN_NVEC)]
    out += ["  { r0 = #1; r1 = ##kout }", "  { r2 = ##%d; r6 = #64 }" % (len(blocks) * KNOWN_SPAN),
            "  { trap0(#1) }", "  { r0 = #0; r6 = #93 }", "  { trap0(#1) }"]
    data += ["  .p2align 7", "kout:", "  .space %d" % max(len(blocks) * KNOWN_SPAN, VB)]
    return "\n".join(out + data) + "\n"


def check_known(args, blocks, tags):
    """Runs the known-value blocks under hexsim (each mode); returns failure lines."""
    fails = ["%s: no row %s" % (b["where"], b["tag"]) for b in blocks if b["tag"] not in tags]
    if not blocks:
        return fails
    work = os.path.join(args.work, "known")
    os.makedirs(work, exist_ok=True)
    src, obj, elf = (os.path.join(work, "known" + e) for e in (".s", ".o", ""))
    with open(src, "w") as f:
        f.write(known_program(blocks))
    rc, _, err = run([LLVM_MC, "-arch=hexagon", "-mcpu=hexagonv73", "-mhvx",
                      "-mattr=+hvxv73,+hvx-length128b,+hvx-ieee-fp,+hvx-qfloat", "-filetype=obj",
                      src, "-o", obj])
    if rc != 0 or run([LLD, "-static", "-o", elf, obj])[0] != 0:
        return fails + ["known values: llvm-mc-16/ld.lld-16 reject %s: %s" %
                        (src, err.strip()[:300])]
    hrc, got, herr, modes = run_hexsim(args, elf, "known values")
    if modes:
        fails.append(modes)
    if hrc != 0 or len(got) != len(blocks) * KNOWN_SPAN:
        return fails + ["known values: hexsim exit %s, %d bytes of %d: %s" %
                        (hrc, len(got), len(blocks) * KNOWN_SPAN, herr.strip()[:300])]
    for k, b in enumerate(blocks):
        for n, want in sorted(b["want"].items()):
            have = got[k * KNOWN_SPAN + n * VB:k * KNOWN_SPAN + (n + 1) * VB]
            if have != want:
                i = next(i for i in range(VB) if have[i] != want[i])
                fails.append("%s %s `%s`: %s byte %d: want %s, hexsim %s" %
                             (b["where"], b["tag"], b["insn"],
                              "mem" if n == KNOWN_NVEC else "v%d" % n, i, want[i:i + 8].hex(),
                              have[i:i + 8].hex()))
    if not args.keep and not fails:
        shutil.rmtree(work, ignore_errors=True)
    return fails


def semantic_tags(isa_dir):
    """The tags of the rows that have semantic lines."""
    tags, last = set(), None
    for name in sorted(os.listdir(isa_dir)):
        if not name.endswith(".isa"):
            continue
        with open(os.path.join(isa_dir, name)) as f:
            for line in f:
                if line.startswith("    ") and last:
                    tags.add(last)
                m = re.match(r"^(\w+)\s+\|", line)
                last = m.group(1) if m else (last if line.startswith("    ") else None)
    return tags


def vector_writes(insn):
    """The vector registers an instruction's text writes: those left of its assignment, both
    operands of vshuff/vdeal(Vy,Vx,Rt)."""
    m = re.search(r"(\+|-)?=", insn)
    if m:
        dest = insn[:m.start()]
    elif re.match(r"\s*(vshuff|vdeal)\(", insn):
        dest = insn
    else:
        return set()
    out = set()
    for hi, lo in re.findall(r"\bv(\d+)(?::(\d+))?", dest):
        out.add(int(hi))
        if lo:
            out.add(int(lo))
    return out


def producer_rows(rows):
    """The rows a random packet's new-value store may take its value from besides vxor
    (new_value_producer): those that write two vector registers (a pair, or vdeal/vshuff with
    Rt) and the .cur loads, unpredicated (a predicated producer must match the store's
    predicate). Not the .tmp loads: for a store whose producer is one, qemu-hexagon 7.2
    stores the register's value from before the packet, hexsim the loaded vector, the
    producer's result (hvx_known_values.txt has such packets)."""
    return [r for r in rows if not r.syntax.startswith("if ") and
            (re.search(r"\bV(dd|xx)32\b[^=]*=", r.syntax) or
             re.match(r"(vdeal|vshuff)\(Vy32,Vx32,Rt32\)", r.syntax) or
             re.search(r"\.cur = vmem", r.syntax))]


class Fixed:
    """One producer row for new_value_producer, always, the store naming the pick-th register
    it writes (lowest first)."""
    def __init__(self, row, pick):
        self.row, self.pick = row, pick

    def next(self):
        return self.row

    def __bool__(self):
        return True


def producer_sweep(rows, seed):
    """Packet makers for the sweep of the new-value producers: for every row of producer_rows
    and each register it writes, a packet of it and a random new-value store (of rows) naming
    that register: `{ producer; store }`. Each maker has a random generator of its own (the
    packets do not depend on the order the threads of a run call them in)."""
    nv_rows = [r for r in rows if "Os8" in r.syntax]

    def maker(prow, pick, rng):
        def make():
            body, producers, regs, _ = instantiate(rng.choice(nv_rows), rng, Fixed(prow, pick))
            return "{ " + "; ".join(producers + [body]) + " }", regs
        return make
    return [maker(p, k, random.Random("%d:sweep:%s:%d" % (seed, p.tag, k)))
            for p in producer_rows(rows) for k in (0, 1)]


class Cycle:
    """The rows of a list one after the other, in a random order, round and round, from a
    place: the programs of a run start at places spread over the list, so that the run draws
    every new-value producer (producer_rows) about as often."""
    def __init__(self, items, rng, start=0):
        self.items = list(items)
        rng.shuffle(self.items)
        self.i = start

    def next(self):
        self.i += 1
        return self.items[(self.i - 1) % len(self.items)]

    def __bool__(self):
        return bool(self.items)


def random_packet(rows, rng, nv_rows=(), producers=None):
    """A random packet of 2-4 rows in which no vector register is written twice (the packet
    rule hexsim checks; llvm-mc-16 and qemu-hexagon 7.2 accept such packets): (text, the
    scalar registers its memory rows use as bases: {r: ("buf", offset)}). One packet in three
    has a new-value store (of nv_rows), whose producer is often a two-register one or a .cur
    load (producers: producer_rows)."""
    while True:
        parts, regs, seen, ok = [], {}, set(), True
        picked = [rng.choice(rows) for _ in range(rng.randint(2, 4))]
        if nv_rows and not rng.randrange(3):
            picked[0] = rng.choice(nv_rows)
        for row in picked:
            body, producers_, r, _ = instantiate(row, rng, producers)
            parts += producers_ + [body]
            regs.update(r)
        reversed_dest = False
        for insn in parts:
            w = vector_writes(insn)
            ok = ok and not (w & seen)
            seen |= w
            m = re.match(r"\s*(?:if \([^)]*\)\s*)?v(\d+):(\d+)\S*\s*\W?=", insn)
            reversed_dest |= bool(m) and int(m.group(1)) < int(m.group(2))
        # (qemu-hexagon 7.2 aborts on a packet that writes a reversed pair and another vector
        # register: "ctx_future_vreg_off: assertion failed")
        ok = ok and not (reversed_dest and len(seen) > 2)
        if ok:
            return "{ " + "; ".join(parts) + " }", regs


def scalar_writes(text):
    """The general registers a packet's text assigns (left of `=`; not post-increments)."""
    out = set()
    for insn in text.strip("{} ").split("; "):
        insn = re.sub(r"\w*mem\w*\([^)]*\)", "", insn)   # (a store's address is no write)
        m = re.search(r"(\+|-|&|\|)?=", insn)
        if m:
            out |= {int(r) for r in re.findall(r"\br(\d+)", insn[:m.start()])}
    return out


def llvm_accepts(args, texts, work):
    """Which of the packets llvm-mc-16 (-mv67 -mhvx) assembles (one llvm-mc run)."""
    src, obj = os.path.join(work, "try.s"), os.path.join(work, "try.o")
    with open(src, "w") as f:
        f.write("\n".join(texts) + "\n")
    _, _, err = run([LLVM_MC, "-arch=hexagon", "-mcpu=hexagonv67", "-mhvx", "-filetype=obj",
                     src, "-o", obj])
    bad = {int(m.group(1)) - 1 for m in re.finditer(r":(\d+):\d+: error:", err)}
    return [i not in bad for i in range(len(texts))]


def build_packets(args, rows, rng, index, makers=None):
    """A program of 50 cases of args.chain random packets each, drawn until llvm-mc-16
    accepts that many (it refuses about 45% of random packets: the HVX resource rules), or
    (makers) of the packets the makers draw, each drawn again until llvm-mc-16 takes it;
    returns (elf, cases, packets llvm-mc refused)."""
    work = os.path.join(args.work, "packets%03d" % index)
    os.makedirs(work, exist_ok=True)
    want, good, refused, sweep = 50 * args.chain, [], 0, makers is not None
    for _ in range(8 if sweep else 0):
        cand = [m() for m in makers]
        keep = llvm_accepts(args, [t for t, _ in cand], work)
        good += [c for c, ok in zip(cand, keep) if ok]
        refused += keep.count(False)
        makers = [m for m, ok in zip(makers, keep) if not ok]
        if not makers:
            break
    nv_rows = [r for r in rows if "Os8" in r.syntax]
    progs = (args.packets + want - 1) // want
    prows = producer_rows(rows)
    producers = Cycle(prows, random.Random("%d:producers" % args.seed),
                      index * len(prows) // max(progs, 1))
    for _ in range(0 if sweep else 8):
        if len(good) >= want:
            break
        cand = [random_packet(rows, rng, nv_rows, producers)
                for _ in range(2 * (want - len(good)) + 4)]
        for c, ok in zip(cand, llvm_accepts(args, [t for t, _ in cand], work)):
            if ok:
                good.append(c)
            else:
                refused += 1
    good = good[:want]
    cases = []
    while good:
        # a chain: no packet assigns a register another one uses as a memory base
        chain, bases, written = [], set(), set()
        for p in list(good):
            if len(chain) == args.chain:
                break
            w = scalar_writes(p[0])
            if (w & bases) or (set(p[1]) & written):
                continue
            chain.append(p)
            bases |= set(p[1])
            written |= w
            good.remove(p)
        if not chain:
            break
        cases.append(Case(None, rng, packets=chain))
    src, obj, elf = (os.path.join(work, "p" + e) for e in (".s", ".o", ""))
    with open(src, "w") as f:
        f.write(program(cases, "packets"))
    rc, _, err = run([LLVM_MC, "-arch=hexagon", "-mcpu=hexagonv67", "-mhvx",
                      "-filetype=obj", src, "-o", obj])
    if rc != 0:
        return None, [], refused
    rc, _, err = run([LLD, "-static", "-o", elf, obj])
    return (elf if rc == 0 else None), cases, refused


def test_packets(args, rows, index, makers=None):
    rng = random.Random("%d:packets:%d" % (args.seed, index))
    elf, cases, refused = build_packets(args, rows, rng, index, makers)
    if not elf:
        return 0, ["packets %d: the program does not assemble" % index], refused
    qrc, qout, _ = run([args.qemu, "-cpu", "v67", elf])
    hrc, hout, herr, modes = run_hexsim(args, elf, "packets %d" % index)
    details = [modes] if modes else []
    n = min(len(qout), len(hout)) // REC
    compared = sum(c.packet.count("{") for c in cases[:n])
    for i in range(n):
        q, h = qout[i * REC:(i + 1) * REC], hout[i * REC:(i + 1) * REC]
        if q != h:
            details.append("packet %d.%d: %s" % (index, i, cases[i].packet))
            details += ["    " + d for d in describe(i, q, h)]
    if len(qout) != len(hout) and not details:
        details.append("packets %d: qemu wrote %d records, hexsim %d (status %s: %s)" %
                       (index, len(qout) // REC, len(hout) // REC, hrc, herr.strip()[:200]))
    if not args.keep and not details:
        shutil.rmtree(os.path.join(args.work, "packets%03d" % index), ignore_errors=True)
    return compared, details, refused


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--hexsim", required=True)
    ap.add_argument("--qemu", default=QEMU)
    ap.add_argument("--isa-dir", default=os.path.join(HERE, "..", "..", "src", "cpu", "isa"))
    ap.add_argument("--group", help="only the rows of src/cpu/isa/GROUP.isa (e.g. hvx_alu)")
    ap.add_argument("--only", help="only the rows whose tag matches this regular expression")
    ap.add_argument("--cases", type=int, default=8)
    ap.add_argument("--batch", type=int, default=BATCH,
                    help="rows per program (1: a program per row)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--work", default="/tmp/hvx_exec")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    ap.add_argument("--pending", default=os.path.join(HERE, "hvx_pending.txt"))
    ap.add_argument("--write-pending", action="store_true")
    ap.add_argument("--details", help="file to write every mismatch to")
    ap.add_argument("--keep", action="store_true", help="keep the programs of passing rows")
    ap.add_argument("--model-check", action="store_true",
                    help="check the rows that have a model against it even if qemu runs them")
    ap.add_argument("--known", default=os.path.join(HERE, "hvx_known_values.txt"),
                    help="known values of rows qemu-hexagon 7.2 cannot run")
    ap.add_argument("--packets", type=int, default=0,
                    help="compare this many random packets instead of the rows one by one")
    ap.add_argument("--chain", type=int, default=1,
                    help="random packets run one after the other in each case (long runs)")
    args = ap.parse_args()
    missing = [t for t in (LLVM_MC, LLD, args.qemu) if not shutil.which(t)]
    if missing:
        print("SKIP: %s not found (tools/setup.sh installs them)" % ", ".join(missing))
        return 77
    all_rows, _ = TE.load_table(args.isa_dir)
    rows = [r for r in all_rows if "hvx" in r.attrs]
    if args.group:
        rows = [r for r in rows if r.where.split(":")[0] == args.group + ".isa"]
    if args.only:
        rows = [r for r in rows if re.search(args.only, r.tag)]
    skipped, todo, modelled = {}, [], []
    for r in rows:
        why = skip_reason(r)
        if r.tag in hvx_models.MODELS and (args.model_check or r.tag in hvx_models.ALSO or
                                            (why and "qemu-hexagon 7.2" in why)):
            modelled.append(r)
            if r.tag in hvx_models.ALSO and not why:
                todo.append(r)
        elif why:
            skipped.setdefault(why, []).append(r.tag)
        else:
            todo.append(r)
    os.makedirs(args.work, exist_ok=True)
    if args.packets:
        have = semantic_tags(args.isa_dir)
        # (left out for now: predicated .tmp and .cur loads, whose register another
        # instruction of the packet reads: qemu-hexagon 7.2 and hexsim disagree there. For a
        # .tmp load which follows the PRM is not settled yet; for a .cur load whose predicate
        # is false, qemu-hexagon 7.2 gives the reader a value that is neither the loaded one
        # nor the register's (seen: `{ v17:16.uh = vunpack(v13.ub); if (p2) v13.cur =
        # vmem(r18++m0) }`, p2 false), hexsim the register's)
        # (and the gathers, scatters, scatter-release stores and histograms: their set-up,
        # special_setup, is per row; they are compared row by row)
        usable = [r for r in todo if r.tag in have and not
                  (("_tmp_" in r.tag or "_cur_" in r.tag) and "pred" in r.tag) and not
                  re.search(r"gather|scatter|hist|srls", r.tag)]
        progs = (args.packets + 50 * args.chain - 1) // (50 * args.chain)
        # and the sweep of the new-value producers: every row writing two vector registers
        # (and the .cur loads) before a new-value store naming each register, 50 to a program
        sweep = producer_sweep(usable, args.seed)
        jobs = [(i, None) for i in range(progs)] + \
            [(progs + k // 50, sweep[k:k + 50]) for k in range(0, len(sweep), 50)]
        with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as ex:
            res = list(ex.map(lambda j: test_packets(args, usable, j[0], j[1]), jobs))
        n = sum(r[0] for r in res[:progs])
        nsweep = sum(r[0] for r in res[progs:])
        details = [d for r in res for d in r[1]]
        print("hvx_exec: %d random packets of %d HVX rows compared (%d per case), and %d "
              "packets of a new-value store and its producer (%d producer rows, each "
              "register); %d mismatching lines; %d drawn packets llvm-mc-16 refuses were "
              "redrawn" % (n, len(usable), args.chain, nsweep, len(sweep) // 2,
                           len(details), sum(r[2] for r in res)))
        for d in details[:60]:
            print("  " + d)
        if args.details:
            with open(args.details, "w") as f:
                f.write("\n".join(details) + "\n")
        return 1 if details else 0
    known = [b for b in load_known(args.known) if not args.only or re.search(args.only, b["tag"])]
    if args.group:
        in_group = {r.tag for r in rows}
        known = [b for b in known if b["tag"] in in_group]
    results = {}
    # rows of the pending list alone (hexsim stops at them), the others BATCH to a program
    listed = set()
    if os.path.exists(args.pending):
        with open(args.pending) as f:
            listed = {ln.split()[0] for ln in f if ln.strip() and not ln.startswith("#")}
    alone = [[r] for r in todo if r.tag in listed]
    rest = [r for r in todo if r.tag not in listed]
    batches = alone + [rest[i:i + args.batch] for i in range(0, len(rest), args.batch)]
    with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as ex:
        for res in ex.map(lambda b: test_rows(args, b, args.seed), batches):
            results.update(res)
    alone = [[r] for r in modelled if r.tag in listed]
    rest = [r for r in modelled if r.tag not in listed]
    for b in alone + [rest[i:i + args.batch] for i in range(0, len(rest), args.batch)]:
        for tag, res in test_rows_model(args, b, args.seed).items():   # (one at a time:
            if tag in results and res[0] != "pending":   # BUF_ADDR; also compared with qemu)
                old = results[tag]
                res = ("fail" if "fail" in (old[0], res[0]) else old[0], old[1] + res[1])
            results[tag] = res
    if modelled:
        print("hvx_exec: %d rows checked against hvx_models.py: %s" %
              (len(modelled), " ".join(r.tag for r in modelled)))
    known_fails = check_known(args, known, {r.tag for r in all_rows})
    print("hvx_exec: %d known-value packets of %d rows (%s): %d failures" %
          (len(known), len({b["tag"] for b in known}), os.path.basename(args.known),
           len(known_fails)))
    # every row with semantics that qemu-hexagon 7.2 cannot run needs a model or known values
    have, known_tags = semantic_tags(args.isa_dir), {b["tag"] for b in known}
    unchecked = sorted(r.tag for r in rows if r.tag in have and r.tag not in known_tags and
                       r.tag not in hvx_models.MODELS and "qemu-hexagon 7.2" in
                       (skip_reason(r) or results.get(r.tag, ("",))[0]))
    if unchecked:
        known_fails.append("rows with semantics that qemu-hexagon 7.2 cannot run, without a "
                           "model in hvx_models.py or known values in %s: %s" %
                           (os.path.basename(args.known), " ".join(unchecked)))
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
        tags = [t for t in tags if t not in known_tags]   # (counted with the known values)
        if not tags:
            continue
        print("  skipped, %s: %d%s" % (why, len(tags),
                                       (": " + " ".join(sorted(tags))) if len(tags) <= 12 else ""))
    details = [d for t in failing for d in results[t][1]] + known_fails
    for d in details[:60]:
        print("  " + d)
    if args.details:
        with open(args.details, "w") as f:
            f.write("\n".join(details) + "\n")
    ok = not failing and not known_fails
    # the pending list is every HVX row of the table without semantic lines (whether this run
    # could execute it or not: most such rows are skipped above, so hexsim's "unimplemented"
    # reports alone would miss them); a row hexsim reports unimplemented although it has
    # semantic lines is a failure
    without = sorted(r.tag for r in all_rows if "hvx" in r.attrs and r.tag not in have)
    odd = [t for t in pending if t in have]
    if odd:
        print("hvx_exec: rows with semantic lines that hexsim reports as unimplemented: %s" %
              " ".join(odd))
        ok = False
    in_scope = {r.tag for r in rows}
    unlisted = [t for t in without if t not in listed and t in in_scope]
    stale = sorted(t for t in listed if t not in without and
                   (t in in_scope or not (args.group or args.only)))
    if args.write_pending and not (args.group or args.only):
        with open(args.pending, "w") as f:
            f.write("# HVX rows without semantics yet (tests/isa/hvx_exec.py --write-pending: "
                    "the HVX rows of src/cpu/isa without semantic lines)\n")
            f.write("".join(t + "\n" for t in without))
    elif unlisted or stale:
        if unlisted:
            print("hvx_exec: rows without semantics not in %s: %s" % (args.pending,
                                                                     " ".join(unlisted)))
        if stale:
            print("hvx_exec: rows in %s that have semantics now (remove them): %s" %
                  (args.pending, " ".join(stale)))
        ok = False
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
