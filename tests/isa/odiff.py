# SPDX-License-Identifier: MIT
# Shared part of the differential disassembly tests: runs llvm-objdump-16 and hexsim-objdump on
# the same files and compares their listings after collapsing runs of spaces and tabs to one
# space and stripping trailing blanks (the form in which the two must be equal).
# Listings are compared line by line keyed by (file, section, symbol header, address), so one
# packet decoded differently shows up as its own lines only and does not shift everything after
# it; lines present in only one listing count as differences too.
import os
import re
import subprocess
import sys

LLVM_OBJDUMP = os.environ.get("LLVM_OBJDUMP", "llvm-objdump-16")
LLVM_MC = os.environ.get("LLVM_MC", "llvm-mc-16")
CLANG = os.environ.get("CLANG", "clang-16")

_SPACES = re.compile(r"[ \t]+")
_INSN = re.compile(r"^ *([0-9a-f]+):")
_SYM = re.compile(r"^([0-9a-f]{8,16}) <")


def normalize(line):
    return _SPACES.sub(" ", line).rstrip()


def run(cmd, check=True):
    """Runs cmd; returns (returncode, stdout, stderr) as text."""
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    out = p.stdout.decode("utf-8", "replace")
    err = p.stderr.decode("utf-8", "replace")
    if check and p.returncode != 0:
        raise RuntimeError("%s failed (%d): %s" % (" ".join(cmd), p.returncode, err.strip()))
    return p.returncode, out, err


def keyed(listing):
    """Maps each line of a listing to a key; returns an ordered dict key -> normalized line."""
    result = {}
    fname = section = sym = ""
    prev_addr = ""
    counter = 0
    for raw in listing.splitlines():
        line = normalize(raw)
        if not line:
            continue
        if ": file format " in line:
            fname = line
            section = sym = prev_addr = ""
            key = ("file", fname, counter)
        elif line.startswith("Disassembly of section "):
            section = line
            sym = prev_addr = ""
            key = (fname, section, "section")
        elif _SYM.match(line):
            sym = line
            key = (fname, section, sym, "header")
        elif line == "...":
            key = (fname, section, sym, prev_addr, "...")
        else:
            m = _INSN.match(line)
            if m:
                prev_addr = m.group(1)
                key = (fname, section, sym, prev_addr)
            else:
                key = (fname, section, sym, prev_addr, "other", line)
        while key in result:   # the same key twice (should not happen): keep both
            key = key + ("again",)
        result[key] = line
        counter += 1
    return result


def compare(llvm_out, hexsim_out):
    """Returns (instruction lines, of which <unknown>, list of (llvm, hexsim) diffs)."""
    a = keyed(llvm_out)
    b = keyed(hexsim_out)
    diffs = []
    insns = unknown = 0
    for key, line in a.items():
        if _INSN.match(line):
            insns += 1
            unknown += line.endswith("<unknown>")
        other = b.get(key)
        if other != line:
            diffs.append((line, other))
    for key, line in b.items():
        if key not in a:
            diffs.append((None, line))
    return insns, unknown, diffs


def objdump_pair(hexsim, files, extra=()):
    """Runs both disassemblers on files; returns (llvm_out, hexsim_out)."""
    args = ["-d"] + list(extra) + list(files)
    _, lo, _ = run([LLVM_OBJDUMP] + args)
    rc, ho, he = run([hexsim] + args, check=False)
    if rc != 0:
        ho += "\n[hexsim-objdump exited with %d: %s]\n" % (rc, he.strip())
    return lo, ho


def report(name, insns, diffs, what="instruction lines", limit=20, out=sys.stdout,
           all_diffs_path=None):
    """Prints the summary and the first diffs (all of them to all_diffs_path, when given);
    returns True when there were none."""
    if all_diffs_path:
        with open(all_diffs_path, "w") as f:
            for llvm, ours in diffs:
                f.write("llvm:   %s\nhexsim: %s\n" % (llvm, ours))
    print("%s: %d %s compared, %d differing lines" % (name, insns, what, len(diffs)), file=out)
    for llvm, ours in diffs[:limit]:
        print("  llvm:   %s" % (llvm if llvm is not None else "(no such line)"), file=out)
        print("  hexsim: %s" % (ours if ours is not None else "(no such line)"), file=out)
    if len(diffs) > limit:
        print("  ... and %d more" % (len(diffs) - limit), file=out)
    return not diffs

