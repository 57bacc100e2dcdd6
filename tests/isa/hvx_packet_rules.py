#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# HVX packet rules (src/cpu/check.c): which packets with HVX instructions hexsim accepts.
#  1. Hand-written packets (tests/isa/hvx_packet_rules.txt, each marked legal or illegal):
#     llvm-mc-16 (-mv73 -mhvx) must agree with the mark; hexsim-objdump must decode the
#     legal ones and refuse the illegal ones (their words made from the instructions assembled
#     one by one); `hexsim --user` must run each legal packet and stop at each illegal one
#     with "invalid packet" (SIGILL, status 132). What qemu-hexagon 7.2 (-cpu v67) does with
#     the illegal ones is reported, not checked (it runs most of them and aborts on some with
#     an internal assertion).
#  2. Random packets of 2-4 instructions (HVX rows of every type, vector loads and stores
#     weighted up, and some scalar loads, stores and ALU instructions) made of words of
#     instructions assembled one by one (a new-value store together with its producer), so
#     that illegal packets are made too: the listings of llvm-objdump-16 and hexsim-objdump
#     (--mcpu=hexagonv73 --mattr=+hvx,+hvx-ieee-fp,+hvx-qfloat) must be equal line by line, an
#     illegal packet being <unknown> in both. Left out (counted): packets where llvm-mc-16's
#     checker misses a register written twice, which hexsim refuses (PRM: a register is
#     written once per packet): the post-increment of a .tmp load's base (LLVM ignores every
#     destination of an instruction with a .tmp destination) and the two registers of
#     vshuff/vdeal(Vy,Vx,Rt); and packets with a .tmp load and a predicated new-value store
#     of the same register, which llvm-mc-16 refuses or not depending on their order and
#     predicates (hexsim takes the producer the store's Os8 field names: PRM).
# Exit status 0 when all agree, 1 otherwise, 77 without the LLVM tools.
# Usage: hvx_packet_rules.py --hexsim build/hexsim --objdump build/hexsim-objdump
#                            [--packets N] [--seed S] [--work DIR]
import argparse
import os
import random
import re
import shutil
import subprocess
import sys

sys.dont_write_bytecode = True   # no __pycache__ in the source tree
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import hvx_exec as H  # noqa: E402
import odiff  # noqa: E402
import table_entries as TE  # noqa: E402

MC = [odiff.LLVM_MC, "-arch=hexagon", "-mcpu=hexagonv73", "-mhvx",
      "-mattr=+hvx-ieee-fp,+hvx-qfloat", "-filetype=obj"]
CPU = ["--mcpu=hexagonv73", "--mattr=+hvx,+hvx-ieee-fp,+hvx-qfloat"]
OBJCOPY = "llvm-objcopy-16"
LLD = "ld.lld-16"
# scalar rows drawn beside the HVX ones: loads, stores and ALU32 (memory and slot rules)
SCALAR = re.compile(r"^(L2_loadr[bhi]_io|L2_loadr[bhi]_pi|S2_storer[bhi]_io|S2_storeri_pi|"
                    r"A2_add|A2_sub|A2_and|A2_tfrsi|L4_loadri_rr|S4_storeiri_io)$")


