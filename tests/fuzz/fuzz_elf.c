// SPDX-License-Identifier: MIT
// Fuzz target: the user-mode ELF loader. The input is an ELF image loaded from memory
// (hexsim_user_load_elf_mem: the same checks and copies as a file, through libelf's
// elf_memory); when it loads, the initial stack is built and up to MAX_PACKETS packets of
// the program run in the sandboxed process of fuzz_user.h.
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_user.h"

#define CHECK(c) do { if (!(c)) abort(); } while (0)
#define MAX_PACKETS 64

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static struct hexsim_user u;   // harness state; fully reset below
    fuzz_user_init(&u, FUZZ_MAX_PAGES + (HEXSIM_USER_STACK_SIZE >> HEXSIM_PAGE_SHIFT));
    u.arch = 0;
    char err[256] = "";
    char prog[] = "fuzz", env0[] = "HOME=/";
    char *argv[] = { prog, NULL }, *envp[] = { env0, NULL };
    if (hexsim_user_load_elf_mem(&u, data, size, "fuzz", err, sizeof err) == 0) {
        CHECK(u.arch != 0);
        CHECK(hexsim_mem_is_mapped(&u.mem, u.entry));
        if (hexsim_user_setup_stack(&u, 1, argv, envp, err, sizeof err) == 0) {
            u.cpu.pc = u.entry;
            struct hexsim_user_exec *x = fuzz_user_exec(&u);
            for (unsigned n = 0; n < MAX_PACKETS; n++) {
                struct hexsim_event_info ev;
                const struct hexsim_packet *pkt;
                int r = hexsim_user_step(&u, x, &ev, &pkt);
                if (r == HEXSIM_USER_STEP_FAULT)
                    hexsim_user_fault(&u, &ev);
                if (r != HEXSIM_USER_STEP_OK)
                    break;
            }
                }
    } else {
        CHECK(err[0] != 0);
    }
    CHECK(memchr(err, 0, sizeof err) != NULL);
    fuzz_user_free(&u);
    return 0;
}
