#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# Known values: the packets of tests/isa/known_values.txt, whose correct results come from the
# manual or the Linux source, run under hexsim --user three ways (compiled blocks with
# stencils, --no-stencils, --no-jit) and checked against those results. Each entry is one
# execlib case (all of them in one program); `start:` entries are small programs of their own
# that report the state the process starts with. With qemu-hexagon installed the entries also
# run under it: an entry whose `qemu:` line names an oracle error but where qemu gives the
# expected values is reported as STALE (not a failure), and one that says "agrees" where qemu
# does not is a failure (the file is wrong).
# Exit status: 0 when every check passes, 1 otherwise, 77 when the LLVM tools are missing.
# Usage: known_values.py --hexsim build/hexsim --work DIR [--qemu qemu-hexagon] [--file F]
import argparse
import os
import re
import shutil
import struct
import subprocess
import sys

sys.dont_write_bytecode = True
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import execlib as X  # noqa: E402

MODES = (("compiled", []), ("no-stencils", ["--no-stencils"]), ("interpreted", ["--no-jit"]))
KEYS = ("source", "qemu", "regs", "body", "expect", "start")
# What a `start:` program reads first thing and writes to stdout (one little-endian word).
START_READ = {"usr": "r2 = usr"}
START_PROGRAM = """    .text
    .globl _start
_start:
    {read}
    r1 = ##buf
    memw(r1+#0) = r2
    r0 = #1
    r2 = #4
    r6 = #64
    trap0(#1)
    r0 = #0
    r6 = #93
    trap0(#1)
    .data
buf: .word 0
"""


class Entry:
    def __init__(self, name, fields, where):
        self.name, self.where = name, where
        for k in fields:
            if k not in KEYS:
                raise ValueError("%s: [%s]: unknown key %r" % (where, name, k))
        self.source = fields.get("source", "")
        self.qemu = fields.get("qemu", "")
        if not self.source or not self.qemu or "expect" not in fields:
            raise ValueError("%s: [%s]: needs source, qemu and expect" % (where, name))
        self.start = fields.get("start")
        self.body = fields.get("body", [])
        self.regs = assignments(fields.get("regs", ""), where, name)
        self.expect = assignments(fields["expect"], where, name)
        if self.start is not None and self.start not in START_READ:
            raise ValueError("%s: [%s]: start: one of %s" % (where, name, " ".join(START_READ)))
        if self.start is None and not self.body:
            raise ValueError("%s: [%s]: needs a body or start" % (where, name))

    def oracle_error(self):
        return not self.qemu.startswith("agrees")

    def case(self):
        regs = [0] * 32
        usr = preds = 0
        ctrl = {}
        for k, v in self.regs.items():
            if re.match(r"^r\d+$", k) and int(k[1:]) < 28:
                regs[int(k[1:])] = v
            elif k == "usr":
                usr = v
            elif k == "p3:0":
                preds = v
            elif k in X.RESET_CTRL:
                ctrl[k] = v
            else:
                raise ValueError("%s: [%s]: cannot set %s" % (self.where, self.name, k))
        taken = any("@T@" in line for line in self.body)
        return X.Case(self.name, ["  " + line for line in self.body], regs, preds=preds,
                      usr=usr, ctrl=ctrl, taken=taken)


def assignments(text, where, name):
    out = {}
    for item in text.split():
        k, sep, v = item.partition("=")
        if not sep:
            raise ValueError("%s: [%s]: %r is not NAME=VALUE" % (where, name, item))
        out[k] = int(v, 0)
    return out


def load(path):
    return [Entry(*e) for e in X.read_entries(path, lines=("body",))]


def got_values(rec, path):
    d = X.decode(rec)
    d["path"] = path
    return d


def check(entry, values):
    """The expected fields that differ: [(name, expected, got)]."""
    return [(k, v, values.get(k)) for k, v in entry.expect.items() if values.get(k) != v]


def run_cases(cmd, prog, cases):
    res = X.run(cmd, prog, lambda *a: None, timeout=60)
    out = {}
    for cid, recs in res.records.items():
        path, data = recs[-1]
        out[cid] = got_values(data, path)
    fails = {cid: "%s: %s" % (X.status_text(rc, to), X.first_line(err))
             for cid, rc, err, to in res.failures if cid is not None}
    return out, fails


