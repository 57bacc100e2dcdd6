# SPDX-License-Identifier: MIT
# Generic part of the differential execution tests: "cases" (an initial machine state, a few
# packets of code under test, and a dump of the state afterwards) assembled into static Hexagon
# Linux ELF programs, run under qemu-hexagon and `hexsim --user`, and compared byte for byte.
#
# A program runs its cases one after the other. Each case
#   - zeroes the control registers (sa0/lc0/sa1/lc1, m0/m1, usr, ugp, gp, cs0/cs1, framelimit,
#     framekey, p3:0) in a shared routine, and for memory cases copies one of the program's
#     random images into the scratch buffer (BUF_BASE, BUF_SIZE bytes at a fixed address);
#   - stores extra words into the buffer, sets control registers, usr, p3:0 and r0..r31
#     (`rN = ##value`);
#   - runs its body: packets in assembler syntax. "@T@" in a body is the label of the case's
#     second exit ("taken" path), "@L@" a prefix for labels local to the case;
#   - stores r0..r31 and the control registers into a record (REC_BASE) and writes it to
#     stdout with the write system call (with the scratch buffer behind it for memory cases).
#     The record's first word is (case id << 4 | path << 1 | memory flag): path 0 is the
#     fall-through exit, path 1 the taken one.
# r28 holds REC_BASE from the register setup to the dump (the body must not write it): the
# dump stores through it. (An absolute store, memw(##REC) = r28, cannot save it first:
# qemu-hexagon 7.2 adds GP to ##-extended GP-relative encodings, which are absolute;
# qemu_deviations.txt [gp-rel-extended].)
# The harness instructions are few and plain (A2_tfrsi with extenders, memw(Rs+#u) stores and
# loads with bases r27/r28, transfers to and from control registers, call/jump/jumpr, trap0)
# and never form duplexes, so that a simulator that executes those can run every case;
# HARNESS_TAGS lists them.
# A program can be started at any case: its data section holds a magic pair, the start slot
# and the table of case addresses, and run() patches the start slot in the ELF file. When a
# run stops early (a crash, an unimplemented instruction, a timeout) the caller's policy
# decides where the next run resumes.
import os
import re
import struct
import subprocess
import time

LLVM_MC = os.environ.get("LLVM_MC", "llvm-mc-16")
LLD = os.environ.get("LLD", "ld.lld-16")
MCPU = "hexagonv67"          # qemu 7.2 accepts ELFs up to V67

REC_BASE = 0x08000000        # the .xdscratch section: record, then the scratch buffer
REC_SIZE = 256
BUF_BASE = REC_BASE + REC_SIZE
BUF_SIZE = 512
CTRL_NAMES = ["sa0", "lc0", "sa1", "lc1", "p3:0", "c5", "m0", "m1", "usr", "ugp", "gp",
              "cs0", "cs1", "framelimit", "framekey"]
CTRL_OFF = 8 + 32 * 4
RESET_CTRL = ["sa0", "lc0", "sa1", "lc1", "m0", "m1", "usr", "ugp", "gp", "cs0", "cs1",
              "framelimit", "framekey", "p3:0"]
MAGIC = (0x9E3779B9, 0x7F4A7C15)
HARNESS_TAGS = {"A4_ext", "A2_tfrsi", "S2_storeri_io", "L2_loadri_io",
                "A2_tfrcrr", "A2_tfrrcr", "J2_call", "J2_jump", "J2_jumpr", "J2_trap0"}
STOP = "stop"               # on_fail's answer for "run no further case of this program"
UNIMPLEMENTED = re.compile(r"unimplemented instruction\s+([A-Za-z0-9_]+)")


