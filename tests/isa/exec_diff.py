#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# Per-instruction differential execution test: every row of the ISA table (src/cpu/isa/*.isa)
# is executed under qemu-hexagon and `hexsim --user` in many cases (random operands and edge
# values; NaN/Inf/denormal/signed-zero patterns and random rounding modes for floating-point
# rows), and the state after each case (r0-r31, control registers, and for memory rows the
# scratch buffer) must be equal. tests/isa/execlib.py builds, runs and compares the programs.
#
# How a row becomes a case:
#   - operands are filled from the row's syntax (register fields, immediates at random or at
#     their extremes, ##-extended forms); .new predicates and new-value operands get a
#     producer in the packet, duplex sub-instructions a plain SA1 partner;
#   - memory rows get base/index/modifier/CS/GP values that put the (aligned) effective address
#     inside the scratch buffer, for every addressing mode (offset, post-increment, register
#     and immediate modifiers, circular, bit-reversed, absolute, absolute-set, scaled index,
#     GP-relative; absolute forms with a random GP, which they must not use); frames
#     (allocframe, deallocframe, dealloc_return) use it as their stack, with a random
#     framekey;
#   - control-flow rows have a taken target ("@T@") and a fall-through, each dumping the state
#     with its own path marker; register targets (jumpr, callr, jumpr r31, the return address
#     of dealloc_return) point at the taken target; hardware-loop rows run a one-packet body.
# Rows that cannot run in Linux user mode are skipped and counted with the reason.
# Besides its random cases a row may get: witness cases of the qemu_deviations.txt entries
# that name it; misaligned-access cases (MISALIGNED_ROWS: hexsim must stop with SIGBUS, exit
# status 135, and a report); a conditional jump and a call in one packet (BRANCH_PAIR_ROWS).
#
# Known qemu deviations: a mismatching case that an entry of tests/isa/qemu_deviations.txt
# matches (where qemu-hexagon 7.2 disagrees with the PRM and hexsim follows the PRM) is
# counted and reported per entry, not a failure; entries that matched no case are reported.
#
# Exit status: 0 when every compared case matches, every row hexsim reports as unimplemented
# is listed in tests/isa/exec_pending.txt, and no listed row is implemented and passing (so
# the list shrinks as semantics are written); 1 otherwise; 77 when qemu-hexagon, the LLVM
# tools or hexsim's user mode are missing. --write-pending rewrites the list from the run.
# Usage: exec_diff.py [--hexsim build/hexsim] [--qemu qemu-hexagon] [--cases N] [--seed S]
#                     [--only TAG-REGEX] [--work DIR] [--jobs N] [--details FILE]
#                     [--pending FILE] [--write-pending] [--qemu-only] [--deviations FILE]
# Giving a qemu-hexagon as --hexsim compares qemu with itself (a check of the harness).
import argparse
import concurrent.futures
import os
import random
import re
import shutil
import subprocess
import sys
import time

sys.dont_write_bytecode = True   # no __pycache__ in the source tree
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import execlib as X  # noqa: E402
import gen_common as GC  # noqa: E402
import table_entries as TE  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(HERE))
M32 = 0xffffffff
CASES_PER_PROGRAM = 400
OPERAND_REGS = 26            # operands use r0-r25; r26, r27 are helpers (producer sources),
                             # r28 the harness's record base, r29-r31 sp/fp/lr

CACHE_OPS = ("dczeroa", "dccleana", "dcinva", "dccleaninva", "icinva")

EDGE32 = [0, 1, 2, 3, M32, 0xfffffffe, 0x80000000, 0x7fffffff, 0x80000001, 0x7ffffffe,
          0x8000, 0x7fff, 0xffff, 0x10000, 0xffff8000, 0xffff7fff, 0x8001, 0x80, 0x7f, 0xff,
          0xffffff80, 0xffffff7f, 0x100, 0x80008000, 0x7fff7fff, 0xffff0000, 0x00010001,
          0x80808080, 0x7f7f7f7f, 0x01010101, 0xfefefefe, 0x55555555, 0xaaaaaaaa, 31, 32,
          63, 64, 0xffffffe0, 0xffffffc0]
EDGE64 = [0, 1, (1 << 64) - 1, 1 << 63, (1 << 63) - 1, (1 << 63) + 1, 0x80000000,
          0xffffffff80000000, 0x7fffffff, 0xffffffff, 0x100000000, 0x8000000000000000 | M32,
          0x7fffffff00000000, 0x8000800080008000, 0x7fff7fff7fff7fff, 0x8080808080808080,
          0x7f7f7f7f7f7f7f7f, 0xffff0000ffff0000, 0x0000ffff0000ffff]
LANE8 = [0, 1, 0x7f, 0x80, 0x81, 0xff, 0xfe, 0x40]
LANE16 = [0, 1, 0x7fff, 0x8000, 0x8001, 0xffff, 0xfffe, 0x4000, 0x00ff, 0xff00]
SF_EDGE = [0, 0x80000000, 0x7f800000, 0xff800000, 0x7fc00000, 0xffc00000, 0x7f800001,
           0x7fbfffff, 0xffffffff, 0x00000001, 0x80000001, 0x007fffff, 0x807fffff,
           0x00800000, 0x80800000, 0x7f7fffff, 0xff7fffff, 0x3f800000, 0xbf800000,
           0x3f000000, 0xbf000000, 0x3fc00000, 0x40200000, 0xc0200000, 0x40400000,
           0x4f000000, 0xcf000000, 0x4f800000, 0x4effffff, 0x5f000000, 0xdf000000,
           0x5f800000, 0x5effffff, 0x4b000000, 0x4b7fffff, 0x33800000, 0x00400000]
DF_EDGE = [0, 1 << 63, 0x7ff0000000000000, 0xfff0000000000000, 0x7ff8000000000000,
           0xfff8000000000000, 0x7ff0000000000001, 0x7ff7ffffffffffff, (1 << 64) - 1, 1,
           0x8000000000000001, 0x000fffffffffffff, 0x800fffffffffffff, 0x0010000000000000,
           0x8010000000000000, 0x7fefffffffffffff, 0xffefffffffffffff, 0x3ff0000000000000,
           0xbff0000000000000, 0x3fe0000000000000, 0x3ff8000000000000, 0x4004000000000000,
           0xc004000000000000, 0x41e0000000000000, 0xc1e0000000000000, 0x41f0000000000000,
           0x41dfffffffc00000, 0x43e0000000000000, 0xc3e0000000000000, 0x43f0000000000000,
           0x43dfffffffffffff, 0x4330000000000000, 0x36a0000000000000, 0x47efffffe0000000,
           0x3810000000000000, 0x380fffffffffffff, 0x0008000000000000]


# ---------------------------------------------------------------------------------------
# Values

