# SPDX-License-Identifier: MIT
# Random packet generator of tests/isa/random_packets.py: valid Hexagon packets of 1-4
# instructions (plus constant extenders) drawn from the ISA table rows that Linux user mode and
# qemu-hexagon 7.2 can run (V67 and older), with their operands, and the setup each needs.
#
# A case (an execlib.Case) is a sequence of "units": a unit is one random packet, or a hardware
# loop shape (a loop0/loop1/spNloop0 setup packet and one or two body packets ending in
# :endloopN, optionally nested in a loop1). Each unit starts with its label (@L@uN) and a
# prefix of harness packets that give the registers its packet relies on their values ("pins":
# memory base registers pointing into the scratch buffer, modifier/CS/GP registers, return
# addresses, jump-register targets, loop counts, a safe value for a USR write); every other
# register carries whatever the earlier packets of the case left in it, which starts as a
# random state (registers, predicates, USR rounding mode and flags, scratch memory).
# Branches (at most two per packet, the first conditional) go forward inside the case: to the
# start of one of the next units, to the case's end (@L@e, the fall-through dump) or, from the
# last unit (or with a long-range branch), to the taken exit @T@.
#
# The packet rules followed: slots (the table's slot column; a duplex takes slots 0 and 1),
# at most four words (instructions and extenders), at most two memory accesses and at most one
# store except two plain stores, a new-value store alone with no other store, no two writes
# of one general or control register (predicates may be written twice: the results are
# ANDed), implicit USR writes (saturation, floating point) not mixed with an explicit USR
# write, .new predicate and new-value operands with their producer earlier in the packet,
# memory addresses aligned to the access size inside the scratch buffer. llvm-mc-16 has the
# last word (random_packets.py drops what it rejects).
import bisect
import os
import re
import sys

sys.dont_write_bytecode = True
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import execlib as X  # noqa: E402
import gen_common as GC  # noqa: E402
import table_entries as TE  # noqa: E402

M32 = 0xffffffff
GPR_POOL = list(range(27)) + [29, 30, 31]    # r27: prefix scratch, r28: harness record base
LOW_POOL = list(range(27))
PAIR_POOL = list(range(0, 26, 2)) + [30]
R16 = TE.R16
RR8 = TE.RR8
R8 = list(range(8))
RESERVED = frozenset((27, 28))

CTRL_READ = sorted(c for c in TE.CTRL if c not in GC.CTRL_VOLATILE)
# Writable in a random packet: not pc, the counters, framelimit (allocframe would trap) nor c5
# (reserved: qemu keeps what is written, hexsim reads zero).
CTRL_WRITE = [0, 1, 2, 3, 4, 6, 7, 8, 10, 11, 12, 13, 17]
CTRL_PAIR_READ = [0, 2, 4, 6, 8, 10, 12, 16]
CTRL_PAIR_WRITE = [0, 2, 6, 10, 12]
# Alone in their packet (llvm-mc: isSolo).
SOLO = {"Y2_isync", "Y2_icinva", "Y2_syncht", "J2_pause", "L6_memcpy"}
# Only with ALU32 and non-floating-point XTYPE instructions in the packet.
ALU_ONLY = {"Y2_barrier", "Y4_l2fetch", "Y5_l2fetch", "Y4_trace", "L2_loadw_locked", "L4_loadd_locked",
            "S2_storew_locked", "S4_stored_locked"}
STORE_LOCKED = {"S2_storew_locked", "S4_stored_locked"}
# Predicates written by helpers the semantics call.
IMPLICIT_P = {"S2_cabacdecbin": {0}}
# Cache maintenance with no other memory access in the packet.
CACHE_ALONE = ("dczeroa", "dccleana", "dcinva", "dccleaninva")
CTRL_NAME = dict(TE.CTRL)
LOOP_CTRL = {0, 1, 2, 3}

# Relative weights of the table's files when drawing an instruction (then uniform per row).
FILE_WEIGHTS = {"alu32.isa": 16, "xtype_alu.isa": 12, "xtype_shift.isa": 10,
                "xtype_mpy.isa": 10, "xtype_pred.isa": 4, "xtype_fp.isa": 5, "ld.isa": 12,
                "st.isa": 9, "memop.isa": 3, "nv.isa": 2, "j.isa": 4, "cr.isa": 4,
                "system.isa": 1}
DUPLEX_WEIGHT = 8        # duplex pairs, in the same scale
LOOP_UNIT_P = 0.06       # probability that a unit is a hardware-loop shape
DUAL_BRANCH_P = 0.02     # probability that a packet starts with two jumps
MULTI_PRED_P = 0.04      # probability that a packet is a several-writers-of-one-predicate group
NINSN_WEIGHTS = [(1, 15), (2, 30), (3, 30), (4, 25)]

ADDR_MODES = GC.ADDR_MODES + [
    ("reg", re.compile(r"(?:mem\w+|dczeroa|dccleana|dcinva|dccleaninva|deallocframe|"
                       r"dealloc_return)\((Rs32)[,)]")),
]
EDGE32 = [0, 1, 2, 3, M32, 0xfffffffe, 0x80000000, 0x7fffffff, 0x80000001, 0x7ffffffe,
          0x8000, 0x7fff, 0xffff, 0x10000, 0xffff8000, 0xffff7fff, 0x80, 0x7f, 0xff,
          0xffffff80, 0x100, 0x80008000, 0x7fff7fff, 0xffff0000, 0x00010001, 0x80808080,
          0x7f7f7f7f, 0x01010101, 0x55555555, 0xaaaaaaaa, 31, 32, 63, 64, 0xffffffe0]
SF_EDGE = [0, 0x80000000, 0x7f800000, 0xff800000, 0x7fc00000, 0xffc00000, 0x7f800001,
           0x00000001, 0x807fffff, 0x00800000, 0x7f7fffff, 0x3f800000, 0xbf800000,
           0x3f000000, 0x3fc00000, 0x40400000, 0x4f000000, 0xcf000000, 0x4b000000]
DF_EDGE = [0, 1 << 63, 0x7ff0000000000000, 0xfff0000000000000, 0x7ff8000000000000,
           0x7ff0000000000001, 1, 0x000fffffffffffff, 0x0010000000000000,
           0x7fefffffffffffff, 0x3ff0000000000000, 0xbff0000000000000, 0x3fe0000000000000,
           0x41e0000000000000, 0xc1e0000000000000, 0x43e0000000000000, 0x4330000000000000]


# ---------------------------------------------------------------------------------------
# Values

def rand32(rng):
    r = rng.random()
    if r < 0.25:
        return rng.choice(EDGE32)
    if r < 0.40:
        return rng.randint(-70, 70) & M32
    if r < 0.52:
        if rng.random() < 0.5:
            return sum(rng.choice((0, 1, 0x7f, 0x80, 0xff, rng.getrandbits(8))) << (8 * i)
                       for i in range(4))
        return sum(rng.choice((0, 1, 0x7fff, 0x8000, 0xffff, rng.getrandbits(16))) << (16 * i)
                   for i in range(2))
    if r < 0.60:
        v = rng.getrandbits(rng.choice([8, 12, 16, 20, 24]))
        return (-v if rng.random() < 0.5 else v) & M32
    if r < 0.68:
        return rand_sf(rng)
    return rng.getrandbits(32)


def rand_sf(rng):
    r = rng.random()
    if r < 0.35:
        return rng.choice(SF_EDGE)
    return GC.sf_fields(rng)


def rand_df(rng):
    r = rng.random()
    if r < 0.35:
        return rng.choice(DF_EDGE)
    return GC.df_fields(rng)


def rand_usr(rng):
    """A USR value with no trap enables: rounding mode, sticky FP flags, OVF."""
    v = 0
    if rng.random() < 0.5:
        v |= rng.randrange(4) << 22
    if rng.random() < 0.3:
        v |= rng.getrandbits(6) & 0x3f
    elif rng.random() < 0.2:
        v |= 1
    return v