class Case:
    """One execution case. regs: 32 values (int, or an assembler expression string such as a
    label; r28's is replaced by REC_BASE); preds: p3:0; usr; ctrl: {control register name:
    value}; mem: the case uses the scratch buffer (reset from image number `image` first,
    then mem_words {address: value} stored; a value may be (label expression, xor key));
    body: lines of assembly; taken: the body may leave through "@T@"; note: free text;
    facts: what the generator knows of the code under test, for the predicates of
    qemu_deviations.txt (see Deviations: operand values by name, "ea", ...)."""

    def __init__(self, tag, body, regs, preds=0, usr=0, ctrl=None, mem=False, image=0,
                 mem_words=None, taken=False, note="", facts=None):
        self.tag = tag
        self.body = list(body)
        self.regs = list(regs)
        self.regs[28] = REC_BASE
        self.preds = preds & 0xffffffff
        self.usr = usr & 0xffffffff
        self.ctrl = dict(ctrl or {})
        self.mem = mem
        self.image = image
        self.mem_words = dict(mem_words or {})
        self.taken = taken
        self.note = note
        self.facts = dict(facts or {})

    def text(self, cid=None):
        """The body as assembled, with the labels spelled for case id cid."""
        return [subst(line, cid) for line in self.body]

    def setup_summary(self):
        """The initial values a report shows: registers named in the body, p3:0, usr, ctrl."""
        body = " ".join(self.body)
        named = set()
        for m in re.finditer(r"\br(\d+)(?::(\d+))?\b", body):
            named.add(int(m.group(1)))
            if m.group(2):
                named.add(int(m.group(2)))
        if re.search(r"\bsp\b|allocframe|deallocframe|dealloc_return", body):
            named |= {29, 30, 31}
        parts = ["r%d=%s" % (r, fmt(self.regs[r])) for r in sorted(named) if r < 32]
        parts.append("p3:0=0x%08x" % self.preds)
        if self.usr:
            parts.append("usr=0x%08x" % self.usr)
        parts += ["%s=%s" % (k, fmt(v)) for k, v in sorted(self.ctrl.items())]
        parts += ["mem[0x%08x]=%s" % (a, fmt(v)) for a, v in sorted(self.mem_words.items())]
        return " ".join(parts)


def subst(text, cid):
    """Spells the placeholders @T@ (taken-path label) and @L@ (local label prefix)."""
    c = "x" if cid is None else str(cid)
    return text.replace("@T@", "xd_t" + c).replace("@L@", "xd_l%s_" % c)


def fmt(v):
    if isinstance(v, int):
        return "0x%08x" % (v & 0xffffffff)
    if isinstance(v, tuple):
        return "%s^0x%08x" % (v[0], v[1] & 0xffffffff)
    return str(v)


def _imm(v, cid=None):
    return "0x%x" % (v & 0xffffffff) if isinstance(v, int) else subst(v, cid)


class Source:
    """Assembly text with the case owning each line (llvm-mc errors name lines)."""

    def __init__(self):
        self.lines = []
        self.owner = {}

    def add(self, line, cid=None):
        self.lines.append(line)
        if cid is not None:
            self.owner[len(self.lines)] = cid


def _dump(src, cid, path, mem):
    a = src.add
    regs = list(range(32))
    for i in range(0, len(regs), 2):
        pair = regs[i:i + 2]
        a("  { " + "; ".join("memw(r28+#%d) = r%d" % (8 + 4 * r, r) for r in pair) + " }", cid)
    a("  { r0 = ##0x%x; call %s }" % (cid << 4 | path << 1 | int(mem),
                                      "xd_dump_mem" if mem else "xd_dump_regs"), cid)


