#!/bin/sh
# SPDX-License-Identifier: MIT
# bzip2's `make test` (its Makefile's test target: compress the three reference files at
# -1, -2 and -3 and compare with the shipped .bz2 files, decompress the .bz2 files and
# compare with the references), one test per step, plus -t on each file and bzip2recover.
. ../lib.sh
bz=$BIN/bzip2
for i in 1 2 3; do
    t_run "compress-$i" sh -c "$bz -$i < sample$i.ref > sample$i.rb2 && cmp sample$i.bz2 sample$i.rb2"
    t_run "decompress-$i" sh -c "$bz -d < sample$i.bz2 > sample$i.tst && cmp sample$i.ref sample$i.tst"
    t_run "integrity-$i" "$bz" -t "sample$i.bz2"
done
if [ -z "$QUICK" ]; then
    # a damaged file (sample2.ref at -1 is three blocks; cut in the third): bzip2recover
    # writes each block it finds as a .bz2 of its own; the first decompresses to the
    # start of the input
    t_run recover sh -c "$bz -1 -c sample2.ref > three.bz2 &&
        dd if=three.bz2 of=bad.bz2 bs=1000 count=60 2>/dev/null &&
        $BIN/bzip2recover bad.bz2 && $bz -dc rec00001bad.bz2 > r1 &&
        test \$(wc -c < r1) -gt 50000 && head -c \$(wc -c < r1) sample2.ref | cmp - r1"
fi
rm -f sample?.rb2 sample?.tst three.bz2 bad.bz2 rec*bad.bz2 r1
