#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# Execution of the instructions qemu-hexagon 7.2 cannot run: the audio extension of the "t"
# cores (V67t, V71t) and the V73 additions. qemu-hexagon cannot be the oracle here, so the
# expected values come from a model of the Programmer's Reference Manual pseudo-code
# written below in Python with unbounded integers (read again against QEMU's later
# imported semantics, target/hexagon/imported/mpy.idef and alu.idef; nothing copied):
#   cmpyrw(Rss,Rtt)  = Rss.w0*Rtt.w0 - Rss.w1*Rtt.w1   conj (Rtt*): + instead of -
#   cmpyiw(Rss,Rtt)  = Rss.w0*Rtt.w1 + Rss.w1*Rtt.w0   conj: Rss.w1*Rtt.w0 - Rss.w0*Rtt.w1
#   Rdd = / Rxx += : the low 64 bits (the accumulation wraps)
#   vdmpyw(Rss,Rtt)  = Rss.w0*Rtt.w0 + Rss.w1*Rtt.w1 (llvm-mc's alias: cmpyrw(Rss,Rtt*))
#   Rd = ...:<<1[:rnd]:sat : sat32((v [+ 2^30]) >> 31), USR:OVF set when it saturates
#   clip(Rs,#u5) = min(2^u - 1, max(Rs, -2^u)); vclip: each word
#   cround(Rss,#u6 / Rt): Rss / 2^n rounded to nearest, ties to even (n = Rt & 63)
#   callrh Rs / jumprh Rs: callr / jumpr (the h: a hint for the branch predictor)
#   unpause: no architectural effect on a single thread
# Each group is one assembly program (llvm-mc-16 for its core, ld.lld-16) that sets the
# operands, runs each case as its own packet, and writes the results and USR to stdout; it
# runs under `hexsim --user` with the block compiler and with --no-jit, and both must give
# the model's values. The core comes from the ELF's e_flags (V67t: 0x8067); the same
# programs under --mcpu of a core without those instructions must stop with SIGILL.
# Usage: new_cores.py --hexsim BUILD/hexsim --work DIR [--cases N] [--seed S]
import argparse
import os
import random
import shutil
import struct
import subprocess
import sys

LLVM_MC = os.environ.get("LLVM_MC", "llvm-mc-16")
LLD = os.environ.get("LLD", "ld.lld-16")
M32, M64 = (1 << 32) - 1, (1 << 64) - 1


def s32(v):
    v &= M32
    return v - (1 << 32) if v >> 31 else v


def s64(v):
    v &= M64
    return v - (1 << 64) if v >> 63 else v


def word(v, i):
    return s32(v >> (32 * i))


def cmpyw(ss, tt, imag, conj):
    s0, s1, t0, t1 = word(ss, 0), word(ss, 1), word(tt, 0), word(tt, 1)
    if not imag:
        return s0 * t0 + s1 * t1 if conj else s0 * t0 - s1 * t1
    return s1 * t0 - s0 * t1 if conj else s0 * t1 + s1 * t0


def sat32(v):
    """(value, overflowed)"""
    if v > (1 << 31) - 1:
        return (1 << 31) - 1, True
    if v < -(1 << 31):
        return -(1 << 31), True
    return v, False


def clip(v, u):
    return min((1 << u) - 1, max(s32(v), -(1 << u)))


def cround(v, n):
    v = s64(v)
    if n == 0:
        return v & M64
    q, r = divmod(v, 1 << n)          # floor division: 0 <= r < 2^n
    half = 1 << (n - 1)
    if r > half or (r == half and q & 1):
        q += 1
    return q & M64


# One case: operands r3:2 (Rss/Rs), r5:4 (Rtt/Rt), r1:0 (Rxx before, or the old r1:0 that an
# Rd = / Rdd = form overwrites); result: r1:0 after, and USR:OVF.
class Insn:
    def __init__(self, tag, text, model, imm=None):
        self.tag, self.text, self.model, self.imm = tag, text, model, imm