def _routines(src):
    a = src.add
    for name, length in (("xd_dump_regs", REC_SIZE), ("xd_dump_mem", REC_SIZE + BUF_SIZE)):
        a("%s:" % name)
        a("  { r28 = ##0x%x }" % REC_BASE)
        a("  { r2 = ##%d }" % length)
        a("  { memw(r28+#0) = r0; memw(r28+#4) = r2 }")
        for i, c in enumerate(CTRL_NAMES):
            a("  { r1 = %s }" % c)
            a("  { memw(r28+#%d) = r1 }" % (CTRL_OFF + 4 * i))
        a("  { r0 = ##1; r1 = ##0x%x }" % REC_BASE)
        a("  { r6 = ##64 }")
        a("  { trap0(#1) }")
        a("  { jumpr r31 }")
    a("xd_reset_ctrl:")
    a("  { r26 = ##0 }")
    for c in RESET_CTRL:
        a("  { %s = r26 }" % c)
    a("  { jumpr r31 }")
    a("xd_reset_buf:")
    a("  { r27 = ##0x%x }" % BUF_BASE)
    for off in range(0, BUF_SIZE, 8):
        a("  { r24 = memw(r28+#%d); r25 = memw(r28+#%d) }" % (off, off + 4))
        a("  { memw(r27+#%d) = r24; memw(r27+#%d) = r25 }" % (off, off + 4))
    a("  { jumpr r31 }")


