#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# Every row of the ISA table (src/cpu/isa/*.isa), assembled by llvm-mc-16 and disassembled by
# both llvm-objdump-16 and hexsim-objdump; the listings must be equal.
# For each row a few packets are generated from its syntax with random valid operands (and the
# extremes of its immediates, a ##-extended form when the row is extendable, and forms using
# r29-r31, which llvm prints specially in some instructions). Packets add
# what the row needs around it: a producer for .new predicates and new-value operands (written
# with r28/r27 so that llvm-mc can neither duplex nor compound it), and for duplex
# sub-instructions a partner sub-instruction from a group the @duplex table allows, so that
# llvm-mc forms a duplex. Each packet is labelled, which lets the test see which words came from
# which row and whether the row's encoding (mask/match from its bit picture) was really used.
# Rows llvm-mc rejects in every variant are listed (also in <build>/isa-unassemblable.txt).
# Each row is assembled for its own core (core_of: hexagonv68; hexagonv73 for the V69-V73
# additions; hexagonv67t for the audio extension; HVX rows: hexagonv73 with HVX, its IEEE
# floating point and qfloat) and compared in the common passes (odiff.py),
# at that core, and (the older rows) at hexagonv73 and hexagonv67t: in a pass whose core lacks
# a row both print <unknown>. HVX rows are compared without HVX (both print <unknown>) and
# with it (--mattr) at every core from V60 to V73, so that each row decodes from its arch=
# core on, as llvm-objdump-16 decodes it.
# Usage: table_entries.py --hexsim BUILD/hexsim-objdump --isa-dir SRC/src/cpu/isa --work DIR
# Environment: HEXSIM_ISA_SEED overrides the random seed.
import argparse
import concurrent.futures
import glob
import os
import random
import re
import sys

sys.dont_write_bytecode = True   # no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import odiff  # noqa: E402

VARIANTS = 4
CHUNK = 400

# Register names llvm-objdump-16 prints for each field value (found by disassembling the
# transfer instructions Rd=Cs, Rd=Gs, Rd=Ss and their pair forms with every field value).
CTRL = {0: "sa0", 1: "lc0", 2: "sa1", 3: "lc1", 4: "p3:0", 5: "c5", 6: "m0", 7: "m1",
        8: "usr", 9: "pc", 10: "ugp", 11: "gp", 12: "cs0", 13: "cs1", 14: "upcyclelo",
        15: "upcyclehi", 16: "framelimit", 17: "framekey", 18: "pktcountlo",
        19: "pktcounthi", 30: "utimerlo", 31: "utimerhi"}
CTRL_READONLY = {9, 14, 15, 18, 19, 30, 31}
CTRL_PAIRS = [0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 30]
GUEST = (["gelr", "gsr", "gosp", "gbadva"] + ["g%d" % i for i in range(4, 16)] +
         ["gpmucnt4", "gpmucnt5", "gpmucnt6", "gpmucnt7", "g20", "g21", "g22", "g23",
          "gpcyclelo", "gpcyclehi", "gpmucnt0", "gpmucnt1", "gpmucnt2", "gpmucnt3",
          "g30", "g31"])
SYSTEM = (["sgp0", "sgp1", "stid", "elr", "badva0", "badva1", "ssr", "ccr", "htid", "badva",
           "imask", "s11", "s12", "s13", "s14", "s15", "evb", "modectl", "syscfg", "s19",
           "s20", "vid", "s22", "s23", "s24", "s25", "s26", "cfgbase", "diag", "rev",
           "pcyclelo", "pcyclehi", "isdbst", "isdbcfg0", "isdbcfg1", "s35", "brkptpc0",
           "brkptcfg0", "brkptpc1", "brkptcfg1", "isdbmbxin", "isdbmbxout", "isdben",
           "isdbgpr", "s44", "s45", "s46", "s47", "pmucnt0", "pmucnt1", "pmucnt2", "pmucnt3",
           "pmuevtcfg", "pmucfg"] + ["s%d" % i for i in range(54, 81)])