def rand32(rng):
    r = rng.random()
    if r < 0.25:
        return rng.choice(EDGE32)
    if r < 0.40:
        return rng.randint(-70, 70) & M32
    if r < 0.55:
        if rng.random() < 0.5:
            return sum(rng.choice(LANE8 + [rng.getrandbits(8)]) << (8 * i) for i in range(4))
        return sum(rng.choice(LANE16 + [rng.getrandbits(16)]) << (16 * i) for i in range(2))
    if r < 0.62:
        v = rng.getrandbits(rng.choice([8, 12, 16, 20, 24]))
        return (-v if rng.random() < 0.5 else v) & M32
    return rng.getrandbits(32)


def rand64(rng):
    r = rng.random()
    if r < 0.2:
        return rng.choice(EDGE64)
    if r < 0.3:
        return rng.randint(-70, 70) & ((1 << 64) - 1)
    if r < 0.4:
        return sum(rng.choice(LANE16 + [rng.getrandbits(16)]) << (16 * i) for i in range(4))
    if r < 0.45:
        return sum(rng.choice(LANE8 + [rng.getrandbits(8)]) << (8 * i) for i in range(8))
    return rand32(rng) | rand32(rng) << 32


def rand_sf(rng):
    r = rng.random()
    if r < 0.35:
        return rng.choice(SF_EDGE)
    if r < 0.85:
        return GC.sf_fields(rng)
    if r < 0.92:   # a small integer as a float (conversions, rounding)
        return [0x3f800000, 0x40000000, 0x40400000, 0x40800000, 0x3fc00000, 0x40200000,
                0x40600000, 0xbfc00000, 0xc0200000][rng.randrange(9)]
    return rand32(rng)


def rand_df(rng):
    r = rng.random()
    if r < 0.35:
        return rng.choice(DF_EDGE)
    if r < 0.85:
        return GC.df_fields(rng)
    if r < 0.92:
        return [0x3ff0000000000000, 0x4000000000000000, 0x3ff8000000000000,
                0x4004000000000000, 0xbff8000000000000, 0xc004000000000000][rng.randrange(6)]
    return rand64(rng)


# ---------------------------------------------------------------------------------------
# Rows

SKIP_WHY = {
    "ext": "constant extender (exercised by every ##-extended case)",
    "priv": "privileged (supervisor mode only)",
    "guest": "guest registers (guest mode only)",
    "trap": "trap (system call or monitor entry)",
    "hvx": "HVX (compared by hvx_exec.py)",
    "audio": "audio extension of V67t/V71t (qemu-hexagon 7.2 cannot run it; new_cores.py)",
    "arch": "V{a} instruction (qemu-hexagon 7.2 runs up to V67)",
    "until": "spelling older than V67",
    "system": "system instruction (not user mode)",
}


def skip_reason(row):
    return GC.skip_reason(row, SKIP_WHY)


def is_float(row):
    return row.tag.startswith("F2_")


class Op:
    def __init__(self, kind, **kw):
        self.kind = kind
        self.__dict__.update(kw)


def choose_imm(row, name, rng, mode):
    signed, scale = row.imm.get(name, (False, 0))
    n = row.bits(name)
    lo, hi = (-(1 << (n - 1)), (1 << (n - 1)) - 1) if signed and n else (0, (1 << n) - 1)
    r = rng.random() if mode == "rand" else 1.0
    if mode == "min" or (mode == "rand" and r < 0.12):
        v = lo
    elif mode == "max" or (mode == "rand" and r < 0.24):
        v = hi
    elif mode == "rand" and r < 0.34:
        v = max(lo, min(hi, rng.choice([0, 1, -1, 2])))
    else:
        v = rng.randint(lo, hi)
    return v << scale


def pick_operands(row, rng, regs, mode, ops):
    """Fills ops (operand key -> Op) for the operands of row's syntax."""
    for m in TE.OPERAND.finditer(row.syntax):
        if m.group(6):
            name = m.group(6)
            if name in ops:
                continue
            ext = name in row.ext and (row.mustext or mode == "ext")
            if name in row.pcrel:
                ops[name] = Op("pcrel", ext=ext)
                continue
            if ext:
                signed = row.imm.get(name, (False, 0))[0]
                v = rand32(rng) if rng.random() < 0.8 else rng.randint(-64, 64) & M32
                if signed and v & 0x80000000:
                    v -= 1 << 32
            else:
                v = choose_imm(row, name, rng, mode)
            ops[name] = Op("imm", value=v, ext=ext)
            continue
        key = m.group(0)
        if key in ops:
            continue
        kind, letter, double, width = m.group(1), m.group(2), m.group(3), m.group(4)
        pair = bool(double)
        dest = letter in "de"
        if kind == "R":
            if width == "16":
                r = regs.pick(TE.R16)
            elif width == "8" and pair:
                r = regs.pick(TE.RR8, 2)
            elif width == "8":
                r = regs.pick(range(8))
            elif pair:
                r = regs.pick(range(0, OPERAND_REGS, 2), 2)
            else:
                r = regs.pick(range(OPERAND_REGS))
            ops[key] = Op("R", reg=r, pair=pair, letter=letter, dest=dest)
        elif kind == "N":
            ops[key] = Op("N", reg=regs.pick(range(OPERAND_REGS)))
        elif kind == "P":
            ops[key] = Op("P", reg=rng.randrange(4), letter=letter)
        elif kind == "M":
            ops[key] = Op("M", reg=rng.randrange(2))
        elif kind == "C":
            if pair:
                bad = TE.CTRL_READONLY if dest else GC.CTRL_VOLATILE
                c = rng.choice([p for p in TE.CTRL_PAIRS if not ({p, p + 1} & bad)])
                ops[key] = Op("C", reg=c, pair=True, dest=dest, text="c%d:%d" % (c + 1, c))
            else:
                bad = TE.CTRL_READONLY if dest else GC.CTRL_VOLATILE
                c = rng.choice([c for c in TE.CTRL if c not in bad])
                ops[key] = Op("C", reg=c, pair=False, dest=dest, text=TE.CTRL[c])
        else:
            raise ValueError("operand %s of %s cannot run in user mode" % (key, row.tag))


def render(row, ops, labels):
    def sub(m):
        if m.group(6):
            op = ops[m.group(6)]
            if op.kind == "pcrel":
                return ("##" if op.ext else "") + labels[m.group(6)]
            return ("##" if op.ext else "#") + str(op.value)
        op = ops[m.group(0)]
        if op.kind == "R":
            return "r%d:%d" % (op.reg + 1, op.reg) if op.pair else "r%d" % op.reg
        if op.kind == "N":
            return "r%d" % op.reg
        if op.kind == "P":
            return "p%d" % op.reg
        if op.kind == "M":
            return "m%d" % op.reg
        return op.text
    return TE.OPERAND.sub(sub, row.syntax)


ADDR_MODES = GC.ADDR_MODES + [
    ("reg", re.compile(r"(?:mem\w+|%s)\((Rs32)[,)]" % "|".join(CACHE_OPS))),
]


def access_size(row):
    s = row.syntax
    m = re.search(r"\b(mem\w*)\(", s)
    if m:
        name = m.group(1)
        if name in ("membh", "memubh"):
            return 4 if re.search(r"\bRdd32 =", s) else 2
        return GC.SIZES.get(name, 4)
    if "dczeroa" in s:
        return 32
    return 1


