#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# Random packet differential test: random valid packets (tests/isa/rp_gen.py) run under
# qemu-hexagon and `hexsim --user` as execlib cases, every register, control register and the
# scratch buffer compared after each case.
#
# A run
#   1. replays the regression cases in tests/isa/regress/ (rp-*.txt, written by earlier runs;
#      format in tests/isa/rp_regress.py);
#   2. probes which rows hexsim has no semantics for (and which qemu cannot run), one small
#      case per row (cached in the work directory per hexsim/qemu binary and table);
#   3. generates --packets packets in batches (each batch: cases of about --units units, one
#      llvm-mc-16 check of all their packets, rejected packets dropped, the rest built into one
#      program with execlib, run under both simulators, compared), --jobs batches at a time;
#      packets with instructions hexsim does not implement are left out and counted per tag;
#   4. shrinks each mismatching case (drops units and instructions, starts it later with the
#      state qemu had there, simplifies the initial state, immediates and register numbers
#      while the mismatch persists), classifies it against tests/isa/qemu_deviations.txt
#      (known qemu deviations are reported apart and do not fail the run) and writes the
#      others as regression cases (--write, default the --regress directory).
# Deterministic for a given --seed (and simulator binaries). Exit status: 0 when every
# compared case and every regression case matches, 1 otherwise, 77 when a tool is missing.
# Usage: random_packets.py [--packets N] [--seed S] [--jobs N] [--work DIR] [--hexsim PATH]
#                          [--qemu PATH] [--keep-going] [--only TAG-REGEX] [--units N]
#                          [--regress DIR] [--write DIR] [--no-write] [--max-shrinks N]
#                          [--replay-only] [--start-batch N] [--batch N]
import argparse
import collections
import hashlib
import json
import multiprocessing
import os
import random
import re
import resource
import shutil
import subprocess
import sys
import time

sys.dont_write_bytecode = True
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import execlib as X  # noqa: E402
import rp_gen as G  # noqa: E402
import rp_regress as R  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(HERE))
BATCH_PACKETS = 4000
CHECK_SKIP = 144          # bytes between a case's end label and its taken exit (the dump)


def cpu_children():
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def sim_cmd(path):
    # hexsim compiles every block (--jit-threshold 1), so that compiled code is compared too
    return ([path] if os.path.basename(path).startswith("qemu")
            else [path, "--jit-threshold", "1", "--user"])


# ---------------------------------------------------------------------------------------
# llvm-mc check of generated packets

def check_cases(cases, work, name):
    """Assembles the units of cases (RPCase list) on their own; returns
    {(case index, unit index): llvm-mc message} for the units llvm-mc rejects."""
    bad = {}
    live = list(range(len(cases)))
    _check(cases, live, work, name, bad)
    return bad


