# SPDX-License-Identifier: MIT
# What the two random instruction generators share: exec_diff.py (one instruction at a time)
# and rp_gen.py (whole packets, for random_packets.py). Facts of the ISA table rows (the
# arch=/until= versions, why a row is not generated, the user-mode system instructions, the
# control registers whose value depends on time), the addressing-mode patterns of the
# syntax with the access sizes, and the random draws both make the same way (predicates,
# floating-point fields): each function draws from rng in the order it always did, so a seed
# gives the same cases as before.
import re

# SYSTEM-class instructions that Linux user mode runs.
USER_SYSTEM = {"Y2_dcfetchbo", "Y2_dczeroa", "Y2_barrier", "Y2_syncht", "Y2_dccleana",
               "Y2_dcinva", "Y2_dccleaninva", "Y2_icinva", "Y2_isync", "Y4_l2fetch",
               "Y5_l2fetch", "J2_pause", "Y4_trace"}
# Control registers whose value depends on time or on the simulator's counters.
CTRL_VOLATILE = {14, 15, 18, 19, 30, 31}

# The addressing modes of a memory operand in a row's syntax, but the plain register one
# (each generator adds its own, for the instructions it lets through).
ADDR_MODES = [
    ("circ_i", re.compile(r"\((Rx32)\+\+#(Ii):circ\((Mu2)\)\)")),
    ("circ_r", re.compile(r"\((Rx32)\+\+I:circ\((Mu2)\)\)")),
    ("brev", re.compile(r"\((Rx32)\+\+(Mu2):brev\)")),
    ("pm", re.compile(r"\((Rx32)\+\+(Mu2)\)")),
    ("pi", re.compile(r"\((Rx32)\+\+#(Ii)\)")),
    ("rr", re.compile(r"\((Rs32)\+(R[tu]32)<<#(Ii)\)")),
    ("ur", re.compile(r"\((R[tu]32)<<#(Ii)\+#(II)\)")),
    ("ap", re.compile(r"\((Re32)=#(Ii)\)")),
    ("gp", re.compile(r"\(gp\+#(Ii)\)")),
    ("io", re.compile(r"\((Rs32|Rs16|r29|r30)\+#(Ii)\)")),
    ("abs", re.compile(r"\(#(Ii)\)")),
]
SIZES = {"memb": 1, "memub": 1, "memh": 2, "memuh": 2, "memw": 4, "memd": 8,
         "memb_fifo": 1, "memh_fifo": 2, "memw_locked": 4, "memd_locked": 8}


def arch_num(row, key):
    """The version N of a row's key=vN attribute (arch, until), or None."""
    for a in row.attrs:
        if a.startswith(key + "=v"):
            return int(a[len(key) + 2:])
    return None


def skip_reason(row, why):
    """Why row is not generated: why[check] (formatted with the row's arch version a) for
    the first check below that holds and that why names, or None."""
    flags = set(row.attrs)
    a = arch_num(row, "arch")
    u = arch_num(row, "until")
    checks = (("ext", row.cls == "EXT"),
              ("priv", "priv" in flags),
              ("guest", "guest" in flags),
              ("trap", "trap" in flags and row.tag != "J2_pause"),
              ("hvx", "hvx" in flags),
              ("audio", "audio" in flags),
              ("arch", a is not None and a > 67),
              ("until", u is not None and u < 67),
              ("system", row.cls == "SYSTEM" and row.tag not in USER_SYSTEM))
    for check, holds in checks:
        if holds and check in why:
            return why[check].format(a=a)
    return None


def sf_fields(rng):
    """A single-precision value by its fields: mostly near 1 (exponent 110-150), its
    mantissa's low bits cleared in 3 of 10."""
    exp = rng.randint(110, 150) if rng.random() < 0.75 else rng.randint(0, 255)
    mant = rng.getrandbits(23)
    if rng.random() < 0.3:
        mant &= ~((1 << rng.randint(8, 23)) - 1) & 0x7fffff
    return rng.getrandbits(1) << 31 | exp << 23 | mant


def df_fields(rng):
    """A double-precision value by its fields, as sf_fields (exponent 1000-1050)."""
    exp = rng.randint(1000, 1050) if rng.random() < 0.75 else rng.randint(0, 2047)
    mant = rng.getrandbits(52)
    if rng.random() < 0.3:
        mant &= ~((1 << rng.randint(20, 52)) - 1) & ((1 << 52) - 1)
    return rng.getrandbits(1) << 63 | exp << 52 | mant


def rand_preds(rng):
    """P3:0 with each predicate all-false, all-true or random bits."""
    v = 0
    for i in range(4):
        r = rng.random()
        b = 0 if r < 0.25 else 0xff if r < 0.5 else rng.getrandbits(8)
        v |= b << (8 * i)
    return v


def brev16(x):
    """The low 16 bits of x, bit-reversed."""
    return int("{:016b}".format(x & 0xffff)[::-1], 2)
