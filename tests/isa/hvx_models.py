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
# mul, since 53 >= 2*24+2), overflow to infinity, any NaN result the HVX default NaN 0x7fff /
# 0x7fffffff (Qualcomm's reference C for the HVX IEEE unit, see sem/hvx_fp.h).
def _f16(x):
    if x != x:
        return 0x7fff
    try:
        return struct.unpack("<H", struct.pack("<e", x))[0]
    except OverflowError:
        return 0xfc00 if x < 0 else 0x7c00


def _f32(x):
    if x != x:
        return 0x7fffffff
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


# ---- The V68/V73 IEEE rows that the block above leaves out (widening and fused forms,
# vdmpy, min/max, float compares, conversions, bfloat): an exact model (fractions.Fraction,
# one explicit round-to-nearest-even into the result format), independent of hexsim's host
# float arithmetic. The edge choices (sem/hvx_fp.h gives their sources): no flush to zero; any
# NaN operand or NaN result gives the default NaN 0x7fff (hf, bf) / 0x7fffffff (sf); float
# to integer (vcvt) rounds to nearest even and saturates, NaN the largest value; V73 vconv to
# integer chops, NaN the extreme of its sign; vmax/vmin (not vfmax) order +NaN above +Inf and
# -NaN below -Inf and keep the NaN; vcmp.gt orders QNaN > SNaN > +Inf ... -Inf > -SNaN > -QNaN.
from fractions import Fraction  # noqa: E402

_HF, _SF, _BF = (5, 10), (8, 23), (8, 7)   # (exponent bits, fraction bits)
_DNAN = {_HF: 0x7fff, _SF: 0x7fffffff, _BF: 0x7fff}


def _dec(x, fmt):
    """A float's value: None for a NaN, a float infinity, or (Fraction, sign bit)."""
    eb, mb = fmt
    sign, e, m = (x >> (eb + mb)) & 1, (x >> mb) & ((1 << eb) - 1), x & ((1 << mb) - 1)
    if e == (1 << eb) - 1:
        return None if m else (float("-inf") if sign else float("inf"))
    bias = (1 << (eb - 1)) - 1
    v = Fraction(m if e == 0 else m | (1 << mb)) * Fraction(2) ** (max(e, 1) - bias - mb)
    return (-v if sign else v, sign)


def _enc(r, fmt):
    """Rounds a value from _dec/_add/_mul into fmt, to nearest even."""
    eb, mb = fmt
    top = 1 << (eb + mb)
    if r is None:
        return _DNAN[fmt]
    if isinstance(r, float):
        return (top if r < 0 else 0) | (((1 << eb) - 1) << mb)
    v, neg = r
    if v == 0:
        return top if neg else 0
    sign, a = (top if v < 0 else 0), abs(v)
    bias = (1 << (eb - 1)) - 1
    e = a.numerator.bit_length() - a.denominator.bit_length()
    if Fraction(2) ** e > a:
        e -= 1
    e = max(e, 1 - bias)                      # subnormals share the smallest exponent
    q = a / Fraction(2) ** (e - mb)
    n = q.numerator // q.denominator
    rem = q - n
    if rem > Fraction(1, 2) or (rem == Fraction(1, 2) and n & 1):
        n += 1
    if n >= 2 << mb:                          # the rounding carried into the next binade
        n, e = n >> 1, e + 1
    if n < (1 << mb):                         # subnormal
        return sign | n
    if e + bias >= (1 << eb) - 1:
        return sign | (((1 << eb) - 1) << mb)
    return sign | ((e + bias) << mb) | (n - (1 << mb))


def _finite(x):
    return x is not None and not isinstance(x, float)


def _f(x):
    return x if isinstance(x, float) else float(x[0])


def _add(x, y):
    if x is None or y is None:
        return None
    if not (_finite(x) and _finite(y)):
        r = _f(x) + _f(y)
        return None if r != r else r
    s = x[0] + y[0]
    return (s, x[0] == 0 and y[0] == 0 and x[1] and y[1])