# ---------------------------------------------------------------------------------------
# Rows

SKIP_WHY = {"ext": "constant extender", "priv": "privileged", "guest": "guest mode",
            "trap": "trap", "audio": "audio extension", "arch": "newer than V67",
            "until": "spelling older than V67", "system": "system instruction"}


def skip_reason(row):
    why = GC.skip_reason(row, SKIP_WHY)
    if why is None and re.search(r"\b[GS][a-z]{1,2}(?:128|64|32)\b", row.syntax):
        why = "guest/system registers"
    return why


class Tok:
    __slots__ = ("kind", "key", "letter", "pair", "width", "hashes", "new", "text", "write",
                 "pool", "pcrel", "extendable", "extkey", "signed")

    def __init__(self, kind, key="", letter="", pair=False, width="", hashes="", new=False,
                 text=""):
        self.kind, self.key, self.letter, self.pair = kind, key, letter, pair
        self.width, self.hashes, self.new, self.text = width, hashes, new, text


def tokenize(syntax):
    toks, pos = [], 0
    for m in TE.OPERAND.finditer(syntax):
        if m.start() > pos:
            toks.append(Tok("lit", text=syntax[pos:m.start()]))
        pos = m.end()
        new = syntax.startswith(".new", m.end())
        if m.group(6):
            hashes = m.group(5) or ""
            toks.append(Tok("imm", key=m.group(6), hashes=hashes,
                            text=m.group(0)[len(hashes):]))
            continue
        toks.append(Tok(m.group(1), key=m.group(0), letter=m.group(2), pair=bool(m.group(3)),
                        width=m.group(4), new=new))
    if pos < len(syntax):
        toks.append(Tok("lit", text=syntax[pos:]))
    return toks


class RowInfo:
    """What the generator needs to know about one table row."""

    def __init__(self, row, slots, sem, fname):
        self.row = row
        self.tag = row.tag
        self.syntax = s = row.syntax
        self.fname = fname
        self.flags = {a for a in row.attrs if "=" not in a}
        # the slots on the oracle's core version (execlib.MCPU, V67): slots@vNN overrides
        self.slots = frozenset(int(c) for c in slots_at(row, slots) if c.isdigit()) or \
            frozenset((0, 1))
        self.duplex = row.duplex
        self.group = row.group
        self.toks = tokenize(s)
        seen = set()
        self.optoks = []
        for t in self.toks:
            if t.kind != "lit" and t.key not in seen:
                seen.add(t.key)
                self.optoks.append(t)
        for t in self.optoks:
            t.write = t.letter in "dexy"
            t.pool = None
            if t.kind == "R":
                if t.width == "16":
                    t.pool = R16
                elif t.width == "8":
                    t.pool = RR8 if t.pair else R8
                elif t.pair:
                    t.pool = PAIR_POOL
            elif t.kind == "imm":
                t.pcrel = t.key in row.pcrel
                t.extendable = t.key in row.ext
                t.extkey = t.key + ".ext"
                t.signed = row.imm.get(t.key, (False, 0))[0]
        self.imm_b = {}
        for name, (signed, scale) in row.imm.items():
            n = row.bits(name)
            lo, hi = ((-(1 << (n - 1)), (1 << (n - 1)) - 1) if signed and n
                      else (0, (1 << n) - 1))
            self.imm_b[name] = (lo, hi, scale, signed)
        self.imm = row.imm
        self.ext = row.ext
        self.pcrel = row.pcrel
        self.mustext = row.mustext
        f = self.flags
        self.load = "load" in f
        self.store = "store" in f
        self.memop = "memop" in f
        self.hwloop = "hwloop" in f
        self.call = "call" in f
        self.ret = "return" in f
        self.branch = bool(f & {"jump", "call"}) and not self.hwloop
        self.cond = "pred" in f
        self.newvalue = "newvalue" in f
        self.nvstore = self.newvalue and self.store
        self.jumpr = bool(re.search(r"\b(jumpr|callr|hintjr)\b", s))
        self.frame = None
        if "allocframe" in s and "dealloc" not in s:
            self.frame = "alloc"
        elif "dealloc_return" in s:
            self.frame = "return"
        elif "deallocframe" in s:
            self.frame = "dealloc"
        self.cache = bool(re.search(r"\b(dczeroa|dccleana|dcinva|dccleaninva|dcfetch)\(", s))
        self.memcpy = s.startswith("memcpy(")
        self.mem_mode = None
        self.mem_groups = ()
        if (self.load or self.store or self.cache) and not self.memcpy:
            for mode, rx in ADDR_MODES:
                m = rx.search(s)
                if m:
                    self.mem_mode, self.mem_groups = mode, m.groups()
                    break
        self.mem = self.load or self.store or self.cache or self.memop
        self.size = access_size(s)
        self.usr_write = (":sat" in s or row.tag.startswith("F2_") or "ovf" in sem or
                          "hx_sat" in sem or "fpflag" in sem or "HX_USR" in sem or
                          "sploop" in s or re.search(r"\bsp[123]loop", s) is not None)
        # Registers written without an operand field.
        self.imp_r = set()
        self.imp_p = set()
        self.imp_c = set()
        for a in row.attrs:
            if a.startswith("defs="):
                for r in a[5:].split(","):
                    self.imp_r.add(int(r.strip()[1:]))
        if self.frame == "alloc":
            self.imp_r |= {30} | ({29} if "Rx32" not in s else set())
        elif self.frame in ("dealloc", "return"):
            self.imp_r.add(29)
            if "Rdd32" not in s:
                self.imp_r |= {30, 31}
        if self.call:
            self.imp_r.add(31)
        for p in re.findall(r"\bp([0-3])\s*=(?!=)", s):
            self.imp_p.add(int(p))
        if self.hwloop:
            self.imp_c |= {2, 3} if "loop1" in s else {0, 1}
            if re.search(r"sp[123]loop", s):
                self.imp_p.add(3)
        self.imp_pnew = {int(p) for p in re.findall(r"\bp([0-3])\.new\b", s)}
        self.self_pnew = {p for p in self.imp_pnew if p in self.imp_p}
        self.ext_pnew = self.imp_pnew - self.self_pnew
        self.fp = row.tag.startswith("F2_")
        if self.duplex:
            # llvm-mc checks a packet's slots before it forms duplexes: a sub-instruction
            # needs the slots of the instruction it stands for.
            if self.jumpr or (self.branch and "jumpr" in s):
                self.slots = frozenset((2,))
            elif self.frame == "return":
                self.slots = frozenset((0,))
            elif self.load or self.store:
                self.slots = frozenset((0, 1))
            else:
                self.slots = frozenset((0, 1, 2, 3))
        self.dcfetch_s = "dcfetch(" in s
        self.solo = row.tag in SOLO
        self.alu_only = row.tag in ALU_ONLY
        self.alu = row.cls in ("ALU32", "SUBA") or (row.cls == "XTYPE" and not self.fp)
        self.cache_alone = any(c + "(" in s for c in CACHE_ALONE)
        self.special = (self.solo or self.alu_only or self.dcfetch_s or self.cache_alone or
                        self.hwloop or self.frame is not None)
        # May be one of two branches in a packet: direct jumps and calls.
        self.dual_ok = (row.cls == "J" and bool(self.pcrel) and
                        not re.search(r"if \(Rs32[!=<>]", s))
        self.dcfetch = "dcfetch(" in s
        # Compares that may write a predicate another compare writes (results ANDed).
        self.cmp_like = (row.cls in ("ALU32", "XTYPE") and s.startswith("Pd4 = ") and
                         not self.imp_p and "tlbmatch" not in s)
        # the duplex compare `p0 = cmp.eq(Rs16,#u2)` (SA1_cmpeqi), ANDed like the others
        self.sub_cmp = self.duplex and re.match(r"p0 = cmp\.", s) is not None
        if re.search(r"if \(Rs32[!=<>]", s):
            self.slots = frozenset((3,))    # what llvm-mc-16 accepts (the table says 23)
        for p in re.findall(r"hx_wp\(x, *([0-3])\b", sem):
            self.imp_p.add(int(p))
        self.imp_p |= IMPLICIT_P.get(row.tag, set())
        self.slotmask = sum(1 << b for b in self.slots)


