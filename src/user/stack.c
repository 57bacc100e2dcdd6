// SPDX-License-Identifier: MIT
// The initial user stack as Linux's binfmt_elf builds it: from the stack pointer up, argc,
// argv[] with a NULL, envp[] with a NULL, the auxiliary vector (AT_PHDR, AT_PHENT, AT_PHNUM,
// AT_PAGESZ, AT_BASE (the interpreter's load address, 0 without one), AT_ENTRY, AT_UID..AT_EGID, AT_SECURE, AT_RANDOM, AT_EXECFN, AT_NULL), then the
// strings and 16 random bytes near the top. The stack pointer is 8-byte aligned (Hexagon ABI).
// AT_RANDOM bytes are fixed (deterministic runs) unless host time is requested.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "user.h"

enum { AT_NULL = 0, AT_PHDR = 3, AT_PHENT = 4, AT_PHNUM = 5, AT_PAGESZ = 6, AT_BASE = 7,
       AT_ENTRY = 9, AT_UID = 11, AT_EUID = 12, AT_GID = 13, AT_EGID = 14, AT_HWCAP = 16,
       AT_CLKTCK = 17, AT_SECURE = 23, AT_RANDOM = 25, AT_EXECFN = 31 };

static int push_bytes(struct hexsim_user *u, uint32_t *sp, const void *p, size_t n)
{
    if (*sp - (HEXSIM_USER_STACK_TOP - HEXSIM_USER_STACK_SIZE) < n + 4096)
        return -1;
    *sp -= (uint32_t)n;
    return hexsim_mem_copy_in(&u->mem, *sp, p, n, true, NULL) ? -1 : 0;
}

int hexsim_user_setup_stack(struct hexsim_user *u, int argc, char **argv, char **envp,
                            char *err, size_t errlen)
{
    uint32_t base = HEXSIM_USER_STACK_TOP - HEXSIM_USER_STACK_SIZE;
    if (hexsim_mem_map(&u->mem, base, HEXSIM_USER_STACK_SIZE, HEXSIM_PROT_R | HEXSIM_PROT_W)) {
        snprintf(err, errlen, "out of memory for the stack");
        return -1;
    }
    int envc = 0;
    while (envp && envp[envc])
        envc++;
    uint32_t sp = HEXSIM_USER_STACK_TOP - 16;
    // the strings' guest addresses (on the heap: the lists may be long)
    const size_t nargs = argc > 0 ? (size_t)argc : 0;
    uint32_t *argv_addr = malloc((nargs + (size_t)envc + 1) * 4);
    if (!argv_addr) {
        snprintf(err, errlen, "out of memory for the arguments");
        return -1;
    }
    uint32_t *env_addr = argv_addr + nargs;
    const char *execfn = u->path;
    if (push_bytes(u, &sp, execfn, strlen(execfn) + 1))
        goto full;
    u->execfn = sp;
    for (int i = envc - 1; i >= 0; i--) {
        if (push_bytes(u, &sp, envp[i], strlen(envp[i]) + 1))
            goto full;
        env_addr[i] = sp;
    }
    for (int i = argc - 1; i >= 0; i--) {
        if (push_bytes(u, &sp, argv[i], strlen(argv[i]) + 1))
            goto full;
        argv_addr[i] = sp;
    }
    uint8_t rnd[16];
    for (unsigned i = 0; i < 16; i++)
        rnd[i] = (uint8_t)(0x5a + 37 * i);
    sp &= ~15u;
    if (push_bytes(u, &sp, rnd, sizeof(rnd)))
        goto full;
    uint32_t random_addr = sp;
    uint32_t auxv[][2] = {
        { AT_PHDR, u->phdr_addr }, { AT_PHENT, 32 }, { AT_PHNUM, u->phnum },
        { AT_PAGESZ, HEXSIM_PAGE_SIZE }, { AT_BASE, u->interp_base }, { AT_ENTRY, u->entry },
        { AT_UID, 0 }, { AT_EUID, 0 }, { AT_GID, 0 }, { AT_EGID, 0 }, { AT_HWCAP, 0 },
        { AT_CLKTCK, 100 }, { AT_SECURE, 0 }, { AT_RANDOM, random_addr },
        { AT_EXECFN, u->execfn }, { AT_NULL, 0 },
    };
    size_t nwords = 1 + (size_t)argc + 1 + (size_t)envc + 1 + 2 * (sizeof(auxv) / sizeof(auxv[0]));
    if ((uint64_t)sp - base < 4 * (uint64_t)nwords + 8 + 4096)   // (no wrap below base)
        goto full;
    sp = (uint32_t)((sp - 4 * nwords) & ~7u);
    uint32_t p = sp;
#define PUT(v) do { uint32_t w_ = (v); hexsim_mem_copy_in(&u->mem, p, &w_, 4, true, NULL); p += 4; } while (0)
    PUT((uint32_t)argc);
    for (int i = 0; i < argc; i++)
        PUT(argv_addr[i]);
    PUT(0);
    for (int i = 0; i < envc; i++)
        PUT(env_addr[i]);
    PUT(0);
    for (size_t i = 0; i < sizeof(auxv) / sizeof(auxv[0]); i++) {
        PUT(auxv[i][0]);
        PUT(auxv[i][1]);
    }
#undef PUT
    free(argv_addr);
    u->cpu.r[29] = sp;
    return 0;
full:
    free(argv_addr);
    snprintf(err, errlen, "arguments and environment do not fit in the %u MiB stack",
             HEXSIM_USER_STACK_SIZE >> 20);
    return -1;
}