def _neg(x):
    return x if x is None else (-x if isinstance(x, float) else (-x[0], x[1] ^ 1))


def _mul(x, y):
    if x is None or y is None:
        return None
    if not (_finite(x) and _finite(y)):
        r = _f(x) * _f(y)
        return None if r != r else r
    return (x[0] * y[0], x[1] ^ y[1])


def _rd(st, name, fmt):
    """The lanes of operand `name` (a vector) as raw integers of fmt's width."""
    return lanes(st.v[name], "H" if fmt != _SF else "I")


def pair_hi(low):
    """A pair's high register: v(n+1) of vn+1:n, v(n-1) of the reversed vn-1:n (odd n)."""
    return low + 1 if low % 2 == 0 else low - 1


def _wr_pair(st, base, lanes_lo, lanes_hi, code):
    st.v[base] = pack(lanes_lo, code)
    st.v[pair_hi(base)] = pack(lanes_hi, code)


def _widen(tag, fmt, op):
    """Vdd.sf = op(Vu.fmt, Vv.fmt): lane 2i to Vdd's low vector lane i, 2i+1 to the high one."""
    def fn(st, ops):
        u, v = _rd(st, ops["Vu"], fmt), _rd(st, ops["Vv"], fmt)
        r = [_enc(op(_dec(a, fmt), _dec(b, fmt)), _SF) for a, b in zip(u, v)]
        _wr_pair(st, ops["Vdd"], r[0::2], r[1::2], "I")
    MODELS[tag] = fn


for _fmt, _n in ((_HF, "hf"), (_BF, "bf")):
    _widen("V6_vadd_sf_" + _n, _fmt, _add)
    _widen("V6_vsub_sf_" + _n, _fmt, lambda a, b: _add(a, _neg(b)))
    _widen("V6_vmpy_sf_" + _n, _fmt, _mul)


def _fma_wide(tag, fmt):
    def fn(st, ops):
        u, v = _rd(st, ops["Vu"], fmt), _rd(st, ops["Vv"], fmt)
        x = lanes(st.v[ops["Vxx"]], "I"), lanes(st.v[pair_hi(ops["Vxx"])], "I")
        r = [_enc(_add(_mul(_dec(a, fmt), _dec(b, fmt)), _dec(x[i & 1][i >> 1], _SF)), _SF)
             for i, (a, b) in enumerate(zip(u, v))]
        _wr_pair(st, ops["Vxx"], r[0::2], r[1::2], "I")
    MODELS[tag] = fn


_fma_wide("V6_vmpy_sf_hf_acc", _HF)
_fma_wide("V6_vmpy_sf_bf_acc", _BF)


@model("V6_vmpy_hf_hf_acc")
def _vmpy_hf_hf_acc(st, ops):
    u, v, x = (_rd(st, ops[k], _HF) for k in ("Vu", "Vv", "Vx"))
    st.v[ops["Vx"]] = pack([_enc(_add(_mul(_dec(a, _HF), _dec(b, _HF)), _dec(c, _HF)), _HF)
                            for a, b, c in zip(u, v, x)], "H")


def _dmpy(u, v, i):
    return _enc(_add(_mul(_dec(u[2 * i], _HF), _dec(v[2 * i], _HF)),
                     _mul(_dec(u[2 * i + 1], _HF), _dec(v[2 * i + 1], _HF))), _SF)


@model("V6_vdmpy_sf_hf")
def _vdmpy_sf_hf(st, ops):
    u, v = _rd(st, ops["Vu"], _HF), _rd(st, ops["Vv"], _HF)
    st.v[ops["Vd"]] = pack([_dmpy(u, v, i) for i in range(32)], "I")


@model("V6_vdmpy_sf_hf_acc")
def _vdmpy_sf_hf_acc(st, ops):
    u, v, x = _rd(st, ops["Vu"], _HF), _rd(st, ops["Vv"], _HF), _rd(st, ops["Vx"], _SF)
    st.v[ops["Vx"]] = pack([_enc(_add(_dec(_dmpy(u, v, i), _SF), _dec(x[i], _SF)), _SF)
                            for i in range(32)], "I")


