// SPDX-License-Identifier: MIT
// Core versions: names and ELF e_flags to hexsim's core numbers (include/hexsim/arch.h).
#include "hexsim/arch.h"

#include <stdbool.h>
#include <stddef.h>
#include <string.h>

static const unsigned known[] = { 5, 55, 60, 62, 65, 66, 67, 68, 69, 71, 73 };
static const unsigned tiny[] = { 67, 71 };   // versions with a "t" core

static bool listed(const unsigned *list, size_t n, unsigned v)
{
    for (size_t i = 0; i < n; i++)
        if (list[i] == v)
            return true;
    return false;
}

unsigned hexsim_arch_parse(const char *name)
{
    if (name[0] == 'h' && name[1] == 'e' && name[2] == 'x' && name[3] == 'a' &&
        name[4] == 'g' && name[5] == 'o' && name[6] == 'n')
        name += 7;
    if (*name == 'v' || *name == 'V')
        name++;
    unsigned v = 0;
    if (*name < '0' || *name > '9')
        return 0;
    for (; *name >= '0' && *name <= '9'; name++) {
        if (v > 1000)
            return 0;
        v = v * 10 + (unsigned)(*name - '0');
    }
    if (!listed(known, sizeof known / sizeof known[0], v))
        return 0;
    if (*name == 't' && name[1] == '\0' && listed(tiny, sizeof tiny / sizeof tiny[0], v))
        return v | HEXSIM_ARCH_TINY;
    return *name ? 0 : v;
}

// Versions past the newest the table knows keep their number: such a core has at least
// the instructions of the table.
unsigned hexsim_arch_from_eflags(uint32_t e_flags)
{
    unsigned m = e_flags & 0xff, v;
    if (m == 0x04)
        v = 5;
    else if (m == 0x05)
        v = 55;
    else if (m >= 0x60 && m <= 0x99 && (m & 0xf) <= 9)
        v = (m >> 4) * 10 + (m & 0xf);
    else
        return 0;
    return e_flags & 0x8000 ? v | HEXSIM_ARCH_TINY : v;
}

// The feature names llvm-mc-16/llvm-objdump-16 take for HVX (-mattr): +hvx and +hvxvNN (HVX
// of the core's version here), +hvx-ieee-fp, +hvx-qfloat, and the vector length (128 bytes
// is the mode hexsim models; +hvx-length64b is refused).
unsigned hexsim_arch_features(unsigned arch, const char *list, const char **bad)
{
    static const struct { const char *name; unsigned bits; } feats[] = {
        { "hvx", HEXSIM_ARCH_HVX }, { "hvx-ieee-fp", HEXSIM_ARCH_HVX_IEEE },
        { "hvx-qfloat", HEXSIM_ARCH_HVX_QF }, { "hvx-length128b", 0 },
    };
    const char *s = list;
    while (*s) {
        const char *start = s;
        bool on = true;
        if (*s == '+' || *s == '-')
            on = *s++ == '+';
        size_t n = 0;
        while (s[n] && s[n] != ',')
            n++;
        unsigned bits = 0;
        bool known = false;
        for (size_t i = 0; i < sizeof feats / sizeof feats[0]; i++) {
            size_t len = 0;
            while (feats[i].name[len])
                len++;
            if (len == n && !memcmp(feats[i].name, s, n)) {
                bits = feats[i].bits;
                known = true;
            }
        }
        if (!known && n >= 6 && !memcmp(s, "hvxv", 4) && s[4] >= '0' && s[4] <= '9') {
            bits = HEXSIM_ARCH_HVX;
            known = true;
        }
        if (!known) {
            if (bad)
                *bad = start;
            return 0;
        }
        arch = on ? arch | bits : arch & ~bits;
        s += n;
        if (*s == ',')
            s++;
    }
    return arch;
}