R16 = [0, 1, 2, 3, 4, 5, 6, 7, 16, 17, 18, 19, 20, 21, 22, 23]
RR8 = [0, 2, 4, 6, 16, 18, 20, 22]
GROUP_OF_CLASS = {"SUBA": "A", "SUBL1": "L1", "SUBL2": "L2", "SUBS1": "S1", "SUBS2": "S2"}

OPERAND = re.compile(r"\b([RPCGSMNVQO])([a-z])(\2?)(128|64|32|16|8|4|2)\b|(##?)?\b(I[iI])\b")
DEST_LETTERS = "dexy"   # fields written by the instruction (d, e: dest; x, y: read-write)


class Row:
    def __init__(self, fname, lineno, fields):
        self.where = "%s:%d" % (fname, lineno)
        self.tag, enc, self.syntax, self.cls = fields[0], fields[1], fields[2], fields[3]
        self.attrs = fields[6].split() if len(fields) > 6 else []
        self.enc = enc.replace(" ", "")
        self.duplex = len(self.enc) == 13
        self.group = GROUP_OF_CLASS.get(self.cls)
        mask = match = 0
        for ch in self.enc:
            mask <<= 1
            match <<= 1
            if ch in "01":
                mask |= 1
                match |= ch == "1"
        self.mask, self.match = mask, match
        self.imm = {}      # "Ii" -> (signed, scale)
        self.ext = set()
        self.pcrel = set()
        for a in self.attrs:
            m = re.match(r"^(I[iI])=([su])(\d+)$", a)
            if m:
                self.imm[m.group(1)] = (m.group(2) == "s", int(m.group(3)))
            elif a.startswith("ext="):
                self.ext.add(a[4:])
            elif a.startswith("pcrel="):
                self.pcrel.add(a[6:])
        self.mustext = "mustext" in self.attrs
        self.core = core_of(self.attrs)

    def bits(self, name):
        letter = "i" if name == "Ii" else "I"
        return self.enc.count(letter)

    def matches(self, word):
        if self.duplex:
            return False
        return (word >> 14) & 3 != 0 and (word & self.mask) == self.match


HVX_MATTR = "+hvx,+hvx-ieee-fp,+hvx-qfloat"
HVX_CORE = "hexagonv73+hvx"
HVX_CORES = ["hexagonv60", "hexagonv62", "hexagonv65", "hexagonv66", "hexagonv67", "hexagonv68",
             "hexagonv69", "hexagonv71"]


def mc_core(core):
    """llvm-mc-16 options for a core as core_of names it."""
    if core == HVX_CORE:
        return ["-mcpu=hexagonv73", "-mhvx", "-mattr=" + HVX_MATTR]
    return ["-mcpu=" + core]


def core_of(attrs):
    """The llvm-mc-16/llvm-objdump-16 CPU a row is assembled and checked with: hexagonv67t for
    the audio extension, hexagonv73 for the V69-V73 additions, hexagonv68 for the rest; HVX
    rows: hexagonv73 with HVX (HVX_CORE)."""
    if "hvx" in attrs:
        return HVX_CORE
    if "audio" in attrs:
        return "hexagonv67t"
    arch = max([int(a[6:]) for a in attrs if re.fullmatch(r"arch=v\d+", a)] or [0])
    return "hexagonv73" if arch > 68 else "hexagonv68"


def passes(core):
    """The objdump passes of a chunk of rows of one core: the common passes (odiff.CPU_SETS),
    for the older rows V73 and V67t too (each must decode alike on the newest core and on a
    "t" core), and last the rows' own core, on whose listing coverage is judged."""
    if core == HVX_CORE:
        hvx = ["--mattr=" + HVX_MATTR]
        return (list(odiff.CPU_SETS) + [["--mcpu=" + c] + hvx for c in HVX_CORES] +
                [["--mcpu=hexagonv73"] + hvx])
    out = [c for c in odiff.CPU_SETS if c != ["--mcpu=" + core]]
    if core == "hexagonv68":
        out += [c for c in (["--mcpu=hexagonv73"], ["--mcpu=hexagonv67t"]) if c not in out]
    return out + [["--mcpu=" + core]]