def _fminmax(a, b, fmt, mx):
    """vfmax/vfmin: a NaN gives the default NaN; -0 < +0; otherwise the chosen operand."""
    x, y = _dec(a, fmt), _dec(b, fmt)
    if x is None or y is None:
        return _DNAN[fmt]
    fx, fy = _f(x), _f(y)
    if fx == fy == 0:
        negs = ((a >> (sum(fmt))) & 1) + ((b >> (sum(fmt))) & 1)
        want_neg = negs == 2 if mx else negs >= 1
        return a if ((a >> sum(fmt)) & 1) == want_neg else b
    return a if (fx > fy) == mx else b


def _minmax_nan(a, b, fmt, mx):
    """vmax/vmin: +NaN above +Inf, -NaN below -Inf; the NaN operand itself is the result."""
    x, y = _dec(a, fmt), _dec(b, fmt)
    sa, sb = (a >> sum(fmt)) & 1, (b >> sum(fmt)) & 1
    if (x is None and not sa) or (y is None and sb):
        return a if mx else b
    if (y is None and not sb) or (x is None and sa):
        return b if mx else a
    return _fminmax(a, b, fmt, mx)


def _lanes2(tag, fmt, fn):
    code = "I" if fmt == _SF else "H"

    def run(st, ops):
        u, v = lanes(st.v[ops["Vu"]], code), lanes(st.v[ops["Vv"]], code)
        st.v[ops["Vd"]] = pack([fn(a, b) for a, b in zip(u, v)], code)
    MODELS[tag] = run


for _mx, _n in ((True, "max"), (False, "min")):
    _lanes2("V6_vf%s_hf" % _n, _HF, lambda a, b, m=_mx: _fminmax(a, b, _HF, m))
    _lanes2("V6_vf%s_sf" % _n, _SF, lambda a, b, m=_mx: _fminmax(a, b, _SF, m))
    _lanes2("V6_v%s_hf" % _n, _HF, lambda a, b, m=_mx: _minmax_nan(a, b, _HF, m))
    _lanes2("V6_v%s_sf" % _n, _SF, lambda a, b, m=_mx: _minmax_nan(a, b, _SF, m))
    _lanes2("V6_v%s_bf" % _n, _BF, lambda a, b, m=_mx: _fminmax(a, b, _BF, m))


def _gt(a, b, fmt):
    """vcmp.gt: numbers by value (+0 == -0), NaNs QNaN > SNaN > +Inf, -Inf > -SNaN > -QNaN."""
    def key(x):
        d = _dec(x, fmt)
        if d is None:
            quiet = (x >> (fmt[1] - 1)) & 1
            tier = 3 if quiet else 2
            return (-tier if (x >> sum(fmt)) & 1 else tier, 0.0)
        return (0, _f(d) if isinstance(d, float) else d[0])
    return key(a) > key(b)


def _vgt(tag, fmt, op):
    size = 4 if fmt == _SF else 2

    def fn(st, ops):
        u, v = _rd(st, ops["Vu"], fmt), _rd(st, ops["Vv"], fmt)
        q = st.q[ops["Qd" if op is None else "Qx"]]
        for i, (a, b) in enumerate(zip(u, v)):
            c = 1 if _gt(a, b, fmt) else 0
            for k in range(i * size, (i + 1) * size):
                q[k] = c if op is None else op(q[k], c)
    MODELS[tag] = fn


for _fmt, _n in ((_HF, "hf"), (_SF, "sf"), (_BF, "bf")):
    for _suf, _op in (("", None), ("_and", lambda o, c: o & c), ("_or", lambda o, c: o | c),
                      ("_xor", lambda o, c: o ^ c)):
        _vgt("V6_vgt%s%s" % (_n, _suf), _fmt, _op)


def _to_int(x, fmt, lo, hi, nan, chop):
    d = _dec(x, fmt)
    if d is None:
        return nan(x)
    if isinstance(d, float):
        return lo if d < 0 else hi
    n = int(d[0]) if chop else round(d[0])   # int() chops; round() of a Fraction: ties to even
    return max(lo, min(hi, n))