def audio_insns():
    out = []
    for imag in (False, True):
        for conj in (False, True):
            op = "cmpyiw" if imag else "cmpyrw"
            star = "*" if conj else ""
            sfx = ("iw" if imag else "rw") + ("c" if conj else "")

            def dmodel(ss, tt, acc, imm, imag=imag, conj=conj):
                return cmpyw(ss, tt, imag, conj) & M64, False

            def amodel(ss, tt, acc, imm, imag=imag, conj=conj):
                return (acc + cmpyw(ss, tt, imag, conj)) & M64, False

            def wmodel(ss, tt, acc, imm, imag=imag, conj=conj, rnd=False):
                v, ovf = sat32((cmpyw(ss, tt, imag, conj)) >> 31)
                return (acc & ~M32 | v & M32) & M64, ovf

            def rmodel(ss, tt, acc, imm, imag=imag, conj=conj):
                v, ovf = sat32((cmpyw(ss, tt, imag, conj) + (1 << 30)) >> 31)
                return (acc & ~M32 | v & M32) & M64, ovf

            out += [
                Insn("M7_dcmpy" + sfx, "r1:0 = %s(r3:2,r5:4%s)" % (op, star), dmodel),
                Insn("M7_dcmpy%s_acc" % sfx, "r1:0 += %s(r3:2,r5:4%s)" % (op, star), amodel),
                Insn("M7_wcmpy" + sfx, "r0 = %s(r3:2,r5:4%s):<<1:sat" % (op, star), wmodel),
                Insn("M7_wcmpy%s_rnd" % sfx, "r0 = %s(r3:2,r5:4%s):<<1:rnd:sat" % (op, star),
                     rmodel),
            ]
    # vdmpyw is llvm-mc's spelling of M7_dcmpyrwc's encoding (LLVM's M7_vdmpy alias): the dot
    # product of the word pairs, which is the real part of Rss * conj(Rtt)
    out += [
        Insn("M7_vdmpy", "r1:0 = vdmpyw(r3:2,r5:4)",
             lambda ss, tt, acc, imm: ((word(ss, 0) * word(tt, 0) + word(ss, 1) * word(tt, 1))
                                       & M64, False)),
        Insn("M7_vdmpy_acc", "r1:0 += vdmpyw(r3:2,r5:4)",
             lambda ss, tt, acc, imm: ((acc + word(ss, 0) * word(tt, 0) +
                                        word(ss, 1) * word(tt, 1)) & M64, False)),
    ]
    out += [
        Insn("A7_clip", "r0 = clip(r2,#%d)",
             lambda ss, tt, acc, imm: ((acc & ~M32) | (clip(ss, imm) & M32), False), "u5"),
        Insn("A7_vclip", "r1:0 = vclip(r3:2,#%d)",
             lambda ss, tt, acc, imm: ((clip(ss, imm) & M32) |
                                       (clip(ss >> 32, imm) & M32) << 32, False), "u5"),
        Insn("A7_croundd_ri", "r1:0 = cround(r3:2,#%d)",
             lambda ss, tt, acc, imm: (cround(ss, imm), False), "u6"),
        Insn("A7_croundd_rr", "r1:0 = cround(r3:2,r4)",
             lambda ss, tt, acc, imm: (cround(ss, tt & 63), False)),
    ]
    return out


EDGES = [0, 1, M32, 0x7fffffff, 0x80000000, 0x80000001, 0x40000000, 0xc0000000, 0x10000,
         0xffff8000, 0x12345678, 0xfedcba98]


def operand64(rng):
    pick = rng.random()
    if pick < 0.4:
        return rng.choice(EDGES) | rng.choice(EDGES) << 32
    if pick < 0.6:   # small values, where rounding ties and exact results are common
        return rng.randrange(-4096, 4096) & M64
    return rng.getrandbits(64)


# The model against vectors worked by hand from the pseudo-code.
def self_check():
    ss, tt = 2 << 32 | 3, 5 << 32 | 7                 # (3 + 2i), (7 + 5i)
    assert cmpyw(ss, tt, False, False) == 3 * 7 - 2 * 5 == 11
    assert cmpyw(ss, tt, True, False) == 3 * 5 + 2 * 7 == 29
    assert cmpyw(ss, tt, False, True) == 3 * 7 + 2 * 5 == 31
    assert cmpyw(ss, tt, True, True) == 2 * 7 - 3 * 5 == -1
    big = 0x80000000 << 32 | 0x80000000               # (-2^31 - 2^31 i)
    assert cmpyw(big, big, True, False) == 1 << 63     # 2 * 2^62: past 64-bit signed
    assert sat32((1 << 63) >> 31) == ((1 << 31) - 1, True)
    assert sat32(((3 << 31) + (1 << 30)) >> 31) == (3, False)   # 3.5 ulp + half: 3 (floor)
    for v, n, want in ((5, 1, 2), (7, 1, 4), (-5, 1, -2), (6, 2, 2), (10, 2, 2), (11, 2, 3),
                       (-(1 << 63), 63, -1), ((1 << 63) - 1, 63, 1), (12345, 0, 12345)):
        assert cround(v & M64, n) == want & M64, (v, n)
    assert (clip(100, 5), clip(-100 & M32, 5), clip(0x80000000, 31)) == (31, -32, -(1 << 31))


