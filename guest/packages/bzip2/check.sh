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
    # a file with a damaged second block: bzip2recover writes the blocks it can read
    # (each its own .bz2); the undamaged ones decompress to the reference's bytes
    t_run recover sh -c "$bz -1 -c sample3.ref sample3.ref > two.bz2 &&
        dd if=two.bz2 of=bad.bz2 bs=1 count=30000 2>/dev/null &&
        $BIN/bzip2recover bad.bz2 > /dev/null 2>&1 && $bz -dc rec00001bad.bz2 | cmp - sample3.ref"
fi
rm -f sample?.rb2 sample?.tst two.bz2 bad.bz2 rec*bad.bz2