def _cvt_lanes(tag, src, dst, fn):
    def run(st, ops):
        st.v[ops["Vd"]] = pack([fn(a) for a in lanes(st.v[ops["Vu"]], src)], dst)
    MODELS[tag] = run


_cvt_lanes("V6_vcvt_h_hf", "H", "h", lambda a: _to_int(a, _HF, -32768, 32767,
                                                       lambda x: 32767, False))
_cvt_lanes("V6_vcvt_uh_hf", "H", "H", lambda a: _to_int(a, _HF, 0, 65535, lambda x: 65535, False))
_cvt_lanes("V6_vconv_h_hf", "H", "h", lambda a: _to_int(a, _HF, -32768, 32767,
                                                        lambda x: -32768 if x >> 15 else 32767,
                                                        True))
_cvt_lanes("V6_vconv_w_sf", "I", "i", lambda a: _to_int(a, _SF, -2 ** 31, 2 ** 31 - 1,
                                                        lambda x: -2 ** 31 if x >> 31 else
                                                        2 ** 31 - 1, True))
_cvt_lanes("V6_vconv_hf_h", "h", "H", lambda a: _enc((Fraction(a), 0), _HF))
_cvt_lanes("V6_vconv_sf_w", "i", "I", lambda a: _enc((Fraction(a), 0), _SF))


def _narrow_to_bytes(tag, lo, hi, nanv):
    """Vd.b/ub = vcvt(Vu.hf, Vv.hf): bytes 4i, 4i+1 from Vu's lanes 2i, 2i+1, 4i+2, 4i+3 from
    Vv's."""
    def run(st, ops):
        u, v = _rd(st, ops["Vu"], _HF), _rd(st, ops["Vv"], _HF)
        out = []
        for i in range(32):
            for src in (u, v):
                out += [_to_int(src[2 * i + k], _HF, lo, hi, lambda x: nanv, False)
                        for k in (0, 1)]
        st.v[ops["Vd"]] = pack(out, "B")
    MODELS[tag] = run


_narrow_to_bytes("V6_vcvt_b_hf", -128, 127, 127)
_narrow_to_bytes("V6_vcvt_ub_hf", 0, 255, 255)


def _widen_bytes(tag, code):
    """Vdd.hf = vcvt(Vu.b/ub): byte 4i+k to Vdd's vector k >> 1, lane 2i + (k & 1)."""
    def run(st, ops):
        b = lanes(st.v[ops["Vu"]], code)
        h = [_enc((Fraction(x), 0), _HF) for x in b]
        lo = [h[4 * i + k] for i in range(32) for k in (0, 1)]
        hi = [h[4 * i + 2 + k] for i in range(32) for k in (0, 1)]
        _wr_pair(st, ops["Vdd"], lo, hi, "H")
    MODELS[tag] = run


_widen_bytes("V6_vcvt_hf_b", "b")
_widen_bytes("V6_vcvt_hf_ub", "B")


def _narrow_sf(tag, fmt):
    """Vd.hf/bf = vcvt(Vu.sf, Vv.sf): Vu's lane i to lane 2i, Vv's to 2i+1."""
    def run(st, ops):
        u, v = _rd(st, ops["Vu"], _SF), _rd(st, ops["Vv"], _SF)
        out = []
        for a, b in zip(u, v):
            out += [_enc(_dec(a, _SF), fmt), _enc(_dec(b, _SF), fmt)]
        st.v[ops["Vd"]] = pack(out, "H")
    MODELS[tag] = run


_narrow_sf("V6_vcvt_hf_sf", _HF)
_narrow_sf("V6_vcvt_bf_sf", _BF)


@model("V6_vcvt_sf_hf")
def _vcvt_sf_hf(st, ops):
    r = [_enc(_dec(a, _HF), _SF) for a in _rd(st, ops["Vu"], _HF)]
    _wr_pair(st, ops["Vdd"], r[0::2], r[1::2], "I")


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