def _check(cases, ids, work, name, bad):
    src = os.path.join(work, name + ".s")
    obj = os.path.join(work, name + ".o")
    lines = ["  .text"]
    owner = {}
    for ci in ids:
        c = cases[ci]
        for k, u in enumerate(c.units):
            if u is None:
                lines.append(X.subst("@L@u%d:" % k, ci))
                continue
            for line in u.lines(k):
                lines.append(X.subst(line, ci))
                owner[len(lines)] = (ci, k)
        lines.append(X.subst("@L@u%d:" % len(c.units), ci))
        lines.append("  .skip %d" % CHECK_SKIP)
        lines.append(X.subst("@T@:", ci))
        lines.append("  { nop }")
    with open(src, "w") as f:
        f.write("\n".join(lines) + "\n")
    p = subprocess.run([X.LLVM_MC, "-arch=hexagon", "-mcpu=" + X.MCPU, "-filetype=obj", src,
                        "-o", obj], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    if p.returncode == 0:
        return
    err = p.stderr.decode("utf-8", "replace")
    found = False
    for m in re.finditer(r"^%s:(\d+):\d+: error: (.*)$" % re.escape(src), err, re.M):
        key = owner.get(int(m.group(1)))
        if key is not None:
            found = True
            bad.setdefault(key, m.group(2).strip())
    if found:
        return
    if len(ids) == 1:
        for k, u in enumerate(cases[ids[0]].units):
            if u is not None:
                bad.setdefault((ids[0], k), (err.strip().splitlines() or ["?"])[-1])
        return
    half = len(ids) // 2
    _check(cases, ids[:half], work, name + "a", bad)
    _check(cases, ids[half:], work, name + "b", bad)


def reason_of(msg):
    """llvm-mc's message with operands and registers generalised (for counting)."""
    msg = re.sub(r"`[^']*'", "`X'", msg)
    msg = re.sub(r"\b(0x[0-9a-f]+|\d+)\b", "N", msg)
    return msg[:90]


# ---------------------------------------------------------------------------------------
# Building and running cases

def build_units(cases, images, work, name):
    """Assembles RPCases into one execlib program with llvm-mc-16 and links it. The units
    llvm-mc rejects (its errors name their lines) are dropped and the program assembled
    again. Returns (execlib.Program or None, execlib Cases by case index, {(case index,
    unit index): message} of the dropped units, {case index: message} of cases left out)."""
    ecases = [c.execlib_case() for c in cases]
    live = [i for i, c in enumerate(cases) if any(u is not None for u in c.units)]
    dropped, left_out = {}, {}
    src_path = os.path.join(work, name + ".s")
    obj = os.path.join(work, name + ".o")
    elf = os.path.join(work, name)
    for _ in range(6):
        if not live:
            return None, ecases, dropped, left_out
        src = X.program_source(ecases, live, images)
        with open(src_path, "w") as f:
            f.write("\n".join(src.lines) + "\n")
        p = subprocess.run([X.LLVM_MC, "-arch=hexagon", "-mcpu=" + X.MCPU, "-filetype=obj",
                            src_path, "-o", obj], stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE)
        if p.returncode == 0:
            break
        err = p.stderr.decode("utf-8", "replace")
        # Line -> unit: each case's body starts at its label xd_l<id>_u0.
        starts = {}
        for n, line in enumerate(src.lines, 1):
            m = re.match(r"^xd_l(\d+)_u0:$", line)
            if m:
                starts[int(m.group(1))] = n
        bad_cases, bad_units = {}, {}
        for m in re.finditer(r"^%s:(\d+):\d+: error: (.*)$" % re.escape(src_path), err, re.M):
            line = int(m.group(1))
            cid = src.owner.get(line)
            if cid is None:
                continue
            k = cases[cid].unit_of_line(line - starts[cid]) if cid in starts else None
            if k is None:
                bad_cases.setdefault(cid, m.group(2).strip())
            else:
                bad_units.setdefault((cid, k), m.group(2).strip())
        for (cid, k), msg in bad_units.items():
            dropped[(cid, k)] = msg
            cases[cid].units[k] = None
        for cid in {c for c, _ in bad_units}:
            ecases[cid] = cases[cid].execlib_case()
        if not bad_cases and not any(src.owner.get(int(m.group(1))) is not None for m in
                                     re.finditer(r"^%s:(\d+):\d+: error:" %
                                                 re.escape(src_path), err, re.M)):
            # No error names a line of a case: find the units one by one.
            bad = check_cases([cases[i] for i in live], work, name + "_c")
            if not bad:
                raise RuntimeError("llvm-mc fails on %s: %s" % (src_path, err.strip()[-300:]))
            for (j, k), msg in bad.items():
                cid = live[j]
                dropped[(cid, k)] = msg
                cases[cid].units[k] = None
                ecases[cid] = cases[cid].execlib_case()
        for cid, msg in bad_cases.items():
            left_out[cid] = msg
        live = [i for i in live if i not in left_out and
                any(u is not None for u in cases[i].units)]
    else:
        raise RuntimeError("llvm-mc keeps failing on %s" % src_path)
    p = subprocess.run([X.LLD, "-static", "--section-start=.xdscratch=0x%x" % X.REC_BASE,
                        "-o", elf, obj], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    if p.returncode != 0:
        raise RuntimeError("%s failed on %s: %s" % (X.LLD, obj, p.stderr.decode().strip()))
    return X.Program(elf, live), ecases, dropped, left_out


def run_cases(ecases, images, work, name, hexsim, qemu, timeout=120, prog=None):
    """Builds ecases (execlib Cases) into one program (unless prog is given) and runs it in
    both simulators. Returns dict: build_errors {i: msg}, qemu {i: records}, hexsim {i:
    records}, qfail {i: msg}, hfail {i: msg}, hstatus {i: (status, stderr)}, unimpl {i: tag},
    seconds {stage: CPU seconds}."""
    out = {"build_errors": {}, "qemu": {}, "hexsim": {}, "qfail": {}, "hfail": {},
           "hstatus": {}, "unimpl": {}, "seconds": {}}
    c0 = cpu_children()
    if prog is None:
        prog, errs = X.build(ecases, list(range(len(ecases))), images, work, name)
        out["build_errors"] = errs
    c1 = cpu_children()
    out["seconds"]["build"] = c1 - c0
    if prog is None:
        return out

    def qfail(cid, rc, err, to):
        out["qfail"][cid] = "%s: %s" % (X.status_text(rc, to), X.first_line(err))
        return None

    q = X.run(sim_cmd(qemu), prog, qfail, timeout)
    c2 = cpu_children()
    out["seconds"]["qemu"] = c2 - c1

    def hfail(cid, rc, err, to):
        tag = X.unimplemented_tag(rc, err)
        out["hstatus"][cid] = (rc, err)
        if tag:
            out["unimpl"][cid] = tag
        else:
            out["hfail"][cid] = "%s: %s" % (X.status_text(rc, to),
                                            X.first_line(err, "hexsim") or X.first_line(err))
        return None

    h = X.run(sim_cmd(hexsim), prog, hfail, timeout, max_streak=10 ** 9)
    out["seconds"]["hexsim"] = cpu_children() - c2
    for cid in prog.ids:
        qr = q.records.get(cid)
        hr = h.records.get(cid)
        out["qemu"][cid] = qr
        out["hexsim"][cid] = hr
    return out


def verdict(res, cid):
    """("ok"|"mismatch"|"unimpl"|"qemu"|"rejected", detail lines)."""
    if cid in res["build_errors"]:
        return "rejected", [res["build_errors"][cid]]
    qr = res["qemu"].get(cid)
    if not qr:
        return "qemu", [res["qfail"].get(cid, "no state dump from qemu")]
    hr = res["hexsim"].get(cid)
    if cid in res["unimpl"] and not hr:
        return "unimpl", [res["unimpl"][cid]]
    if not hr:
        return "mismatch", ["hexsim stopped in this case: " +
                            res["hfail"].get(cid, "no state dump")]
    if len(hr) != len(qr):
        return "mismatch", ["state dumped %d times by qemu, %d times by hexsim" %
                            (len(qr), len(hr))]
    d = X.differences(qr[0][1], hr[0][1])
    return ("mismatch", d) if d else ("ok", [])


def records(res, cid):
    """(qemu record, hexsim record or None, hexsim status, hexsim stderr) of case cid."""
    qr = res["qemu"].get(cid)
    hr = res["hexsim"].get(cid)
    rc, err = res["hstatus"].get(cid, (None, ""))
    return (qr[0][1] if qr else None, hr[0][1] if hr else None, rc, err)


def load_deviations():
    """execlib's known qemu deviations (qemu_deviations.txt), when execlib has them."""
    f = getattr(X, "load_deviations", None)
    if f is None:
        return None
    try:
        return f()
    except (OSError, ValueError) as e:
        print("random_packets: warning: qemu deviations not loaded: %s" % e)
        return None


def known_deviation(devs, ecase, tags, recs, facts=None):
    """The qemu_deviations.txt entry explaining the mismatch of ecase (an execlib Case whose
    packets hold the rows tags; recs from records()), or None. Each row is tried in turn, with
    facts[tag] (its operands' values, see insn_facts) when there are some."""
    if devs is None or recs is None or recs[0] is None:
        return None
    tag0 = ecase.tag
    try:
        for t in sorted(tags):
            ecase.tag = t
            e = devs.classify(ecase, recs[0], recs[1], recs[2], recs[3],
                              (facts or {}).get(t))
            if e is not None:
                return e
    finally:
        ecase.tag = tag0
    return None


def deviation_tags(case):
    """The rows of a random_packets case a known deviation may name: all but the loop
    set-up rows (J2_loop*, J2_ploop*), which only shape the case."""
    return {i.ri.tag for u in case.units if u is not None for ps in u.packets
            for i in ps.insns if not i.ri.hwloop}


def short_name(key):
    return re.sub(r"\d+$", "", key)


def insn_facts(case):
    """{tag: facts} for the instructions of a case that is a single packet, or a single
    hardware loop (the loop set-up rows, J2_loop* and J2_ploop*, and the instructions around
    the deviating row in the set-up and body packets do not hide a known deviation): each
    operand's value before the packet under its short name (Rs, Rtt, Pu, Ii, ...), "fields"
    (operand -> record fields), ea/size/misaligned for memory rows (qemu_deviations.txt
    predicates). In a loop only the values every iteration sees are given: no operand whose
    register an instruction of the loop writes (no predicate when one writes a predicate),
    no memory facts; the set-up rows get none."""
    units = [u for u in case.units if u is not None]
    if len(units) != 1 or units[0].kind not in ("packet", "loop"):
        return {}
    u = units[0]
    loop = u.kind == "loop"
    insns = [i for ps in u.packets for i in ps.insns] if loop else u.packets[0].insns
    wr = {r for i in insns for r in i.wr | i.ri.imp_r} if loop else set()
    wp = loop and any(i.wp or i.ri.imp_p for i in insns)
    pins, cpins, _ = u.pins()
    regs = list(case.regs)
    for r, v in pins.items():
        regs[r] = v
    ctrl = dict(case.ctrl)
    ctrl.update(cpins)
    out = {}
    for ins in insns:
        if ins.ri.hwloop:
            continue
        facts, fields = {}, {}
        for t in ins.ri.optoks:
            name = short_name(t.key)
            v = ins.ops.get(t.key)
            if t.kind == "imm":
                if isinstance(v, int):
                    facts[name] = v
            elif t.kind == "R":
                lo = regs[v]
                if t.pair:
                    hi = regs[v + 1]
                    if isinstance(lo, int) and isinstance(hi, int) and not {v, v + 1} & wr:
                        facts[name] = lo | hi << 32
                    fields[name] = ["r%d" % v, "r%d" % (v + 1)]
                else:
                    if isinstance(lo, int) and v not in wr:
                        facts[name] = lo
                    fields[name] = ["r%d" % v]
            elif t.kind == "P":
                if not t.new and not wp:
                    facts[name] = case.preds >> 8 * v & 0xff
                fields[name] = ["p3:0"]
            elif t.kind == "M":
                facts[name] = ctrl.get("m%d" % v, 0)
                fields[name] = ["m%d" % v]
        facts["fields"] = fields
        if ins.ranges and ins.ri.mem_mode and not loop:
            facts["ea"] = ins.ranges[0][0]
            facts["size"] = ins.ri.size
            facts["misaligned"] = False
        out[ins.ri.tag] = facts
    return out


# ---------------------------------------------------------------------------------------
# Batches (run in worker processes)

W = {}     # per-process state: the generator and the configuration


def worker_init(cfg):
    W["cfg"] = cfg
    W["gen"] = G.Gen(cfg["isa_dir"], only=cfg["only"], exclude=cfg["exclude"])


def gen_batch(gen, seed, bi, npackets, units):
    rng = random.Random("%d:batch:%d" % (seed, bi))
    cases = []
    left = npackets
    empty = 0
    while left > 0 and empty < 1000:
        n = min(units, left)
        c = G.make_case(gen, rng, n, 8)
        # Trim loop units that overflow the budget.
        count = 0
        for k, u in enumerate(c.units):
            if u is None:
                continue
            if count + len(u.packets) > left:
                c.units[k] = None
            else:
                count += len(u.packets)
        if count == 0:
            empty += 1         # the generator could make nothing (a narrow --only)
            continue
        cases.append(c)
        left -= count
    images = G.make_images(random.Random("%d:images:%d" % (seed, bi)))
    return cases, images


def run_batch(bi):
    cfg = W["cfg"]
    gen = W["gen"]
    t0 = time.monotonic()
    p0 = time.process_time()
    npk = min(cfg["batch"], cfg["packets"] - bi * cfg["batch"])
    cases, images = gen_batch(gen, cfg["seed"], bi, npk, cfg["units"])
    st = {"generated": 0, "mix": collections.Counter(), "files": collections.Counter(),
          "ninsn": collections.Counter(), "rejected": 0, "reasons": collections.Counter(),
          "reject_examples": [], "unimpl": collections.Counter(), "unimpl_packets": 0,
          "compared": 0, "compared_cases": 0, "qemu_fail": 0, "qemu_examples": [],
          "mismatches": [], "mismatch_packets": 0, "seconds": collections.Counter(),
          "loops": 0, "duplex": 0, "branches": 0, "mem": 0, "ext": 0, "pnew": 0, "nv": 0,
          "mem2": 0, "st2": 0, "br2": 0, "nested": 0, "mismatch_cases": 0, "pand": 0}
    unimpl = cfg["unimpl"]
    for c in cases:
        for u in c.units:
            if u is None:
                continue
            if u.kind == "loop":
                st["loops"] += 1
                st["nested"] += u.shape.get("levels") == 2
            for ps in u.packets:
                st["generated"] += 1
                st["ninsn"][len(ps.insns)] += 1
                if any(i.ri.duplex for i in ps.insns):
                    st["duplex"] += 1
                if any(i.ri.branch for i in ps.insns):
                    st["branches"] += 1
                if any(i.ri.mem for i in ps.insns):
                    st["mem"] += 1
                if any(i.words > 1 for i in ps.insns):
                    st["ext"] += 1
                if any(i.pnew for i in ps.insns):
                    st["pnew"] += 1
                if any(i.nv is not None for i in ps.insns):
                    st["nv"] += 1
                # a predicate several instructions write (ANDed) and one reads as .new
                st["pand"] += any(
                    sum(1 for i in ps.insns if p in i.wp) > 1 and
                    any(p in i.pnew or p in i.ri.self_pnew for i in ps.insns)
                    for p in range(4))
                nmem = sum(1 for i in ps.insns if i.ri.mem)
                st["mem2"] += nmem == 2
                st["st2"] += sum(1 for i in ps.insns if i.ri.store) == 2
                st["br2"] += sum(1 for i in ps.insns if i.ri.branch) == 2
                for i in ps.insns:
                    st["mix"][i.ri.tag] += 1
                    st["files"][i.ri.fname] += 1
    st["seconds"]["generate"] += time.process_time() - p0
    # Packets with instructions hexsim lacks: not run, counted per tag.
    for c in cases:
        for k, u in enumerate(c.units):
            if u is None:
                continue
            tags = {t for p in u.tags() for t in p}
            miss = tags & unimpl
            if miss:
                for t in miss:
                    st["unimpl"][t] += len(u.packets)
                st["unimpl_packets"] += len(u.packets)
                c.units[k] = None
    work = os.path.join(cfg["work"], "b%05d" % bi)
    os.makedirs(work, exist_ok=True)
    c1 = cpu_children()
    saved = {(ci, k): u for ci, c in enumerate(cases) for k, u in enumerate(c.units)
             if u is not None}
    prog, ecases, bad, left_out = build_units(cases, images, work, "prog")
    st["seconds"]["build"] += cpu_children() - c1
    for (ci, k), msg in sorted(bad.items()):
        u = saved[(ci, k)]
        st["rejected"] += len(u.packets)
        st["reasons"][reason_of(msg)] += len(u.packets)
        if len(st["reject_examples"]) < 20:
            st["reject_examples"].append((msg, [G.render_packet(p) for p in u.packets]))
    res = run_cases(ecases, images, work, "prog", cfg["hexsim"], cfg["qemu"], prog=prog) \
        if prog is not None else {"seconds": {}}
    for k, v in res["seconds"].items():
        if k != "build":
            st["seconds"][k] += v
    for cid, c in enumerate(cases):
        npk = sum(len(u.packets) for u in c.units if u is not None)
        if not npk:
            continue
        if cid in left_out:
            v, detail = "rejected", [left_out[cid]]
        else:
            v, detail = verdict(res, cid)
        if v == "rejected":
            st["rejected"] += npk
            st["reasons"]["(in the program) " + reason_of(detail[0])] += npk
            if len(st["reject_examples"]) < 20:
                st["reject_examples"].append((detail[0], ecases[cid].body))
        elif v == "qemu":
            st["qemu_fail"] += 1
            if len(st["qemu_examples"]) < 2:
                st["qemu_examples"].append(qemu_culprit(c, images, work, cfg["qemu"],
                                                        detail[0]))
        elif v == "unimpl":
            st["unimpl"][detail[0]] += npk
            st["unimpl_packets"] += npk
        else:
            st["compared"] += npk
            st["compared_cases"] += 1
            if v == "mismatch":
                st["mismatch_packets"] += npk
                st["mismatch_cases"] += 1
                if len(st["mismatches"]) < cfg["keep_mismatches"]:
                    st["mismatches"].append((bi, cid, c, images[c.image], detail))
    if not cfg["keep"]:
        shutil.rmtree(work, ignore_errors=True)
    st["seconds"]["batch"] += time.monotonic() - t0
    st["seconds"]["python"] += time.process_time() - p0
    return bi, st


def qemu_culprit(case, images, work, qemu, msg):
    """(message, lines of the first unit of case qemu-hexagon cannot run): runs the case's
    first k units for growing k (for the report: a generator problem to fix)."""
    for k, u in enumerate(case.units):
        if u is None:
            continue
        n = copy_case(case)
        n.units = [x if j <= k else None for j, x in enumerate(case.units)]
        prog, _ = X.build([n.execlib_case()], [0], images, work, "culprit")
        if prog is None:
            continue
        rc, out, err, to = X._run([qemu, prog.elf], 60)
        if rc != 0 or to:
            line = X.first_line(err, "ERROR|assert|Segmentation") or X.first_line(err) or msg
            return line, u.lines(k)
    return msg, case.body()


# ---------------------------------------------------------------------------------------
# Probe: rows hexsim does not implement, rows qemu cannot run

def probe(args, gen):
    key = hashlib.sha1()
    for p in (args.hexsim, args.qemu, os.path.join(HERE, "rp_gen.py"),
              os.path.join(HERE, "gen_common.py")):
        try:
            s = os.stat(p)
            key.update(("%s:%d:%d" % (p, s.st_mtime_ns, s.st_size)).encode())
        except OSError:
            key.update(p.encode())
    for r in gen.rows:
        key.update(r.row.where.encode() + r.syntax.encode() + r.tag.encode())
    key.update(args.isa_dir.encode())
    for name in sorted(os.listdir(args.isa_dir)):
        with open(os.path.join(args.isa_dir, name), "rb") as f:
            key.update(f.read())
    digest = key.hexdigest()
    cache = os.path.join(args.work, "probe.json")
    if os.path.exists(cache):
        try:
            with open(cache) as f:
                d = json.load(f)
            if d.get("key") == digest:
                return set(d["unimpl"]), dict(d["qemu_cannot"]), True
        except (OSError, ValueError, KeyError):
            pass
    rng = random.Random("probe")
    cases, rows_of = [], []
    for ri in gen.usable:
        for _ in range(1):
            c = probe_case(gen, ri, rng)
            if c is not None:
                cases.append(c)
                rows_of.append(ri.tag)
    work = os.path.join(args.work, "probe")
    os.makedirs(work, exist_ok=True)
    bad = check_cases(cases, work, "check")
    for (ci, k) in bad:
        cases[ci].units[k] = None
    keep = [i for i, c in enumerate(cases) if any(u is not None for u in c.units)]
    images = G.make_images(random.Random("probe-images"))
    unimpl, qemu_bad, qemu_ok = set(), {}, set()
    chunks = [keep[i:i + 400] for i in range(0, len(keep), 400)]

    def one(ch_i):
        ids = chunks[ch_i]
        ec = [cases[i].execlib_case() for i in ids]
        return ids, run_cases(ec, images, work, "probe%d" % ch_i, args.hexsim, args.qemu)

    import concurrent.futures
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.jobs)) as ex:
        for ids, res in ex.map(one, range(len(chunks))):
            for j, i in enumerate(ids):
                tag = rows_of[i]
                if j in res["unimpl"]:
                    unimpl.add(res["unimpl"][j])
                if res["qemu"].get(j):
                    qemu_ok.add(tag)
                elif j in res["qfail"]:
                    qemu_bad.setdefault(tag, res["qfail"][j])
    # Rows whose case qemu could not run get three more tries, in a program of their own.
    retry = [t for t in qemu_bad if t not in qemu_ok]
    if retry:
        rcases, rtags = [], []
        for t in retry:
            for _ in range(3):
                c = probe_case(gen, gen.by_tag[t], rng)
                if c is not None:
                    rcases.append(c)
                    rtags.append(t)
        res = run_cases([c.execlib_case() for c in rcases], images, work, "retry",
                        args.hexsim, args.qemu)
        for j, t in enumerate(rtags):
            if res["qemu"].get(j):
                qemu_ok.add(t)
    qemu_cannot = {t: m for t, m in qemu_bad.items() if t not in qemu_ok}
    with open(cache, "w") as f:
        json.dump({"key": digest, "unimpl": sorted(unimpl), "qemu_cannot": qemu_cannot}, f)
    if not args.keep:
        shutil.rmtree(work, ignore_errors=True)
    return unimpl, qemu_cannot, False


