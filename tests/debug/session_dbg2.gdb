# SPDX-License-Identifier: MIT
# Scripted debugger session on progs/dbg2prog.c built with -g -O0 (tests/debug/debug_test.py
# compares the transcript with session_dbg2.expected), each command checked against gdb's
# behaviour (GDB manual; gdb 13 on a host build of the same shapes): addresses from
# registers above 0x80000000 in x, x/s, set, watch and casts; conditional breakpoints
# (break LOC if EXPR, condition N [EXPR], a condition that cannot be evaluated stops) and
# ignore counts; artificial arrays (v@n and its errors); ptype of an array of structs with
# anonymous members; run after the program started and after it ended.
break hold
run
print/x $r0
x/s $r0
x/2xw $r0+16
x/s high
print *(int *)($r0 + 16)
print/x ((int *)$r0)[4]
print (char *)$r0
set *($r0 + 16) = 0x11
x/xw $r0 + 16
watch *($r0 + 16)
continue
delete 2
break step if i == 5
break step if
info breakpoints
continue
print i
print nums[1]@3
print *nump@4
print nums[8]@2
print/x nums[0]@2
print recs[1].pts[0]@2
whatis nums[1]@3
print 5@2
print nums[0]@0
print total@nosuch
ptype recs
ptype &recs[1]
whatis recs
ptype recs[0].pair
condition 3 i > 5
ignore 3 1
info breakpoints
continue
print i
condition 3 nosuch == 1
continue
print i
condition 3
condition 9 i == 1
ignore 9 1
ignore 3
ignore
run
print total
continue
print i
delete
continue
run
info breakpoints
