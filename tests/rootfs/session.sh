# Scripted shell session (stdin of /bin/sh); expected output in session.expected.
# Oracle: bash gives the same output (the ctest checks this when bash is present).
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
cd /nonexistent-dir 2>/dev/null; echo "bad cd status $?"
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
exit 3
