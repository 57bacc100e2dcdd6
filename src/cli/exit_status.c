// SPDX-License-Identifier: MIT
// The exit statuses of hexsim, each with what it means. `--help` (help.c) and the man page
// (docgen.c) print this list; the code returns the enum of exit_status.h, whose values the
// static assertions below tie to those of the machine (include/hexsim/machine.h) and of the
// debugger (src/debug/session.h).
#include "cli/exit_status.h"

#include "debug/session.h"
#include "hexsim/machine.h"

_Static_assert((int)HEXSIM_EXIT_OK == (int)HEXSIM_SYS_EXIT_OK, "exit status 0");
_Static_assert((int)HEXSIM_EXIT_GUEST_ERROR == (int)HEXSIM_SYS_EXIT_ERROR, "exit status 3");
_Static_assert((int)HEXSIM_EXIT_GUEST_FAIL == (int)HEXSIM_SYS_EXIT_GUEST_FAIL, "exit status 4");
_Static_assert((int)HEXSIM_EXIT_LIMIT == (int)HEXSIM_SYS_EXIT_LIMIT, "exit status 124");
_Static_assert(HEXSIM_EXIT_KILLED == HEXSIM_DBG_KILLED, "exit status 137");
_Static_assert(HEXSIM_EXIT_USAGE == HEXSIM_DBG_BAD_BREAK, "a --break that does not resolve");

const struct hexsim_exit_info hexsim_exit_list[] = {
    { "0", "help or version printed; system mode: every vCPU stopped (vmstop)" },
    { "1", "a file named on the command line cannot be read, loaded or written (a damaged, "
           "cut or foreign snapshot, or one of the other mode, included; an output file such "
           "as --profile's is checked before the run starts)" },
    { "2", "usage error: an unknown option, a value out of its range, options that do not "
           "go together, a kernel command line longer than 511 bytes, a --break location "
           "that does not resolve; --console sdl without SDL2 in the build or without a "
           "display" },
    { "3", "system mode: an event the guest cannot handle, an instruction hexsim does not "
           "implement yet, or every vCPU waiting with nothing to wake it (the console input "
           "over, the guest still at its prompt)" },
    { "4", "system mode: the guest reported a failure (angel SYS_EXIT with an error reason; "
           "the Comet kernel does this on a panic)" },
    { "124", "a --max-packets or --max-seconds limit stopped the run" },
    { "127", "--user: PROG is dynamically linked and its loader cannot be found (no -L DIR "
             "or QEMU_LD_PREFIX, or not in that root)" },
    { "137", "--gdb: the debugger killed the program (lldb's kill; 128+SIGKILL)" },
    { "--user", "the program's exit status, or 128+N when it is ended by signal N (a fault: "
                "SIGSEGV 139, SIGBUS 135, SIGILL 132, SIGTRAP 133)" },
    { NULL, NULL },
};