def load_table(isa_dir):
    rows, duplex_map = [], {}
    for path in sorted(glob.glob(os.path.join(isa_dir, "*.isa"))):
        fname = os.path.basename(path)
        with open(path) as f:
            for lineno, line in enumerate(f, 1):
                s = line.strip()
                if not s or s.startswith("#") or line[0] in " \t":
                    continue   # blank, comment, or a row's indented semantics
                if s.startswith("@"):
                    p = s.split()
                    if p[0] == "@duplex" and len(p) == 4:
                        duplex_map[int(p[1], 16)] = (p[2], p[3])
                    continue
                # A separator is a "|" with blanks around it ("|=" is part of a syntax).
                fields = [x.strip() for x in re.split(r"\s\|(?=\s|$)", s)]
                if len(fields) >= 3:
                    rows.append(Row(fname, lineno, fields))
    return rows, duplex_map


class Regs:
    """Hands out distinct general registers for one packet."""
    def __init__(self, rng, reserved=(27, 28, 29, 30, 31)):
        self.rng = rng
        self.used = set(reserved)

    def pick_v(self, parity, width):
        """A vector register (parity 0/1: of that parity) not used yet in the packet, below
        v27; width 2: also its pair partner (r+1 for even r, r-1 for odd r)."""
        free = [r for r in range(27) if (parity is None or r % 2 == parity) and
                ("v", r) not in self.used and
                (width == 1 or ("v", r + 1 if r % 2 == 0 else r - 1) not in self.used)]
        r = self.rng.choice(free)
        self.used.add(("v", r))
        if width == 2:
            self.used.add(("v", r + 1 if r % 2 == 0 else r - 1))
        return r

    def pick(self, choices, width=1):
        free = [r for r in choices if all(r + k not in self.used for k in range(width))]
        r = self.rng.choice(free or list(choices))
        for k in range(width):
            self.used.add(r + k)
        return r


def imm_value(row, name, mode, rng):
    signed, scale = row.imm.get(name, (False, 0))
    n = row.bits(name)
    lo, hi = (-(1 << (n - 1)), (1 << (n - 1)) - 1) if signed and n else (0, (1 << n) - 1)
    if mode == "max":
        v = hi
    elif mode == "min":
        v = lo
    else:
        v = rng.randint(lo, hi)
    return v << scale


def instantiate(row, label, mode, rng, regs, producers):
    """The row's syntax with operands filled in; appends needed producers to producers."""
    chosen = {}
    newvalue = []

    def operand(m):
        if m.group(6):   # immediate or pc-relative target
            name = m.group(6)
            hashes = m.group(5) or ""
            extend = (mode == "ext" and name in row.ext) or (row.mustext and name in row.ext)
            if name in row.pcrel:
                if extend:
                    return "##(%s+%d)" % (label, rng.randrange(-(1 << 20), 1 << 20) * 4)
                return "%s%s+%d" % (hashes, label, imm_value(row, name, mode, rng))
            if extend:
                v = rng.randrange(-(1 << 31), 1 << 31)
                if not row.imm.get(name, (False, 0))[0]:
                    v &= 0xffffffff
                return "##%d" % v
            return "%s%d" % (hashes or "", imm_value(row, name, mode, rng))
        kind, letter, double, width = m.group(1), m.group(2), m.group(3), m.group(4)
        key = m.group(0)
        if key in chosen:
            return chosen[key]
        pair = bool(double)
        dest = letter in DEST_LETTERS
        if kind == "R" and mode == "abi" and width == "32":
            # r29-r31 only: llvm prints some instructions differently for them
            # (allocframe(#N) for allocframe(r29,#N):raw, dealloc_return, ...).
            text = "r31:30" if pair else "r%d" % rng.choice([29, 30, 31])
        elif kind == "R":
            if width == "16":
                text = "r%d" % regs.pick(R16)
            elif width == "8" and pair:
                r = regs.pick(RR8, 2)
                text = "r%d:%d" % (r + 1, r)
            elif width == "8":
                text = "r%d" % regs.pick(range(8))
            elif pair:
                r = regs.pick(range(0, 32, 2), 2)
                text = "r%d:%d" % (r + 1, r)
            else:
                text = "r%d" % regs.pick(range(32))
        elif kind == "N":
            r = regs.pick(range(27))
            newvalue.append(r)
            text = "r%d" % r
        elif kind == "V":   # HVX vectors (v27, v28: the producers') and pairs, either order
            if pair:
                r = regs.pick_v(rng.choice([0, 1]), 2)
                text = "v%d:%d" % (r + 1, r) if r % 2 == 0 else "v%d:%d" % (r - 1, r)
            else:
                text = "v%d" % regs.pick_v(None, 1)
        elif kind == "O":   # HVX new-value operand: a vector written before it in the packet
            r = regs.pick_v(None, 1)
            newvalue.append(("v", r))
            text = "v%d" % r
        elif kind == "Q":
            text = "q%d" % rng.randrange(4)
        elif kind == "P":
            text = "p%d" % rng.randrange(4)
        elif kind == "M":
            text = "m%d" % rng.randrange(2)
        elif kind == "C":
            if pair:
                r = rng.choice([p for p in CTRL_PAIRS if not dest or
                                not ({p, p + 1} & CTRL_READONLY)])
                text = "c%d:%d" % (r + 1, r)
            else:
                text = CTRL[rng.choice([c for c in CTRL if not dest or c not in CTRL_READONLY])]
        elif kind == "G":
            if pair:
                r = rng.randrange(0, 32, 2)
                text = "g%d:%d" % (r + 1, r)
            else:
                text = rng.choice(GUEST)
        else:   # S
            if pair:
                r = rng.randrange(0, 80, 2)
                text = "s%d:%d" % (r + 1, r)
            else:
                text = rng.choice(SYSTEM)
        chosen[key] = text
        return text

    text = OPERAND.sub(operand, row.syntax)
    # .new predicates need a producer in the packet, unless the syntax has its own.
    for p in sorted(set(re.findall(r"\b(p[0-3])\.new\b", text))):
        if not re.search(r"\b%s\s*=" % p, text):
            producers.append("%s = cmp.gt(r28,r27)" % p)
    for r in newvalue:
        if isinstance(r, tuple):
            producers.append("v%d = vand(v28,v27)" % r[1])
        else:
            producers.append("r%d = add(r28,#1)" % r)
    return text


