# SPDX-License-Identifier: MIT
# Models of the V68 HVX qfloat rows (vadd/vsub/vmpy into qf16/qf32, vconv to hf/sf) and the
# V68 v6mpy rows, for tests/isa/hvx_exec.py (through hvx_models.py: qemu-hexagon 7.2 runs
# none of them). Written apart from the C helpers (src/cpu/sem/hvx_qf.h, hvx_mpy.h) in exact
# rational arithmetic, from the same facts (see hvx_qf.h for the format, the rounding and
# the choices the PRM text leaves open):
#   qf32 word: m = bits 31:8 (signed), e = bits 7:0, value (2m+1) * 2^(e-150);
#   qf16 half: m = bits 15:5 (signed), e = bits 4:0, value (2m+1) * 2^(e-25).
# The v6mpy model is the V68 PRM's table of byte/coefficient products written out literally.
import struct
from fractions import Fraction
from math import floor

MODELS = {}


def _lanes(vec, fmt):
    n = 128 // struct.calcsize(fmt)
    return list(struct.unpack("<%d%s" % (n, fmt), bytes(vec)))


def _pack(vals, fmt):
    n = 128 // struct.calcsize(fmt)
    return bytearray(struct.pack("<%d%s" % (n, fmt), *vals))


class Q:
    """An operand: its exact value and the reference's operand exponent (PRM `exp`)."""
    def __init__(self, value, exp, frac):
        self.value, self.exp, self.frac = value, exp, frac

    def top(self):
        """exp + floor(log2 |sig|), sig = value / 2^exp; -(frac+1) for zero."""
        sig = abs(self.value) / Fraction(2) ** self.exp
        if sig == 0:
            return self.exp - (self.frac + 1)
        k = 0
        while sig >= 2:
            sig /= 2
            k += 1
        while sig < 1:
            sig *= 2
            k -= 1
        return self.exp + k


def _hi(low):
    """A pair's high register: v(n+1) of vn+1:n, v(n-1) of the reversed vn-1:n (odd n)."""
    return low + 1 if low % 2 == 0 else low - 1


def _signed(v, bits):
    return v - (1 << bits) if v >> (bits - 1) else v


def qf32(w):
    m, e = _signed(w >> 8, 24), w & 0xff
    return Q(Fraction(2 * m + 1) * Fraction(2) ** (e - 150), e - 127, 23)


def qf16(h):
    m, e = _signed(h >> 5, 11), h & 0x1f
    return Q(Fraction(2 * m + 1) * Fraction(2) ** (e - 25), e - 15, 10)


def _ieee(w, mbits, ebits, bias):
    be, f = (w >> mbits) & ((1 << ebits) - 1), w & ((1 << mbits) - 1)
    mag = (f | (1 << mbits)) if be else f
    exp = be - bias if be else 1 - bias
    v = Fraction(mag) * Fraction(2) ** (exp - mbits)
    return Q(-v if w >> (mbits + ebits) else v, exp, mbits)


def sf(w):
    return _ieee(w, 23, 8, 127)


def hf(h):
    return _ieee(h, 10, 5, 15)


def qround(value, x, frac):
    """The exact value rounded relative to exponent x into qf32 (frac 23) or qf16 (10)."""
    emax, emin, bias, ebits = (128, -127, 127, 8) if frac == 23 else (16, -15, 15, 5)
    if value == 0:
        return 0
    neg = value < 0
    ovf = abs(value) >= Fraction(2) ** (x + 1) and value != -Fraction(2) ** (x + 1)
    full = (1 << frac) - 1
    if x > emax or (ovf and x == emax):
        m, e = (-(1 << frac), emax) if neg else (full, emax)
    elif x < emin - 1:
        m, e = (-1 if neg else 0), emin
    else:
        adj = x == emin - 1 or (ovf and x < emax)
        X = value * Fraction(2) ** (frac - x - adj)
        k = floor(X / 4)
        r = X - 4 * k
        if not adj and emin <= x < emax:
            n = 4 * k + (1 if r <= Fraction(3, 2) else 2 if r <= Fraction(5, 2) else 3)
        else:
            n = 4 * k + (1 if r <= 2 else 3)
        e = x + adj
        if n % 2 == 0:          # 4k+2: the odd (2k+1) one exponent up
            n //= 2
            e += 1
        m = (n - 1) // 2        # n = 2m+1
    return ((m & ((1 << (frac + 1)) - 1)) << ebits) | ((e + bias) & ((1 << ebits) - 1))


