# SPDX-License-Identifier: MIT
# Shared part of the differential disassembly tests: runs llvm-objdump-16 and hexsim-objdump on
# the same files and compares their listings after collapsing runs of spaces and tabs to one
# space and stripping trailing blanks (the form in which the two must be equal).
# Listings are compared line by line keyed by (file, section, symbol header, address), so one
# packet decoded differently shows up as its own lines only and does not shift everything after
# it; lines present in only one listing count as differences too.
import concurrent.futures
import os
import re
import shutil
import subprocess
import sys

LLVM_OBJDUMP = os.environ.get("LLVM_OBJDUMP", "llvm-objdump-16")
LLVM_MC = os.environ.get("LLVM_MC", "llvm-mc-16")
CLANG = os.environ.get("CLANG", "clang-16")
# The reference is `llvm-objdump-16 -d`, which decodes for its default CPU (hexagonv60, whatever
# the ELF's e_flags say), and the same with --mcpu=hexagonv68 so that newer instructions are
# compared as text too. CPU_SETS holds the extra options of each pass; HEXSIM_MCPU=name runs
# one pass with --mcpu=name instead ("default" for none).
_MCPU = os.environ.get("HEXSIM_MCPU")
CPU_SETS = ([[]] if _MCPU == "default" else [["--mcpu=" + _MCPU]]) if _MCPU else \
    [[], ["--mcpu=hexagonv68"]]

_SPACES = re.compile(r"[ \t]+")
_INSN = re.compile(r"^ *([0-9a-f]+):")
_SYM = re.compile(r"^([0-9a-f]{8,16}) <")


def require(*tools):
    """Exits with ctest's skip status (77) when a reference tool is not installed."""
    missing = [t for t in tools if not shutil.which(t)]
    if missing:
        print("SKIP: %s not found (tools/setup.sh installs the LLVM 16 tools)" %
              ", ".join(missing))
        sys.exit(77)


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


def where(key):
    """The file (and section) a keyed line belongs to, for the diff report."""
    name = key[0] if key[0] != "file" else key[1]
    name = name.replace(": file format elf32-hexagon", "")
    section = key[1] if key[0] != "file" and len(key) > 2 else ""
    section = section.replace("Disassembly of section ", "").rstrip(":")
    return "in %s%s" % (name, ", " + section if section else "")


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
            diffs.append((line, other, where(key)))
    for key, line in b.items():
        if key not in a:
            diffs.append((None, line, where(key)))
    return insns, unknown, diffs


def objdump_pair(hexsim, files, extra=()):
    """Runs both disassemblers on files; returns (llvm_out, hexsim_out)."""
    args = ["-d"] + list(extra) + list(files)
    _, lo, _ = run([LLVM_OBJDUMP] + args)
    rc, ho, he = run([hexsim] + args, check=False)
    if rc != 0:
        ho += "\n[hexsim-objdump exited with %d: %s]\n" % (rc, he.strip())
    return lo, ho


def label_diffs(cpu, diffs):
    """Marks the llvm side of diffs found with extra options cpu (e.g. ["--mcpu=hexagonv68"])."""
    if not cpu:
        return diffs
    tag = "[%s] " % " ".join(cpu)
    return [(tag + d[0] if d[0] is not None else None,
             d[1] if d[0] is not None or d[1] is None else tag + d[1]) + tuple(d[2:])
            for d in diffs]


def compare_all(hexsim, files, extra=()):
    """compare() of both listings of files, once per CPU_SETS entry; returns the sums."""
    insns = unknown = 0
    diffs = []
    for cpu in CPU_SETS:
        lo, ho = objdump_pair(hexsim, files, list(cpu) + list(extra))
        n, u, d = compare(lo, ho)
        insns += n
        unknown += u
        diffs += label_diffs(cpu, d)
    return insns, unknown, diffs