def make_packet(row, index, mode, rng, partners):
    label = "lbl%d" % index
    regs = Regs(rng)
    producers = []
    insn = instantiate(row, label, mode, rng, regs, producers)
    insns = [insn]
    if row.duplex:
        partner = rng.choice(partners[row.tag])
        insns.append(instantiate(partner, label, "rand", rng, regs, producers))
    parts = list(dict.fromkeys(producers)) + insns
    return label, "{ " + "; ".join(parts) + " }"


def assemble(items, work, name, core):
    """items: list of (variant_index, label, packet). Returns (object path or None, errors):
    the object holds every item llvm-mc accepts; errors maps the others to llvm-mc's message.
    Errors are pinned to items by their line numbers; when llvm-mc names no line, bisect."""
    errors = {}
    live = list(items)
    src = os.path.join(work, name + ".s")
    obj = os.path.join(work, name + ".o")
    while live:
        lines, owner = [".text"], {}
        for vi, label, packet in live:
            lines.append("%s:" % label)
            owner[len(lines)] = vi
            lines.append(packet)
            owner[len(lines)] = vi
        with open(src, "w") as f:
            f.write("\n".join(lines) + "\n")
        rc, _, err = odiff.run([odiff.LLVM_MC, "-arch=hexagon"] + mc_core(core) +
                               ["-filetype=obj", src, "-o", obj], check=False)
        if rc == 0:
            return obj, errors
        bad = {}
        for m in re.finditer(r"^%s:(\d+):\d+: error: (.*)$" % re.escape(src), err, re.M):
            vi = owner.get(int(m.group(1)))
            if vi is not None and vi not in bad:
                bad[vi] = m.group(2)
        if not bad:
            if len(live) == 1:
                msg = err.strip().splitlines()
                errors[live[0][0]] = msg[-1] if msg else "llvm-mc failed"
                return None, errors
            half = len(live) // 2
            for part, sub in ((live[:half], "a"), (live[half:], "b")):
                _, e = assemble(part, work, name + sub, core)
                bad.update(e)
        errors.update(bad)
        live = [it for it in live if it[0] not in bad]
    return None, errors


