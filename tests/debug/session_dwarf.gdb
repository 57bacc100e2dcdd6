# SPDX-License-Identifier: MIT
# Scripted debugger session on progs/dwarfprog.c built with -g -O0 (tests/debug/debug_test.py
# compares the transcript with session_dwarf.expected): DWARF line tables (file:line in
# stops and backtraces, list, break FILE:LINE, info line), typed variables (base types,
# arrays, structs, pointers, enums, bit fields, double), casts, ptype/whatis, frames
# (up/down/frame N), display, clear, tbreak's wording, a backtrace through a call that
# never returns, finish refused in the outermost frame. Nothing here may depend on the stack
# address: no &local, $sp, $fp or info frame.
break area
info breakpoints
run
bt
info args
print s
print *s
print s->name
print s->corner
print s->corner[1].y
print/x s->flags
print s->color
print (int)s->color + 1
ptype s
ptype struct shape
ptype struct point
whatis s->corner
whatis s->corner[0].x
ptype u32
list
list
info line area
finish
break dwarfprog.c:65
tbreak fact
continue
bt
print n
up
print a
print n
down
frame 1
info locals
frame 0
finish
continue
print a
print f
print counter
print table
print/x table
print table[1] + table[2]
print &table[2]
print *&table[3]
print greeting
print greeting[1]
print zeros
print box
print *list_head
print list_head->corner[0]
print &box.corner[1]
print list_head->name[1]
print ratio
print sizeof(struct shape)
print sizeof box
print (long long)table[3] << 40
print (char)table[0]
print *(struct point *)&table
print main
print &main
print nosuch
print box.nosuch
whatis main
list fact
list dwarfprog.c:60
info line dwarfprog.c:65
display counter
display/x a
info display
break finish_prog
continue
undisplay 1
info display
bt
up
up
up
down 2
clear finish_prog
clear finish_prog
info breakpoints
frame 3
finish
continue