def audio_cases(rng, n):
    cases = []
    for insn in audio_insns():
        for k in range(n):
            ss, tt, acc = operand64(rng), operand64(rng), operand64(rng)
            if insn.tag.startswith("M7_") and k < 2:   # the extremes of the 128-bit sums
                ss = tt = 0x80000000 << 32 | 0x80000000
                if k == 1:
                    ss, tt = 0x7fffffff << 32 | 0x80000000, 0x80000000 << 32 | 0x7fffffff
            imm = None
            if insn.imm == "u5":
                imm = rng.randrange(32) if k > 1 else (0, 31)[k]
            elif insn.imm == "u6":
                imm = rng.randrange(64) if k > 1 else (0, 63)[k]
            if insn.tag == "A7_croundd_rr" and k < 4:
                tt = (rng.getrandbits(26) << 6 | (0, 1, 63, 32)[k]) | rng.getrandbits(32) << 32
            if insn.tag.startswith("A7_cround") and k % 3 == 2:
                # an exact tie: bit n-1 set, the bits below it clear
                n_ = imm if imm is not None else tt & 63
                if n_:
                    ss = (rng.getrandbits(64) >> n_ << n_ | 1 << (n_ - 1)) & M64
            cases.append((insn, ss, tt, acc, imm))
    return cases


def emit_case(a, text, ss, tt, acc):
    a("  { r2 = ##0x%08x; r3 = ##0x%08x }" % (ss & M32, ss >> 32))
    a("  { r4 = ##0x%08x; r5 = ##0x%08x }" % (tt & M32, tt >> 32))
    a("  { r0 = ##0x%08x; r1 = ##0x%08x }" % (acc & M32, acc >> 32))
    a("  { r6 = #0 }")
    a("  { usr = r6 }")
    a("  { %s }" % text)
    a("  { r6 = usr }")
    a("  { memd(r28++#8) = r1:0 }")
    a("  { memw(r28++#8) = r6 }")


def program(body, nbytes):
    lines = ["  .text", "  .globl _start", "_start:", "  { r28 = ##buf }"]
    lines += body
    lines += ["  { r0 = #1; r1 = ##buf }", "  { r2 = ##%d; r6 = #64 }" % nbytes, "  { trap0(#1) }",
              "  { r0 = #0; r6 = #93 }", "  { trap0(#1) }",
              "  .bss", "  .p2align 3", "buf:", "  .space %d" % max(nbytes, 8)]
    return "\n".join(lines) + "\n"


def build(work, name, mcpu, src):
    s, o, e = (os.path.join(work, name + x) for x in (".s", ".o", ""))
    with open(s, "w") as f:
        f.write(src)
    for cmd in ([LLVM_MC, "-triple=hexagon", "-mcpu=" + mcpu, "-filetype=obj", s, "-o", o],
                [LLD, "-static", o, "-o", e]):
        p = subprocess.run(cmd, capture_output=True, text=True)
        if p.returncode:
            sys.exit("FAIL: %s: %s" % (" ".join(cmd), p.stderr.strip()))
    return e


def run(hexsim, elf, extra):
    p = subprocess.run([hexsim] + extra + ["--user", elf], capture_output=True, timeout=120)
    return p.returncode, p.stdout, p.stderr.decode("utf-8", "replace")


