// SPDX-License-Identifier: MIT
// Process entry: the kernel leaves argc, argv[], NULL, envp[], NULL, auxv at the stack pointer.
#include <stdlib.h>
#include "libc.h"

int main(int argc, char **argv, char **envp);
char **environ;
char *__progname = "";

__attribute__((noreturn, used)) void __libc_start(long *sp)
{
    int argc = (int)sp[0];
    char **argv = (char **)(sp + 1);
    environ = argv + argc + 1;
    if (argc > 0 && argv[0])
        __progname = argv[0];
    exit(main(argc, argv, environ));
}

__asm__(".text\n.globl _start\n.type _start,@function\n_start:\n"
        "  r0 = r29\n"
        "  r29 = and(r29, #-8)\n"
        "  allocframe(#0)\n"
        "  call __libc_start\n");