def probe_case(gen, ri, rng):
    for _ in range(6):
        try:
            if ri.hwloop:
                u = G.loop_unit(gen, rng, 0, 1, force=ri)
            else:
                gen.force = ri
                try:
                    ps = gen.packet(rng, G.Ctx(0, 1), ninsn=1)
                finally:
                    gen.force = None
                if not any(i.ri is ri for i in ps.insns):
                    continue
                u = G.Unit("packet", [ps])
        except G.Fail:
            continue
        c = G.make_case(gen, rng, 0, 8)
        c.units = [u]
        c.taken = True
        return c
    return None


# ---------------------------------------------------------------------------------------
# Shrinking

class Shrinker:
    def __init__(self, args, gen):
        self.args = args
        self.gen = gen
        self.work = os.path.join(args.work, "shrink")
        os.makedirs(self.work, exist_ok=True)
        self.rounds = 0

    def run(self, cands):
        """Runs candidate RPCases (each with its scratch buffer image in .img)."""
        images, index = [], {}
        ecs = []
        for c in cands:
            if c.img not in index:
                index[c.img] = len(images)
                images.append(c.img)
            c.image = index[c.img]
            ecs.append(c.execlib_case())
        self.rounds += 1
        # A short time limit: a candidate that runs long (a loop count gone wild) is no
        # reproducer.
        return run_cases(ecs, images, self.work, "s", self.args.hexsim, self.args.qemu,
                         timeout=10)

    def evaluate(self, cands):
        """For each candidate: (mismatch detail lines, records) or None."""
        res = self.run(cands)
        out = []
        for i in range(len(cands)):
            v, d = verdict(res, i)
            out.append((d, records(res, i)) if v == "mismatch" else None)
        return out

    def first(self, cands, image=None):
        if not cands:
            return None, None
        res = self.evaluate(cands)
        for c, r in zip(cands, res):
            if r is not None:
                self.last_recs = r[1]
                return c, r[0]
        return None, None

    def shrink(self, case, image, detail):
        cur, cur_d = copy_case(case), detail
        cur.img = image
        # The original must still mismatch on its own.
        c, d = self.first([cur])
        if c is None:
            return None, None
        cur_d = d
        steps = [self.single_units, self.drop_units, self.lift_state, self.drop_insns,
                 self.loop_counts, self.simplify_state, self.simplify_imms, self.rename_regs]
        changed = True
        while changed:
            changed = False
            for step in steps:
                while True:
                    c, d = self.first(step(cur))
                    if c is None:
                        break
                    cur, cur_d = c, d
                    changed = True
        return cur, cur_d

    def lift_state(self, c):
        """Candidates that start at a later unit, with the state qemu had there (registers,
        predicates, USR, control registers, scratch buffer) as their initial state."""
        idx = [k for k, u in enumerate(c.units) if u is not None]
        if len(idx) < 2:
            return []
        pre = []
        for k in idx[1:]:
            n = copy_case(c)
            n.units = [u if j < k else None for j, u in enumerate(c.units)]
            pre.append(n)
        res = self.run(pre)
        out = []
        for i, k in enumerate(idx[1:]):
            qr = res["qemu"].get(i)
            if not qr or qr[0][0] != 0:
                continue
            d = X.decode(qr[0][1])
            n = copy_case(c)
            n.units = [u if j >= k else None for j, u in enumerate(c.units)]
            n.regs = [d["r%d" % r] for r in range(32)]
            n.preds, n.usr = d["p3:0"], d["usr"]
            n.ctrl = {name: d[name] for name in LIFT_CTRL if d[name]}
            n.img = bytes(d["mem"])
            out.append(n)
        return out[::-1]     # the latest start first

    def single_units(self, c):
        idx = [k for k, u in enumerate(c.units) if u is not None]
        if len(idx) <= 1:
            return []
        out = []
        for k in idx:
            n = copy_case(c)
            n.units = [u if j == k else None for j, u in enumerate(c.units)]
            out.append(n)
        return out

    def drop_units(self, c):
        idx = [k for k, u in enumerate(c.units) if u is not None]
        if len(idx) <= 1:
            return []
        out = []
        for k in idx:
            n = copy_case(c)
            n.units = list(c.units)
            n.units[k] = None
            out.append(n)
        return out

    def drop_insns(self, c):
        out = []
        for k, u in enumerate(c.units):
            if u is None:
                continue
            for pi, ps in enumerate(u.packets):
                if len(ps.insns) <= 1:
                    if u.kind == "loop" and pi >= (2 if u.shape["levels"] == 2 else 1) and \
                            len(u.packets) > (4 if u.shape["levels"] == 2 else 2) and False:
                        pass
                    continue
                for ii, ins in enumerate(ps.insns):
                    if ins.ri.hwloop:
                        continue
                    n = copy_case(c)
                    nu = copy_unit(u)
                    nps = nu.packets[pi]
                    nps.insns = [x for j, x in enumerate(ps.insns) if j != ii]
                    n.units = list(c.units)
                    n.units[k] = nu
                    out.append(n)
        return out

    def loop_counts(self, c):
        out = []
        for k, u in enumerate(c.units):
            if u is None or u.kind != "loop":
                continue
            for pi, ps in enumerate(u.packets):
                for ii, ins in enumerate(ps.insns):
                    if not ins.ri.hwloop:
                        continue
                    for key in [t.key for t in ins.ri.optoks if t.kind == "imm" and
                                not t.pcrel]:
                        v = ins.ops.get(key)
                        if isinstance(v, int) and v > 1:
                            n = copy_case(c)
                            nu = copy_unit(u)
                            ni = copy_insn(ins)
                            ni.ops[key] = 1
                            nu.packets[pi].insns[ii] = ni
                            n.units = list(c.units)
                            n.units[k] = nu
                            out.append(n)
                    for r, v in list(ins.pins.items()):
                        if isinstance(v, int) and v > 1:
                            n = copy_case(c)
                            nu = copy_unit(u)
                            ni = copy_insn(ins)
                            ni.pins[r] = 1
                            nu.packets[pi].insns[ii] = ni
                            n.units = list(c.units)
                            n.units[k] = nu
                            out.append(n)
        return out

    def simplify_state(self, c):
        text = " ".join(c.body())
        named = set()
        for m in re.finditer(r"\br(\d+)(?::(\d+))?\b", text):
            named.add(int(m.group(1)))
            if m.group(2):
                named.add(int(m.group(2)))
        if re.search(r"allocframe|deallocframe|dealloc_return|\bsp\b|r29|r30|r31", text):
            named |= {29, 30, 31}
        out = []
        # Everything at once first.
        n = copy_case(c)
        n.regs = [v if (r in named and False) else 0 for r, v in enumerate(c.regs)]
        n.preds, n.usr, n.ctrl, n.img = 0, 0, {}, ZERO_IMG
        if (n.regs, n.preds, n.usr, n.ctrl, n.img) != (c.regs, c.preds, c.usr, c.ctrl,
                                                       c.img):
            out.append(n)
        n = copy_case(c)
        n.regs = [v if r in named else 0 for r, v in enumerate(c.regs)]
        if n.regs != c.regs:
            out.append(n)
        for r in sorted(named):
            if r < 32 and c.regs[r] not in (0,) and r != 28:
                n = copy_case(c)
                n.regs = list(c.regs)
                n.regs[r] = 0
                out.append(n)
        for attr, val in (("preds", 0), ("usr", 0), ("ctrl", {}), ("img", ZERO_IMG)):
            if getattr(c, attr) != val:
                n = copy_case(c)
                setattr(n, attr, val)
                out.append(n)
        for name in sorted(c.ctrl):
            n = copy_case(c)
            n.ctrl = dict(c.ctrl)
            del n.ctrl[name]
            out.append(n)
        if c.preds not in (0, 0xffffffff):
            n = copy_case(c)
            n.preds = 0xffffffff
            out.append(n)
        return out

    def simplify_imms(self, c):
        out = []
        for k, u in enumerate(c.units):
            if u is None:
                continue
            for pi, ps in enumerate(u.packets):
                for ii, ins in enumerate(ps.insns):
                    ri = ins.ri
                    if ri.mem or ri.hwloop or ri.branch:
                        continue
                    for t in ri.toks:
                        if t.kind != "imm" or t.key in ri.pcrel:
                            continue
                        v = ins.ops.get(t.key)
                        if not isinstance(v, int) or v == 0:
                            continue
                        if ri.mustext:
                            continue
                        n = copy_case(c)
                        nu = copy_unit(u)
                        ni = copy_insn(ins)
                        ni.ops[t.key] = 0
                        ni.ops[t.key + ".ext"] = False
                        ni.words = 1 + any(ni.ops.get(x.key + ".ext") for x in ri.toks
                                           if x.kind == "imm")
                        nu.packets[pi].insns[ii] = ni
                        n.units = list(c.units)
                        n.units[k] = nu
                        out.append(n)
        return out


    def rename_regs(self, c):
        """Candidates with one general register renamed to the lowest one the case does not
        use (its initial value moves with it)."""
        used, fixed = set(), set()
        insns = [i for u in c.units if u is not None for ps in u.packets for i in ps.insns]
        for ins in insns:
            for t in ins.ri.optoks:
                if t.kind in ("R", "N"):
                    r = ins.ops[t.key]
                    used.add(r)
                    if t.pair:
                        used.add(r + 1)
                        fixed |= {r, r + 1}
            for r in ins.pins:
                used.add(r)
            used |= ins.ri.imp_r
            fixed |= ins.ri.imp_r
        text = " ".join(c.body())
        for m in re.finditer(r"\br(\d+)\b", text):
            used.add(int(m.group(1)))
        fixed |= {26, 27, 28, 29, 30, 31}
        out = []
        for a in sorted(used - fixed, reverse=True):
            free = [b for b in range(a) if b not in used and b not in fixed]
            if not free:
                continue
            b = free[0]
            ok = True
            for ins in insns:
                for t in ins.ri.optoks:
                    if t.kind in ("R", "N") and ins.ops[t.key] == a and t.pool is not None \
                            and b not in t.pool:
                        ok = False
            if not ok:
                continue
            n = copy_case(c)
            n.regs = list(c.regs)
            n.regs[b], n.regs[a] = c.regs[a], c.regs[b]
            n.units = []
            for u in c.units:
                if u is None:
                    n.units.append(None)
                    continue
                nu = copy_unit(u)
                for ps in nu.packets:
                    for j, ins in enumerate(ps.insns):
                        ni = copy_insn(ins)
                        for t in ins.ri.optoks:
                            if t.kind in ("R", "N") and ni.ops[t.key] == a:
                                ni.ops[t.key] = b
                        if a in ni.pins:
                            ni.pins[b] = ni.pins.pop(a)
                        ps.insns[j] = ni
                n.units.append(nu)
            out.append(n)
        return out


