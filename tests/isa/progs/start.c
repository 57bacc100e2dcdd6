// SPDX-License-Identifier: MIT
// Entry of the linked test ELF: runs every guest program, stores the sum where a debugger or
// simulator can see it, and spins. Only built into the linked ELF (no libc, no crt files).
#include "progs.h"

volatile int progs_result;

void _start(void)
{
    progs_result = loops_main() + sw_main() + m64_main() + fp_main() + st_main() + bits_main();
    for (;;)
        ;
}
