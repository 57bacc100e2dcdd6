// SPDX-License-Identifier: MIT
// Shared declarations of the multi-call binary.
#ifndef BOX_H
#define BOX_H
#include <stddef.h>
#define APPLET(name, fn) int fn(int argc, char **argv);
#include "applets.def"
#undef APPLET
extern const char *applet;                      // the name we run as
void warn_errno(const char *what);              // "applet: what: strerror"
int read_file(const char *path, char *buf, size_t n);   // whole small file, NUL-ended; -1 on error
int write_all(int fd, const void *buf, size_t n);
int copy_fd(int in, int out);                   // 0 or -1
#endif