def copy_case(c):
    n = G.RPCase(list(c.units), list(c.regs), c.preds, c.usr, dict(c.ctrl), c.image, c.taken)
    n.img = getattr(c, "img", None)
    return n


ZERO_IMG = bytes(X.BUF_SIZE)
LIFT_CTRL = ("sa0", "lc0", "sa1", "lc1", "m0", "m1", "ugp", "gp", "cs0", "cs1", "framekey")


def copy_unit(u):
    nu = G.Unit(u.kind, [], dict(u.shape))
    for ps in u.packets:
        nps = G.PacketState(ps.loop_body, ps.unit)
        nps.insns = list(ps.insns)
        nu.packets.append(nps)
    return nu


def copy_insn(ins):
    n = G.Insn(ins.ri)
    n.__dict__.update(ins.__dict__)
    n.ops = dict(ins.ops)
    n.pins = dict(ins.pins)
    n.cpins = dict(ins.cpins)
    return n


def signature(case, detail):
    tags = sorted({t for p in case.packet_tags() for t in p})
    kinds = set()
    for d in detail:
        m = re.match(r"(\w+)", d)
        name = m.group(1) if m else "?"
        if re.match(r"r\d+$", name):
            name = "reg"
        elif name == "mem":
            name = "mem"
        kinds.add(name)
    return " ".join(tags) + " | " + " ".join(sorted(kinds))