def mc_errors(lines, work, name):
    """Assembles one packet per line; returns ({line index: error}, object path)."""
    src, obj = (os.path.join(work, name + e) for e in (".s", ".o"))
    with open(src, "w") as f:
        f.write("\n".join(lines) + "\n")
    p = subprocess.run(MC + [src, "-o", obj], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    errs = {}
    for m in re.finditer(r":(\d+):\d+: error: (.*)", p.stderr.decode("utf-8", "replace")):
        errs.setdefault(int(m.group(1)) - 1, m.group(2))
    return errs, obj


def text_packets(obj, work):
    """The packets (lists of words) of an object's .text, in order."""
    raw = os.path.join(work, "text.bin")
    subprocess.run([OBJCOPY, "-O", "binary", "--only-section=.text", obj, raw], check=True)
    with open(raw, "rb") as f:
        data = f.read()
    packets, cur = [], []
    for i in range(0, len(data) - 3, 4):
        w = int.from_bytes(data[i:i + 4], "little")
        cur.append(w)
        if (w >> 14) & 3 in (0, 3):
            packets.append(cur)
            cur = []
    return packets


def assemble_units(units, work, name):
    """Words of each unit (a list of instruction texts assembled as one packet); None for a
    unit llvm-mc-16 refuses alone."""
    errs, obj = mc_errors(["{ " + "; ".join(u) + " }" for u in units], work, name)
    good = [u for i, u in enumerate(units) if i not in errs]
    if errs:
        errs2, obj = mc_errors(["{ " + "; ".join(u) + " }" for u in good], work, name)
        if errs2:
            raise SystemExit("llvm-mc-16 refuses units it took before: %s" % errs2)
    words = iter(text_packets(obj, work))
    return [None if i in errs else next(words) for i in range(len(units))]


def join(unit_words):
    """A packet of the units' words: parse bits 01 on every word but the last, 11 on it."""
    words = [w for u in unit_words for w in u]
    return [(w & ~0xc000) | ((3 if i == len(words) - 1 else 1) << 14) for i, w in enumerate(words)]


def scalar_writes(text):
    """General registers an instruction's text writes: left of its assignment, post-increments."""
    out = set()
    m = re.search(r"(\+|-|&|\|)?=", text)
    if m:
        for hi, lo in re.findall(r"\br(\d+)(?::(\d+))?", text[:m.start()]):
            out |= {int(hi)} | ({int(lo)} if lo else set())
    out |= {int(r) for r in re.findall(r"\br(\d+)\+\+", text)}
    return out


def llvm_gap(units):
    """True for the packets llvm-mc-16 treats otherwise (see the header)."""
    for i, u in enumerate(units):
        others = [t for k, v in enumerate(units) if k != i for t in v]
        if any(".tmp" in t for t in u):
            mine = set().union(*[scalar_writes(t) for t in u])
            if mine & set().union(set(), *[scalar_writes(t) for t in others]):
                return True
        if any(re.search(r"\.tmp = vmem", t) for t in u):
            mine = set().union(*[H.vector_writes(t) for t in u])
            for t in others:
                m = re.search(r"if \(.*= v(\d+)\.new", t)
                if m and int(m.group(1)) in mine:
                    return True
        if any(re.match(r"\s*(vshuff|vdeal)\(", t) for t in u):
            mine = set().union(*[H.vector_writes(t) for t in u])
            if mine & set().union(set(), *[H.vector_writes(t) for t in others]):
                return True
    return False


def unit_of(row, rng):
    text, producers, _, _ = H.instantiate(row, rng)
    return producers + [text]


def hand_cases(path):
    """(legal, [instruction texts], line) of each case in the file."""
    out = []
    with open(path) as f:
        for lineno, line in enumerate(f, 1):
            s = line.split("//")[0].strip()
            if not s or s.startswith("#"):
                continue
            m = re.fullmatch(r"(legal|illegal \[([^]]+)\])\s+\{(.*)\}", s)
            if not m:
                raise SystemExit("%s:%d: cannot parse %r" % (path, lineno, s))
            out.append((m.group(1) == "legal", [x.strip() for x in m.group(3).split(";")
                                                if x.strip()], lineno, m.group(2)))
    return out


def run_program(cmd, packet_words, work, name):
    """Links a program of one packet (its words), then exit(0); runs cmd on it."""
    src, obj, elf = (os.path.join(work, name + e) for e in (".s", ".o", ""))
    with open(src, "w") as f:
        f.write("  .text\n  .globl _start\n_start:\n  { r6 = ##buf }\n  { r7 = add(r6,#128) }\n")
        f.write("".join("  .long 0x%08x\n" % w for w in packet_words))
        f.write("  { r0 = #0; r6 = #93 }\n  { trap0(#1) }\n"
                "  .data\n  .p2align 8\nbuf:\n  .space 1024\n")
    subprocess.run(MC + [src, "-o", obj], check=True)
    subprocess.run([LLD, "-static", "-o", elf, obj], check=True)
    p = subprocess.run(cmd + [elf], stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=60)
    return p.returncode, p.stderr.decode("utf-8", "replace")


def check_hand(args, work):
    """Part 1; returns (failure lines, report lines)."""
    cases = hand_cases(args.cases_file)
    fails, notes = [], []
    errs, _ = mc_errors(["{ " + "; ".join(c[1]) + " }" for c in cases], work, "hand")
    for i, (legal, insns, line, _) in enumerate(cases):
        if legal != (i not in errs):
            fails.append("%s:%d: marked %s, llvm-mc-16 %s" %
                         (os.path.basename(args.cases_file), line,
                          "legal" if legal else "illegal",
                          "refuses it (%s)" % errs[i] if i in errs else "accepts it"))
    # words: a new-value store goes with its producer (the instruction before it)
    units = []
    for legal, insns, line, _ in cases:
        u = []
        for t in insns:
            if re.search(r"\.new\b", t) and u:
                u[-1].append(t)
            else:
                u.append([t])
        units.append(u)
    flat = [u for us in units for u in us]
    words = assemble_units(flat, work, "hand_units")
    packets, k = [], 0
    for us in units:
        ws = words[k:k + len(us)]
        k += len(us)
        if any(w is None for w in ws):
            raise SystemExit("an instruction of a hand-written case is refused alone: %s" % us)
        packets.append(join(ws))
    # hexsim-objdump: the packet decodes (one line per instruction, no <unknown>) or not
    _, _, diffs, _ = odiff.compare_packets(args.objdump, packets, work, "hand_dis", [CPU])
    for d in diffs:
        fails.append("hand-written packet, disassembly: llvm %s / hexsim %s (%s)" % d[:3])
    qemu_refused = 0
    for (legal, insns, line, rule), p in zip(cases, packets):
        what = "%s:%d { %s }" % (os.path.basename(args.cases_file), line, "; ".join(insns))
        rc, err = run_program([args.hexsim, "--user"], p, work, "hand_run")
        if legal and ("invalid packet" in err or (rc != 0 and "unimplemented" not in err)):
            fails.append("%s: legal, hexsim --user exits %s: %s" % (what, rc, err.strip()[:200]))
        # the report names the rule the packet breaks (the words in brackets)
        if not legal and (rc != 132 or "invalid packet" not in err or
                          "packet-formation rule: " + rule not in err):
            fails.append("%s: illegal [%s], hexsim --user exits %s: %s" %
                         (what, rule, rc, err.strip()[:300]))
        if not legal and args.qemu:
            qrc, _ = run_program([args.qemu, "-cpu", "v67"], p, work, "hand_qemu")
            qemu_refused += qrc != 0
    nill = sum(1 for c in cases if not c[0])
    notes.append("%d hand-written packets (%d legal, %d illegal): llvm-mc-16, hexsim-objdump and "
                 "hexsim --user checked; qemu-hexagon -cpu v67 fails on %d of the illegal ones" %
                 (len(cases), len(cases) - nill, nill, qemu_refused))
    return fails, notes


def check_random(args, work):
    """Part 2; returns (failure lines, report lines)."""
    rows, _ = TE.load_table(args.isa_dir)
    hvx = [r for r in rows if "hvx" in r.attrs]
    mem = [r for r in hvx if r.cls in ("CVI_LD", "CVI_ST")]
    heavy = [r for r in hvx if r.cls == "CVI" and re.search(r"hist|_tmp|_dv|vmpy|vrmpy", r.tag)]
    scalar = [r for r in rows if SCALAR.match(r.tag)]
    rng = random.Random(args.seed)
    groups = [(hvx, 4), (mem, 3), (heavy, 1), (scalar, 2)]
    pool = [g for g, w in groups for _ in range(w)]
    packets, gaps = [], 0
    for chunk in range(0, args.packets, 2000):
        n = min(2000, args.packets - chunk)
        shapes = [[rng.choice(rng.choice(pool)) for _ in range(rng.randint(2, 4))]
                  for _ in range(n)]
        units = [unit_of(r, rng) for s in shapes for r in s]
        words = assemble_units(units, work, "units%d" % chunk)
        k = 0
        for s in shapes:
            ok = [i for i in range(k, k + len(s)) if words[i] is not None]
            k += len(s)
            while sum(len(words[i]) for i in ok) > 4:
                ok.pop()
            if llvm_gap([units[i] for i in ok]):
                gaps += 1
            elif ok:
                packets.append(join([words[i] for i in ok]))
    insns, unknown, diffs, crashed = odiff.compare_packets(args.objdump, packets, work,
                                                           "random", [CPU])
    fails = ["random packet: llvm %s / hexsim %s (%s)" % d[:3] for d in diffs]
    notes = ["%d random packets (%d words): llvm-objdump-16 printed %d instruction lines, %d "
             "of them <unknown>; %d differing lines%s; %d left out (llvm-mc-16's gaps, see "
             "the header)" %
             (len(packets), sum(len(p) for p in packets), insns, unknown, len(diffs),
              (", %d packets crash llvm-objdump-16 (left out)" % len(crashed)) if crashed else "",
              gaps)]
    return fails, notes


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--hexsim", required=True)
    ap.add_argument("--objdump", required=True)
    ap.add_argument("--qemu", default="qemu-hexagon")
    ap.add_argument("--isa-dir", default=os.path.join(HERE, "..", "..", "src", "cpu", "isa"))
    ap.add_argument("--cases-file", default=os.path.join(HERE, "hvx_packet_rules.txt"))
    ap.add_argument("--packets", type=int, default=20000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--work", default="/tmp/hvx_packet_rules")
    args = ap.parse_args()
    odiff.require(odiff.LLVM_MC, odiff.LLVM_OBJDUMP, OBJCOPY, LLD)
    if not shutil.which(args.qemu):
        args.qemu = None
    os.makedirs(args.work, exist_ok=True)
    fails, notes = check_hand(args, args.work)
    f2, n2 = check_random(args, args.work)
    for line in notes + n2:
        print("hvx_packet_rules: " + line)
    for line in (fails + f2)[:40]:
        print("  " + line)
    if len(fails + f2) > 40:
        print("  ... and %d more" % (len(fails + f2) - 40))
    return 1 if fails or f2 else 0


if __name__ == "__main__":
    sys.exit(main())
