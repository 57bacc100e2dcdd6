// SPDX-License-Identifier: MIT
// The slow memory paths and the floating-point exact paths (sem/fp.h HX_FP_EXACT) as the
// block compiler's stencils call them (stencil.h, sem.h under HX_STENCIL): wrappers with
// clang's preserve_most convention, which keep every general register but r11 for the
// caller, around the usual functions (a load's or the exact path's value goes to
// x->slow_val). They align the stack themselves: stencils that call nothing else keep no
// alignment (tools/stencils.py). Compiled by the stencils'
// clang, for the hosts that have stencils.
#include "sem.h"
#include "sem/fp.h"

__attribute__((preserve_most, force_align_arg_pointer)) void
hx_ld_slow_keep(struct hx_exec *x, uint32_t ea, unsigned size)
{
    x->slow_val = hx_ld_slow(x, ea, size);
}

__attribute__((preserve_most, force_align_arg_pointer)) void
hx_st_slow_keep(struct hx_exec *x, uint32_t ea, unsigned size, uint64_t val)
{
    hx_st_slow(x, ea, size, val);
}

__attribute__((preserve_most, force_align_arg_pointer)) void
hx_fp_exact_keep(struct hx_exec *x, uint32_t op, uint64_t a, uint64_t b, uint64_t c)
{
    x->slow_val = hx_fp_exact(x, op, a, b, c);
}
