# SPDX-License-Identifier: MIT
# Scripted debugger session on progs/hvxprog.c (tests/debug/hvx_test.py runs it in user mode
# and, on the same program built as an HVM test kernel, in system mode, and compares each
# transcript with session_hvx.expected / session_hvx_system.expected): stepi through HVX
# packets (each vector, predicate and vector-store write shown), info vector, lanes in print
# and set, a lane written before the loop that uses it (the result changes), a watchpoint that
# a vector store hits, and the run to the end.
break vec_step
continue
stepi 6
info vector v3 v4.uh q0
print $v3.w[5]
print/x $v4.w[5]
print $v4.ub[20]
print $v4.b[127]
print $v5.h[9]
print $q0
print/x $v5.w
print $v3.w[32]
print $v3.x[0]
print $v3 + 1
print $v3.w[1] * 2 + $v4.ub[0]
set $v3 = 1
set $v3.w[32] = 1
break vec_sum
continue
stepi 2
set $v6.w[0] = 1000
set $v6.uh[3] = 0xffff
set $q1.b[2] = 0x5a
print $q1
print $v6.w[0]
print $v6.w[1]
watch *(int *)(buf+128)
continue
print $v7.w[0]
print $v7.w[1]
x/2xw buf+128
info vector q1
delete
continue