def disassemble(hexsim, items, work, name, core):
    """Assembles items and compares both listings. llvm-objdump-16 crashes on a few encodings;
    such objects are split until the crashing packets are found, and those are left out.
    Returns (errors, crashed packets, llvm listing, instruction lines, diffs)."""
    obj, errors = assemble(items, work, name, core)
    if not obj:
        return errors, [], "", 0, []
    listings = []
    for cpu in passes(core):
        rc, lo, _ = odiff.run([odiff.LLVM_OBJDUMP] + cpu + ["-d", obj], check=False)
        if rc != 0:
            break
        listings.append((cpu, lo))
    if rc != 0:
        live = [it for it in items if it[0] not in errors]
        if len(live) == 1:
            return errors, [live[0]], "", 0, []
        crashed, listing, insns, diffs = [], "", 0, []
        half = len(live) // 2
        for part, sub in ((live[:half], "a"), (live[half:], "b")):
            e, c, lo, n, d = disassemble(hexsim, part, work, name + sub, core)
            errors.update(e)
            crashed += c
            listing += lo
            insns += n
            diffs += d
        return errors, crashed, listing, insns, diffs
    insns, diffs = 0, []
    for cpu, lo in listings:
        rc, ho, he = odiff.run([hexsim] + cpu + ["-d", obj], check=False)
        if rc != 0:
            ho += "\n[hexsim-objdump exited with %d: %s]\n" % (rc, he.strip())
        n, _, d = odiff.compare(lo, ho)
        insns += n
        diffs += odiff.label_diffs(cpu, d)
    # Coverage is judged on the listing of the rows' own core, where every row decodes.
    return errors, [], listings[-1][1], insns, diffs


def regions(listing):
    """Maps label -> list of words from an llvm-objdump listing."""
    out, cur = {}, None
    for line in listing.splitlines():
        m = re.match(r"^[0-9a-f]{8} <(lbl\d+)>:", line)
        if m:
            cur = out.setdefault(m.group(1), [])
            continue
        m = re.match(r"^ *[0-9a-f]+:\t(?:[0-9a-f]{2} ){3}[0-9a-f]{2}\t([0-9a-f]{8})", line)
        if m and cur is not None:
            cur.append(int(m.group(1), 16))
    return out


def covers(row, words, duplex_map):
    for w in words:
        if not row.duplex:
            if row.matches(w):
                return True
            continue
        if (w >> 14) & 3:
            continue
        groups = duplex_map.get(((w >> 29) << 1) | ((w >> 13) & 1))
        if not groups:
            continue
        high, low = (w >> 16) & 0x1fff, w & 0x1fff
        if groups[0] == row.group and (high & row.mask) == row.match:
            return True
        if groups[1] == row.group and (low & row.mask) == row.match:
            return True
    return False


