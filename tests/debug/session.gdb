# SPDX-License-Identifier: MIT
# Scripted debugger session on progs/dbgprog.c (tests/debug/debug_test.py compares the
# transcript with session.expected). Nothing here may depend on the stack address (it moves
# with the environment and the program's path), so sp/fp values are never printed.
info registers pc lr
finish
step -1
stepi 0
info watchpoints
break add3
tbreak fact
break *bump+8
rwatch table+8
watch counter
info breakpoints
info watchpoints
disable 3
continue
x/3i $pc-8
delete 4
continue
continue
bt
print $r0 + $r1 * 2
print/x $r2
info registers r0 r1 r2 pc lr
finish
info breakpoints
next
step 3
info symbol $pc
stepi 2
bt
finish
x/4xw table
x/2dh table
x/8xb &table
x/3i main
disassemble add3
disassemble fact,+16
set $r7 = 0x1234
set var $p1 = 0xff
info registers r7 p1 p3_0 usr
set {word} table = 77
set *(table+4) = 88
print *table + *(table+4)
print *(int *)&table + ((int *)&table)[1]
print counter
print/x *(int*)&counter
print (unsigned char)counter
print &counter
print main
print main+4
print (char)65
print 0xc0000000
print -1
print (unsigned)-1
print 7/2 + (7 % 2) * 100
print (short)0x12345
print sizeof(long long)
print/x -1
print/t 10
print/c 65
print $pc
print *0x1000
print nosuchsymbol
whatis (unsigned char)1
ptype counter
frame 1
up
down
down
frame 9
x/2uw &table
enable 3
delete 1
break add3
clear add3
clear add3
continue
bt
continue
trace on TRACEFILE
until
advance main+104
trace off
x/s $r1
info threads
thread 1
info tlb
info hvm
delete
info breakpoints
continue
continue
quit
