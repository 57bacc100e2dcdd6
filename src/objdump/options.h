// SPDX-License-Identifier: MIT
// The option table of hexsim-objdump (options_table.c), in the row format of hexsim's
// (src/cli/options.h), so that the same printers make its help and man page.
#ifndef HEXSIM_OBJDUMP_OPTIONS_H
#define HEXSIM_OBJDUMP_OPTIONS_H

#include "cli/exit_status.h"
#include "cli/options.h"

enum od_option {
    OD_DISASSEMBLE, OD_NO_SHOW_RAW_INSN, OD_SHOW_RAW_INSN, OD_START_ADDRESS, OD_STOP_ADDRESS,
    OD_MCPU, OD_MATTR, OD_HELP, OD_VERSION,
};

extern const struct cli_option od_option_table[];   // ends with a row whose help is NULL
extern const char *const od_usage_lines[];
extern const char od_description[];
extern const struct hexsim_exit_info od_exit_list[];

#endif
