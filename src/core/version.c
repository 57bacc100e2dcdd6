// SPDX-License-Identifier: MIT
// Reports the hexsim version. The string is the CMake project version, delivered by
// the build-tree header version_config.h so the number is written in one place only.
#include "hexsim/version.h"

#include "version_config.h"

const char *hexsim_version(void)
{
    return HEXSIM_VERSION_STRING;
}
