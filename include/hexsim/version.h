// SPDX-License-Identifier: MIT
// Version of the hexsim library. The number is set once, by project(VERSION) in the
// top-level CMakeLists.txt, and reaches the code through a generated header.
#ifndef HEXSIM_VERSION_H
#define HEXSIM_VERSION_H

// Returns the version as "MAJOR.MINOR.PATCH", e.g. "0.1.0". The string is static and
// must not be freed or modified.
const char *hexsim_version(void);

#endif
