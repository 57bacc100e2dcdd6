# SPDX-License-Identifier: MIT
# Stepping by source line on progs/lineprog.c built with -g -O0 (tests/debug/debug_test.py
# compares the transcript with session_line.expected), as gdb steps: next over calls, step
# into functions with line information (stopping after their prologue) and back out into
# the middle of the caller's line, the report (the line alone in the same frame, the frame
# first in another), a loop's lines, until leaving the loop, advance (stopping when the frame
# returns first, then to the line), step N, nexti by packet, and step in code without line
# information (_start) by packet; a step that reaches a breakpoint stops as the breakpoint.
step
break main
continue
tbreak 37
next
step
next
step
next
next
step
advance 53
next
next
step
next
next
next
next
bt
until
until
advance 62
advance 62
nexti
step 2
step
finish