def compare_runs(hexsim, runs):
    """compare_all over (files, extra options) pairs, in parallel; summed (lines, unknown, diffs)."""
    insns, unknown, diffs = 0, 0, []
    with concurrent.futures.ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as ex:
        for n, u, d in ex.map(lambda r: compare_all(hexsim, r[0], r[1]), runs):
            insns += n
            unknown += u
            diffs += d
    return insns, unknown, diffs


def report(name, insns, diffs, what="instruction lines", limit=20, out=sys.stdout,
           all_diffs_path=None):
    """Prints the summary and the first diffs (all of them to all_diffs_path, when given);
    returns True when there were none."""
    if all_diffs_path:
        with open(all_diffs_path, "w") as f:
            for d in diffs:
                f.write("llvm:   %s\nhexsim: %s\n" % d[:2])
                if len(d) > 2:
                    f.write("note:   %s\n" % d[2])
    print("%s: %d %s compared, %d differing lines" % (name, insns, what, len(diffs)), file=out)
    for d in diffs[:limit]:
        print("  llvm:   %s" % (d[0] if d[0] is not None else "(no such line)"), file=out)
        print("  hexsim: %s" % (d[1] if d[1] is not None else "(no such line)"), file=out)
        if len(d) > 2:
            print("          %s" % d[2], file=out)
    if len(diffs) > limit:
        print("  ... and %d more" % (len(diffs) - limit), file=out)
    return not diffs



def assemble_words(packets, src, obj):
    """Writes packets (lists of 32-bit words) as .long lines and assembles them."""
    with open(src, "w") as f:
        f.write(".text\n")
        for p in packets:
            f.write("".join(".long 0x%08x\n" % w for w in p))
    run([LLVM_MC, "-arch=hexagon", "-mv68", "-filetype=obj", src, "-o", obj])


def packet_note(packets, diff):
    """"packet at ADDR: words" for the packet (of a .long object) a differing line falls in."""
    m = _INSN.match(diff[0] if diff[0] is not None else diff[1] or "")
    if not m:
        return ""
    addr, start = int(m.group(1), 16), 0
    for p in packets:   # linear, but only for the few differing lines
        if start <= addr < start + 4 * len(p):
            return "packet at %x: %s" % (start, " ".join("%08x" % w for w in p))
        start += 4 * len(p)
    return ""


def compare_packets(hexsim, packets, work, name, cpu_sets=None):
    """Compares both listings of an object made of packets. When llvm-objdump-16 crashes (it
    does on a few encodings) the packets are split until the culprits are found; those are left
    out. Each listing is made once per entry of cpu_sets (default CPU_SETS).
    Returns (instruction lines, of which <unknown>, diffs, crashed packets)."""
    src = os.path.join(work, name + ".s")
    obj = os.path.join(work, name + ".o")
    assemble_words(packets, src, obj)
    total = [0, 0, [], []]
    for cpu in (CPU_SETS if cpu_sets is None else cpu_sets):
        rc, lo, _ = run([LLVM_OBJDUMP] + cpu + ["-d", obj], check=False)
        if rc != 0:
            if len(packets) == 1:
                return 0, 0, [], [packets[0]]
            half = len(packets) // 2
            total = [0, 0, [], []]
            for part, sub in ((packets[:half], "a"), (packets[half:], "b")):
                r = compare_packets(hexsim, part, work, name + sub, cpu_sets)
                for i in range(4):
                    total[i] += r[i]
            return tuple(total)
        rc, ho, he = run([hexsim] + cpu + ["-d", obj], check=False)
        if rc != 0:
            ho += "\n[hexsim-objdump exited with %d: %s]\n" % (rc, he.strip())
        insns, unknown, diffs = compare(lo, ho)
        diffs = label_diffs(cpu, [d[:2] + (packet_note(packets, d),) for d in diffs])
        total[0] += insns
        total[1] += unknown
        total[2] += diffs
    for f in (src, obj):
        os.unlink(f)
    return tuple(total)
