// SPDX-License-Identifier: MIT
// Flame graph pictures: reads folded call stacks ("f;g;h 123" lines, as --profile writes them
// next to its table) and draws them as an SVG in the layout of the common flame graph tools:
// one box per function per stack position, the root at the bottom, widths proportional to
// the pcycles spent under it, siblings in name order, warm colours by name, a tooltip with
// the pcycles and percent, and a script for zooming and searching in a browser. Debian 12
// packages no such tool, hence this small one.
#ifndef HEXSIM_CORE_FLAMEGRAPH_H
#define HEXSIM_CORE_FLAMEGRAPH_H

#include <stddef.h>

// Splits a folded line "a;b;c N" (no newline) into its stack, NUL-terminated in place, and
// *count = N. 0, or -1 when it is not one.
int hexsim_folded_line(char *line, unsigned long long *count);

// Reads the folded stacks in folded_path and writes the picture to svg_path with the title.
// 0, or -1 with a message.
// The picture's script (flamegraph_script.c): zoom and search in a browser.
extern const char hexsim_flamegraph_script[];

int hexsim_flamegraph_write(const char *folded_path, const char *svg_path, const char *title,
                            char *msg, size_t msglen);

#endif
