# Scripted shell session for BusyBox's ash in the booted guest (tests/boot/ash_test.py
# session: `sh ash_session.sh` with TMPD set, stdout and stderr together); expected output
# in ash_session.expected, @TMPD@ standing for $TMPD. Oracle: bash with GNU tools gives the
# same output (the test checks this when bash is present).
echo hello world
X=5; echo "x is $X" 'and $X' \$X "${X}0"
echo $((6*7)) $(( (1+2) * 3 - 10 / 3 )) $((X * 2 + 1)) $((1 << 4)) $((-7 % 3)) $((2 > 1 && 3 != 3))
false; echo status $?
true && echo and-ok || echo no
false && echo no || echo or-ok
false || false && echo no; echo after
A="a   b"; echo [$A] ["$A"] [''] [""]
export GREETING=hi; sh -c 'echo child sees $GREETING'
LOCAL=only-here sh -c 'echo prefix $LOCAL'; echo "after prefix [$LOCAL]"
mkdir -p $TMPD/d/e
cd $TMPD/d && pwd; echo "cd status $?"
cd e; echo "now in $(pwd)"; cd ..; echo "back in `pwd`"
# (a failed cd gives status 2 in ash, 1 in bash: both fail)
cd /nonexistent-dir 2>/dev/null || echo "bad cd fails"
echo "substitution: $(echo inner $((1+1)) | wc -c) words: $(echo a b c)"
printf-less 2>/dev/null || echo "missing command status $?"
echo line1 > $TMPD/f.txt; echo line2 >> $TMPD/f.txt; echo line3 >> $TMPD/f.txt
cat $TMPD/f.txt | grep -v 2 | wc -l
wc -l < $TMPD/f.txt
cat < $TMPD/f.txt | head -n 1
cat $TMPD/f.txt | grep line | grep 3
ls $TMPD/d
echo errors 2> $TMPD/err.txt; cat /nonexistent 2> $TMPD/err.txt; echo "cat status $?"; grep -c No $TMPD/err.txt
echo to-stderr 1>&2 2>/dev/null
! false && echo negated
echo "multi
line"
echo 'single
quoted'
echo a\
b
uname -s
echo $(( 100 / 7 )) $(( 100 % 7 )) $(( 0x10 + 010 ))
rm -r $TMPD/d; ls $TMPD
cd $TMPD
# loops over other programs' output, functions in pipes
seq 1 5 | while read n; do [ $((n % 2)) = 1 ] && echo "odd $n"; done
for f in one two three; do echo $f; done | sort | tr '\n' ' '; echo
count_lines() { wc -l < "$1"; }
echo "f.txt has $(count_lines $TMPD/f.txt) lines"
shout() { tr a-z A-Z; }
echo quiet words | shout | cut -d' ' -f2
printf 'b\na\nc\n' | sort | head -n 2 | xargs echo sorted:
echo "a b c" | awk '{ print $3, NF }'
cat <<EOF
here-document $X $((X + 1))
EOF
x=outer; (x=inner; echo "subshell $x"); echo "after $x"
# background jobs and wait
(sleep 1; echo bg-slow) & (echo bg-fast) & wait; echo waited
# (ash reports the job it reaped, "Terminated", on stderr; bash does not)
sleep 10 & pid=$!; kill $pid; wait $pid 2>/dev/null; echo "killed status $?"
trap 'echo trapped USR1' USR1; kill -USR1 $$; trap - USR1
# archives
mkdir -p $TMPD/t/u; echo data > $TMPD/t/u/f
(cd $TMPD && tar czf t.tgz t && rm -r t && tar xzf t.tgz && cat t/u/f && rm -r t t.tgz)
echo hello | gzip | gunzip
find $TMPD -name '*.txt' | sort
case $(uname -m) in *) echo "case on a substitution" ;; esac
exit 3
