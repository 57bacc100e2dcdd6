#!/bin/sh
# SPDX-License-Identifier: MIT
# The documents made from the option tables (src/cli/docgen.c): every option of hexsim is in
# `hexsim --help`, `hexsim --help all`, the man page hexsim(1) and the bash completion, every
# option of hexsim-objdump in its --help and hexsim-objdump(1); both man pages format
# without a warning (groff -ww); the completion offers options, the words of an option's
# argument, and leaves the words after `--user PROG` to the program.
# Usage: cli_docs_test.sh HEXSIM HEXSIM_OBJDUMP HEXSIM_DOCGEN DOC_DIR
set -eu

if [ $# -ne 4 ]; then
    echo "usage: $0 HEXSIM HEXSIM_OBJDUMP HEXSIM_DOCGEN DOC_DIR" >&2
    exit 2
fi
HEXSIM=$1 OBJDUMP=$2 DOCGEN=$3 DOC=$4
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT INT TERM
failures=0
fail() {
    echo "FAIL: $*" >&2
    failures=$((failures + 1))
}

"$HEXSIM" --help >"$TMP/help"
"$HEXSIM" --help all >"$TMP/all"
"$OBJDUMP" --help >"$TMP/od_help"
"$DOCGEN" names >"$TMP/names"
"$DOCGEN" names hexsim-objdump >"$TMP/od_names"
[ "$(wc -l <"$TMP/names")" -ge 35 ] || fail "docgen names: only $(wc -l <"$TMP/names") options"
while read -r name; do
    man=$(printf '%s' "$name" | sed 's/-/\\-/g')    # roff writes - as \-
    grep -q -F -- "$name" "$TMP/help" || fail "$name is not in hexsim --help"
    grep -q -F -- "$name" "$TMP/all" || fail "$name is not in hexsim --help all"
    grep -q -F -- "$man" "$DOC/hexsim.1" || fail "$name is not in hexsim.1"
    grep -q -F -- " $name " "$DOC/hexsim" || fail "$name is not in the completion"
done <"$TMP/names"
while read -r name; do
    man=$(printf '%s' "$name" | sed 's/-/\\-/g')
    grep -q -F -- "$name" "$TMP/od_help" || fail "$name is not in hexsim-objdump --help"
    grep -q -F -- "$man" "$DOC/hexsim-objdump.1" || fail "$name is not in hexsim-objdump.1"
done <"$TMP/od_names"
for page in hexsim.1 hexsim-objdump.1; do
    grep -q "^\.SH EXIT STATUS" "$DOC/$page" || fail "$page has no EXIT STATUS section"
done
# the exit statuses of --help are those of the man page
grep -E '^  [0-9]+ ' "$TMP/help" | awk '{print $1}' >"$TMP/codes"
[ "$(wc -l <"$TMP/codes")" -ge 6 ] || fail "--help lists $(wc -l <"$TMP/codes") exit statuses"
while read -r code; do
    grep -q -x "\\.B $code" "$DOC/hexsim.1" || fail "exit status $code is not in hexsim.1"
done <"$TMP/codes"

if command -v groff >/dev/null; then
    for page in hexsim.1 hexsim-objdump.1; do
        groff -man -Tutf8 -ww -z "$DOC/$page" 2>"$TMP/warn" || fail "groff failed on $page"
        [ -s "$TMP/warn" ] && fail "$page: groff warns: $(head -3 "$TMP/warn")"
    done
else
    echo "groff not installed: the man pages are checked for content only"
fi

# completion: COMPREPLY for the words typed so far (the last one being completed)
complete_words() {
    bash -c '. "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1))
             _hexsim 2>/dev/null; printf "%s\n" "${COMPREPLY[@]}"' _ "$DOC/hexsim" "$@"
}
expect_words() {    # expect_words "WANTED WORDS" WORDS...
    want=$1
    shift
    got=$(complete_words "$@" | sort | tr '\n' ' ')
    [ "$got" = "$want " ] || fail "completion of '$*': got '$got', expected '$want '"
}
if command -v bash >/dev/null; then
    expect_words "--timing --timing-info --timing-param" hexsim --timing
    expect_words "cache simple" hexsim --timing ""
    expect_words "virtual wall" hexsim --clock = ""
    expect_words "debug" hexsim --help de
    expect_words "" hexsim --user prog --mem     # the program's own argument
    expect_words "--max-packets --max-seconds --mcpu --mem" hexsim --m
    expect_words "--max-packets --max-seconds" hexsim --user --max
else
    fail "bash is not installed"
fi

if [ "$failures" -ne 0 ]; then
    echo "$failures check(s) failed" >&2
    exit 1
fi
echo "cli_docs: all checks passed"