def qadd(a, b, sub, frac):
    x = max(a.top(), b.exp) if a.exp > b.exp else max(b.top(), a.exp)
    return qround(a.value - b.value if sub else a.value + b.value, x, frac)


def qmpy(a, b, frac):
    return qround(a.value * b.value, a.exp + b.exp, frac)


def to_ieee(value, mbits, ebits, bias):
    """Round to nearest even into binary32/binary16 (gradual underflow, overflow to Inf)."""
    sign = (1 << (mbits + ebits)) if value < 0 else 0
    v = abs(value)
    if v == 0:
        return sign
    e = 1 - bias                     # the subnormal exponent unless v is larger
    while v >= Fraction(2) ** (e + 1):
        e += 1
    q = v / Fraction(2) ** (e - mbits)
    n = floor(q)
    if q - n > Fraction(1, 2) or (q - n == Fraction(1, 2) and n % 2):
        n += 1
    if n >> (mbits + 1):
        n >>= 1
        e += 1
    if n < (1 << mbits):
        return sign | n
    field = e + bias
    if field >= (1 << ebits) - 1:
        return sign | (((1 << ebits) - 1) << mbits)
    return sign | (field << mbits) | (n & ((1 << mbits) - 1))


def _binop(tag, fmt, fu, fv, op):
    def fn(st, ops):
        u, v = _lanes(st.v[ops["Vu"]], fmt), _lanes(st.v[ops["Vv"]], fmt)
        st.v[ops["Vd"]] = _pack([op(fu(a), fv(b)) for a, b in zip(u, v)], fmt)
    MODELS[tag] = fn


for _n, _s in (("add", 0), ("sub", 1)):
    _binop("V6_v%s_qf16" % _n, "H", qf16, qf16, lambda a, b, s=_s: qadd(a, b, s, 10))
    _binop("V6_v%s_qf16_mix" % _n, "H", qf16, hf, lambda a, b, s=_s: qadd(a, b, s, 10))
    _binop("V6_v%s_hf" % _n, "H", hf, hf, lambda a, b, s=_s: qadd(a, b, s, 10))
    _binop("V6_v%s_qf32" % _n, "I", qf32, qf32, lambda a, b, s=_s: qadd(a, b, s, 23))
    _binop("V6_v%s_qf32_mix" % _n, "I", qf32, sf, lambda a, b, s=_s: qadd(a, b, s, 23))
    _binop("V6_v%s_sf" % _n, "I", sf, sf, lambda a, b, s=_s: qadd(a, b, s, 23))
_binop("V6_vmpy_qf16", "H", qf16, qf16, lambda a, b: qmpy(a, b, 10))
_binop("V6_vmpy_qf16_hf", "H", hf, hf, lambda a, b: qmpy(a, b, 10))
_binop("V6_vmpy_qf16_mix_hf", "H", qf16, hf, lambda a, b: qmpy(a, b, 10))
_binop("V6_vmpy_qf32", "I", qf32, qf32, lambda a, b: qmpy(a, b, 23))
_binop("V6_vmpy_qf32_sf", "I", sf, sf, lambda a, b: qmpy(a, b, 23))


def _widen(tag, fu, fv):
    """Vdd.qf32 = vmpy(Vu.x16,Vv.x16): lane 2i+k of the inputs gives Vdd.v[k].qf32[i]."""
    def fn(st, ops):
        u, v = _lanes(st.v[ops["Vu"]], "H"), _lanes(st.v[ops["Vv"]], "H")
        res = [qmpy(fu(a), fv(b), 23) for a, b in zip(u, v)]
        st.v[ops["Vdd"]] = _pack(res[0::2], "I")
        st.v[_hi(ops["Vdd"])] = _pack(res[1::2], "I")
    MODELS[tag] = fn


_widen("V6_vmpy_qf32_hf", hf, hf)
_widen("V6_vmpy_qf32_mix_hf", qf16, hf)
_widen("V6_vmpy_qf32_qf16", qf16, qf16)


def _conv_sf_qf32(st, ops):
    st.v[ops["Vd"]] = _pack([to_ieee(qf32(w).value, 23, 8, 127)
                             for w in _lanes(st.v[ops["Vu"]], "I")], "I")