def process_chunk(args_tuple):
    return disassemble(*args_tuple)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--hexsim", required=True)
    ap.add_argument("--isa-dir", required=True)
    ap.add_argument("--work", required=True)
    ap.add_argument("--unassemblable", help="file to write the unassemblable rows to")
    ap.add_argument("--diffs", help="file to write every differing line to")
    args = ap.parse_args()
    odiff.require(odiff.LLVM_MC, odiff.LLVM_OBJDUMP)
    seed = int(os.environ.get("HEXSIM_ISA_SEED", "20240601"))
    print("table_entries: seed %d (set HEXSIM_ISA_SEED to change)" % seed)
    rng = random.Random(seed)
    os.makedirs(args.work, exist_ok=True)
    rows, duplex_map = load_table(args.isa_dir)

    # Partners of each duplex row: rows of any group it may share a duplex word with.
    by_group = {}
    for r in rows:
        if r.duplex:
            by_group.setdefault(r.group, []).append(r)
    partners = {}
    for r in rows:
        if r.duplex:
            groups = {lo for hi, lo in duplex_map.values() if hi == r.group}
            groups |= {hi for hi, lo in duplex_map.values() if lo == r.group}
            partners[r.tag] = [p for g in sorted(groups) for p in by_group.get(g, [])
                               if p.tag != r.tag] or [r]

    items, variant_row = [], {}
    for r in rows:
        if r.cls == "EXT":
            continue   # immext words come with every ##-extended variant
        modes = ["rand", "max", "min", "rand"]
        if r.ext:
            modes[3] = "ext"
        modes = modes[:VARIANTS]
        if re.search(r"\bR[a-z]{1,2}32\b", r.syntax):
            modes += ["abi", "abi"]
        for mode in modes:
            vi = len(variant_row)
            label, packet = make_packet(r, vi, mode, rng, partners)
            variant_row[vi] = r
            items.append((vi, label, packet))
    chunks = []   # (core, items): the rows of one core per chunk
    for core in sorted({variant_row[vi].core for vi, _, _ in items}):
        mine = [it for it in items if variant_row[it[0]].core == core]
        chunks += [(core, mine[i:i + CHUNK]) for i in range(0, len(mine), CHUNK)]
    jobs = [(args.hexsim, c, args.work, "chunk%03d" % i, core)
            for i, (core, c) in enumerate(chunks)]
    errors, crashed, listing, insns, diffs = {}, [], "", 0, []
    with concurrent.futures.ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as ex:
        for e, c, lo, n, d in ex.map(process_chunk, jobs):
            errors.update(e)
            crashed += c
            listing += lo
            insns += n
            diffs += d

    words_by_label = regions(listing)
    all_words = [w for ws in words_by_label.values() for w in ws]
    ok_rows, bad_rows, other_rows = set(), {}, {}
    crashed_vi = {vi for vi, _, _ in crashed}
    for vi, label, packet in items:
        r = variant_row[vi]
        if vi in crashed_vi:
            ok_rows.add(r.tag)
            continue
        if vi in errors:
            bad_rows.setdefault(r.tag, (r, packet, errors[vi]))
            continue
        ok_rows.add(r.tag)
        if not covers(r, words_by_label.get(label, []), duplex_map):
            other_rows.setdefault(r.tag, []).append(packet)
    covered = set()
    for vi, label, packet in items:
        r = variant_row[vi]
        if vi not in errors and covers(r, words_by_label.get(label, []), duplex_map):
            covered.add(r.tag)
    for r in rows:
        if r.cls == "EXT" and any(r.matches(w) for w in all_words):
            covered.add(r.tag)
    unassemblable = [(t, v) for t, v in bad_rows.items() if t not in ok_rows]
    not_seen = sorted(t for t in other_rows if t not in covered)
    crash_rows = sorted({variant_row[vi].tag for vi in crashed_vi} - covered)

    n_rows = len(rows)
    print("table_entries: %d table rows, %d variants (%d assembled) in %d llvm-mc chunks" %
          (n_rows, len(items), len(items) - len(errors), len(chunks)))
    print("table_entries: %d rows covered (an assembled word matches the row's encoding), "
          "%d rows unassemblable, %d rows assembled only to other encodings" %
          (len(covered), len(unassemblable), len(not_seen)))
    if crash_rows:
        print("table_entries: rows seen only in packets llvm-objdump-16 crashes on: %s" %
              " ".join(crash_rows))
    lines = []
    for tag, (r, packet, err) in sorted(unassemblable):
        lines.append("%s\t%s\t%s\t%s" % (tag, r.where, packet, err))
    if unassemblable:
        print("table_entries: rows llvm-mc-16 cannot assemble (tag, row, one packet tried, "
              "llvm-mc's complaint):")
        for line in lines:
            print("  " + line)
    if args.unassemblable:
        with open(args.unassemblable, "w") as f:
            f.write("# ISA table rows llvm-mc-16 rejected (-mcpu: the row's core) in every "
                    "variant tried by "
                    "tests/isa/table_entries.py (seed %d)\n" % seed)
            f.write("# tag\trow\tone packet tried\tllvm-mc error\n")
            f.write("".join(line + "\n" for line in lines))
    if not_seen:
        print("table_entries: rows whose packets assembled but never to the row's own "
              "encoding (tag: one packet):")
        for tag in not_seen:
            print("  %s: %s" % (tag, other_rows[tag][0]))
    if crashed:
        print("table_entries: llvm-objdump-16 crashes on these packets (left out):")
        for _, _, packet in crashed:
            print("  " + packet)
    ok = odiff.report("table_entries", insns, diffs, all_diffs_path=args.diffs)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
