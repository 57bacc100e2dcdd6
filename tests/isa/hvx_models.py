# SPDX-License-Identifier: MIT
# Models of HVX instructions from the HVX Programmer's Reference Manual's pseudo-code, for the
# rows qemu-hexagon 7.2 cannot run (the V68 floating point, qfloat, the V69 and V73
# additions): hvx_exec.py compares hexsim --user with the model's state instead of qemu's.
# A model takes the state before the instruction and its operands and changes the state:
#   st.r[0..27] (ints), st.v[0..31] (bytearrays of 128), st.q[0..3] (lists of 128 bits),
#   st.p (p0-p3, ints 0..255), st.m (m0, m1), st.buf (the scratch buffer, bytearray);
#   ops: {"Vd": 3, "Vuu": 4 (a pair's low register), "Rt": 5, "Qv": 1, "Ii": -2, ...}
# Models of rows qemu runs are checked against qemu too (hvx_exec.py --model-check); the rows
# in ALSO are checked against both always: qemu-hexagon 7.2 in the cases where it follows the
# PRM, the model in all.
import struct

MODELS = {}
ALSO = set()


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


# vgather and vscatter (HVX PRM "Vector gather", "Vector scatter"; hexsim: src/cpu/hvx_mem.c,
# "VTCM"): the region is rt (aligned down to the element size) .. rt + (mu | size - 1);
# element i at byte offset off[i]; bytes past the region's end are dropped, as are bytes
# whose predicate bit (Qs) is clear; a gather's dropped bytes are not written by the
# packet's `vmem(r26+#_st) = vtmp.new` store, which writes the gathered bytes to the aligned
# block; a scatter-accumulate adds (wrapping) the element at its offset aligned down, the
# elements in order. qemu-hexagon 7.2 copies and writes dropped bytes too (it loads every
# element and does not apply the predicate or the region to a gather, nor the region to a
# scatter), so hvx_exec.py gives it offsets inside the region and checks the rest here.
def _vtcm_offsets(st, ops, tag, size):
    if "hw" in tag:
        lo, hi = lanes(st.v[ops["Vvv"]], "I"), lanes(st.v[ops["Vvv"] ^ 1], "I")
        return [x for pair in zip(lo, hi) for x in pair]
    return lanes(st.v[ops["Vv"]], "H" if size == 2 else "I")


def _vtcm(tag):
    size = 4 if tag.startswith(("V6_vgathermw", "V6_vscattermw")) else 2
    gather, add, pred = "gather" in tag, tag.endswith("_add"), tag.endswith("q")

    def fn(st, ops):
        rt = (st.r[ops["Rt"]] & ~(size - 1)) - st.buf_addr
        last = (st.m[ops["Mu"]] & 0xffffffff) | (size - 1)
        q = st.q[ops["Qs"]] if pred else None
        offs = _vtcm_offsets(st, ops, tag, size)
        before = bytes(st.buf)
        if gather:
            dest = ((st.r[26] + ops["_st"] * 128) & ~127) - st.buf_addr
        w = bytes(st.v[ops["Vw"]]) if not gather else None
        for i, o in enumerate(offs):
            if add:
                o &= ~(size - 1)
                if o > last:
                    continue
                a = rt + o
                val = int.from_bytes(st.buf[a:a + size], "little") + \
                    int.from_bytes(w[i * size:(i + 1) * size], "little")
                st.buf[a:a + size] = (val & ((1 << 8 * size) - 1)).to_bytes(size, "little")
                continue
            for k in range(size):
                lane = i * size + k
                if o + k > last or (q and not q[lane]):
                    continue
                if gather:
                    st.buf[dest + lane] = before[rt + o + k]
                else:
                    st.buf[rt + o + k] = w[lane]
    MODELS[tag] = fn
    ALSO.add(tag)


for _t in ["V6_vgathermh", "V6_vgathermhq", "V6_vgathermhw", "V6_vgathermhwq", "V6_vgathermw",
           "V6_vgathermwq", "V6_vscattermh", "V6_vscattermh_add", "V6_vscattermhq",
           "V6_vscattermhw", "V6_vscattermhw_add", "V6_vscattermhwq", "V6_vscattermw",
           "V6_vscattermw_add", "V6_vscattermwq"]:
    _vtcm(_t)


# vmem(Rx++#Ii / Mu):scatter_release (HVX PRM "Vector scatter": a zero-byte store that orders
# the thread's scatters before its later loads): no memory effect, the post-increment of its
# addressing mode, which qemu-hexagon 7.2 leaves out (Rx keeps its value there).
@model("V6_vS32b_srls_pi")
def srls_pi(st, ops):
    st.r[ops["Rx"]] = (st.r[ops["Rx"]] + ops["Ii"] * 128) & 0xffffffff


@model("V6_vS32b_srls_ppu")
def srls_ppu(st, ops):
    st.r[ops["Rx"]] = (st.r[ops["Rx"]] + st.m[ops["Mu"]]) & 0xffffffff