# ---------------------------------------------------------------------------------------
# Main

def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--packets", type=int, default=200000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    ap.add_argument("--work", default=os.path.join(ROOT, "build", "tests", "isa",
                                                   "random_packets"))
    ap.add_argument("--hexsim", default=os.path.join(ROOT, "build", "hexsim"))
    ap.add_argument("--qemu", default="qemu-hexagon")
    ap.add_argument("--isa-dir", default=os.path.join(ROOT, "src", "cpu", "isa"))
    ap.add_argument("--regress", default=os.path.join(HERE, "regress"),
                    help="directory of the regression cases replayed first")
    ap.add_argument("--write", help="directory the new regression cases go to (default: "
                    "--regress; ctest writes them into the build tree, copy the ones to keep "
                    "into tests/isa/regress/)")
    ap.add_argument("--only", help="regular expression: draw only rows whose tag matches")
    ap.add_argument("--keep-going", action="store_true",
                    help="run every batch even after mismatches (default: stop starting new "
                         "batches once --stop-after mismatching cases were found)")
    ap.add_argument("--stop-after", type=int, default=200)
    ap.add_argument("--units", type=int, default=20, help="units (packets) per case")
    ap.add_argument("--batch", type=int, default=BATCH_PACKETS, help="packets per batch")
    ap.add_argument("--start-batch", type=int, default=0,
                    help="run the batches from this one on (a run's batch N is the same in "
                         "every run with its seed, --batch and --units)")
    ap.add_argument("--max-shrinks", type=int, default=12)
    ap.add_argument("--shrink-time", type=float, default=120.0,
                    help="seconds spent shrinking at most")
    ap.add_argument("--no-write", action="store_true",
                    help="do not write regression cases")
    ap.add_argument("--replay-only", action="store_true")
    ap.add_argument("--keep", action="store_true", help="keep the work files")
    ap.add_argument("--show", type=int, default=10, help="shrunk mismatches shown")
    args = ap.parse_args()
    t_start = time.monotonic()
    args.qemu = shutil.which(args.qemu) or args.qemu
    missing = [t for t in (X.LLVM_MC, X.LLD, args.qemu) if not shutil.which(t)]
    if missing:
        print("SKIP: %s not found (tools/setup.sh installs them)" % ", ".join(missing))
        return 77
    if not os.path.exists(args.hexsim):
        print("SKIP: %s does not exist (build it first)" % args.hexsim)
        return 77
    args.hexsim = os.path.abspath(args.hexsim)
    args.work = os.path.abspath(args.work)
    os.makedirs(args.work, exist_ok=True)
    ok = True
    p = print

    # 1. Regression cases.
    reg = R.replay(args.regress, os.path.join(args.work, "replay"), args.hexsim, args.qemu,
                   run_cases, verdict, records)
    known_sigs = {}
    devs = load_deviations()
    if reg["total"]:
        failing, known = [], []
        for name, detail, (ec, tags, recs, sig) in reg["failing"]:
            dev = known_deviation(devs, ec, tags, recs)
            (known if dev else failing).append((name, detail, dev))
            if sig:
                # Random mismatches with these rows are taken as this one (not shrunk).
                known_sigs[sig] = name
        p("random_packets: %d regression cases replayed from %s: %d match, %d mismatch, "
          "%d known qemu deviations, %d unimplemented in hexsim, %d not runnable" %
          (reg["total"], os.path.relpath(args.regress), reg["ok"], len(failing), len(known),
           len(reg["unimpl"]), len(reg["other"])))
        for name, detail, dev in failing:
            p("  MISMATCH %s: %s" % (name, "; ".join(detail[:4])))
        for name, detail, dev in known:
            p("  known qemu deviation [%s]: %s" % (dev.name, name))
        reg["failing"] = failing
        for name, tag in reg["unimpl"]:
            p("  unimplemented %s: %s" % (name, tag))
        for name, why in reg["other"]:
            p("  not runnable %s: %s" % (name, why))
        if reg["failing"]:
            ok = False
    if args.replay_only:
        p("random_packets: %s" % ("PASS" if ok else "FAIL"))
        return 0 if ok else 1
    sys.stdout.flush()

    # 2. Probe.
    gen0 = G.Gen(args.isa_dir)
    t0 = time.monotonic()
    unimpl, qemu_cannot, cached = probe(args, gen0)
    p("random_packets: probe%s (%.1f s): %d rows unimplemented in hexsim, %d rows qemu "
      "cannot run" % (" (cached)" if cached else "", time.monotonic() - t0, len(unimpl),
                      len(qemu_cannot)))
    if qemu_cannot:
        p("  qemu cannot run (left out): " + "; ".join("%s (%s)" % (t, m[:60]) for t, m in
                                                        sorted(qemu_cannot.items())))
    sys.stdout.flush()

    # 3. Batches.
    cfg = {"isa_dir": args.isa_dir, "only": args.only, "exclude": qemu_cannot,
           "seed": args.seed, "packets": args.packets, "batch": args.batch,
           "units": args.units, "work": args.work, "hexsim": args.hexsim,
           "qemu": args.qemu, "unimpl": unimpl, "keep": args.keep, "keep_mismatches": 8}
    nb = (args.packets + args.batch - 1) // args.batch
    tot = collections.defaultdict(int)
    counters = {k: collections.Counter() for k in ("mix", "files", "ninsn", "reasons",
                                                   "unimpl", "seconds")}
    examples = {"reject": [], "qemu": []}
    mismatches = []
    t_batches = time.monotonic()
    gen_info = G.Gen(args.isa_dir, only=args.only, exclude=qemu_cannot)
    if not gen_info.selected:
        p("random_packets: --only %s selects no row" % args.only)
        return 1
    stopped_early = False
    done_batches = 0
    last_progress = time.monotonic()
    ctx = multiprocessing.get_context("fork")
    with ctx.Pool(max(1, args.jobs), initializer=worker_init, initargs=(cfg,)) as pool:
        for bi, st in pool.imap(run_batch, range(min(args.start_batch, nb), nb)):
            for k in ("generated", "rejected", "unimpl_packets", "compared",
                      "compared_cases", "qemu_fail", "mismatch_packets", "mismatch_cases",
                      "loops", "duplex",
                      "branches", "mem", "ext", "pnew", "nv", "mem2", "st2", "br2",
                      "nested", "pand"):
                tot[k] += st[k]
            for k in counters:
                counters[k].update(st[k])
            if len(examples["reject"]) < 40:
                examples["reject"] += st["reject_examples"][:3]
            if len(examples["qemu"]) < 10:
                examples["qemu"] += st["qemu_examples"][:2]
            # Keep a bounded number of mismatching cases (for shrinking), count the rest.
            mismatches += st["mismatches"][:max(0, args.stop_after - len(mismatches))]
            done_batches += 1
            now = time.monotonic()
            if now - last_progress > 60 and done_batches < nb:
                last_progress = now
                p("random_packets: ... %d of %d batches, %d packets, %d mismatching cases, "
                  "%.0f packets/s" % (done_batches, nb, tot["generated"],
                                      tot["mismatch_cases"],
                                      tot["generated"] / max(1e-9, now - t_batches)))
                sys.stdout.flush()
            if tot["mismatch_cases"] >= args.stop_after and not args.keep_going:
                stopped_early = True
                pool.terminate()
                break
    elapsed = time.monotonic() - t_batches
    gen = tot["generated"]
    p("random_packets: seed %d, %d packets generated in %d batches (%.1f s, %.0f packets/s, "
      "%d jobs)%s" % (args.seed, gen, done_batches, elapsed, gen / max(elapsed, 1e-9),
                      args.jobs, "; stopped early after %d mismatching cases" %
                      tot["mismatch_cases"] if stopped_early else ""))
    ninsn = counters["ninsn"]
    sel_tags = {r.tag for r in gen_info.selected}
    p("  mix: %d instructions, packets of 1/2/3/4: %s; packets with duplex "
      "sub-instructions %d, branches %d (two: %d), memory accesses %d (two: %d, two stores: "
      "%d), extenders %d, .new predicates %d (of a predicate several instructions write: "
      "%d), new-value operands %d; %d loop shapes (%d nested); %d of the %d rows selected "
      "drawn%s" %
      (sum(counters["mix"].values()), "/".join("%d" % ninsn[k] for k in sorted(ninsn)),
       tot["duplex"], tot["branches"], tot["br2"], tot["mem"], tot["mem2"], tot["st2"],
       tot["ext"], tot["pnew"], tot["pand"], tot["nv"], tot["loops"], tot["nested"],
       len(set(counters["mix"]) & sel_tags), len(sel_tags),
       " (and %d other rows as producers)" % len(set(counters["mix"]) - sel_tags)
       if set(counters["mix"]) - sel_tags else ""))
    p("  by file: " + ", ".join("%s %.1f%%" % (f[:-4], 100.0 * n / max(1, sum(
        counters["files"].values()))) for f, n in counters["files"].most_common()))
    p("  rejected by llvm-mc: %d (%.2f%%)" % (tot["rejected"],
                                              100.0 * tot["rejected"] / max(1, gen)))
    for r, n in counters["reasons"].most_common(8):
        p("    %6d  %s" % (n, r))
    for msg, body in examples["reject"][:4]:
        p("    e.g. %s: %s" % (msg[:80], " ".join(l.strip() for l in body)[:200]))
    p("  compared: %d packets in %d cases; mismatching cases: %d (%d packets)" %
      (tot["compared"], tot["compared_cases"], tot["mismatch_cases"],
       tot["mismatch_packets"]))
    if tot["qemu_fail"]:
        p("  cases qemu could not run (left out): %d" % tot["qemu_fail"])
        for msg, body in examples["qemu"][:3]:
            p("    e.g. %s: %s" % (msg[:120], " ".join(l.strip() for l in body)[:300]))
    if counters["unimpl"]:
        p("  packets with instructions hexsim does not implement (not run): %d, %d tags:" %
          (tot["unimpl_packets"], len(counters["unimpl"])))
        line = "   "
        for kv in sorted(counters["unimpl"].items()):
            item = " %s:%d" % kv
            if len(line) + len(item) > 100:
                p(line)
                line = "   "
            line += item
        p(line)
    sec = counters["seconds"]
    p("  CPU time per stage (summed over jobs): " + ", ".join(
        "%s %.1f s" % (k, sec[k]) for k in ("generate", "python", "build", "qemu",
                                            "hexsim")) +
      " (%.0f packets per CPU second)" % (gen / max(1e-9, sum(sec[k] for k in (
          "python", "build", "qemu", "hexsim")))))
    sys.stdout.flush()

    # 4. Shrink, classify (known qemu deviations), write regression cases.
    if mismatches:
        devs = load_deviations()
        sh = Shrinker(args, gen_info)
        found = {}          # signature -> [case, detail, count, file, deviation]
        t_sh = time.monotonic()
        unshrunk = lost = like_regress = 0
        for bi, cid, case, image, detail in mismatches:
            case_tags = {t for pk in case.packet_tags() for t in pk}
            dup = None
            for sig in list(found) + list(known_sigs):
                stags = set(sig.split(" | ")[0].split())
                if stags and stags <= case_tags:
                    dup = sig
                    break
            if dup is not None:
                if dup in found:
                    found[dup][2] += 1
                else:
                    like_regress += 1
                continue
            if len(found) >= args.max_shrinks or time.monotonic() - t_sh > args.shrink_time:
                unshrunk += 1
                ok = False
                continue
            sh.last_recs = None
            small, d = sh.shrink(case, image, detail)
            if small is None:
                lost += 1
                ok = False
                p("  batch %d case %d mismatched only after the cases before it in its program "
                  "(state leaking between cases?): %s" % (bi, cid, "; ".join(detail[:3])))
                continue
            sig = signature(small, d)
            if sig in found or sig in known_sigs:
                if sig in found:
                    found[sig][2] += 1
                continue
            dev = known_deviation(devs, small.execlib_case(), deviation_tags(small),
                                  sh.last_recs, insn_facts(small))
            name = None
            if dev is None:
                ok = False
                if not args.no_write:
                    name = R.write(args.write or args.regress, small, small.img, d, sig,
                                   "seed %d batch %d case %d" % (args.seed, bi, cid))
            found[sig] = [small, d, 1, name, dev]
        new_bugs = {k: v for k, v in found.items() if v[4] is None}
        known = {k: v for k, v in found.items() if v[4] is not None}
        p("random_packets: mismatches shrunk in %.1f s (%d shrink runs): %d distinct, %d of "
          "them known qemu deviations; %d mismatching cases not shrunk (limits), %d like a "
          "failing regression case" % (time.monotonic() - t_sh, sh.rounds, len(found),
                                       len(known), unshrunk, like_regress))
        for sig, (small, d, count, name, dev) in known.items():
            p("  known qemu deviation [%s] (%d cases): %s" % (dev.name, count,
                                                              sig.split(" | ")[0]))
        for k, (sig, (small, d, count, name, dev)) in enumerate(new_bugs.items()):
            if k >= args.show:
                p("  ... %d more (see %s)" % (len(new_bugs) - k,
                                              os.path.relpath(args.write or args.regress)))
                break
            p("  MISMATCH [%s] (%d similar cases)%s" % (
                sig.split(" | ")[0], count, " -> " + os.path.relpath(name) if name else ""))
            for line in R.describe(small):
                p("    " + line)
            for line in d[:8]:
                p("    " + line)
    p("random_packets: %.1f s in all" % (time.monotonic() - t_start))
    p("random_packets: %s" % ("PASS" if ok else "FAIL"))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