def slots_at(row, slots, arch=67):
    """The slots row has on core version arch: its slots field, or the slots@vNN attribute
    of the latest NN <= arch."""
    best = 0
    for a in row.attrs:
        m = re.match(r"slots@v(\d+)=(\d+)$", a)
        if m and best < int(m.group(1)) <= arch:
            best, slots = int(m.group(1)), m.group(2)
    return slots


def access_size(s):
    m = re.search(r"\b(mem\w*)\(", s)
    if m:
        name = m.group(1)
        if name in ("membh", "memubh"):
            return 4 if re.search(r"\bR[dy]{2}32 =", s) else 2
        return GC.SIZES.get(name, 4)
    if "dczeroa" in s:
        return 32
    if "allocframe" in s or "dealloc" in s:
        return 8
    return 1


def load_rows(isa_dir):
    """All table rows as RowInfo, with their slots and semantic bodies."""
    import glob
    out = []
    for path in sorted(glob.glob(os.path.join(isa_dir, "*.isa"))):
        fname = os.path.basename(path)
        cur = None
        with open(path) as f:
            for lineno, line in enumerate(f, 1):
                if line.startswith("    ") and cur is not None:
                    cur[3].append(line.strip())
                    continue
                s = line.strip()
                if not s or s.startswith("#") or s.startswith("@") or line[0] in " \t":
                    continue
                fields = [x.strip() for x in re.split(r"\s\|(?=\s|$)", s)]
                if len(fields) >= 5:
                    cur = (TE.Row(fname, lineno, fields), fields[4], fname, [])
                    out.append(cur)
    rows = []
    for row, slots, fname, sem in out:
        if "hvx" in row.attrs:
            continue   # HVX packets: hvx_exec.py
        rows.append(RowInfo(row, slots, "\n".join(sem), fname))
    return rows


def load_duplex_map(isa_dir):
    _, dm = TE.load_table(isa_dir)
    return dm


# ---------------------------------------------------------------------------------------
# Instructions

class Insn:
    """One instruction of a packet: its row, the operand values and what it needs."""

    def __init__(self, ri):
        self.ri = ri
        self.ops = {}        # token key -> register number / (imm value, ext) / label
        self.wr = set()      # general registers written
        self.wp = set()      # predicates written
        self.wc = set()      # control registers written (numbers)
        self.pnew = set()    # predicates read as .new (needing a producer)
        self.nv = None       # register read as new value
        self.pins = {}       # register -> value (int or label expression)
        self.cpins = {}      # control register name -> value
        self.mwords = []     # (address, label, key): return addresses of dealloc_return
        self.ranges = []     # (lo, hi) memory ranges accessed
        self.target = None   # branch target label
        self.words = 1
        self.producer_for = None

    def text(self):
        out = []
        for t in self.ri.toks:
            k = t.kind
            if k == "lit":
                out.append(t.text)
            elif k == "imm":
                v = self.ops[t.key]
                if isinstance(v, str):
                    out.append(("##" if self.ops.get(t.key + ".ext") else "") + v)
                else:
                    ext = self.ops.get(t.key + ".ext")
                    out.append(("##" if ext else "#") + str(v))
            else:
                v = self.ops[t.key]
                if k == "R":
                    out.append("r%d:%d" % (v + 1, v) if t.pair else "r%d" % v)
                elif k == "N":
                    out.append("r%d" % v)
                elif k == "P":
                    out.append("p%d" % v)
                elif k == "M":
                    out.append("m%d" % v)
                elif k == "C":
                    out.append("c%d:%d" % (v + 1, v) if t.pair else CTRL_NAME[v])
        return "".join(out)


class UnitState:
    """Writes and pins of the packets already made for a loop unit."""

    def __init__(self):
        self.wr = set()
        self.pins = {}
        self.cpins = {}

    def add(self, ps):
        self.wr |= ps.wr
        self.pins.update(ps.pins)
        self.cpins.update(ps.cpins)


class PacketState:
    """What the instructions chosen so far for one packet use."""

    def __init__(self, loop_body=False, unit=None):
        self.insns = []
        self.wr = set()
        self.wp = set()
        self.wc = set()
        self.pins = {}
        self.cpins = {}
        self.ranges = []
        self.usr_write = False       # implicit USR writer present
        self.usr_explicit = False
        self.loop_body = loop_body
        self.unit = unit or UnitState()

    def copy(self):
        ps = PacketState(self.loop_body, self.unit)
        for i in self.insns:
            ps.add(i)
        return ps

    def add(self, insn):
        self.insns.append(insn)
        self.wr |= insn.wr
        self.wp |= insn.wp
        self.wc |= insn.wc
        self.pins.update(insn.pins)
        self.cpins.update(insn.cpins)
        self.ranges += insn.ranges
        if insn.ri.usr_write:
            self.usr_write = True
        if 8 in insn.wc:
            self.usr_explicit = True

    def all_pins(self):
        d = dict(self.unit.pins)
        d.update(self.pins)
        return d

    def all_cpins(self):
        d = dict(self.unit.cpins)
        d.update(self.cpins)
        return d


class Fail(Exception):
    pass