def _conv_hf_qf16(st, ops):
    st.v[ops["Vd"]] = _pack([to_ieee(qf16(h).value, 10, 5, 15)
                             for h in _lanes(st.v[ops["Vu"]], "H")], "H")


def _conv_hf_qf32(st, ops):
    lo, hi = _lanes(st.v[ops["Vuu"]], "I"), _lanes(st.v[_hi(ops["Vuu"])], "I")
    out = []
    for a, b in zip(lo, hi):
        out += [to_ieee(qf32(a).value, 10, 5, 15), to_ieee(qf32(b).value, 10, 5, 15)]
    st.v[ops["Vd"]] = _pack(out, "H")


MODELS["V6_vconv_sf_qf32"] = _conv_sf_qf32
MODELS["V6_vconv_hf_qf16"] = _conv_hf_qf16
MODELS["V6_vconv_hf_qf32"] = _conv_hf_qf32


# v6mpy (V68 PRM): a = Vuu.v[0].uw[i], b = Vuu.v[1].uw[i] (bytes a0-a3, b0-b3); cRj the
# 10-bit signed coefficient j of Vvv.v[R].uw[i] (byte j, bits 2j+1:2j of byte 3 above it).
# Per #u2: (d1 terms, d0 terms), each term (byte, coefficient): "a3" * "c10" ...
_V6MPY = {
    "v": [("a3 c10 b2 c11 b3 c12 a1 c00 b0 c01 b1 c02", "a1 c10 b0 c11 b1 c12"),
          ("a3 c00 b2 c01 b3 c02", "a3 c10 b2 c11 b3 c12 a1 c00 b0 c01 b1 c02"),
          ("a2 c10 a3 c11 b2 c12 a0 c00 a1 c01 b0 c02", "a0 c10 a1 c11 b0 c12"),
          ("a2 c00 a3 c01 b2 c02", "a2 c10 a3 c11 b2 c12 a0 c00 a1 c01 b0 c02")],
    "h": [("b3 c10 b1 c11 a3 c12 b2 c00 b0 c01 a2 c02", "b2 c10 b0 c11 a2 c12"),
          ("b3 c00 b1 c01 a3 c02", "b3 c10 b1 c11 a3 c12 b2 c00 b0 c01 a2 c02"),
          ("b1 c10 a3 c11 a1 c12 b0 c00 a2 c01 a0 c02", "b0 c10 a2 c11 a0 c12"),
          ("b1 c00 a3 c01 a1 c02", "b1 c10 a3 c11 a1 c12 b0 c00 a2 c01 a0 c02")],
}


def _coef(w, j):
    c = (((w >> 24) >> (2 * j)) & 3) << 8 | ((w >> (8 * j)) & 0xff)
    return c - 1024 if c >= 512 else c


def _v6mpy(tag, direction, acc):
    def fn(st, ops):
        dst = ops["Vxx" if acc else "Vdd"]
        ua, ub = _lanes(st.v[ops["Vuu"]], "I"), _lanes(st.v[_hi(ops["Vuu"])], "I")
        va, vb = _lanes(st.v[ops["Vvv"]], "I"), _lanes(st.v[_hi(ops["Vvv"])], "I")
        old = [_lanes(st.v[dst], "I"), _lanes(st.v[_hi(dst)], "I")]
        out = [[], []]
        d1terms, d0terms = _V6MPY[direction][ops["Ii"]]
        for i in range(32):
            byte = {"a%d" % k: (ua[i] >> (8 * k)) & 0xff for k in range(4)}
            byte.update({"b%d" % k: (ub[i] >> (8 * k)) & 0xff for k in range(4)})
            byte.update({"c0%d" % j: _coef(va[i], j) for j in range(3)})
            byte.update({"c1%d" % j: _coef(vb[i], j) for j in range(3)})
            for reg, terms in ((1, d1terms), (0, d0terms)):
                t = terms.split()
                s = sum(byte[t[k]] * byte[t[k + 1]] for k in range(0, len(t), 2))
                out[reg].append(((old[reg][i] if acc else 0) + s) & 0xffffffff)
        st.v[dst], st.v[_hi(dst)] = _pack(out[0], "I"), _pack(out[1], "I")
    MODELS[tag] = fn


_v6mpy("V6_v6mpyhubs10", "h", False)
_v6mpy("V6_v6mpyhubs10_vxx", "h", True)
_v6mpy("V6_v6mpyvubs10", "v", False)
_v6mpy("V6_v6mpyvubs10_vxx", "v", True)
