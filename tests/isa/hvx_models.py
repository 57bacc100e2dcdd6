# SPDX-License-Identifier: MIT
# Models of HVX instructions from the HVX Programmer's Reference Manual's pseudo-code, for the
# rows qemu-hexagon 7.2 cannot run (the V68 floating point, qfloat, the V69 and V73
# additions): hvx_exec.py compares hexsim --user with the model's state instead of qemu's.
# A model takes the state before the instruction and its operands and changes the state:
#   st.r[0..27] (ints), st.v[0..31] (bytearrays of 128), st.q[0..3] (lists of 128 bits),
#   st.p (p0-p3, ints 0..255), st.m (m0, m1), st.buf (the scratch buffer, bytearray);
#   ops: {"Vd": 3, "Vuu": 4 (a pair's low register), "Rt": 5, "Qv": 1, "Ii": -2, ...}
# Models of rows qemu runs are checked against qemu too (hvx_exec.py --model-check).
import struct

MODELS = {}


def model(tag):
    def reg(fn):
        MODELS[tag] = fn
        return fn
    return reg


def lanes(vec, fmt):
    """The lanes of a vector as ints ('b', 'B', 'h', 'H', 'i', 'I')."""
    n = 128 // struct.calcsize(fmt)
    return list(struct.unpack("<%d%s" % (n, fmt), bytes(vec)))


def pack(vals, fmt):
    n = 128 // struct.calcsize(fmt)
    mask = (1 << (8 * struct.calcsize(fmt))) - 1
    return bytearray(struct.pack("<%d%s" % (n, fmt.upper()), *[v & mask for v in vals]))


@model("V6_vaddb")
def vaddb(st, ops):
    u, v = lanes(st.v[ops["Vu"]], "B"), lanes(st.v[ops["Vv"]], "B")
    st.v[ops["Vd"]] = pack([a + b for a, b in zip(u, v)], "B")


@model("V6_vmpyuhvs")
def vmpyuhvs(st, ops):
    u, v = lanes(st.v[ops["Vu"]], "H"), lanes(st.v[ops["Vv"]], "H")
    st.v[ops["Vd"]] = pack([(a * b) >> 16 for a, b in zip(u, v)], "H")
