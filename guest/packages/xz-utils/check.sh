#!/bin/sh
# SPDX-License-Identifier: MIT
# XZ Utils' `make check` (tests/Makefile.am's TESTS, in its order): the unit programs, then
# the scripts, which call ../src/xz/xz and ../src/xzdec/xzdec (here links to the installed
# programs) and read ../config.h. QUICK: the unit programs and test_files.sh.
. ../lib.sh
mkdir -p src/xz src/xzdec
ln -sf "$BIN/xz" src/xz/xz
ln -sf "$BIN/xzdec" src/xzdec/xzdec
cd tests
units="test_check test_hardware test_stream_flags test_filter_flags test_block_header
    test_index test_index_hash test_bcj_exact_size test_memlimit test_lzip_decoder test_vli"
t_wrap $units create_compress_files
for t in $units; do
    t_run "$t" "./$t"
done
scripts="test_files.sh"
[ -n "$QUICK" ] || scripts="$scripts test_compress_prepared_bcj_sparc
    test_compress_prepared_bcj_x86 test_compress_generated_abc
    test_compress_generated_random test_compress_generated_text test_scripts.sh"
for t in $scripts; do
    t_run "$t" env srcdir=. "./$t"
done
