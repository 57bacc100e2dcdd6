// SPDX-License-Identifier: MIT
// Register names (PRM section 2: general, control, guest and system registers; the HVX PRM:
// vector registers, pairs and predicates), and the
// duplex register encodings (PRM section 10.3: 4-bit fields name r0-r7 and r16-r23,
// 3-bit pair fields name r1:0..r7:6 and r17:16..r23:22). Control/system register
// numbers without an architected name are either printed generically (c5, s11, g4) or
// rejected, following llvm-objdump-16.
#include "regnames.h"

#include <stdio.h>

#include "isa.h"

static const char *const ctrl_names[32] = {
    "sa0", "lc0", "sa1", "lc1", "p3:0", "c5", "m0", "m1",
    "usr", "pc", "ugp", "gp", "cs0", "cs1", "upcyclelo", "upcyclehi",
    "framelimit", "framekey", "pktcountlo", "pktcounthi", NULL, NULL, NULL, NULL,
    NULL, NULL, NULL, NULL, NULL, NULL, "utimerlo", "utimerhi",
};

static const char *const guest_names[32] = {
    "gelr", "gsr", "gosp", "gbadva", NULL, NULL, NULL, NULL,
    NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL,
    "gpmucnt4", "gpmucnt5", "gpmucnt6", "gpmucnt7", NULL, NULL, NULL, NULL,
    "gpcyclelo", "gpcyclehi", "gpmucnt0", "gpmucnt1", "gpmucnt2", "gpmucnt3", NULL, NULL,
};

#define HX_SYSREGS 81
static const char *const sys_names[HX_SYSREGS] = {
    [0] = "sgp0", [1] = "sgp1", [2] = "stid", [3] = "elr", [4] = "badva0", [5] = "badva1",
    [6] = "ssr", [7] = "ccr", [8] = "htid", [9] = "badva", [10] = "imask",
    [16] = "evb", [17] = "modectl", [18] = "syscfg", [21] = "vid", [27] = "cfgbase",
    [28] = "diag", [29] = "rev", [30] = "pcyclelo", [31] = "pcyclehi", [32] = "isdbst",
    [33] = "isdbcfg0", [34] = "isdbcfg1", [36] = "brkptpc0", [37] = "brkptcfg0",
    [38] = "brkptpc1", [39] = "brkptcfg1", [40] = "isdbmbxin", [41] = "isdbmbxout",
    [42] = "isdben", [43] = "isdbgpr", [48] = "pmucnt0", [49] = "pmucnt1",
    [50] = "pmucnt2", [51] = "pmucnt3", [52] = "pmuevtcfg", [53] = "pmucfg",
};

static int put(char *buf, size_t len, const char *fmt, unsigned a, unsigned b)
{
    if (!buf)
        return 0;   // only whether it is a register (the decoder asks for every operand)
    int n = snprintf(buf, len, fmt, a, b);
    return (n < 0 || (size_t)n >= len) ? -1 : 0;
}

static int put_name(char *buf, size_t len, const char *name)
{
    if (!buf)
        return 0;
    int n = snprintf(buf, len, "%s", name);
    return (n < 0 || (size_t)n >= len) ? -1 : 0;
}

int hexsim_reg_name(unsigned kind, unsigned v, char *buf, size_t len)
{
    switch (kind) {
    case HX_OPK_R:
    case HX_OPK_R8:
        return put(buf, len, "r%u", v, 0);
    case HX_OPK_RR:
        v &= ~1u;
        return put(buf, len, "r%u:%u", v + 1, v);
    case HX_OPK_R16:
        return put(buf, len, "r%u", hexsim_subreg(v), 0);
    case HX_OPK_RR8: {
        unsigned lo = (v & 3) * 2 + ((v & 4) ? 16 : 0);
        return put(buf, len, "r%u:%u", lo + 1, lo);
    }
    case HX_OPK_P:
        return put(buf, len, "p%u", v, 0);
    case HX_OPK_M:
        return put(buf, len, "m%u", v, 0);
    case HX_OPK_C:
        if (v >= 32 || !ctrl_names[v])
            return -1;
        return put_name(buf, len, ctrl_names[v]);
    case HX_OPK_CC:
        if ((v & 1) || v >= 32 || (v >= 20 && v < 30))
            return -1;
        return put(buf, len, "c%u:%u", v + 1, v);
    case HX_OPK_G:
        if (v >= 32)
            return -1;
        if (guest_names[v])
            return put_name(buf, len, guest_names[v]);
        return put(buf, len, "g%u", v, 0);
    case HX_OPK_GG:
        if ((v & 1) || v >= 32)
            return -1;
        return put(buf, len, "g%u:%u", v + 1, v);
    case HX_OPK_S:
        if (v >= HX_SYSREGS)
            return -1;
        if (sys_names[v])
            return put_name(buf, len, sys_names[v]);
        return put(buf, len, "s%u", v, 0);
    case HX_OPK_SS:
        v &= ~1u;
        if (v + 1 >= HX_SYSREGS)
            return -1;
        return put(buf, len, "s%u:%u", v + 1, v);
    case HX_OPK_V:
        return v < 32 ? put(buf, len, "v%u", v, 0) : -1;
    case HX_OPK_VV:   // an odd field names the reversed pair v(n-1):n (hvx.h)
        if (v >= 32)
            return -1;
        return put(buf, len, "v%u:%u", (v & 1) ? v - 1 : v + 1, v);
    case HX_OPK_Q:
        return v < 4 ? put(buf, len, "q%u", v, 0) : -1;
    default:
        return -1;
    }
}
