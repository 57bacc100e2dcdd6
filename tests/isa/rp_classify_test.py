#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# Unit test of random_packets.py's classifier of known qemu deviations (insn_facts,
# deviation_tags, known_deviation with tests/isa/qemu_deviations.txt): a shrunk case whose
# deviating row sits in a hardware loop (a J2_ploop2si set-up around F2_conv_df2ud of -0.0,
# qemu-hexagon 7.2 setting USR's invalid bit) is the known deviation [convert-negative-zero-df]
# as the packet alone is; the loop set-up row gets no facts and names no deviation; an
# operand the loop writes is no fact (the case is then not classified), nor is another
# operand value. No simulator runs: the records are made here.
# Usage: rp_classify_test.py [--isa-dir src/cpu/isa]
import argparse
import os
import struct
import sys
import unittest

sys.dont_write_bytecode = True   # no __pycache__ in the source tree
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import execlib as X  # noqa: E402
import random_packets as RP  # noqa: E402
import rp_gen as G  # noqa: E402

ISA_DIR = os.path.join(os.path.dirname(os.path.dirname(HERE)), "src", "cpu", "isa")
NEG_ZERO = 0x8000000000000000


def record(usr):
    """A record (execlib.decode's layout) with all registers zero but USR."""
    rec = bytearray(X.REC_SIZE + X.BUF_SIZE)
    struct.pack_into("<I", rec, X.CTRL_OFF + 4 * X.CTRL_NAMES.index("usr"), usr)
    return bytes(rec)


class Classifier(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.gen = G.Gen(ISA_DIR)
        cls.devs = X.load_deviations()
        # qemu-hexagon 7.2 sets USR's invalid bit (0x2) for convert_df2ud(-0.0), hexsim not
        cls.recs = (record(0x102), record(0x100), 0, "")

    def insn(self, tag, ops, wr=(), wp=(), pins=None):
        ins = G.Insn(self.gen.by_tag[tag])
        ins.ops.update(ops)
        ins.wr, ins.wp = set(wr), set(wp)
        ins.pins = dict(pins or {})
        return ins

    def packet(self, *insns):
        ps = G.PacketState()
        for i in insns:
            ps.add(i)
        return ps

    def convert(self, rss=NEG_ZERO):
        return self.insn("F2_conv_df2ud", {"Rdd32": 0, "Rss32": 12}, wr=(0, 1),
                         pins={12: rss & 0xffffffff, 13: rss >> 32})

    def case(self, unit):
        return G.RPCase([unit], [0] * 32, 0, 0, {}, bytes(X.BUF_SIZE), False)

    def loop(self, *body):
        setup = self.insn("J2_ploop2si", {"Ii": "@L@b0", "II": 1, "II.ext": False}, wp=(3,))
        return self.case(G.Unit("loop", [self.packet(setup), self.packet(*body)],
                                {"levels": 1, "end0": ":endloop0"}))

    def classify(self, case):
        return RP.known_deviation(self.devs, case.execlib_case(), RP.deviation_tags(case),
                                  self.recs, RP.insn_facts(case))

    def test_packet_alone(self):
        case = self.case(G.Unit("packet", [self.packet(self.convert())]))
        dev = self.classify(case)
        self.assertIsNotNone(dev)
        self.assertEqual(dev.name, "convert-negative-zero-df")

    def test_in_pipelined_loop(self):
        case = self.loop(self.convert())
        facts = RP.insn_facts(case)
        self.assertEqual(facts["F2_conv_df2ud"]["Rss"], NEG_ZERO)
        self.assertNotIn("J2_ploop2si", facts)
        self.assertEqual(RP.deviation_tags(case), {"F2_conv_df2ud"})
        dev = self.classify(case)
        self.assertIsNotNone(dev, "a J2_ploop2si around the row hides the known deviation")
        self.assertEqual(dev.name, "convert-negative-zero-df")

    def test_loop_writes_the_operand(self):
        # r13 = #0 in the body: Rss is not the same in every iteration, so no fact
        case = self.loop(self.convert(), self.insn("A2_tfrsi", {"Rd32": 13, "Ii": 0}, wr=(13,)))
        self.assertNotIn("Rss", RP.insn_facts(case)["F2_conv_df2ud"])
        self.assertIsNone(self.classify(case))

    def test_other_value(self):
        self.assertIsNone(self.classify(self.loop(self.convert(NEG_ZERO | 1))))


if __name__ == "__main__":
    ap = argparse.ArgumentParser()
    ap.add_argument("--isa-dir", default=ISA_DIR)
    a, rest = ap.parse_known_args()
    ISA_DIR = a.isa_dir
    sys.exit(0 if unittest.main(argv=[sys.argv[0]] + rest, exit=False).result.wasSuccessful()
             else 1)
