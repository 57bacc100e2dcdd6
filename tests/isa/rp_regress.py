# SPDX-License-Identifier: MIT
# Regression cases of tests/isa/random_packets.py: one file per shrunk mismatch,
# tests/isa/regress/rp-<hash>.txt, replayed at the start of every run.
#
# Format (lines; "#" starts a comment line in the header):
#   # signature: TAGS | KINDS          what the mismatch involved (used to avoid duplicates)
#   # found: ...                        where it came from
#   # diff: ...                         how qemu and hexsim differed when it was written
#   regs 0x... (32 values, r0..r31; r28 is the harness's and ignored)
#   preds 0x...                         p3:0
#   usr 0x...
#   ctrl NAME=0x... ...                 control registers set before the body (optional)
#   taken 0|1                           the body may leave through @T@
#   image HEX                           the scratch buffer's initial 512 bytes
#   body                                then the body's lines, as execlib runs them
#   ...                                 (@T@, @L@ placeholders, see execlib.subst)
#   end
import hashlib
import os
import re
import sys

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import execlib as X  # noqa: E402


def text_of(body, regs, preds, usr, ctrl, taken, image, detail, sig, origin):
    out = ["# random_packets regression case: tests/isa/random_packets.py replays it"]
    out.append("# signature: " + sig)
    if origin:
        out.append("# found: " + origin)
    for d in detail[:12]:
        out.append("# diff: " + d)
    out.append("regs " + " ".join("0x%08x" % (v & 0xffffffff) if isinstance(v, int) else v
                                  for v in regs))
    out.append("preds 0x%08x" % preds)
    out.append("usr 0x%08x" % usr)
    if ctrl:
        out.append("ctrl " + " ".join("%s=0x%08x" % (k, v & 0xffffffff)
                                      for k, v in sorted(ctrl.items())))
    out.append("taken %d" % int(bool(taken)))
    out.append("image " + image.hex())
    out.append("body")
    out += body
    out.append("end")
    return "\n".join(out) + "\n"


def write(directory, case, image, detail, sig, origin):
    """Writes the shrunk RPCase case (image: its scratch buffer) and returns the path."""
    os.makedirs(directory, exist_ok=True)
    body = case.body()
    text = "\n".join(body)
    body = [l for l in body if not (re.match(r"^@L@\w+:$", l.strip()) and not re.search(
        re.escape(l.strip()[:-1]) + r"\b(?!:)", text))]
    h = hashlib.sha1((sig + "\n" + "\n".join(body)).encode()).hexdigest()[:12]
    path = os.path.join(directory, "rp-%s.txt" % h)
    with open(path, "w") as f:
        f.write(text_of(body, case.regs, case.preds, case.usr, case.ctrl, case.taken, image,
                        detail, sig, origin))
    return path


def parse(path):
    """(execlib.Case, image bytes, signature) of a regression file."""
    regs, preds, usr, ctrl, taken, image, body, sig = None, 0, 0, {}, False, None, None, ""
    with open(path) as f:
        lines = f.read().splitlines()
    i = 0
    while i < len(lines):
        line = lines[i]
        i += 1
        if body is not None:
            if line.strip() == "end":
                break
            body.append(line)
            continue
        s = line.strip()
        if not s:
            continue
        if s.startswith("#"):
            m = re.match(r"#\s*signature:\s*(.*)$", s)
            if m:
                sig = m.group(1).strip()
            continue
        key, _, rest = s.partition(" ")
        if key == "regs":
            regs = [int(x, 0) for x in rest.split()]
        elif key == "preds":
            preds = int(rest, 0)
        elif key == "usr":
            usr = int(rest, 0)
        elif key == "ctrl":
            for kv in rest.split():
                k, _, v = kv.partition("=")
                ctrl[k] = int(v, 0)
        elif key == "taken":
            taken = rest.strip() == "1"
        elif key == "image":
            image = bytes.fromhex(rest.strip())
        elif key == "body":
            body = []
        else:
            raise ValueError("%s: unknown line %r" % (path, s))
    if regs is None or len(regs) != 32 or body is None:
        raise ValueError("%s: needs regs (32 values) and a body" % path)
    if image is None or len(image) != X.BUF_SIZE:
        image = bytes(X.BUF_SIZE)
    case = X.Case("regress", body, regs, preds=preds, usr=usr, ctrl=ctrl, mem=True, image=0,
                  taken=taken)
    return case, image, sig


def replay(directory, work, hexsim, qemu, run_cases, verdict, records=None):
    """Runs every regression case of directory in both simulators. failing: [(file name,
    differences, (execlib case, tags of its signature, records(result, i), signature))]."""
    res = {"total": 0, "ok": 0, "failing": [], "unimpl": [], "other": [], "sigs": {}}
    if not os.path.isdir(directory):
        return res
    names = sorted(n for n in os.listdir(directory) if n.startswith("rp-") and
                   n.endswith(".txt"))
    cases, images, owners, sigs = [], [], [], []
    for n in names:
        path = os.path.join(directory, n)
        res["total"] += 1
        try:
            c, img, sig = parse(path)
        except (ValueError, OSError) as e:
            res["other"].append((n, "unreadable: %s" % e))
            continue
        c.image = len(images)
        images.append(img)
        cases.append(c)
        owners.append(n)
        sigs.append(sig)
        if sig:
            res["sigs"][sig] = path
    if not cases:
        return res
    os.makedirs(work, exist_ok=True)
    out = run_cases(cases, images, work, "replay", hexsim, qemu)
    for i, n in enumerate(owners):
        v, d = verdict(out, i)
        if v == "ok":
            res["ok"] += 1
        elif v == "mismatch":
            tags = set(sigs[i].split(" | ")[0].split())
            res["failing"].append((n, d, (cases[i], tags,
                                          records(out, i) if records else None, sigs[i])))
        elif v == "unimpl":
            res["unimpl"].append((n, d[0]))
        else:
            res["other"].append((n, "%s: %s" % (v, d[0] if d else "")))
    return res


def describe(case):
    """Lines showing a (shrunk) RPCase: its body and the inputs it names."""
    ec = case.execlib_case()
    text = "\n".join(ec.body)
    lines = []
    for l in ec.body:
        m = re.match(r"^(@L@\w+):$", l.strip())
        if m and not re.search(re.escape(m.group(1)) + r"\b(?!:)", text):
            continue     # a unit label nothing branches to
        lines.append(l.strip())
    return lines + ["inputs: " + ec.setup_summary()]