class Plan:
    """The state a case needs besides the generic random fill."""

    def __init__(self):
        self.regs = {}       # register -> value (int or label expression)
        self.ctrl = {}
        self.mem_words = {}
        self.pre = []        # packets before the one under test
        self.post = []       # packets after it (loop bodies)
        self.mem = False
        self.taken = False
        self.usr = None
        self.ea = None       # effective address of the access, and its size
        self.size = None
        self.misalign = 0    # added to the (aligned) effective address: misaligned cases


def reg_of(ops, key):
    op = ops.get(key)
    return op.reg if op is not None else None


def pick_ea(rng, size, low=64):
    align = max(size, 1)
    lo = X.BUF_BASE + low
    hi = X.BUF_BASE + X.BUF_SIZE - 64
    return rng.randrange(lo // align, hi // align) * align


def plan_frame(row, ops, rng, plan):
    """allocframe, deallocframe and dealloc_return; returns True when row is one of them."""
    s = row.syntax
    if "allocframe" not in s and "dealloc_return" not in s:
        return False
    plan.mem = True
    key = 0 if rng.random() < 0.4 else rng.getrandbits(32)
    plan.ctrl["framekey"] = key
    ea = pick_ea(rng, 8, low=96)
    if "deallocframe" in s or "dealloc_return" in s:
        base = reg_of(ops, "Rs32")
        plan.regs[30 if base is None else base] = ea
        if "dealloc_return" in s:
            plan.mem_words[ea] = rand32(rng)
            plan.mem_words[ea + 4] = ("@T@", key)
            plan.taken = True
    else:   # allocframe(Rx32,#Ii):raw, allocframe(#Ii)
        base = reg_of(ops, "Rx32")
        plan.regs[29 if base is None else base] = ea + 8
    return True


def plan_memory(row, ops, rng, plan):
    s = row.syntax
    flags = set(row.attrs)
    if not (flags & {"load", "store", "memop"} or "dcfetch" in s or
            any(c + "(" in s for c in CACHE_OPS)):
        return
    for mode, rx in ADDR_MODES:
        m = rx.search(s)
        if m:
            break
    else:
        return
    plan.mem = True
    size = access_size(row)
    ea = pick_ea(rng, size) + plan.misalign
    plan.ea, plan.size = ea, size
    g = m.groups()

    def setreg(key, value):
        if key in ("r29", "r30"):
            plan.regs[int(key[1:])] = value & M32
        else:
            plan.regs[ops[key].reg] = value & M32

    if mode == "io":
        setreg(g[0], ea - ops[g[1]].value)
    elif mode == "gp":
        # GP keeps bits 5:0 zero (PRM 2.2.8): the offset takes up ea's low bits
        off = ops[g[0]].value
        off += (ea - off) & 63
        if off >= 1 << (row.bits(g[0]) + row.imm.get(g[0], (False, 0))[1]):
            off -= 64
        if off < 0:
            raise ValueError("no GP-relative offset for address 0x%x" % ea)
        ops[g[0]].value = off
        plan.ctrl["gp"] = (ea - off) & M32
    elif mode == "abs":
        ops[g[0]].value = ea
        # A random GP, which an absolute address does not use. (PS_*abs are the ##-extended
        # GP-relative encodings, whose address is the constant alone, PRM 10.9; qemu-hexagon
        # 7.2 adds GP: qemu_deviations.txt [gp-rel-extended].) GP keeps ea + GP inside the
        # buffer, so that qemu's access is a harmless wrong one.
        if rng.random() < 0.8:   # (GP keeps bits 5:0 zero: a multiple of 64)
            lo = -((ea - X.BUF_BASE) // 64)
            hi = (X.BUF_BASE + X.BUF_SIZE - size - ea) // 64
            plan.ctrl["gp"] = (rng.randint(lo, hi) * 64) & M32
    elif mode == "ap":
        ops[g[1]].value = ea
    elif mode == "rr":
        t = rand32(rng) if rng.random() < 0.5 else rng.randint(-200, 200) & M32
        setreg(g[1], t)
        setreg(g[0], ea - (t << ops[g[2]].value))
    elif mode == "ur":
        t = rand32(rng) if rng.random() < 0.5 else rng.randint(-200, 200) & M32
        setreg(g[0], t)
        ops[g[2]].value = (ea - (t << ops[g[1]].value)) & M32
        ops[g[2]].ext = True
    elif mode in ("pi", "reg"):
        setreg(g[0], ea)
    elif mode == "pm":
        setreg(g[0], ea)
        plan.ctrl["m%d" % ops[g[1]].reg] = rand32(rng)
    elif mode == "brev":
        setreg(g[0], (ea & 0xffff0000) | GC.brev16(ea))
        plan.ctrl["m%d" % ops[g[1]].reg] = rand32(rng)
    else:   # circular
        setreg(g[0], ea)
        mu = ops[g[-1]].reg
        if rng.random() < 0.7:
            length = rng.randint(1, 256 // size) * size
        else:
            length = rng.randint(0, 0x1ffff)
        k = 0 if rng.random() < 0.8 else rng.randint(1, 15)
        i11 = rng.getrandbits(11) if rng.random() < 0.7 else rng.randint(-8, 8) & 0x7ff
        plan.ctrl["m%d" % mu] = ((i11 >> 7) << 28 | k << 24 | (i11 & 0x7f) << 17 | length)
        off = rng.randrange(0, max(1, length) // size + 1) * size if length > size else 0
        plan.ctrl["cs%d" % mu] = (ea - off) & M32
    if "_locked" in s and "store" in flags and rng.random() < 0.6:
        base = ops[g[0]].reg
        if "memd" in s:
            plan.pre.append("  { r27:26 = memd_locked(r%d) }" % base)
        else:
            plan.pre.append("  { r26 = memw_locked(r%d) }" % base)


def plan_control(row, ops, rng, plan, labels):
    flags = set(row.attrs)
    s = row.syntax
    if "hwloop" in flags:
        labels.update({n: "@L@b" for n, op in ops.items() if op.kind == "pcrel"})
        count = rng.choice([0, 1, 2, 3, 4, 5, rng.randint(6, 40), rng.randint(6, 300)])
        if "II" in ops and ops["II"].kind == "imm":
            if rng.random() < 0.85:
                ops["II"].value = min(count, (1 << row.bits("II")) - 1)
        rs = reg_of(ops, "Rs32")
        if rs is not None:
            plan.regs[rs] = count
        end = ":endloop1" if "loop1" in s else ":endloop0"
        plan.post.append("@L@b:")
        if "sp" in s and "loop0" in s:
            plan.post.append("  { if (p3) r26 = add(r26,r25); r27 = add(r27,#1) }" + end)
        else:
            plan.post.append("  { r26 = add(r26,#1) }" + end)
        return
    if not flags & {"jump", "call"}:
        return
    plan.taken = True
    labels.update({n: "@T@" for n, op in ops.items() if op.kind == "pcrel"})
    if re.search(r"\b(jumpr|callr|hintjr)\b", s):
        rs = reg_of(ops, "Rs32")
        if rs is not None:
            plan.regs[rs] = "@T@"
        elif "r31" in s:
            plan.regs[31] = "@T@"


def fill_values(row, ops, rng, plan, producers):
    """Initial values of every register: the plan's, then the operands', then random."""
    regs = [None] * 32
    fp = is_float(row)
    int_src = bool(re.search(r"convert_(w|uw|d|ud)2", row.syntax))
    for r, v in plan.regs.items():
        regs[r] = v
    srcs = []
    for key, op in ops.items():
        if op.kind not in ("R", "N"):
            continue
        r = op.reg
        width = 2 if getattr(op, "pair", False) else 1
        if regs[r] is None and (width == 1 or regs[r + 1] is None):
            if width == 2:
                v = rand_df(rng) if fp and not int_src else rand64(rng)
                regs[r], regs[r + 1] = v & M32, v >> 32
            else:
                regs[r] = rand_sf(rng) if fp and not int_src else rand32(rng)
            if op.kind == "R" and not getattr(op, "dest", False):
                srcs.append((key, r, width))
    # Equal operands, and operands equal to the immediate or a literal, for comparisons.
    s = row.syntax
    compare = re.search(r"cmp\.|tstbit|bitsclr|bitsset|!=|==|>=|<=|max|min", s)
    imms = [op.value for op in ops.values() if op.kind == "imm"]
    lits = [int(x, 0) for x in re.findall(r"#(-?(?:0x)?[0-9a-f]+)\b", s)]
    near = lambda v: (v + rng.choice([0, 0, 0, 1, -1])) & M32  # noqa: E731
    if srcs and rng.random() < (0.5 if compare else 0.2):
        if imms + lits and (len(srcs) == 1 or rng.random() < 0.5):
            _, a, w = srcs[rng.randrange(len(srcs))]
            v = near(rng.choice(imms + lits))
            regs[a] = v
            if w == 2:
                regs[a + 1] = M32 if v & 0x80000000 else 0
        elif len(srcs) >= 2:
            (_, a, wa), (_, b, wb) = rng.sample(srcs, 2)
            if wa == wb and isinstance(regs[a], int):
                regs[b] = near(regs[a]) if wa == 1 else regs[a]
                if wa == 2:
                    regs[b + 1] = regs[a + 1]
    # New-value producers read r27: make their value meet the comparison now and then.
    for p in producers:
        m = re.match(r"r(\d+) = add\(r27,#(-?\d+)\)", p)
        if m and rng.random() < 0.5:
            others = [regs[r] for _, r, w in srcs if w == 1 and isinstance(regs[r], int)]
            target = rng.choice(imms + lits or others or [0])
            regs[27] = near(target - int(m.group(2)))
    for r in range(32):
        if regs[r] is None:
            regs[r] = rand32(rng)
    return regs


class Generator:
    """Makes the cases of a row. Duplex sub-instructions get a partner from the SA1 group
    (every group may pair with it, PRM duplex table) that neither reads a .new predicate nor
    writes p0, so that producers stay unambiguous."""

    def __init__(self, rows):
        self.partners = [r for r in rows if r.cls == "SUBA" and "pnew" not in r.attrs and
                         not re.search(r"\bp0 =", r.syntax)]

    def case(self, row, rng, index, fixed=None, misalign=0):
        """Case number index of row. fixed: {operand name (short: Rs, Rxx, Pu, Ii) or usr,
        preds, a control register name: value} imposed on the case (a witness of
        qemu_deviations.txt); misalign: added to the effective address of a memory row."""
        fixed = dict(fixed or {})
        modes = ["rand", "rand", "min", "max"] + (["ext"] if row.ext else [])
        mode = modes[index % len(modes)] if index < len(modes) else \
            rng.choice(["rand", "rand", "rand", "rand", "min", "max"] +
                       (["ext", "ext"] if row.ext else []))
        if re.search(r"\(gp\+", row.syntax) and mode == "ext":
            mode = "rand"
        regs = TE.Regs(rng, reserved=range(OPERAND_REGS, 32))
        ops = {}
        pick_operands(row, rng, regs, mode, ops)
        names = {short_name(k): k for k in ops}
        for name, v in fixed.items():
            if name in names and ops[names[name]].kind == "imm":
                ops[names[name]].value = v
            elif name not in names and name not in ("usr", "preds") and \
                    name not in X.RESET_CTRL:
                raise ValueError("witness names %s, which %s does not have" % (name, row.tag))
        plan = Plan()
        plan.misalign = misalign
        labels = {}
        if not plan_frame(row, ops, rng, plan):
            plan_memory(row, ops, rng, plan)
        plan_control(row, ops, rng, plan, labels)
        insns = [render(row, ops, labels)]
        if row.duplex:
            partner = rng.choice([p for p in self.partners if p.tag != row.tag])
            pops = {}
            pick_operands(partner, rng, regs, "rand", pops)
            insns.append(render(partner, pops, {}))
            for k, op in pops.items():
                ops["partner." + k] = op
        text = "; ".join(insns)
        producers = []
        for p in sorted(set(re.findall(r"\b(p[0-3])\.new\b", text))):
            if not re.search(r"\b%s\s*=" % p, text):
                producers.append("%s = cmp.gt(r27,r26)" % p)
        for op in list(ops.values()):
            if op.kind == "N":
                op.k = rng.randint(-8, 8)
                producers.append("r%d = add(r27,#%d)" % (op.reg, op.k))
        packet = "  { " + "; ".join(producers + [text]) + " }"
        regvals = fill_values(row, ops, rng, plan, producers)
        usr = 0
        if is_float(row):
            if rng.random() < 0.6:
                usr |= rng.randrange(4) << 22
            if rng.random() < 0.15:
                usr |= rng.getrandbits(6) & 0x3e
        elif rng.random() < 0.1:
            usr |= 1
        ctrl = dict(plan.ctrl)
        for op in ops.values():   # give the control registers an instruction reads a value
            if op.kind == "C" and not op.dest:
                for c in ([op.reg, op.reg + 1] if op.pair else [op.reg]):
                    name = TE.CTRL.get(c)
                    if c == 4:
                        continue
                    # (USR and GP keep their reserved bits zero: exec.c, cr_fixed)
                    if c == 8:
                        usr = rand32(rng) & ~(0x1f << 25) & 0x3ecfff3f
                    elif name in X.RESET_CTRL and name not in ctrl:
                        ctrl[name] = rand32(rng) & (0xffffffc0 if c == 11 else M32)
        preds = GC.rand_preds(rng)
        for name, v in fixed.items():
            op = ops.get(names.get(name))
            if op is not None and op.kind == "R":
                regvals[op.reg] = v & M32
                if op.pair:
                    regvals[op.reg + 1] = v >> 32 & M32
            elif op is not None and op.kind == "P":
                preds = preds & ~(0xff << 8 * op.reg) | (v & 0xff) << 8 * op.reg
            elif op is not None and op.kind in ("N", "M", "C"):
                raise ValueError("witness operand %s: only registers, predicates and "
                                 "immediates can be given" % name)
            elif name == "usr":
                usr = v & M32
            elif name == "preds":
                preds = v & M32
            elif op is None:
                ctrl[name] = v & M32
        facts = case_facts(ops, regvals, preds, ctrl, producers, plan)
        return X.Case(row.tag, plan.pre + [packet] + plan.post, regvals,
                      preds=preds, usr=usr, ctrl=ctrl, mem=plan.mem,
                      image=rng.randrange(8), mem_words=plan.mem_words, taken=plan.taken,
                      facts=facts)


def short_name(key):
    """An operand's name in predicates and witnesses: Rs32 -> Rs, Rxx32 -> Rxx, Pu4 -> Pu."""
    return re.sub(r"\d+$", "", key)


def case_facts(ops, regs, preds, ctrl, producers, plan):
    """The facts a case gives qemu_deviations.txt predicates: each operand's value before the
    packet under its short name (pairs as 64-bit values, predicates as their byte, N the value
    its producer gives), "fields" (operand name -> the record fields it names, for differs:),
    and for memory rows "ea", "size" and "misaligned"."""
    facts, fields = {}, {}
    for key, op in ops.items():
        if key.startswith("partner.") or op.kind == "pcrel":
            continue
        name = short_name(key)
        if op.kind == "imm":
            facts[name] = op.value
        elif op.kind == "R":
            lo = regs[op.reg]
            if op.pair:
                hi = regs[op.reg + 1]
                if isinstance(lo, int) and isinstance(hi, int):
                    facts[name] = lo | hi << 32
                fields[name] = ["r%d" % op.reg, "r%d" % (op.reg + 1)]
            else:
                if isinstance(lo, int):
                    facts[name] = lo
                fields[name] = ["r%d" % op.reg]
        elif op.kind == "N":
            if isinstance(regs[27], int):
                facts[name] = (regs[27] + op.k) & M32
        elif op.kind == "P":
            v = preds >> 8 * op.reg & 0xff
            if "p%d = cmp.gt(r27,r26)" % op.reg in producers:
                sgn = lambda x: x - (1 << 32) if x & 0x80000000 else x  # noqa: E731
                if isinstance(regs[27], int) and isinstance(regs[26], int):
                    v = 0xff if sgn(regs[27]) > sgn(regs[26]) else 0
            facts[name] = v
            fields[name] = ["p3:0"]
        elif op.kind == "M":
            facts[name] = ctrl.get("m%d" % op.reg, 0)
            fields[name] = ["m%d" % op.reg]
        elif op.kind == "C":
            cs = [op.reg, op.reg + 1] if op.pair else [op.reg]
            cn = [TE.CTRL.get(c, "c%d" % c) for c in cs]
            vals = [ctrl.get(n, 0) for n in cn]
            facts[name] = vals[0] | (vals[1] << 32 if op.pair else 0)
            fields[name] = cn
    facts["fields"] = fields
    if plan.ea is not None:
        facts["ea"] = plan.ea
        facts["size"] = plan.size
        facts["misaligned"] = plan.ea % plan.size != 0
    return facts


# Case classes besides a row's random cases (made for the row when it is selected).
# Misaligned accesses: hexsim raises the misaligned-address exception (PRM 5.1.3), which Linux
# user mode delivers as SIGBUS (exit status 135, with a report); qemu-hexagon 7.2 performs the
# access (qemu_deviations.txt [misaligned-access]).
MISALIGNED_ROWS = ["L2_loadrh_io", "L2_loadruh_io", "L2_loadri_io", "L2_loadrd_io",
                   "L2_loadri_pi", "L4_loadri_rr", "S2_storerh_io", "S2_storeri_io",
                   "S2_storerd_io", "S2_storerinew_io", "S4_storeri_rr"]
SIGBUS_STATUS = 128 + 7
# Two branches in a packet, a conditional jump first, then a call (the row): when the jump is
# taken the call is ignored (PRM: the second branch has no effect), so r31 keeps its value;
# qemu-hexagon 7.2 writes r31 (qemu_deviations.txt [jump-then-call]).
BRANCH_PAIR_ROWS = {"J2_call": "call @L@c", "J2_callt": "if (p{v}) call @L@c",
                    "J2_callf": "if (!p{v}) call @L@c"}
FIRST_JUMPS = ["if (p{u}) jump @T@", "if (!p{u}) jump @T@", "if (p{u}) jump:t @T@",
               "if (!p{u}) jump:nt @T@", "p{u} = cmp.gt(r27,r26); if (p{u}.new) jump:t @T@",
               "p{u} = cmp.gt(r27,r26); if (!p{u}.new) jump:nt @T@"]


def misaligned_cases(gen, row, rng, n):
    size = access_size(row)
    out = []
    for k in range(n):
        c = gen.case(row, rng, k, misalign=rng.randrange(1, size))
        c.facts["expect_stop"] = SIGBUS_STATUS
        c.note = "misaligned access"
        out.append(c)
    return out


def branch_pair_cases(row, rng, n):
    """n cases; every other one with the jump taken and the call's condition true."""
    out = []
    for k in range(n):
        u, v = rng.sample(range(4), 2)
        first = rng.choice(FIRST_JUMPS[:4] if k % 2 == 0 else FIRST_JUMPS).format(u=u)
        second = BRANCH_PAIR_ROWS[row.tag].format(v=v)
        regs = [rand32(rng) for _ in range(32)]
        preds = GC.rand_preds(rng)
        if k % 2 == 0:
            for p, true in ((u, "!" not in first), (v, "!" not in second)):
                b = rng.choice([0xff, 0x01, 0x55]) if true else rng.choice([0, 0xfe, 0xaa])
                preds = preds & ~(0xff << 8 * p) | b << 8 * p
        out.append(X.Case(row.tag, ["  { %s; %s }" % (first, second), "@L@c:"], regs,
                          preds=preds, taken=True, note="jump then call",
                          facts={"Pu": preds >> 8 * u & 0xff, "Pv": preds >> 8 * v & 0xff,
                                 "fields": {}}))
    return out


def make_images(rng, n=8):
    imgs = []
    for _ in range(n):
        words = []
        for _ in range(X.BUF_SIZE // 4):
            words.append(rand32(rng) if rng.random() < 0.3 else rng.getrandbits(32))
        imgs.append(b"".join(w.to_bytes(4, "little") for w in words))
    return imgs


# ---------------------------------------------------------------------------------------
# Running

class Job:
    def __init__(self, index, case_ids):
        self.index = index
        self.ids = case_ids


def sim_cmd(path):
    """qemu-hexagon runs PROG directly; hexsim needs --user."""
    # hexsim compiles every block (--jit-threshold 1), so that compiled code is compared too
    return ([path] if os.path.basename(path).startswith("qemu")
            else [path, "--jit-threshold", "1", "--user"])


def run_job(job, cases, args, images):
    """Builds and runs one program; returns a dict of what happened to each case."""
    res = {"build_errors": {}, "qemu_fail": {}, "qemu_cannot": {}, "hex_fail": {},
           "unimpl": {}, "blocked": {}, "stopped": None, "compared": {}, "diffs": {},
           "known": {}, "qemu_time": 0.0, "hexsim_time": 0.0, "harness_stop": None}
    devs = args.devs
    hex_stop = {}
    name = "prog%03d" % job.index
    prog, errs = X.build(cases, job.ids, images, args.work, name)
    res["build_errors"] = errs
    if prog is None:
        return res
    next_row = {}
    ids = prog.ids
    for i, cid in enumerate(ids):
        j = i
        while j < len(ids) and cases[ids[j]].tag == cases[cid].tag:
            j += 1
        next_row[cid] = ids[j] if j < len(ids) else None
    next_case = {cid: ids[i + 1] if i + 1 < len(ids) else X.STOP for i, cid in enumerate(ids)}
    end = X.STOP

    def qemu_fail(cid, rc, err, timed_out):
        if "decode_packet" in err or "assertion failed" in err:
            res["qemu_cannot"][cases[cid].tag] = X.first_line(err, "assertion|ERROR")
            return next_row[cid] if next_row[cid] is not None else end
        res["qemu_fail"][cid] = "%s: %s" % (X.status_text(rc, timed_out), X.first_line(err))
        return None

    q = X.run(sim_cmd(args.qemu), prog, qemu_fail,
              args.timeout)
    res["qemu_time"] = q.seconds
    if q.status != 0 and not q.failures:
        res["qemu_fail"][None] = X.status_text(q.status, False)
    if args.qemu_only:
        for cid in ids:
            if cid in q.records:
                res["compared"][cid] = True
        res["records"] = q.records
        return res

    def hex_fail(cid, rc, err, timed_out):
        tag = X.unimplemented_tag(rc, err)
        row = cases[cid].tag
        if tag:
            if tag in X.HARNESS_TAGS:   # every case needs it
                res["harness_stop"] = tag
                return end
            if tag == row:
                res["unimpl"][row] = tag
            else:
                res["blocked"][row] = tag
            return next_row[cid] if next_row[cid] is not None else end
        res["hex_fail"][cid] = "%s: %s" % (X.status_text(rc, timed_out),
                                           X.first_line(err, "hexsim") or X.first_line(err))
        hex_stop[cid] = (None if timed_out else rc, err)
        if not timed_out and rc == cases[cid].facts.get("expect_stop"):
            return next_case[cid]   # expected: go on with the next case (no give-up streak)
        return None

    h = X.run(sim_cmd(args.hexsim), prog, hex_fail,
              args.timeout)
    res["hexsim_time"] = h.seconds
    if h.gave_up is not None:
        res["gave_up"] = "%s: hexsim stopped in %d cases in a row, the last one %d (%s); the " \
            "program's later cases were not run" % (name, 25, h.gave_up,
                                                    res["hex_fail"].get(h.gave_up, "?"))
    for cid in ids:
        row = cases[cid].tag
        qr = q.records.get(cid)
        if not qr:
            continue
        if res["harness_stop"] and cid not in h.records:
            res["blocked"].setdefault(row, res["harness_stop"])
            continue
        if row in res["unimpl"] or row in res["blocked"]:
            if cid not in h.records:
                continue
        hr = h.records.get(cid)
        res["compared"][cid] = True
        case = cases[cid]
        devs.exercise(case, qr[0][1] if len(qr) == 1 else None,
                      hr[0][1] if hr and len(hr) == 1 else None)
        dev = None
        rc, err = hex_stop.get(cid, (None, ""))
        if not hr:
            why = res["hex_fail"].get(cid, "no state dump from hexsim" +
                                      (" (gave up)" if "gave_up" in res else ""))
            d = ["hexsim stopped in this case: " + why]
            if cid in hex_stop and len(qr) == 1:
                dev = devs.classify(case, qr[0][1], None, rc, err)
        elif len(hr) != len(qr):
            d = ["state dumped %d times by qemu, %d times by hexsim" % (len(qr), len(hr))]
        else:
            d = X.differences(qr[0][1], hr[0][1])
            if d:
                dev = devs.classify(case, qr[0][1], hr[0][1])
        expect = case.facts.get("expect_stop")
        if expect is not None and (hr or rc != expect or not X.first_line(err, "^hexsim:")):
            d = ["hexsim should stop in this case with exit status %d and a report (%s), "
                 "but %s" % (expect, case.note or "expected fault",
                             "ran through it" if hr else res["hex_fail"].get(cid, "?"))]
            dev = None
        if d and dev is not None:
            res["known"][cid] = (dev.name, d)
        elif d:
            res["diffs"][cid] = d
    if h.status != 0 and not h.failures:
        res["hex_fail"][None] = X.status_text(h.status, False)
    return res


def generator_checks(case_rows, cases, records, images, rows_by_tag):
    """Warnings about cases that do not test what they should: conditional branches that
    always went the same way, stores that never changed the scratch buffer."""
    warn = []
    for tag, ids in sorted(case_rows.items()):
        recs = [(c, records[c][0]) for c in ids if records.get(c)]
        if not recs:
            continue
        flags = set(rows_by_tag[tag].attrs)
        if cases[ids[0]].taken and "pred" in flags:
            paths = {r[0] for _, r in recs}
            if len(paths) < 2:
                warn.append("%s: every case %s" % (tag, X.PATHS.get(paths.pop(), "?")))
        if "store" in flags and cases[ids[0]].mem and "allocframe" not in tag:
            changed = 0
            for c, (_, rec) in recs:
                img = bytearray(images[cases[c].image % len(images)])
                for addr, v in cases[c].mem_words.items():
                    if isinstance(v, int) and X.BUF_BASE <= addr < X.BUF_BASE + X.BUF_SIZE:
                        img[addr - X.BUF_BASE:addr - X.BUF_BASE + 4] = v.to_bytes(4, "little")
                changed += rec[X.REC_SIZE:] != bytes(img)
            if not changed:
                warn.append("%s: no case changed the scratch buffer" % tag)
    return warn


def shown_path(path):
    rel = os.path.relpath(path)
    return path if rel.startswith("..") else rel


def load_pending(path):
    tags = []
    if path and os.path.exists(path):
        with open(path) as f:
            for line in f:
                t = line.split("#", 1)[0].strip()
                if t:
                    tags.append(t)
    return tags


def probe_hexsim(args):
    """None when `hexsim --user` runs a program that just exits, else why not."""
    src_dir = os.path.join(args.work, "probe")
    os.makedirs(src_dir, exist_ok=True)
    path = os.path.join(src_dir, "exit0.s")
    with open(path, "w") as f:
        f.write("  .text\n  .globl _start\n_start:\n  { r0 = ##0; r6 = ##93 }\n"
                "  { trap0(#1) }\n")
    elf = os.path.join(src_dir, "exit0")
    subprocess.run([X.LLVM_MC, "-arch=hexagon", "-mcpu=" + X.MCPU, "-filetype=obj", path,
                    "-o", elf + ".o"], check=True)
    subprocess.run([X.LLD, "-static", "-o", elf, elf + ".o"], check=True)
    rc, out, err, to = X._run(sim_cmd(args.hexsim) + [elf], 30)
    if rc == 0:
        return None
    if X.unimplemented_tag(rc, err):
        return None
    return "%s %s: %s" % (" ".join(sim_cmd(args.hexsim)), X.status_text(rc, to),
                          X.first_line(err))


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--hexsim", default=os.path.join(ROOT, "build", "hexsim"))
    ap.add_argument("--qemu", default="qemu-hexagon")
    ap.add_argument("--isa-dir", default=os.path.join(ROOT, "src", "cpu", "isa"))
    ap.add_argument("--work", default=os.path.join(ROOT, "build", "tests", "isa", "exec"))
    ap.add_argument("--cases", type=int, default=32, help="cases per row (default 32)")
    ap.add_argument("--seed", type=int, default=20240601)
    ap.add_argument("--only", help="regular expression: rows whose tag it matches")
    ap.add_argument("--pending", default=os.path.join(HERE, "exec_pending.txt"))
    ap.add_argument("--deviations", default=X.DEVIATIONS,
                    help="known qemu-hexagon deviations (default tests/isa/qemu_deviations.txt)")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    ap.add_argument("--timeout", type=float, default=60, help="seconds per simulator run")
    ap.add_argument("--details", help="file to write every mismatching case to")
    ap.add_argument("--show", type=int, default=3, help="cases shown per mismatching row")
    ap.add_argument("--write-pending", action="store_true",
                    help="rewrite --pending: the rows found unimplemented, plus the listed rows "
                         "this run could not decide")
    ap.add_argument("--qemu-only", action="store_true",
                    help="only build and run under qemu-hexagon (checks the generator)")
    args = ap.parse_args()
    t0 = time.monotonic()
    args.qemu = shutil.which(args.qemu) or args.qemu
    missing = [t for t in (X.LLVM_MC, X.LLD, args.qemu) if not shutil.which(t)]
    if missing:
        print("SKIP: %s not found (tools/setup.sh installs them)" % ", ".join(missing))
        return 77
    if not args.qemu_only:
        if not os.path.exists(args.hexsim):
            print("SKIP: %s does not exist (build it first)" % args.hexsim)
            return 77
    os.makedirs(args.work, exist_ok=True)
    if not args.qemu_only:
        why = probe_hexsim(args)
        if why:
            print("SKIP: hexsim cannot run a user program yet (%s)" % why)
            return 77

    rows, _ = TE.load_table(args.isa_dir)
    all_tags = {r.tag for r in rows}
    only = re.compile(args.only) if args.only else None
    selected = [r for r in rows if not only or only.search(r.tag)]
    gen = Generator(rows)
    devs = X.load_deviations(args.deviations)
    args.devs = devs
    witness_errors = []
    skipped = {}
    cases, case_rows = [], {}
    gen_errors = {}
    for row in selected:
        why = skip_reason(row)
        if why:
            skipped[row.tag] = why
            continue
        rng = random.Random("%d:%s" % (args.seed, row.tag))
        ids = []
        for k in range(args.cases):
            try:
                c = gen.case(row, rng, k)
            except (ValueError, KeyError, IndexError) as e:
                gen_errors[row.tag] = "%s: %s" % (type(e).__name__, e)
                break
            ids.append(len(cases))
            cases.append(c)
        extra = []
        if ids:
            wrng = random.Random("%d:%s:extra" % (args.seed, row.tag))
            for k, (entry, w) in enumerate(devs.witnesses(row.tag)):
                try:
                    c = gen.case(row, wrng, k, fixed=w)
                except (ValueError, KeyError, IndexError) as e:
                    witness_errors.append("[%s] witness %s for %s: %s" % (
                        entry.name, " ".join("%s=0x%x" % kv for kv in sorted(w.items())),
                        row.tag, e))
                    continue
                c.note = "witness of [%s]" % entry.name
                extra.append(c)
            n_extra = max(2, args.cases // 8)
            if row.tag in MISALIGNED_ROWS:
                extra += misaligned_cases(gen, row, wrng, n_extra)
            if row.tag in BRANCH_PAIR_ROWS:
                extra += branch_pair_cases(row, wrng, n_extra)
        for c in extra:
            ids.append(len(cases))
            cases.append(c)
        if ids:
            case_rows[row.tag] = ids
        elif row.tag not in gen_errors:
            gen_errors[row.tag] = "no cases"
    # Programs: consecutive rows, about CASES_PER_PROGRAM cases each.
    jobs, cur = [], []
    for tag, ids in case_rows.items():
        cur += ids
        if len(cur) >= CASES_PER_PROGRAM:
            jobs.append(Job(len(jobs), cur))
            cur = []
    if cur:
        jobs.append(Job(len(jobs), cur))
    images = make_images(random.Random("%d:images" % args.seed))
    print("exec_diff: seed %d, %d cases per row, %d rows selected, %d cases in %d programs; "
          "qemu %s, hexsim %s" % (args.seed, args.cases, len(selected), len(cases), len(jobs),
                                  args.qemu, "-" if args.qemu_only else args.hexsim))
    sys.stdout.flush()
    results = []
    with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as ex:
        for r in ex.map(lambda j: run_job(j, cases, args, images), jobs):
            results.append(r)

    # Per-row outcome.
    merged = {k: {} for k in ("build_errors", "qemu_fail", "qemu_cannot", "hex_fail",
                              "unimpl", "blocked", "compared", "diffs", "known")}
    harness_stops = set()
    gave_up = [r["gave_up"] for r in results if "gave_up" in r]
    qtime = htime = 0.0
    for r in results:
        for k in merged:
            merged[k].update(r[k])
        if r["harness_stop"]:
            harness_stops.add(r["harness_stop"])
        qtime += r["qemu_time"]
        htime += r["hexsim_time"]
    records = {}
    for r in results:
        records.update(r.get("records", {}))
    row_rejected = {}
    for tag, ids in case_rows.items():
        errs = [merged["build_errors"][c] for c in ids if c in merged["build_errors"]]
        if len(errs) == len(ids):
            row_rejected[tag] = errs[0]
    for tag, msg in merged["qemu_cannot"].items():
        skipped[tag] = "qemu-hexagon 7.2 cannot decode it (%s)" % msg.split("ERROR:")[-1][:60]
    for tag, msg in row_rejected.items():
        skipped[tag] = "llvm-mc-16 -mv67 rejects it (%s)" % msg
    for tag, msg in gen_errors.items():
        if tag not in case_rows:
            skipped[tag] = "the harness cannot generate it (%s)" % msg
    compared_rows, mismatch_rows, passing = {}, {}, set()
    n_compared = 0
    for tag, ids in case_rows.items():
        if tag in skipped:
            continue
        done = [c for c in ids if c in merged["compared"]]
        bad = [c for c in ids if c in merged["diffs"]]
        n_compared += len(done)
        if done:
            compared_rows[tag] = len(done)
        if bad:
            mismatch_rows[tag] = bad
        elif done and tag not in merged["unimpl"] and tag not in merged["blocked"]:
            passing.add(tag)
    unimpl = set(merged["unimpl"]) | harness_stops | set(merged["blocked"].values())
    unimpl &= all_tags
    unimpl -= set(skipped)
    pending = load_pending(args.pending)
    pending_set = set(pending)
    relevant_pending = {t for t in pending_set if not only or only.search(t)}
    not_listed = sorted(unimpl - pending_set)
    now_passing = sorted(t for t in relevant_pending if t in passing)
    unknown_pending = sorted(t for t in pending_set if t not in all_tags)
    qemu_faults = {c: m for c, m in merged["qemu_fail"].items()}

    out = []
    p = out.append
    p("exec_diff: %d rows compared (%d cases), %d rows passing, %d rows skipped" %
      (len(compared_rows), n_compared, len(passing), len(skipped)))
    reasons = {}
    for tag, why in skipped.items():
        reasons.setdefault(why, []).append(tag)
    for why, tags in sorted(reasons.items(), key=lambda kv: -len(kv[1])):
        p("  skipped, %s: %d: %s" % (why, len(tags), " ".join(sorted(tags))))
    if qemu_faults:
        p("exec_diff: %d cases stopped qemu-hexagon (left out; harness problem):" %
          len(qemu_faults))
        for c, m in list(qemu_faults.items())[:10]:
            if c is None:
                p("  (end of a program): %s" % m)
            else:
                p("  %s: %s | %s" % (cases[c].tag, " ".join(cases[c].text(c)).strip(), m))
    for g in gave_up:
        p("exec_diff: " + g)
    if harness_stops:
        p("exec_diff: hexsim stops at harness instructions, so no case can be compared until "
          "they are implemented: %s" % " ".join(sorted(harness_stops)))
    if merged["unimpl"]:
        listed = len(set(merged["unimpl"]) & pending_set)
        p("exec_diff: %d rows unimplemented in hexsim (%d of them listed in %s)%s" %
          (len(merged["unimpl"]), listed, shown_path(args.pending),
           ": " + " ".join(sorted(merged["unimpl"])) if len(merged["unimpl"]) <= 40 else ""))
    blocked_by = {}
    for tag, by in merged["blocked"].items():
        blocked_by.setdefault(by, []).append(tag)
    if blocked_by:
        p("exec_diff: %d rows not compared because hexsim lacks an instruction their cases "
          "need:" % len(merged["blocked"]))
        for by, tags in sorted(blocked_by.items()):
            p("  %s (%d rows)%s" % (by, len(tags), ": " + " ".join(sorted(tags))
                                    if len(tags) <= 12 else ""))
    detail = []
    if merged["unimpl"]:
        detail.append("unimplemented in hexsim: " + " ".join(sorted(merged["unimpl"])))
    if mismatch_rows:
        p("exec_diff: %d mismatching rows: %s" % (len(mismatch_rows),
                                                  " ".join(sorted(mismatch_rows))))
        shown = 0
        for tag in sorted(mismatch_rows):
            bad = mismatch_rows[tag]
            lines = ["%s: %d of %d cases differ" % (tag, len(bad), compared_rows.get(tag, 0))]
            for c in bad:
                case = cases[c]
                lines.append("  case %d: %s" % (c, " ".join(l.strip()
                                                            for l in case.text(c))))
                lines.append("    inputs: %s" % case.setup_summary())
                for d in merged["diffs"][c]:
                    lines.append("    " + d)
            detail += lines
            if shown < 40:
                keep = 1 + 3 * args.show
                p("\n".join("  " + l for l in lines[:keep]))
                shown += 1
    if not args.qemu_only and (merged["known"] or devs.entries):
        known = merged["known"]
        p("exec_diff: %d cases are known qemu-hexagon 7.2 deviations (%s: hexsim follows the "
          "PRM), not failures%s" % (len(known), shown_path(args.deviations),
                                    ":" if devs.entries else ""))
        for line in devs.report():
            p(line)
        shown = set()
        for c, (name, d) in sorted(known.items()):
            detail.append("known qemu deviation [%s]: %s case %d: %s" % (
                name, cases[c].tag, c, " ".join(l.strip() for l in cases[c].text(c))))
            detail.append("    inputs: %s" % cases[c].setup_summary())
            detail += ["    " + x for x in d]
            if args.show and name not in shown:
                shown.add(name)
                p("  e.g. [%s] %s case %d: %s | %s | %s" % (
                    name, cases[c].tag, c, " ".join(l.strip() for l in cases[c].text(c)),
                    cases[c].setup_summary(), "; ".join(d[:3])))
    for w in witness_errors:
        p("exec_diff: FAIL: " + w)
    if args.qemu_only:
        rows_by_tag = {r.tag: r for r in rows}
        warns = generator_checks({t: i for t, i in case_rows.items() if t not in skipped},
                                 cases, records, images, rows_by_tag)
        for w in warns:
            p("exec_diff: generator warning: " + w)
    n_rejected = len(merged["build_errors"])
    if n_rejected:
        p("exec_diff: %d cases left out because llvm-mc-16 rejected them, e.g. %s" %
          (n_rejected, "; ".join("%s: %s (%s)" % (cases[c].tag, " ".join(cases[c].text(c)),
                                                  m) for c, m in
                                 list(merged["build_errors"].items())[:3])))
    if args.details:
        with open(args.details, "w") as f:
            f.write("\n".join(detail) + ("\n" if detail else ""))
    ok = not mismatch_rows and not witness_errors
    if not args.qemu_only:
        if not_listed:
            p("exec_diff: FAIL: unimplemented in hexsim but not listed in %s: %s" %
              (shown_path(args.pending), " ".join(not_listed)))
            ok = False
        if now_passing:
            p("exec_diff: FAIL: listed in %s but implemented and passing now (remove them): %s"
              % (shown_path(args.pending), " ".join(now_passing)))
            ok = False
    if args.write_pending and not args.qemu_only:
        keep = sorted(unimpl | (pending_set - passing - set(mismatch_rows)))
        header = []
        if os.path.exists(args.pending):
            with open(args.pending) as f:
                header = [l for l in f if l.startswith("#")]
        with open(args.pending, "w") as f:
            f.write("".join(header) + "".join(t + "\n" for t in keep))
        p("exec_diff: wrote %d rows to %s" % (len(keep), shown_path(args.pending)))
        ok = not mismatch_rows
    if unknown_pending:
        p("exec_diff: warning: %s names rows not in the table: %s" %
          (shown_path(args.pending), " ".join(unknown_pending)))
    p("exec_diff: %.1f s (qemu %.1f s, hexsim %.1f s of simulator time over %d jobs)" %
      (time.monotonic() - t0, qtime, htime, args.jobs))
    p("exec_diff: %s" % ("PASS" if ok else "FAIL"))
    print("\n".join(out))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
