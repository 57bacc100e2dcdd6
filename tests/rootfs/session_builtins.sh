# Shell session that runs no other program (the host's /bin has no Hexagon programs) and
# forks no subshell (qemu-hexagon's fork and hexsim --user's are tested elsewhere), for
# ash under qemu-hexagon and hexsim --user; output compared with
# session_builtins.expected, which bash also produces.
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
for i in 1 2 3; do printf '%s.' "$i"; done; echo
n=0; while [ $n -lt 5 ]; do n=$((n + 1)); [ $n -eq 2 ] && continue; [ $n -eq 4 ] && break; echo "n=$n"; done
until [ $n -le 0 ]; do n=$((n - 2)); done; echo "until: $n"
for w in apple berry cherry 42; do
    case $w in
    a*) echo "$w: starts with a" ;;
    *rr*) echo "$w: has rr" ;;
    [0-9]*) echo "$w: a number" ;;
    *) echo "$w: other" ;;
    esac
done
if [ "$X" = 7 ]; then echo if-then; elif true; then echo no; else echo no; fi
if false; then echo no; elif [ -n "$A" ]; then echo elif-branch; fi
fact() { if [ "$1" -le 1 ]; then r=1; else fact $(($1 - 1)); r=$(( $1 * r )); fi; }
fact 10; echo "fact 10 = $r"
count() { local c=0; for _ in "$@"; do c=$((c + 1)); done; echo "$# args, counted $c"; return 3; }
count a "b c" d; echo "function status $?"
set -- p q r; echo "positional: $# $2 ${3}"; shift; echo "after shift: $*"
s=hello.world.txt; echo "${s%.*} ${s%%.*} ${s#*.} ${s##*.} ${#s} ${unset_var:-default}"
{ echo grouped; echo lines; } > /dev/null; echo "group status $?"
printf '%d-%s-%x\n' 42 str 255
exit 5