def check_audio(hexsim, work, rng, n):
    cases = audio_cases(rng, n)
    body = []
    for insn, ss, tt, acc, imm in cases:
        emit_case(body.append, insn.text % imm if imm is not None else insn.text, ss, tt, acc)
    elf = build(work, "audio", "hexagonv67t", program(body, 16 * len(cases)))
    bad = 0
    for mode in ([], ["--no-jit"]):
        rc, out, err = run(hexsim, elf, mode)
        if rc != 0 or len(out) != 16 * len(cases):
            print("FAIL: audio %s: exit %d, %d bytes: %s" % (mode, rc, len(out), err.strip()))
            return 1
        for i, (insn, ss, tt, acc, imm) in enumerate(cases):
            r10, usr = struct.unpack_from("<QI", out, 16 * i)
            want, ovf = insn.model(ss, tt, acc, imm)
            if r10 != want or (usr & 1) != ovf:
                bad += 1
                if bad <= 20:
                    print("FAIL %s %s: Rss=0x%016x Rtt=0x%016x r1:0=0x%016x imm=%s: "
                          "hexsim r1:0=0x%016x OVF=%d, model r1:0=0x%016x OVF=%d" %
                          (" ".join(mode) or "jit", insn.tag, ss, tt, acc, imm, r10, usr & 1,
                           want, ovf))
    tags = len({c[0].tag for c in cases})
    print("new_cores: audio: %d instructions (vdmpyw: the alias), %d cases, with and without "
          "--no-jit: %d wrong" %
          (tags, len(cases), bad))
    # the same program on cores without the audio extension: the first M7/A7 packet is refused
    for cpu in ("v67", "v73"):
        rc, _, err = run(hexsim, elf, ["--mcpu", cpu])
        if rc != 128 + 4 or "unknown instruction" not in err:
            print("FAIL: audio program with --mcpu %s: exit %d (want 132, SIGILL): %s" %
                  (cpu, rc, err.strip()))
            bad += 1
    return bad


def check_v73(hexsim, work):
    body = """
  { r5 = ##func }
  { callrh r5 }
ret1:
  { memw(r28++#4) = r0 }
  { memw(r28++#4) = r1 }
  { r2 = ##ret1 }
  { memw(r28++#4) = r2 }
  { r7 = ##target }
  { jumprh r7 }
  { r0 = ##0xdead }
  { memw(r28++#4) = r0 }
target:
  { r0 = ##0x5678 }
  { memw(r28++#4) = r0 }
  { unpause }
  { r0 = ##0x9abc }
  { memw(r28++#4) = r0 }
  { r0 = #1; r1 = ##buf; r2 = #20; r6 = #64 }
  { trap0(#1) }
  { r0 = #0; r6 = #93 }
  { trap0(#1) }
func:
  { r0 = ##0x1234; r1 = r31 }
  { jumpr r31 }
""".strip("\n").split("\n")
    src = "\n".join(["  .text", "  .globl _start", "_start:", "  { r28 = ##buf }"] + body +
                    ["  .bss", "  .p2align 3", "buf:", "  .space 32"]) + "\n"
    elf = build(work, "v73", "hexagonv73", src)
    bad = 0
    for mode in ([], ["--no-jit"]):
        rc, out, err = run(hexsim, elf, mode)
        vals = list(struct.unpack("<5I", out)) if len(out) == 20 else None
        # r0 from func, LR = ret1 (callrh links like callr), ret1, the jumprh target's value,
        # the value after unpause
        ok = (rc == 0 and vals is not None and vals[0] == 0x1234 and vals[1] == vals[2] and
              vals[3] == 0x5678 and vals[4] == 0x9abc)
        if not ok:
            print("FAIL: v73 program %s: exit %d, words %s: %s" %
                  (" ".join(mode) or "jit", rc, vals and ["0x%x" % v for v in vals],
                   err.strip()))
            bad += 1
    for cpu in ("v68", "v71t"):
        rc, _, err = run(hexsim, elf, ["--mcpu", cpu])
        if rc != 128 + 4 or "unknown instruction" not in err:
            print("FAIL: v73 program with --mcpu %s: exit %d (want 132, SIGILL): %s" %
                  (cpu, rc, err.strip()))
            bad += 1
    print("new_cores: V73: callrh, jumprh, unpause, with and without --no-jit: %s" %
          ("wrong" if bad else "right"))
    return bad


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--hexsim", required=True)
    ap.add_argument("--work", required=True)
    ap.add_argument("--cases", type=int, default=40, help="cases per audio instruction")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    missing = [t for t in (LLVM_MC, LLD) if not shutil.which(t)]
    if missing:
        print("SKIP: %s not found (tools/setup.sh installs the LLVM 16 tools)" % ", ".join(missing))
        return 77
    self_check()
    os.makedirs(args.work, exist_ok=True)
    rng = random.Random(args.seed)
    bad = check_audio(args.hexsim, args.work, rng, args.cases) + check_v73(args.hexsim, args.work)
    print("new_cores: %s" % ("FAIL" if bad else "ok"))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
