// SPDX-License-Identifier: MIT
// The context of a user-mode fault (user.h hexsim_user_fault_context), after the one-line
// report: the function and offset of the faulting packet with its source line when the
// program has DWARF, a short backtrace, and a hint when the faulting address lies just below
// the stack (an overflow: the stack is HEXSIM_USER_STACK_SIZE below HEXSIM_USER_STACK_TOP and
// does not grow). Frames, symbols and lines come from the debugger core over the process
// (src/debug, the user-mode target), so the report reads like the debugger's bt.
#include <stdlib.h>
#include <string.h>

#include "debug/debugger.h"
#include "dbg_target.h"
#include "user.h"

#define REPORT_FRAMES 8
#define BELOW_STACK (64u << 10)   // a fault this close under the stack is an overflow

static void stack_hint(struct hexsim_user *u, const struct hexsim_event_info *ev)
{
    uint32_t base = HEXSIM_USER_STACK_TOP - HEXSIM_USER_STACK_SIZE;
    uint32_t sp = u->cpu.r[29];
    bool data = ev->kind == HX_EV_FAULT_READ || ev->kind == HX_EV_FAULT_WRITE;
    if (data && ev->addr < base && base - ev->addr <= BELOW_STACK)
        fprintf(u->err, "hexsim:   hint: address 0x%08x is %u bytes below the stack "
                "(0x%08x-0x%08x, %u MiB): a stack overflow (deep or endless recursion, or "
                "large locals)?\n", ev->addr, base - ev->addr, base, HEXSIM_USER_STACK_TOP,
                HEXSIM_USER_STACK_SIZE >> 20);
    else if (sp < base && base - sp <= BELOW_STACK)
        fprintf(u->err, "hexsim:   hint: the stack pointer 0x%08x is %u bytes below the "
                "stack (0x%08x-0x%08x): a stack overflow?\n", sp, base - sp, base,
                HEXSIM_USER_STACK_TOP);
}

void hexsim_user_fault_context(struct hexsim_user *u, const struct hexsim_event_info *ev)
{
    struct hexsim_user_dbg *ud = malloc(sizeof(*ud));
    struct hexsim_debugger *d = malloc(sizeof(*d));
    struct hexsim_dbg_frame *f = malloc(REPORT_FRAMES * 2 * sizeof(*f));
    struct hexsim_dbg_target t;
    if (!ud || !d || !f) {
        free(ud);
        free(d);
        free(f);
        stack_hint(u, ev);
        return;
    }
    hexsim_user_dbg_view(ud, u, &t);
    hexsim_dbg_init(d, &t, u->err);
    unsigned n = hexsim_dbg_frames(d, f, REPORT_FRAMES * 2);
    // frame 0 with its source line, then the callers
    fprintf(u->err, "hexsim:   at ");
    hexsim_dbg_describe_frame(d, 0, u->err);
    fputc('\n', u->err);
    const char *file;
    unsigned line;
    if (hexsim_dbg_line(d, f[0].pc, &file, &line) == 0) {
        fprintf(u->err, "hexsim:     ");
        if (!hexsim_dbg_print_source_line(d, file, line, u->err))
            fprintf(u->err, "(%s:%u: source not readable)\n", file, line);
    }
    if (n > 1)
        fprintf(u->err, "hexsim:   called from:\n");
    for (unsigned i = 1; i < n && i < REPORT_FRAMES; i++) {
        fprintf(u->err, "hexsim:     #%-2u ", i);
        hexsim_dbg_describe_frame(d, i, u->err);
        fputc('\n', u->err);
    }
    if (n > REPORT_FRAMES)
        fprintf(u->err, "hexsim:     ... (more frames)\n");
    stack_hint(u, ev);
    hexsim_dbg_free(d);
    hexsim_user_dbg_free(ud);
    free(ud);
    free(d);
    free(f);
}
