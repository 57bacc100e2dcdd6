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
    """The lanes of a vector ('b', 'B', 'h', 'H', 'i', 'I' as ints; 'e', 'f' as floats)."""
    n = 128 // struct.calcsize(fmt)
    return list(struct.unpack("<%d%s" % (n, fmt), bytes(vec)))


def pack(vals, fmt):
    n = 128 // struct.calcsize(fmt)
    mask = (1 << (8 * struct.calcsize(fmt))) - 1
    return bytearray(struct.pack("<%d%s" % (n, fmt.upper()), *[v & mask for v in vals]))


# the V68 qfloat and v6mpy models live in their own file
import hvx_models_qfloat  # noqa: E402
MODELS.update(hvx_models_qfloat.MODELS)


@model("V6_vaddb")
def vaddb(st, ops):
    u, v = lanes(st.v[ops["Vu"]], "B"), lanes(st.v[ops["Vv"]], "B")
    st.v[ops["Vd"]] = pack([a + b for a, b in zip(u, v)], "B")


@model("V6_vmpyuhvs")
def vmpyuhvs(st, ops):
    u, v = lanes(st.v[ops["Vu"]], "H"), lanes(st.v[ops["Vv"]], "H")
    st.v[ops["Vd"]] = pack([(a * b) >> 16 for a, b in zip(u, v)], "H")


# The V68 IEEE half and single rows: IEEE 754 binary16/binary32 arithmetic, rounded to nearest
# even (Python's binary64 result rounded once by struct's e/f packing: exact for add, sub and
# mul, since 53 >= 2*24+2), overflow to infinity, any NaN result the all-ones default NaN
# (the scalar core's default NaN; an assumption for the HVX unit, see sem/hvx_fp.h).
def _f16(x):
    if x != x:
        return 0xffff
    try:
        return struct.unpack("<H", struct.pack("<e", x))[0]
    except OverflowError:
        return 0xfc00 if x < 0 else 0x7c00


def _f32(x):
    if x != x:
        return 0xffffffff
    try:
        return struct.unpack("<I", struct.pack("<f", x))[0]
    except OverflowError:
        return 0xff800000 if x < 0 else 0x7f800000


def _ieee_binop(tag, fmt, op):
    conv, bits = (_f16, "H") if fmt == "e" else (_f32, "I")

    def fn(st, ops):
        u, v = lanes(st.v[ops["Vu"]], fmt), lanes(st.v[ops["Vv"]], fmt)
        st.v[ops["Vd"]] = pack([conv(op(a, b)) for a, b in zip(u, v)], bits)
    MODELS[tag] = fn


def _lanewise(tag, fmt, op):
    def fn(st, ops):
        st.v[ops["Vd"]] = pack([op(a) for a in lanes(st.v[ops["Vu"]], fmt)], fmt)
    MODELS[tag] = fn


for _t, _f, _op in (("add", "e", lambda a, b: a + b), ("sub", "e", lambda a, b: a - b),
                    ("mpy", "e", lambda a, b: a * b)):
    _ieee_binop("V6_v%s_hf_hf" % _t, _f, _op)
    _ieee_binop("V6_v%s_sf_sf" % _t, "f", _op)
_lanewise("V6_vabs_hf", "H", lambda x: x & 0x7fff)
_lanewise("V6_vabs_sf", "I", lambda x: x & 0x7fffffff)
_lanewise("V6_vfneg_hf", "H", lambda x: x ^ 0x8000)
_lanewise("V6_vfneg_sf", "I", lambda x: x ^ 0x80000000)
_lanewise("V6_vassign_fp", "I", lambda x: x)
_lanewise("V6_vcvt_hf_h", "h", lambda x: _f16(float(x)))
_lanewise("V6_vcvt_hf_uh", "H", lambda x: _f16(float(x)))