class Gen:
    """The generator: rows, weights and the packet/unit/case builders."""

    def __init__(self, isa_dir, only=None, exclude=()):
        self.rows = load_rows(isa_dir)
        self.by_tag = {r.tag: r for r in self.rows}
        self.duplex_map = load_duplex_map(isa_dir)
        self.skipped = {}
        usable = []
        for r in self.rows:
            why = skip_reason(r.row)
            if why is None and r.tag in exclude:
                why = exclude[r.tag] if isinstance(exclude, dict) else "excluded"
            if why:
                self.skipped[r.tag] = why
                continue
            usable.append(r)
        self.only = re.compile(only) if only else None
        self.usable = usable
        sel = [r for r in usable if not self.only or self.only.search(r.tag)]
        self.selected = sel
        # Plain rows by file; duplex sub-instructions by group; loop setups.
        self.by_file = {}
        self.subs = {}
        self.loops = []
        for r in sel:
            if r.hwloop:
                self.loops.append(r)
            elif r.duplex:
                self.subs.setdefault(r.group, []).append(r)
            else:
                self.by_file.setdefault(r.fname, []).append(r)
        self.duplex_pairs = [(hi, lo) for hi, lo in self.duplex_map.values()
                             if self.subs.get(hi) and self.subs.get(lo)]
        choices = [(f, FILE_WEIGHTS.get(f, 2)) for f in sorted(self.by_file)]
        if self.duplex_pairs:
            choices.append(("duplex", DUPLEX_WEIGHT))
        self.file_choices = [c for c, _ in choices]
        self.file_cum = []
        t = 0
        for _, w in choices:
            t += w
            self.file_cum.append(t)
        # Producers: unpredicated instructions writing one general register (new-value
        # operands), and predicate writers (.new predicates).
        allu = [r for r in usable if not r.duplex and not r.hwloop and not r.mem and
                not r.branch and not r.cond]
        self.nv_producers = [r for r in allu if r.fname in ("alu32.isa", "xtype_alu.isa",
                                                            "xtype_shift.isa",
                                                            "xtype_mpy.isa") and
                             _single_dest(r) and not r.fp]
        # Loads producing a new value (a loaded word stored in the same packet).
        self.nv_loads = [r for r in usable if r.load and not r.cond and not r.duplex and
                         r.mem_mode in ("io", "abs", "rr", "gp") and not r.branch and
                         not r.frame and _single_dest(r)]
        self.recent = []
        self.p_producers = [r for r in allu if _pred_dest(r) and not r.fp and
                            "tlbmatch" not in r.syntax]
        self.p_producer_tags = {r.tag for r in self.p_producers}
        jumps = [r for r in sel if r.dual_ok and not r.call and not r.duplex]
        self.dual_first = [r for r in jumps if r.cond]
        self.dual_second = jumps
        # Several writers of one predicate (ANDed, PRM 6.1.3) with .new readers (multi_pred):
        # compare-like writers, compound compare-jumps of p0/p1 (which read the value the
        # packet gives their predicate), and readers: jumps, other predicated instructions,
        # new-value stores, each on Pv.new.
        self.and_producers = [r for r in allu if _pred_dest(r) and r.cmp_like and
                              "tlbmatch" not in r.syntax]
        self.cmpjumps = {p: [r for r in usable if r.branch and r.self_pnew == {p} and
                             not r.duplex] for p in (0, 1)}
        readers = [r for r in usable if r.cond and not r.duplex and not r.hwloop and
                   not r.special and not r.self_pnew and _pnew_key(r)]
        self.pnew_readers = {
            "jump": [r for r in readers if r.branch and not r.call],
            "pred": [r for r in readers if not r.branch and not r.nvstore],
            "nvstore": [r for r in readers if r.nvstore],
        }
        # Forced rows (probe): make one packet around a given row.
        self.force = None

    # -- drawing rows

    def pick_row(self, rng):
        f = self.file_choices[bisect.bisect_right(self.file_cum,
                                                  rng.random() * self.file_cum[-1])]
        if f == "duplex":
            return "duplex"
        rows = self.by_file[f]
        return rows[int(rng.random() * len(rows))]

    # -- operands

    def fill(self, ri, ps, ctx, rng, force_dest=None):
        """An Insn of row ri compatible with the packet state ps, or raises Fail."""
        ins = Insn(ri)
        ops = ins.ops
        rnd = rng.random
        used_here = set()
        avoid_w = ps.wr | RESERVED
        if ps.loop_body:
            avoid_w = avoid_w | set(ps.pins) | set(ps.unit.pins)
        r = rnd()
        if ri.mustext or (ri.ext and r < 0.15):
            mode = "ext"
        elif r < 0.25:
            mode = "min"
        elif r < 0.35:
            mode = "max"
        else:
            mode = "rand"
        for t in ri.optoks:
            k = t.kind
            if k == "R":
                pool = t.pool
                if pool is None:
                    pool = GPR_POOL if rnd() < 0.12 else LOW_POOL
                if t.write:
                    if force_dest is not None and not t.pair and force_dest in pool and \
                            force_dest not in avoid_w:
                        reg = force_dest
                        force_dest = None
                    else:
                        reg = pick_free(rng, pool, 1 + t.pair, avoid_w, used_here)
                    ins.wr.add(reg)
                    used_here.add(reg)
                    if t.pair:
                        ins.wr.add(reg + 1)
                        used_here.add(reg + 1)
                else:
                    n = len(pool)
                    reg = pool[int(rnd() * n)]
                    while reg == 27 or reg == 28 or (t.pair and reg == 26):
                        reg = pool[int(rnd() * n)]
                ops[t.key] = reg
            elif k == "imm":
                name = t.key
                ext = t.extendable and (ri.mustext or mode == "ext")
                if t.pcrel:
                    ops[name] = "@PENDING@"
                    ops[t.extkey] = ext
                    if ext:
                        ins.words = 2
                    continue
                if ext and ri.mem_mode == "gp":
                    ext = False    # gp+## is the absolute form (qemu 7.2 adds GP to it)
                if ext:
                    v = rand32(rng)
                    while v < 1024 or v > M32 - 1024:
                        # llvm-mc-16 turns small extended values into duplex sub-instructions
                        # that cannot be extended (add(Rs,##1) into SA1_inc) behind the
                        # extender; qemu 7.2 then aborts.
                        v = rand32(rng)
                    if t.signed and v & 0x80000000:
                        v -= 1 << 32
                    ins.words = 2
                else:
                    v = choose_imm(ri, name, rng, mode)
                ops[name] = v
                ops[t.extkey] = ext
            elif k == "P":
                if t.write:
                    wp = ps.wp
                    if rnd() < 0.9 and len(wp) < 4:
                        p = int(rnd() * 4)
                        while p in wp:
                            p = int(rnd() * 4)
                    else:
                        p = int(rnd() * 4)
                    ins.wp.add(p)
                else:
                    p = int(rnd() * 4)
                    if t.new:
                        ins.pnew.add(p)
                ops[t.key] = p
            elif k == "N":
                cands = [x for x in LOW_POOL if x not in avoid_w and x not in used_here]
                if not cands:
                    raise Fail("no producer register")
                reg = cands[int(rnd() * len(cands))]
                ops[t.key] = reg
                ins.nv = reg
            elif k == "M":
                ops[t.key] = int(rnd() * 2)
            elif k == "C":
                if t.write:
                    if ps.loop_body:
                        raise Fail("control write in a loop body")
                    pool = CTRL_PAIR_WRITE if t.pair else CTRL_WRITE
                    cands = [c for c in pool if c not in ps.wc and
                             (not t.pair or c + 1 not in ps.wc)]
                    if not cands:
                        raise Fail("no control register")
                    c = rng.choice(cands)
                    regs = {c, c + 1} if t.pair else {c}
                    ins.wc |= regs
                    if 4 in regs:
                        ins.wp |= {0, 1, 2, 3}
                else:
                    c = rng.choice(CTRL_PAIR_READ if t.pair else CTRL_READ)
                ops[t.key] = c
            else:
                raise Fail("operand kind %s" % k)
        if ri.imp_r:
            ins.wr |= ri.imp_r
        if ri.imp_p:
            ins.wp |= ri.imp_p
        if ri.imp_c:
            ins.wc |= ri.imp_c
        if ri.ext_pnew:
            ins.pnew |= ri.ext_pnew
        return ins

    # -- whole packets

    def packet(self, rng, ctx, ninsn=None, loop_body=False, unit=None):
        """A PacketState whose insns form a valid packet (producers included)."""
        if self.force is None and self.only is None and ctx is not None and not loop_body \
                and rng.random() < MULTI_PRED_P:
            for _ in range(3):
                try:
                    return self.multi_pred(rng, ctx)
                except Fail:
                    pass
        ps = PacketState(loop_body, unit)
        if ninsn is None:
            ninsn = weighted(rng, NINSN_WEIGHTS)
        tries = 0
        forced = self.force
        if forced is None and ctx is not None and not loop_body and self.dual_first and \
                rng.random() < DUAL_BRANCH_P:
            # Two branches: a conditional jump first, then another direct jump.
            for rows in (self.dual_first, self.dual_second):
                try:
                    for ins in self.try_insn(rng.choice(rows), ps, ctx, rng):
                        ps.add(ins)
                except Fail:
                    break
            ninsn = max(ninsn, len(ps.insns))
        while len(ps.insns) < ninsn and tries < 12:
            tries += 1
            if forced is not None:
                ri = forced
                forced = None
            else:
                ri = self.pick_row(rng)
            try:
                if ri == "duplex":
                    group = self.try_duplex(ps, ctx, rng)
                else:
                    group = self.try_insn(ri, ps, ctx, rng)
            except Fail:
                if self.force is not None and not ps.insns:
                    forced = self.force
                continue
            if group is None:
                continue
            for ins in group:
                ps.add(ins)
        return ps

    def multi_pred(self, rng, ctx):
        """A packet where two or three instructions write one predicate p (compares, and
        for p0/p1 compound compare-jumps) and others read p.new (jumps, predicated
        instructions, new-value stores), in a random order: the readers and the compound
        jumps must see the AND of all the writes (PRM 6.1.3)."""
        ps = PacketState()
        p = rng.randrange(4)
        roles = []
        for _ in range(rng.choice((2, 2, 3))):
            cj = p < 2 and rng.random() < 0.45
            roles.append(("cj", rng.choice(self.cmpjumps[p])) if cj else
                         ("writer", rng.choice(self.and_producers)))
        ncj = sum(1 for r, _ in roles if r == "cj")
        room = 4 - len(roles)   # instructions (a new-value store's producer is one)
        nread = rng.choice((0, 1, 1, 2)) if ncj else rng.choice((1, 1, 2))
        for _ in range(min(nread, room)):
            kinds = [("pred", 4)]
            if ncj < 2:
                kinds.append(("jump", 3))
            if room >= 2:
                kinds.append(("nvstore", 3))
            kind = weighted(rng, kinds)
            roles.append(("reader", rng.choice(self.pnew_readers[kind])))
            room -= 2 if kind == "nvstore" else 1
            ncj += kind == "jump"
        rng.shuffle(roles)
        for role, ri in roles:
            ins = self.fill(ri, ps, ctx, rng)
            if role == "writer":
                key = [t.key for t in ri.toks if t.kind == "P" and t.letter == "d"][0]
                ins.ops[key] = p
                ins.wp = {p}
            elif role == "reader":
                ins.ops[_pnew_key(ri)] = p
                ins.pnew = {p}
            group = [ins]
            if ins.nv is not None:
                group.insert(0, self.nv_producer(ins.nv, ps, ins, rng))
            self.plan(ins, ps, ctx, rng)
            if not self.fits(ps, group):
                raise Fail("packet rules")
            for i in group:
                ps.add(i)
        if sum(1 for i in ps.insns if p in i.wp) < 2:
            raise Fail("one writer")
        return ps

    def try_insn(self, ri, ps, ctx, rng):
        if ps.loop_body and (ri.branch or ri.hwloop or ri.frame or ri.solo or
                             ri.mem_mode in ("pi", "pm", "brev") or ri.memcpy):
            raise Fail("not in a loop body")
        if ri.hwloop:
            raise Fail("loop outside a loop shape")
        ins = self.fill(ri, ps, ctx, rng)
        group = [ins]
        # Producers for .new predicates and new-value operands come first.
        pre = []
        for p in sorted(ins.pnew):
            if p in ps.wp:
                if not any(p in i.wp and i.ri.tag in self.p_producer_tags for i in ps.insns):
                    raise Fail("predicate written by an instruction that cannot produce .new")
                continue
            pre.append(self.pred_producer(p, ps, ins, rng))
        if ins.nv is not None:
            pre.append(self.nv_producer(ins.nv, ps, ins, rng))
        group = pre + group
        self.plan(ins, ps, ctx, rng)
        if not self.fits(ps, group):
            raise Fail("packet rules")
        return group

    def try_duplex(self, ps, ctx, rng):
        if any(i.ri.duplex for i in ps.insns):
            raise Fail("one duplex per packet")
        hi, lo = rng.choice(self.duplex_pairs)
        a = rng.choice(self.subs[hi])
        b = rng.choice(self.subs[lo])
        if ps.loop_body and any(r.branch or r.frame for r in (a, b)):
            raise Fail("not in a loop body")
        ia = self.fill(a, ps, ctx, rng)
        self.plan(ia, ps, ctx, rng)
        tmp = ps.copy()
        tmp.add(ia)
        ib = self.fill(b, tmp, ctx, rng)
        self.plan(ib, tmp, ctx, rng)
        group = []
        for p in sorted((ia.pnew | ib.pnew) & ps.wp):
            if not any(p in i.wp and i.ri.tag in self.p_producer_tags for i in ps.insns):
                raise Fail("predicate written by an instruction that cannot produce .new")
        for p in sorted((ia.pnew | ib.pnew) - ps.wp - ia.wp - ib.wp):
            group.append(self.pred_producer(p, ps, None, rng, avoid=ia.wr | ib.wr))
        if (ia.pnew & ib.wp) or (ib.pnew & ia.wp):
            raise Fail("duplex half produces the other's .new predicate")
        ia.duplex_with = ib
        group += [ia, ib]
        if not self.fits(ps, group):
            raise Fail("packet rules")
        return group

    def pred_producer(self, p, ps, consumer, rng, avoid=()):
        for _ in range(6):
            ri = rng.choice(self.p_producers)
            try:
                tmp = ps.copy()
                if consumer is not None:
                    tmp.wr |= consumer.wr
                tmp.wr |= set(avoid)
                ins = self.fill(ri, tmp, None, rng)
            except Fail:
                continue
            pk = [t.key for t in ri.toks if t.kind == "P" and t.letter == "d"]
            if not pk:
                continue
            ins.ops[pk[0]] = p
            ins.wp = {p}
            ins.producer_for = "p%d" % p
            if consumer is not None and consumer.wr & ins.wr:
                continue
            return ins
        raise Fail("no predicate producer")

    def nv_producer(self, reg, ps, consumer, rng):
        for _ in range(6):
            load = self.nv_loads and rng.random() < 0.2
            ri = rng.choice(self.nv_loads if load else self.nv_producers)
            tmp = ps.copy()
            tmp.wr |= consumer.wr - {reg}
            try:
                ins = self.fill(ri, tmp, None, rng, force_dest=reg)
                if load:
                    self.plan(ins, tmp, None, rng)
            except Fail:
                continue
            if ins.wr != {reg} or ins.wp or ins.wc:
                continue
            ins.producer_for = "r%d" % reg
            return ins
        raise Fail("no new-value producer")

    # -- packet rules

    def fits(self, ps, group):
        insns = ps.insns + group
        n = len(insns)
        if n > 4 or sum(i.words for i in insns) > 4:
            return False
        # Write conflicts (group members against the packet and each other).
        wr, wc = ps.wr, ps.wc
        usr_imp, usr_exp = ps.usr_write, ps.usr_explicit
        for i in group:
            if not wr.isdisjoint(i.wr) or not wc.isdisjoint(i.wc):
                return False
            wr = wr | i.wr
            wc = wc | i.wc
            usr_imp |= i.ri.usr_write
            usr_exp |= 8 in i.wc
        if usr_imp and usr_exp:
            return False
        stores = loads = nvst = memops = branches = 0
        masks = []
        special = False
        for i in insns:
            ri = i.ri
            masks.append(ri.slotmask)
            if ri.special:
                special = True
            if ri.memop:
                memops += 1
            elif ri.store:
                stores += 1
            elif ri.load or ri.cache:
                loads += 1
            if ri.nvstore:
                nvst += 1
            if ri.branch:
                branches += 1
        if special and n > 1:
            for i in insns:
                ri = i.ri
                if ri.solo or noncanonical_frame(i):
                    return False
                if ri.alu_only and not all(j.ri.alu for j in insns if j is not i):
                    return False
                if ri.dcfetch and stores + memops:
                    return False
                if ri.cache_alone and stores + memops + loads > 1:
                    return False
                if ri.hwloop and not wc.isdisjoint(LOOP_CTRL):
                    return False
        if stores + memops + loads > 2 or memops > 1 or (memops and stores):
            return False
        if nvst and stores > 1:
            return False
        if stores + memops == 1:
            # A single store goes in slot 0.
            masks = [1 if (i.ri.store or i.ri.memop) else m for i, m in zip(insns, masks)]
        if not slots_ok(masks):
            return False
        if branches > 1:
            if branches > 2:
                return False
            br = [i.ri for i in insns if i.ri.branch]
            if not any(r.cond for r in br) or not all(r.dual_ok for r in br):
                return False
            # No call in a two-branch packet: qemu 7.2 writes LR for a call the first
            # (taken) branch overrides (qemu_deviations.txt [jump-then-call]).
            if any(r.call for r in br):
                return False
            # qemu 7.2 crashes (SIGSEGV) on two compare-jumps with two more compares.
            if sum(1 for i in insns if i.wp) > 3:
                return False
        # A predicate written twice is written by compares (the duplex one too) and compound
        # compare-jumps only (the writes are ANDed; .new readers see the result).
        seen = 0
        dup = 0
        for i in insns:
            for p in i.wp:
                b = 1 << p
                if seen & b:
                    dup |= b
                seen |= b
        if dup:
            for p in range(4):
                if dup >> p & 1:
                    for i in insns:
                        if p in i.wp and not (i.ri.cmp_like or i.ri.sub_cmp or
                                              i.ri.self_pnew == {p}):
                            return False
        # Pins agree; in loop bodies no pinned register is written (but the circular
        # base register its own instruction updates).
        if any(i.pins or i.cpins for i in group):
            pins, cpins = ps.all_pins(), ps.all_cpins()
            for i in group:
                for r, v in i.pins.items():
                    if pins.get(r, v) != v:
                        return False
                    pins[r] = v
                for r, v in i.cpins.items():
                    if cpins.get(r, v) != v:
                        return False
                    cpins[r] = v
        if ps.loop_body:
            allw = set(ps.unit.wr)
            for i in insns:
                allw |= i.wr
            for i in insns:
                own = {i.ops[i.ri.mem_groups[0]]} if i.ri.mem_mode in ("circ_i", "circ_r") \
                    else set()
                for r in i.pins:
                    if r in own:
                        if any(r in j.wr for j in insns if j is not i) or r in ps.unit.wr:
                            return False
                    elif r in allw:
                        return False
        return True

    # -- memory, frames, control flow

    def pick_ea(self, rng, size, ps, avoid_ranges=()):
        align = max(size, 1)
        lo = X.BUF_BASE + 16
        hi = X.BUF_BASE + X.BUF_SIZE - 16 - size
        prev = ps.ranges
        recent = self.recent
        for _ in range(8):
            r = rng.random()
            if prev and r < 0.3:
                base = rng.choice(prev)[0] + rng.choice([0, 0, -align, align, -8, 8])
                ea = base // align * align
            elif recent and r < 0.55:
                # An address an earlier packet of the case used (store-to-load paths).
                base = rng.choice(recent) + rng.choice([0, 0, 0, -align, align])
                ea = base // align * align
            else:
                ea = rng.randrange(lo // align + 1, hi // align) * align
            ea = max(lo - lo % align + align, min(ea, hi - hi % align))
            if not any(a < ea + size and ea < b for a, b in avoid_ranges):
                recent.append(ea)
                if len(recent) > 24:
                    del recent[:8]
                return ea
        raise Fail("no address")

    def plan(self, ins, ps, ctx, rng):
        ri = ins.ri
        ops = ins.ops
        frames = [r for i in ps.insns if i.ri.frame for r in i.ranges]

        def pin(key_or_reg, value):
            r = key_or_reg if isinstance(key_or_reg, int) else ops[key_or_reg]
            if r in (27, 28):
                raise Fail("pin of a reserved register")
            old = ps.pins.get(r, ins.pins.get(r, ps.unit.pins.get(r)))
            if old is not None and old != value:
                raise Fail("pin conflict")
            ins.pins[r] = value

        def reg_of(key):
            if key in ("r29", "r30"):
                return int(key[1:])
            return ops[key]

        if ri.frame:
            key = 0 if rng.random() < 0.4 else rng.getrandbits(32)
            ea = self.pick_ea(rng, 8, ps, [r for i in ps.insns for r in i.ranges])
            ins.ranges.append((ea, ea + 8))
            if ri.frame == "alloc":
                base = ops.get("Rx32", 29)
                if base == 30:
                    raise Fail("allocframe(r30):raw writes r30 twice")
                pin(base, ea + 8)
            else:
                base = ops.get("Rs32", 30)
                pin(base, ea)
                if ri.frame == "return":
                    ins.cpins["framekey"] = key
                    label = ctx.target(rng, ri, ins) if ctx else "@L@e"
                    ins.target = label
                    ins.mwords.append((ea + 4, label, key))
                    ctx and ctx.note_target(label)
            if ps.cpins.get("framekey", ins.cpins.get("framekey")) != \
                    ins.cpins.get("framekey", ps.cpins.get("framekey")):
                raise Fail("framekey conflict")
        elif ri.memcpy:
            n = rng.randint(0, 31)
            a = self.pick_ea(rng, 1, ps, frames)
            b = self.pick_ea(rng, 1, ps, frames)
            a = min(a, X.BUF_BASE + X.BUF_SIZE - 48)
            b = min(b, X.BUF_BASE + X.BUF_SIZE - 48)
            pin("Rs32", a)
            pin("Rt32", b)
            ins.cpins["m%d" % ops["Mu2"]] = n
            ins.ranges += [(a, a + n + 1), (b, b + n + 1)]
        elif ri.mem_mode:
            size = ri.size
            g = ri.mem_groups
            mode = ri.mem_mode
            ea = self.pick_ea(rng, size, ps, frames)
            ins.ranges.append((ea, ea + size))
            if mode == "io":
                off = ops[g[1]]
                r = reg_of(g[0])
                pin(r, (ea - off) & M32)
            elif mode == "gp":
                # GP keeps bits 5:0 zero (PRM 2.2.8): the offset takes up ea's low bits
                off = ops[g[0]]
                off += (ea - off) & 63
                lo, hi, scale, _ = ri.imm_b[g[0]]
                if off > hi << scale:
                    off -= 64
                if off < lo << scale:
                    raise Fail("gp offset")
                ops[g[0]] = off
                ins.cpins["gp"] = (ea - off) & M32
            elif mode == "abs":
                ops[g[0]] = ea
                ops[g[0] + ".ext"] = True
                ins.words = 2
                ins.cpins["gp"] = 0
            elif mode == "ap":
                ops[g[1]] = ea
                ops[g[1] + ".ext"] = True
                ins.words = 2
            elif mode == "rr":
                t = rand32(rng) if rng.random() < 0.3 else rng.randint(-64, 64) & M32
                if ops[g[0]] == ops[g[1]]:
                    raise Fail("rr with one register")
                pin(g[1], t)
                pin(g[0], (ea - (t << ops[g[2]])) & M32)
            elif mode == "ur":
                t = rand32(rng) if rng.random() < 0.3 else rng.randint(-64, 64) & M32
                pin(g[0], t)
                ops[g[2]] = (ea - (t << ops[g[1]])) & M32
                ops[g[2] + ".ext"] = True
                ins.words = 2
            elif mode in ("pi", "reg"):
                pin(g[0], ea)
            elif mode == "pm":
                pin(g[0], ea)
                ins.cpins["m%d" % ops[g[1]]] = rand32(rng)
            elif mode == "brev":
                pin(g[0], (ea & 0xffff0000) | GC.brev16(ea))
                ins.cpins["m%d" % ops[g[1]]] = rand32(rng)
            else:   # circular
                mu = ops[g[-1]]
                if ps.loop_body:
                    # Every access of every iteration stays in [CS, CS+Length).
                    length = rng.randint(2, 128 // size) * size
                    k = 0
                    if mode == "circ_i":
                        lo, hi = imm_bounds(ri, g[1])
                        lo, hi = max(lo, -(length - size)), min(hi, length - size)
                        step = 1 << ri.imm.get(g[1], (True, 0))[1]
                        ops[g[1]] = rng.randrange(lo // step, hi // step + 1) * step
                elif rng.random() < 0.7:
                    length = rng.randint(1, 128 // size) * size
                    k = 0
                else:
                    length = rng.randint(0, 0x1ffff)
                    k = 0 if rng.random() < 0.8 else rng.randint(1, 15)
                if ps.loop_body:
                    start = self.pick_ea(rng, max(size, 8), ps, frames)
                    start = min(start, X.BUF_BASE + X.BUF_SIZE - 16 - length) // 8 * 8
                    start = max(start, X.BUF_BASE)
                    off = rng.randrange(0, max(1, length // size)) * size
                    ea = start + off
                    ins.ranges[-1] = (start, start + length + size)
                else:
                    off = rng.randrange(0, max(1, length) // size + 1) * size \
                        if length > size else 0
                    start = ea - off
                i11 = rng.getrandbits(11) if rng.random() < 0.7 else \
                    rng.randint(-8, 8) & 0x7ff
                if ps.loop_body:
                    n = length // size - 1
                    i11 = rng.randint(-n, n) & 0x7ff
                ins.cpins["m%d" % mu] = ((i11 >> 7) << 28 | k << 24 | (i11 & 0x7f) << 17 |
                                         length)
                ins.cpins["cs%d" % mu] = start & M32
                pin(g[0], ea)
            cp = ps.all_cpins()
            for r in ins.cpins:
                if cp.get(r, ins.cpins[r]) != ins.cpins[r]:
                    raise Fail("control pin conflict")
        # Explicit USR writes get a safe value; GP writes (alone or as c11 of c11:10) one
        # with its reserved bits 5:0 clear (qemu 7.2 keeps them: qemu_deviations.txt
        # [usr-gp-reserved-bits]; a GP-relative access after it would then differ too).
        for t in ri.toks:
            if t.kind != "C" or t.letter != "d":
                continue
            src = [x.key for x in ri.toks if x.kind == "R" and x.letter == "s"]
            if ops[t.key] == 8 and not t.pair:
                pin(src[0], rand_usr(rng))
            elif ops[t.key] == 11 and not t.pair:
                pin(src[0], rand32(rng) & ~0x3f)
            elif ops[t.key] == 10 and t.pair:
                pin(ops[src[0]] + 1, rand32(rng) & ~0x3f)
        # Control flow.
        if ri.branch and ri.frame != "return":
            if ctx is None:
                label = "@L@e"
            else:
                label = ctx.target(rng, ri, ins)
                ctx.note_target(label)
            ins.target = label
            for name in ri.pcrel:
                ops[name] = label
            if ri.jumpr:
                key = [t.key for t in ri.toks if t.kind == "R" and t.letter == "s"]
                if key:
                    pin(key[0], label)
                elif "r31" in ri.syntax:
                    pin(31, label)


def noncanonical_frame(ins):
    """The :raw frame instructions with registers other than r29/r30/r31:30: llvm-mc-16
    turns them into the duplex sub-instruction of the canonical form when it can pair them
    (dropping the registers), so they go alone in their packet."""
    ri = ins.ri
    if not ri.frame or ri.duplex:
        return False
    for t in ri.toks:
        if t.kind == "R":
            r = ins.ops[t.key]
            if t.letter == "x" and r != 29:
                return True
            if t.letter == "s" and r != 30:
                return True
            if t.letter == "d" and r != 30:
                return True
    return False


def pick_free(rng, pool, width, avoid, used):
    n = len(pool)
    for _ in range(8):
        x = pool[int(rng.random() * n)]
        if x not in avoid and x not in used and (width == 1 or (x + 1 not in avoid and
                                                                x + 1 not in used)):
            return x
    cands = [x for x in pool if all(x + i not in avoid and x + i not in used
                                    for i in range(width))]
    if not cands:
        raise Fail("no free register")
    return rng.choice(cands)


def weighted(rng, pairs):
    t = sum(w for _, w in pairs)
    x = rng.random() * t
    for v, w in pairs:
        if x < w:
            return v
        x -= w
    return pairs[-1][0]


def imm_bounds(ri, name):
    """Smallest and largest value (scaled) of immediate name."""
    signed, scale = ri.imm.get(name, (False, 0))
    n = ri.row.bits(name)
    lo, hi = (-(1 << (n - 1)), (1 << (n - 1)) - 1) if signed and n else (0, (1 << n) - 1)
    return lo << scale, hi << scale


def choose_imm(ri, name, rng, mode):
    b = ri.imm_b.get(name)
    if b is None:
        n = ri.row.bits(name)
        lo, hi, scale = 0, (1 << n) - 1, 0
    else:
        lo, hi, scale, _ = b
    if mode == "min":
        v = lo
    elif mode == "max":
        v = hi
    else:
        r = rng.random()
        if r < 0.15:
            v = max(lo, min(hi, rng.choice([0, 1, -1, 2])))
        else:
            v = rng.randint(lo, hi)
    return v << scale


def _single_dest(ri):
    d = [t for t in ri.toks if t.kind == "R" and t.letter in "dexy"]
    return (len(d) == 1 and not d[0].pair and d[0].letter == "d" and d[0].width == "32" and
            not ri.imp_r and not ri.imp_p and
            not any(t.kind in ("P", "C") and t.letter in "dexy" for t in ri.toks))


def _pnew_key(ri):
    """The operand key of the predicate row ri reads as .new (None: none)."""
    keys = [t.key for t in ri.toks if t.kind == "P" and t.new and not t.write]
    return keys[0] if len(keys) == 1 else None


def _pred_dest(ri):
    d = [t for t in ri.toks if t.letter in "dexy" and t.kind != "lit"]
    return (len(d) == 1 and d[0].kind == "P" and d[0].letter == "d" and not ri.imp_p and
            not ri.imp_r)


_SLOT_CACHE = {}


def slots_ok(masks):
    """True when each instruction (a bit mask of its slots) can get a slot of its own."""
    key = tuple(sorted(masks))
    v = _SLOT_CACHE.get(key)
    if v is None:
        v = _SLOT_CACHE[key] = assignable([frozenset(b for b in range(4) if m >> b & 1)
                                           for m in key])
    return v


def assignable(slotsets):
    """True when each entry can get its own slot from its set."""
    order = sorted(slotsets, key=len)
    used = set()

    def rec(i):
        if i == len(order):
            return True
        for s in order[i]:
            if s not in used:
                used.add(s)
                if rec(i + 1):
                    return True
                used.discard(s)
        return False
    return rec(0)



# ---------------------------------------------------------------------------------------
# Units and cases

def reach(ri):
    """How far (bytes) a branch of row ri can reach; None: anywhere."""
    if ri.jumpr or ri.frame == "return":
        return None
    best = 0
    for name in ri.pcrel:
        signed, scale = ri.imm.get(name, (True, 2))
        n = ri.row.bits(name)
        best = max(best, (1 << max(0, n - 1)) << scale)
    return best or None


class Ctx:
    """Branch targets for the packets of unit `index` of a case of `n` units."""

    def __init__(self, index, n):
        self.index = index
        self.n = n
        self.taken = False

    def target(self, rng, ri, ins):
        far = reach(ri)
        ext = any(ins.ops.get(nm + ".ext") for nm in ri.pcrel)
        ahead = ["@L@u%d" % j for j in range(self.index + 1, min(self.n, self.index + 3) + 1)]
        can_exit = self.index == self.n - 1 or far is None or ext or far >= 8192
        if can_exit and rng.random() < 0.4:
            return "@T@"
        return rng.choice(ahead)

    def note_target(self, label):
        if label == "@T@":
            self.taken = True


class Unit:
    """A random packet (kind "packet") or a loop shape (kind "loop") with its prefix."""

    def __init__(self, kind, packets, shape=None):
        self.kind = kind
        self.packets = packets          # PacketStates
        self.shape = shape or {}        # loop: {"levels": 1|2, "ends": [...]} etc.

    def tags(self):
        return [[i.ri.tag for i in ps.insns] for ps in self.packets]

    def pins(self):
        pins, cpins, mwords = {}, {}, []
        for ps in self.packets:
            for i in ps.insns:
                pins.update(i.pins)
                cpins.update(i.cpins)
                mwords += i.mwords
        return pins, cpins, mwords

    def prefix(self):
        pins, cpins, mwords = self.pins()
        out = []
        for addr, label, key in mwords:
            out.append("  { r27 = ##%s; r26 = ##0x%x }" % (label, key & M32))
            out.append("  { r27 = xor(r27,r26) }")
            out.append("  { r26 = ##0x%x }" % addr)
            out.append("  { memw(r26+#0) = r27 }")
        for name in sorted(cpins):
            out.append("  { r27 = ##0x%x }" % (cpins[name] & M32))
            out.append("  { %s = r27 }" % name)
        regs = sorted(pins)
        for k in range(0, len(regs), 2):
            part = regs[k:k + 2]
            out.append("  { " + "; ".join("r%d = ##%s" % (r, _val(pins[r])) for r in part) +
                       " }")
        return out

    def lines(self, idx):
        out = ["@L@u%d:" % idx] + self.prefix()
        if self.kind == "packet":
            out.append(render_packet(self.packets[0]))
            return out
        sh = self.shape
        pk = self.packets
        if sh["levels"] == 1:
            out.append(render_packet(pk[0]))
            out.append("@L@b%d:" % idx)
            for k, ps in enumerate(pk[1:]):
                out.append(render_packet(ps) + (sh["end0"] if k == len(pk) - 2 else ""))
        else:
            out.append(render_packet(pk[0]))
            out.append("@L@o%d:" % idx)
            out.append(render_packet(pk[1]))
            out.append("@L@b%d:" % idx)
            out.append(render_packet(pk[2]) + ":endloop0")
            out.append(render_packet(pk[3]) + ":endloop1")
        return out


def _val(v):
    return "0x%x" % (v & M32) if isinstance(v, int) else v


def render_packet(ps):
    insns = list(ps.insns)
    # The first branch of a two-branch packet must be the conditional one.
    br = [i for i in insns if i.ri.branch]
    if len(br) == 2 and not br[0].ri.cond:
        a, b = insns.index(br[0]), insns.index(br[1])
        insns[a], insns[b] = insns[b], insns[a]
    return "  { " + "; ".join(i.text() for i in insns) + " }"


class RPCase:
    """A generated case: units plus the initial state (turned into an execlib.Case)."""

    def __init__(self, units, regs, preds, usr, ctrl, image, taken):
        self.units = units
        self.regs = regs
        self.preds = preds
        self.usr = usr
        self.ctrl = ctrl
        self.image = image
        self.taken = taken
        self.dropped = []     # (unit index, reason)

    def body(self):
        out = []
        if any(u is not None and any(i.ri.tag in STORE_LOCKED for ps in u.packets
                                     for i in ps.insns) for u in self.units):
            # Clear a reservation an earlier case's load-locked left (the harness between
            # the cases traps into the kernel; qemu 7.2 keeps the reservation across that,
            # hexsim does not): a store-conditional to the scratch buffer's first word (no
            # packet uses it) fails; then p3:0 gets its value back.
            out += ["  { r27 = ##0x%x }" % X.BUF_BASE, "  { memw_locked(r27,p0) = r27 }",
                    "  { r27 = ##0x%x }" % self.preds, "  { p3:0 = r27 }"]
        for k, u in enumerate(self.units):
            if u is None:
                out.append("@L@u%d:" % k)
            else:
                out += u.lines(k)
        out.append("@L@u%d:" % len(self.units))
        return out

    def unit_of_line(self, offset):
        """The unit index of body line number offset (0: the first), None for labels."""
        n = 0
        for k, u in enumerate(self.units):
            size = 1 if u is None else len(u.lines(k))
            if offset < n + size:
                return None if u is None or offset == n else k
            n += size
        return None

    def packet_tags(self):
        return [t for u in self.units if u is not None for t in u.tags()]

    def execlib_case(self, note=""):
        return X.Case("rp", self.body(), self.regs, preds=self.preds, usr=self.usr,
                      ctrl=self.ctrl, mem=True, image=self.image, taken=self.taken,
                      note=note)


def loop_unit(gen, rng, index, n, force=None):
    """A hardware-loop shape: setup packet(s) and body packets ending the loop(s)."""
    unit_state = UnitState()
    loops = gen.loops if force is None else [force]
    if not loops:
        raise Fail("no loop rows")
    nested = rng.random() < 0.25 and any("loop1" in r.syntax for r in loops)
    inner_rows = [r for r in gen.loops if "loop1" not in r.syntax]
    outer_rows = [r for r in loops if "loop1" in r.syntax]
    if force is not None:
        nested = False
    if nested:
        inner = rng.choice(inner_rows) if inner_rows else None
        outer = rng.choice(outer_rows)
        if inner is None:
            raise Fail("no inner loop row")
    else:
        inner = rng.choice(loops)
        outer = None
    bodies = []
    nbody = 2 if nested else rng.choice([1, 1, 2])
    for _ in range(nbody):
        ps = gen.packet(rng, None, ninsn=weighted(rng, [(1, 30), (2, 40), (3, 30)]),
                        loop_body=True, unit=unit_state)
        if not ps.insns:
            ps = gen.packet(rng, None, ninsn=1, loop_body=True, unit=unit_state)
        unit_state.add(ps)
        bodies.append(ps)
    setups = []
    for lr, label, maxc in ((outer, "@L@o%d" % index, 3), (inner, "@L@b%d" % index,
                                                            4 if nested else 6)):
        if lr is None:
            continue
        ps = PacketState(True, unit_state)
        ins = gen.fill(lr, ps, None, rng)
        count = rng.choice([0, 1, 1, 2, 2, 3, maxc]) if rng.random() < 0.9 else \
            rng.randint(maxc, 12)
        if "sp" in lr.syntax and count == 0 and rng.random() < 0.7:
            count = 1
        for t in lr.toks:
            if t.kind == "imm" and t.key in lr.pcrel:
                ins.ops[t.key] = label
            elif t.kind == "imm":
                ins.ops[t.key] = count
                ins.ops[t.key + ".ext"] = False
                ins.words = 1
            elif t.kind == "R" and t.letter == "s":
                r = ins.ops[t.key]
                if r in unit_state.wr or r in unit_state.pins or r in (27, 28):
                    raise Fail("loop count register")
                ins.pins[r] = count
        if any(ins.ops.get(nm + ".ext") for nm in lr.pcrel):
            ins.words = 2
        ps.add(ins)
        # One or two more instructions in the setup packet now and then.
        if rng.random() < 0.4:
            extra = gen.packet(rng, None, ninsn=1, loop_body=True, unit=unit_state)
            for i in extra.insns:
                if not i.ri.hwloop and gen.fits(ps, [i]):
                    ps.add(i)
        unit_state.add(ps)
        setups.append(ps)
    if nested:
        return Unit("loop", [setups[0], setups[1], bodies[0], bodies[1]], {"levels": 2})
    return Unit("loop", setups + bodies,
                {"levels": 1, "end0": ":endloop1" if "loop1" in inner.syntax else
                 ":endloop0"})


def make_case(gen, rng, nunits, image_count):
    units = []
    gen.recent = []
    taken = False
    for k in range(nunits):
        u = None
        for _ in range(4):
            try:
                if gen.loops and rng.random() < LOOP_UNIT_P and not gen.force:
                    u = loop_unit(gen, rng, k, nunits)
                else:
                    ctx = Ctx(k, nunits)
                    ps = gen.packet(rng, ctx)
                    if not ps.insns:
                        continue
                    u = Unit("packet", [ps])
                    taken |= ctx.taken
                break
            except Fail:
                u = None
        if u is not None:
            units.append(u)
        else:
            units.append(None)
    regs = [rand32(rng) for _ in range(32)]
    for r in range(0, 26, 2):
        if rng.random() < 0.1:
            v = rand_df(rng)
            regs[r], regs[r + 1] = v & M32, v >> 32
    ctrl = {}
    for name in ("m0", "m1", "cs0", "cs1", "ugp", "gp", "framekey"):
        if rng.random() < 0.3:
            ctrl[name] = rand32(rng) & (~0x3f if name == "gp" else M32)   # GP: bits 5:0 zero
    return RPCase(units, regs, GC.rand_preds(rng), rand_usr(rng), ctrl,
                  rng.randrange(image_count), taken)


def make_images(rng, n=8):
    imgs = []
    for _ in range(n):
        words = [rand32(rng) if rng.random() < 0.3 else rng.getrandbits(32)
                 for _ in range(X.BUF_SIZE // 4)]
        imgs.append(b"".join(w.to_bytes(4, "little") for w in words))
    return imgs