def run_start(cmd, elf):
    p = subprocess.run(list(cmd) + [elf], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       timeout=60)
    if p.returncode != 0 or len(p.stdout) != 4:
        return None, "%s: %s" % (X.status_text(p.returncode, False),
                                 X.first_line(p.stderr.decode("utf-8", "replace")))
    return struct.unpack("<I", p.stdout)[0], ""


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--hexsim", required=True)
    ap.add_argument("--work", required=True)
    ap.add_argument("--qemu", default=shutil.which("qemu-hexagon"))
    ap.add_argument("--file", default=os.path.join(HERE, "known_values.txt"))
    a = ap.parse_args()
    for tool in (X.LLVM_MC, X.LLD):
        if not shutil.which(tool):
            print("known_values: %s not found: skipped" % tool)
            return 77
    os.makedirs(a.work, exist_ok=True)
    entries = load(a.file)
    packets = [e for e in entries if e.start is None]
    starts = [e for e in entries if e.start is not None]
    cases = [e.case() for e in packets]
    prog, errors = X.build(cases, range(len(cases)), [bytes(X.BUF_SIZE)], a.work, "known")
    failures = ["[%s]: llvm-mc-16: %s" % (packets[c].name, m) for c, m in errors.items()]
    sims = [(m, [a.hexsim] + extra + ["--user"]) for m, extra in MODES]
    if a.qemu:
        sims.append(("qemu", [a.qemu]))
    results = {}
    for mode, cmd in sims:
        got, fails = run_cases(cmd, prog, cases) if prog else ({}, {})
        for cid, e in enumerate(packets):
            results[(e.name, mode)] = (got.get(cid), fails.get(cid, "no record"))
    for e in starts:
        src = os.path.join(a.work, "start-%s.S" % e.name)
        elf = os.path.join(a.work, "start-%s" % e.name)
        with open(src, "w") as f:
            f.write(START_PROGRAM.format(read=START_READ[e.start]))
        obj = elf + ".o"
        subprocess.run([X.LLVM_MC, "-arch=hexagon", "-mcpu=" + X.MCPU, "-filetype=obj", src,
                        "-o", obj], check=True)
        subprocess.run([X.LLD, "-static", "-o", elf, obj], check=True)
        for mode, cmd in sims:
            v, err = run_start(cmd, elf)
            results[(e.name, mode)] = (None if v is None else {e.start: v}, err)
    stale = []
    for e in entries:
        for mode, _ in sims:
            vals, err = results[(e.name, mode)]
            bad = check(e, vals) if vals is not None else None
            if mode == "qemu":
                if bad is None:
                    print("known_values: [%s] qemu: %s" % (e.name, err))
                elif not bad and e.oracle_error():
                    stale.append(e.name)
                elif bad and not e.oracle_error():
                    failures.append("[%s] says qemu agrees, but qemu gives %s" % (
                        e.name, ", ".join("%s=0x%x" % (k, g) for k, _, g in bad)))
                elif bad:
                    print("known_values: [%s] qemu-hexagon (a known oracle error): %s" % (
                        e.name, ", ".join("%s=0x%x (correct 0x%x)" % (k, g, v)
                                          for k, v, g in bad)))
                continue
            if bad is None:
                failures.append("[%s] %s: no result (%s)" % (e.name, mode, err))
            elif bad:
                failures.append("[%s] %s: %s (%s)" % (
                    e.name, mode, ", ".join("%s=%s, expected 0x%x" % (
                        k, "none" if g is None else "0x%x" % g, v) for k, v, g in bad),
                    e.source))
    n_err = sum(1 for e in entries if e.oracle_error())
    print("known_values: %d entries (%d known qemu-hexagon 7.2 errors), %s" % (
        len(entries), n_err, ", ".join(m for m, _ in sims)))
    for s in stale:
        print("known_values: STALE [%s]: qemu-hexagon gives the expected values now: "
              "update its qemu: line" % s)
    for f in failures:
        print("known_values: FAIL " + f)
    print("known_values: %s" % ("FAIL" if failures else "PASS"))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
