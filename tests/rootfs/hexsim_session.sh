# Shell session for hexsim --user (no fork/exec there: builtins only); output compared with
# hexsim_session.expected, which bash also produces.
echo hello world
X=7; echo "x=$X" 'x=$X' $((X * 6)) $(( (X + 3) / 2 )) $((X % 4)) $((X << 2))
false; echo "status $?"
true && echo and-ok || echo no
false && echo no || echo or-ok
A="a   b"; echo [$A] ["$A"]
Y=$((X*X)); echo "y=${Y}!"
! true; echo "negated $?"
echo "multi
line"; echo a\
b
exit 5
