#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# Random words, disassembled by llvm-objdump-16 and hexsim-objdump; the listings must be equal.
# At least a million 32-bit words from a fixed seed are laid out as packets of 1-4 words: parse
# bits (15:14) 01 on the words before the last and 11 on the last, now and then 10 on the first
# one or two words (endloop0, endloop1, endloop01), and about one last word in 8 a duplex
# (parse bits 00). The words are written with .long into .s files, assembled by llvm-mc-16 and
# compared chunk by chunk, the chunks in parallel on the machine's cores.
# With --hvx the words are compared with HVX enabled (--mattr=+hvx,+hvx-ieee-fp,+hvx-qfloat at
# V60, V62, V65, V68, V69 and V73, and once without it), and half of them are drawn from the
# HVX encoding spaces (bits 31:27 00011 and 00101, and the vextract space 1001 0010 000).
# Usage: random_words.py --hexsim BUILD/hexsim-objdump --work DIR [--hvx]
# Environment: HEXSIM_RANDOM_SEED (seed), HEXSIM_RANDOM_WORDS (number of words).
import argparse
import concurrent.futures
import os
import random
import sys
import time

sys.dont_write_bytecode = True   # no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import odiff  # noqa: E402

CHUNK_WORDS = 50000


def parse(word, bits):
    return (word & ~0xc000) | (bits << 14)


HVX_MATTR = ["--mattr=+hvx,+hvx-ieee-fp,+hvx-qfloat"]
HVX_CPU_SETS = [["--mcpu=hexagonv" + v] + HVX_MATTR for v in ("60", "62", "65", "68", "69", "73")]


def random_word(rng, hvx):
    w = rng.getrandbits(32)
    if hvx and rng.randrange(2):
        space = rng.randrange(5)
        if space < 2:
            w = (w & 0x07ffffff) | 0x18000000    # HVX compute
        elif space < 4:
            w = (w & 0x07ffffff) | 0x28000000    # HVX memory
        else:
            w = (w & 0x001fffff) | 0x92000000    # vextract (and the scalar rows beside it)
    return w


def make_packets(rng, nwords, maxk, hvx=False):
    packets, total = [], 0
    while total < nwords:
        k = rng.randint(1, maxk)
        words = [random_word(rng, hvx) for _ in range(k)]
        for i in range(k - 1):
            words[i] = parse(words[i], 1)
        words[-1] = parse(words[-1], 0 if rng.randrange(8) == 0 else 3)
        if k >= 2 and rng.randrange(8) == 0:
            kind = rng.choice(["0", "1", "01"]) if k >= 3 else "0"
            if "0" in kind:
                words[0] = parse(words[0], 2)
            if "1" in kind:
                words[1] = parse(words[1], 2)
        packets.append(words)
        total += k
    return packets


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--hexsim", required=True)
    ap.add_argument("--work", required=True)
    ap.add_argument("--diffs", help="file to write every differing line to")
    ap.add_argument("--max-packet-words", type=int, default=4, choices=range(1, 5),
                    help="longest packet laid out (1: every word its own packet)")
    ap.add_argument("--hvx", action="store_true", help="with HVX (see the header)")
    args = ap.parse_args()
    odiff.require(odiff.LLVM_MC, odiff.LLVM_OBJDUMP)
    seed = int(os.environ.get("HEXSIM_RANDOM_SEED", "1234567"))
    nwords = int(os.environ.get("HEXSIM_RANDOM_WORDS", "1000000"))
    print("random_words: seed %d, %d words (set HEXSIM_RANDOM_SEED / HEXSIM_RANDOM_WORDS "
          "to change)" % (seed, nwords))
    os.makedirs(args.work, exist_ok=True)
    t0 = time.time()
    packets = make_packets(random.Random(seed), nwords, args.max_packet_words, args.hvx)
    cpu_sets = ([[]] + HVX_CPU_SETS) if args.hvx else None
    chunks, cur, count = [], [], 0
    for p in packets:
        cur.append(p)
        count += len(p)
        if count >= CHUNK_WORDS:
            chunks.append(cur)
            cur, count = [], 0
    if cur:
        chunks.append(cur)
    jobs = [(args.hexsim, c, args.work, "random%03d" % i, cpu_sets) for i, c in enumerate(chunks)]
    insns = unknown = 0
    diffs, crashed = [], []
    with concurrent.futures.ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as ex:
        for n, u, d, c in ex.map(lambda j: odiff.compare_packets(*j), jobs):
            insns += n
            unknown += u
            diffs += d
            crashed += c
    total = sum(len(p) for p in packets)
    print("random_words: %d words in %d packets, %d chunks, %.1f s" %
          (total, len(packets), len(chunks), time.time() - t0))
    print("random_words: llvm-objdump printed %d instruction lines, %d of them <unknown>" %
          (insns, unknown))
    if crashed:
        print("random_words: llvm-objdump-16 crashes on %d packets (left out):" % len(crashed))
        for p in crashed[:20]:
            print("  " + " ".join("%08x" % w for w in p))
    ok = odiff.report("random_words", insns, diffs, all_diffs_path=args.diffs)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