def program_source(cases, ids, images):
    """Assembly of a program running cases[i] for i in ids (the case id is i)."""
    src = Source()
    a = src.add
    a("  .text")
    a("  .globl _start")
    a("  .p2align 4")
    a("_start:")
    a("  { r0 = ##xd_ctl }")
    a("  { r0 = memw(r0+#8) }")
    a("  { jumpr r0 }")
    for cid in ids:
        c = cases[cid]
        a("xd_c%d:" % cid, cid)
        a("  { call xd_reset_ctrl }", cid)
        if c.mem:
            a("  { r28 = ##xd_img%d; call xd_reset_buf }" % (c.image % max(1, len(images))),
              cid)
        for addr, v in sorted(c.mem_words.items()):
            if isinstance(v, tuple):
                a("  { r27 = ##0x%x; r26 = ##%s }" % (addr, _imm(v[0], cid)), cid)
                if v[1] & 0xffffffff:
                    a("  { r25 = ##0x%x }" % (v[1] & 0xffffffff), cid)
                    a("  { r26 = xor(r26,r25) }", cid)
            else:
                a("  { r27 = ##0x%x; r26 = ##%s }" % (addr, _imm(v, cid)), cid)
            a("  { memw(r27+#0) = r26 }", cid)
        for name, v in sorted(c.ctrl.items()):
            a("  { r26 = ##%s }" % _imm(v, cid), cid)
            a("  { %s = r26 }" % name, cid)
        a("  { r26 = ##0x%x }" % c.usr, cid)
        a("  { usr = r26 }", cid)
        a("  { r26 = ##0x%x }" % c.preds, cid)
        a("  { p3:0 = r26 }", cid)
        for r in range(0, 32, 2):
            a("  { r%d = ##%s; r%d = ##%s }" % (r, _imm(c.regs[r], cid), r + 1,
                                                  _imm(c.regs[r + 1], cid)), cid)
        for line in c.text(cid):
            a(line, cid)
        _dump(src, cid, 0, c.mem)
        if c.taken:
            a("  { jump xd_n%d }" % cid, cid)
            a("xd_t%d:" % cid, cid)
            _dump(src, cid, 1, c.mem)
            a("xd_n%d:" % cid, cid)
    a("xd_end:")
    a("  { r0 = ##0; r6 = ##93 }")
    a("  { trap0(#1) }")
    _routines(src)
    a("  .data")
    a("  .p2align 3")
    a("xd_ctl:")
    a("  .word 0x%08x, 0x%08x, %s, %d" % (MAGIC + ("xd_c%d" % ids[0] if ids else "xd_end",
                                                  len(ids))))
    a("xd_tab:")
    for i in range(0, len(ids), 8):
        a("  .word " + ", ".join("xd_c%d" % cid for cid in ids[i:i + 8]))
    a("  .word xd_end")
    for k, img in enumerate(images):
        a("  .p2align 3")
        a("xd_img%d:" % k)
        words = struct.unpack("<%dI" % (len(img) // 4), img)
        for i in range(0, len(words), 8):
            a("  .word " + ", ".join("0x%08x" % w for w in words[i:i + 8]))
    a('  .section .xdscratch,"aw",@progbits')
    a("  .p2align 3")
    a("  .space %d" % (REC_SIZE + BUF_SIZE))
    return src


def _run(cmd, timeout=None):
    try:
        p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           timeout=timeout)
        return p.returncode, p.stdout, p.stderr.decode("utf-8", "replace"), False
    except subprocess.TimeoutExpired as e:
        return None, e.stdout or b"", (e.stderr or b"").decode("utf-8", "replace"), True


class Program:
    """A built program: its ELF and the case ids it runs, in order."""

    def __init__(self, elf, ids):
        self.elf = elf
        self.ids = list(ids)
        self.pos = {cid: i for i, cid in enumerate(self.ids)}
        with open(elf, "rb") as f:
            data = f.read()
        off = data.find(struct.pack("<2I", *MAGIC))
        if off < 0:
            raise RuntimeError("%s: no case table" % elf)
        self.slot = off + 8
        n = struct.unpack_from("<I", data, off + 12)[0]
        if n != len(self.ids):
            raise RuntimeError("%s: case table has %d entries, expected %d" %
                               (elf, n, len(self.ids)))
        self.table = list(struct.unpack_from("<%dI" % (n + 1), data, off + 16))

    def set_start(self, pos):
        with open(self.elf, "r+b") as f:
            f.seek(self.slot)
            f.write(struct.pack("<I", self.table[pos]))


def build(cases, ids, images, work, name):
    """Assembles and links the cases ids. Cases llvm-mc rejects are left out (bisecting when
    llvm-mc names no line). Returns (Program or None, {case id: llvm-mc message})."""
    errors = {}
    live = list(ids)
    src_path = os.path.join(work, name + ".s")
    obj = os.path.join(work, name + ".o")
    elf = os.path.join(work, name)
    while live:
        src = program_source(cases, live, images)
        with open(src_path, "w") as f:
            f.write("\n".join(src.lines) + "\n")
        p = subprocess.run([LLVM_MC, "-arch=hexagon", "-mcpu=" + MCPU, "-filetype=obj",
                            src_path, "-o", obj], stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE)
        if p.returncode == 0:
            break
        err = p.stderr.decode("utf-8", "replace")
        bad = {}
        for m in re.finditer(r"^%s:(\d+):\d+: error: (.*)$" % re.escape(src_path), err, re.M):
            cid = src.owner.get(int(m.group(1)))
            if cid is not None and cid not in bad:
                bad[cid] = m.group(2)
        if not bad:
            msg = (err.strip().splitlines() or ["llvm-mc failed"])[-1]
            if len(live) == 1:
                bad[live[0]] = msg
            else:
                half = len(live) // 2
                for part, sub in ((live[:half], "a"), (live[half:], "b")):
                    _, e = build(cases, part, images, work, name + sub)
                    bad.update(e)
                if not bad:
                    raise RuntimeError("llvm-mc fails on %s: %s" % (src_path, msg))
        errors.update(bad)
        live = [cid for cid in live if cid not in bad]
    if not live:
        return None, errors
    p = subprocess.run([LLD, "-static", "--section-start=.xdscratch=0x%x" % REC_BASE,
                        "-o", elf, obj], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    if p.returncode != 0:
        raise RuntimeError("%s failed on %s: %s" % (LLD, obj, p.stderr.decode().strip()))
    return Program(elf, live), errors


def parse_records(out):
    """Splits a program's stdout into [(case id, path, record bytes)]; stops at garbage."""
    recs, pos = [], 0
    while pos + 8 <= len(out):
        head, length = struct.unpack_from("<2I", out, pos)
        if length not in (REC_SIZE, REC_SIZE + BUF_SIZE) or pos + length > len(out):
            break
        recs.append((head >> 4, (head >> 1) & 7, out[pos:pos + length]))
        pos += length
    return recs, pos


class RunResult:
    """records: {case id: [(path, bytes)]}; failures: [(case id, status, stderr, timed out)];
    status: exit status of the last run; seconds: time spent."""

    def __init__(self):
        self.records = {}
        self.failures = []
        self.status = None
        self.seconds = 0.0
        self.runs = 0
        self.garbage = False
        self.gave_up = None


def run(cmd, prog, on_fail, timeout=60, max_streak=25):
    """Runs prog (cmd + [elf]) from its first case; after a run that stops early, asks
    on_fail(case id, status, stderr, timed_out) for the case id to resume at (None: the next
    case, STOP: none). Cases run in order, so the case a run stopped in is the one after its
    last record. After max_streak runs in a row that each stopped in their first case, gives up
    (res.gave_up: the case id it gave up at)."""
    res = RunResult()
    pos, n = 0, len(prog.ids)
    streak = 0
    t0 = time.monotonic()
    while pos < n:
        prog.set_start(pos)
        rc, out, err, timed_out = _run(list(cmd) + [prog.elf], timeout)
        res.runs += 1
        recs, used = parse_records(out)
        if used < len(out):
            res.garbage = True
        last = pos - 1
        for cid, path, data in recs:
            res.records.setdefault(cid, []).append((path, data))
            if cid in prog.pos:
                last = max(last, prog.pos[cid])
        res.status = rc
        if rc == 0 and not timed_out:
            break
        stop = last + 1
        if stop >= n:
            res.failures.append((None, rc, err, timed_out))
            break
        res.failures.append((prog.ids[stop], rc, err, timed_out))
        nxt = on_fail(prog.ids[stop], rc, err, timed_out)
        if nxt == STOP:
            break
        # Runs that stop in the case they start with, each at a new case (nxt None), mean
        # the simulator fails everywhere: give up rather than start once per case.
        streak = streak + 1 if not recs and nxt is None else 0
        if streak >= max_streak:
            res.gave_up = prog.ids[stop]
            break
        pos = stop + 1 if nxt is None else max(stop + 1, prog.pos.get(nxt, n))
    res.seconds = time.monotonic() - t0
    return res


def status_text(rc, timed_out):
    if timed_out:
        return "timed out"
    if rc is None:
        return "did not run"
    if rc < 0:
        try:
            import signal
            return "killed by %s" % signal.Signals(-rc).name
        except (ValueError, AttributeError):
            return "killed by signal %d" % -rc
    return "exit status %d" % rc


def first_line(err, pattern=None):
    """The first non-blank line of err (the first matching pattern, when there is one)."""
    lines = [l for l in err.splitlines() if l.strip()]
    if pattern:
        for l in lines:
            if re.search(pattern, l):
                return l.strip()
    return lines[0].strip() if lines else ""


def unimplemented_tag(rc, err):
    """The tag hexsim names when it stops at an instruction it has no semantics for."""
    m = UNIMPLEMENTED.search(err)
    return m.group(1) if m and rc in (132, -4) else None


def decode(rec):
    """{name: value} of a record's registers, plus "mem" (bytes) and "path"."""
    head = struct.unpack_from("<I", rec, 0)[0]
    d = {"path": (head >> 1) & 7}
    for r in range(32):
        d["r%d" % r] = struct.unpack_from("<I", rec, 8 + 4 * r)[0]
    for i, c in enumerate(CTRL_NAMES):
        d[c] = struct.unpack_from("<I", rec, CTRL_OFF + 4 * i)[0]
    d["mem"] = rec[REC_SIZE:]
    return d


PATHS = {0: "fell through", 1: "took the branch"}


def differences(qrec, hrec, names=("qemu", "hexsim")):
    """Lines describing how two records differ (empty when equal)."""
    if qrec == hrec:
        return []
    q, h = decode(qrec), decode(hrec)
    out = []
    if q["path"] != h["path"]:
        out.append("path: %s %s, %s %s" % (names[0], PATHS.get(q["path"], q["path"]),
                                            names[1], PATHS.get(h["path"], h["path"])))
    for k in ["r%d" % r for r in range(32)] + CTRL_NAMES:
        if q[k] != h[k]:
            out.append("%s: %s 0x%08x %s 0x%08x" % (k, names[0], q[k], names[1], h[k]))
    qm, hm = q["mem"], h["mem"]
    if len(qm) != len(hm):
        out.append("record length: %s %d %s %d" % (names[0], len(qrec), names[1], len(hrec)))
    else:
        for off in range(0, len(qm), 8):
            if qm[off:off + 8] != hm[off:off + 8]:
                out.append("mem[0x%08x]: %s %s %s %s" % (BUF_BASE + off, names[0],
                                                         qm[off:off + 8].hex(), names[1],
                                                         hm[off:off + 8].hex()))
    if not out:
        out.append("record header differs")
    return out


# ---------------------------------------------------------------------------------------
# Known qemu-hexagon deviations: where qemu-hexagon 7.2 disagrees with the PRM, hexsim follows
# the PRM, and tests/isa/qemu_deviations.txt lists the case (format described there). A
# mismatch an entry matches is a "known qemu deviation", counted and reported apart; one no
# entry matches is a failure. Use: devs = load_deviations(); devs.exercise(case) for every
# compared case; devs.classify(case, qrec, hrec, status, err) for every mismatch (the entry,
# or None); devs.report() at the end (counts, and entries that matched nothing).

DEVIATIONS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "qemu_deviations.txt")
DEVIATION_KEYS = ("tags", "prm", "what", "when", "differs", "witness")


def differing_fields(qrec, hrec):
    """The names of the record fields that differ: "path", "r0".."r31", the control register
    names, "mem" (the scratch buffer) and "length" (one record has the buffer, one not)."""
    if qrec == hrec:
        return set()
    q, h = decode(qrec), decode(hrec)
    out = {k for k in ["path"] + ["r%d" % r for r in range(32)] + CTRL_NAMES if q[k] != h[k]}
    if len(q["mem"]) != len(h["mem"]):
        out.add("length")
    elif q["mem"] != h["mem"]:
        out.add("mem")
    return out or {"header"}


def _sf_cls(x):
    x &= 0x7fffffff
    return "zero" if x == 0 else "inf" if x == 0x7f800000 else "nan" if x > 0x7f800000 \
        else "fin"


def _df_cls(x):
    x &= (1 << 63) - 1
    inf = 0x7ff << 52
    return "zero" if x == 0 else "inf" if x == inf else "nan" if x > inf else "fin"


# Names every predicate may use besides the case's facts.
PREDICATE_HELPERS = {
    "sf_zero": lambda x: _sf_cls(x) == "zero", "sf_inf": lambda x: _sf_cls(x) == "inf",
    "sf_nan": lambda x: _sf_cls(x) == "nan", "sf_finite": lambda x: _sf_cls(x) in ("zero", "fin"),
    "sf_neg": lambda x: bool(x >> 31 & 1),
    "df_zero": lambda x: _df_cls(x) == "zero", "df_inf": lambda x: _df_cls(x) == "inf",
    "df_nan": lambda x: _df_cls(x) == "nan", "df_finite": lambda x: _df_cls(x) in ("zero", "fin"),
    "df_neg": lambda x: bool(x >> 63 & 1),
    "bit": lambda x, n: x >> n & 1,
}
_BUILTINS = {k: __builtins__[k] if isinstance(__builtins__, dict) else getattr(__builtins__, k)
             for k in ("abs", "all", "any", "bool", "int", "len", "max", "min", "set", "range",
                       "isinstance", "str")}


class Deviation:
    """One entry of qemu_deviations.txt. matched: {row tag: cases}; exercised: compared cases
    of its rows; held: cases its predicate held for although the simulators agreed; unknown:
    mismatches of its rows whose case lacked a name the predicate uses; errors: predicate
    failures."""

    def __init__(self, name, fields, where):
        self.name = name
        self.where = where
        for k in ("tags", "prm", "what", "when"):
            if not fields.get(k):
                raise ValueError("%s: entry [%s] has no %s:" % (where, name, k))
        self.tags_text = fields["tags"]
        self.tags = re.compile(fields["tags"])
        self.prm = fields["prm"]
        self.what = fields["what"]
        self.when = fields["when"]
        self.code = compile(fields["when"], "%s [%s] when" % (where, name), "eval")
        self.differs = fields["differs"].split() if fields.get("differs") else None
        self.witnesses = []
        for w in fields.get("witness", []):
            d = {}
            for item in w.split():
                k, _, v = item.partition("=")
                if not v:
                    raise ValueError("%s: [%s] witness item %r is not NAME=VALUE" %
                                     (where, name, item))
                d[k] = int(v, 0)
            self.witnesses.append(d)
        self.matched = {}
        self.exercised = 0
        self.held = 0
        self.unknown = 0
        self.errors = []

    def count(self):
        return sum(self.matched.values())


class Deviations:
    def __init__(self, entries, path=None):
        import threading
        self.entries = list(entries)
        self.path = path
        self._lock = threading.Lock()

    def for_tag(self, tag):
        return [e for e in self.entries if e.tags.search(tag)]

    def witnesses(self, tag):
        """[(entry, {name: value})]: the witness cases a row whose tag is tag should get."""
        return [(e, w) for e in self.for_tag(tag) for w in e.witnesses]

    def exercise(self, case, qrec=None, hrec=None):
        """Notes that case was compared (for the report of entries that matched nothing).
        Given equal records, also counts the entries whose predicate holds for the case
        all the same (a predicate wider than the deviation)."""
        cand = self.for_tag(case.tag)
        env = self.env(case, qrec, hrec) if cand and qrec and qrec == hrec else None
        for e in cand:
            held = False
            if env is not None:
                try:
                    held = bool(eval(e.code, dict(env)))
                except Exception:   # noqa: BLE001 (a case lacking a fact: not held)
                    pass
            with self._lock:
                e.exercised += 1
                e.held += held

    def env(self, case, qrec, hrec, status=None, err="", facts=None):
        """The names a predicate sees for this case (see qemu_deviations.txt)."""
        env = dict(PREDICATE_HELPERS)
        env["__builtins__"] = _BUILTINS
        ctrl = {c: 0 for c in RESET_CTRL}
        ctrl.update(case.ctrl)
        ctrl["usr"], ctrl["p3:0"] = case.usr, case.preds
        env.update({k: v for k, v in ctrl.items() if ":" not in k})
        env.update({"tag": case.tag, "body": "\n".join(case.body), "regs": list(case.regs),
                    "preds": case.preds, "usr": case.usr, "rm": case.usr >> 22 & 3})
        env.update({"r%d" % r: v for r, v in enumerate(case.regs)})
        env.update(case.facts)
        env.update(facts or {})
        env["q"] = decode(qrec) if qrec else None
        env["h"] = decode(hrec) if hrec else None
        env["h_status"] = None if hrec else status
        env["h_report"] = first_line(err or "", r"^hexsim:") if not hrec else ""
        if qrec and hrec:
            env["differ"] = differing_fields(qrec, hrec)
        elif qrec:
            env["differ"] = {"stop"}
        else:
            env["differ"] = {"qemu stop"}
        return env

    def classify(self, case, qrec, hrec, status=None, err="", facts=None):
        """The entry that explains how hexsim's record hrec (None: hexsim stopped in the case
        with exit status status, stderr err) differs from qemu's qrec, or None."""
        cand = self.for_tag(case.tag)
        if not cand:
            return None
        env = self.env(case, qrec, hrec, status, err, facts)
        names = dict(case.facts.get("fields", {}))
        names.update((facts or {}).get("fields", {}))
        for e in cand:
            if e.differs is not None:
                allowed = set()
                for f in e.differs:
                    allowed.update(names.get(f, [f]))
                if not env["differ"] <= allowed:
                    continue
            try:
                hit = eval(e.code, dict(env))
            except NameError:
                with self._lock:
                    e.unknown += 1
                continue
            except Exception as ex:   # noqa: BLE001 (reported, not fatal)
                with self._lock:
                    e.errors.append("%s: %s: %s" % (case.tag, type(ex).__name__, ex))
                continue
            if hit:
                with self._lock:
                    e.matched[case.tag] = e.matched.get(case.tag, 0) + 1
                return e
        return None

    def total(self):
        return sum(e.count() for e in self.entries)

    def report(self, indent="  "):
        """Lines: each entry's count (by row), then the entries that matched nothing."""
        out = []
        for e in self.entries:
            if e.count():
                rows = sorted(e.matched.items(), key=lambda kv: (-kv[1], kv[0]))
                shown = " ".join("%s:%d" % kv for kv in rows[:8])
                out.append("%s[%s] (%s): %d cases in %d rows (%s%s)%s" %
                           (indent, e.name, e.prm, e.count(), len(rows), shown,
                            " ..." if len(rows) > 8 else "",
                            "; its predicate also held for %d cases where the simulators "
                            "agreed" % e.held
                            if e.held else ""))
        idle = [e.name for e in self.entries if not e.count() and not e.exercised]
        if idle:
            out.append("%sno case of their rows ran: %s" % (indent, " ".join(idle)))
        for e in self.entries:
            if not e.count() and e.exercised:
                out.append("%sSTALE [%s]: matched none of the %d cases of its rows (%s) "
                           "compared: is it still needed?" % (indent, e.name, e.exercised,
                                                              e.tags_text))
            if e.unknown:
                out.append("%s[%s]: %d mismatches of its rows lacked a name its predicate uses"
                           % (indent, e.name, e.unknown))
            for m in e.errors[:3]:
                out.append("%s[%s]: predicate error: %s" % (indent, e.name, m))
        return out

    def stale(self):
        return [e for e in self.entries if e.exercised and not e.count()]


def read_entries(path, keys=None, repeated=(), lines=()):
    """Reads a file of entries (qemu_deviations.txt, known_values.txt): "[name]" starts an
    entry, "key: value" lines follow, an indented line continues the value; "#" starts a
    comment line. keys: the keys an entry may have (None: any). A key in repeated may stand
    several times (its value a list; a continuation extends the last item); a key in lines
    has a list of lines (a continuation is its next line). Returns [(name, fields, where)]."""
    entries, cur, fields, key, start = [], None, {}, None, 0

    def close():
        if cur is not None:
            entries.append((cur, fields, "%s:%d" % (path, start)))

    with open(path) as f:
        for n, line in enumerate(f, 1):
            text = line.rstrip("\n")
            if not text.strip() or text.lstrip().startswith("#"):
                continue
            m = re.match(r"^\[([\w.+-]+)\]\s*$", text)
            if m:
                close()
                cur, fields, key, start = m.group(1), {}, None, n
                continue
            if text[0] in " \t":
                if key is None:
                    raise ValueError("%s:%d: continuation line outside an entry" % (path, n))
                if key in repeated:
                    fields[key][-1] += " " + text.strip()
                elif key in lines:
                    fields[key].append(text.strip())
                else:
                    fields[key] += " " + text.strip()
                continue
            m = re.match(r"^(\w+):\s*(.*)$", text)
            if not m or cur is None or (keys is not None and m.group(1) not in keys):
                raise ValueError("%s:%d: expected [name] or %s: %r" % (
                    path, n, "key: value" if keys is None else "one of " + ", ".join(keys), text))
            key, value = m.group(1), m.group(2).strip()
            if key in repeated:
                fields.setdefault(key, []).append(value)
            else:
                fields[key] = [value] if key in lines else value
    close()
    return entries


def load_deviations(path=DEVIATIONS):
    """Reads qemu_deviations.txt (read_entries; "witness:" may repeat)."""
    if not path or not os.path.exists(path):
        return Deviations([], path)
    return Deviations([Deviation(*e) for e in read_entries(path, DEVIATION_KEYS, ("witness",))],
                      path)
