// SPDX-License-Identifier: MIT
// Architectural state of one Hexagon hardware thread as user code sees it (PRM section 2
// "Registers"): general registers R0-R31, predicates P0-P3, and the user control registers
// C0-C31 (SA0, LC0, SA1, LC1, P3:0, M0, M1, USR, PC, UGP, GP, CS0, CS1, UPCYCLE, FRAMELIMIT,
// FRAMEKEY, PKTCOUNT, UTIMER), and the HVX registers (hvx.h).
#ifndef HEXSIM_CPU_CPU_H
#define HEXSIM_CPU_CPU_H

#include <stdbool.h>
#include <stdint.h>

#include "hvx.h"
#include "timing.h"

enum hexsim_creg {
    HX_SA0 = 0, HX_LC0 = 1, HX_SA1 = 2, HX_LC1 = 3, HX_P3_0 = 4, HX_M0 = 6, HX_M1 = 7,
    HX_USR = 8, HX_PC = 9, HX_UGP = 10, HX_GP = 11, HX_CS0 = 12, HX_CS1 = 13,
    HX_UPCYCLELO = 14, HX_UPCYCLEHI = 15, HX_FRAMELIMIT = 16, HX_FRAMEKEY = 17,
    HX_PKTCOUNTLO = 18, HX_PKTCOUNTHI = 19, HX_UTIMERLO = 30, HX_UTIMERHI = 31,
};

// USR fields (PRM 2.2.3 "User status register")
#define HX_USR_OVF 0x1u          // sticky saturation overflow
#define HX_USR_FPINVF 0x2u       // sticky floating-point flags: invalid,
#define HX_USR_FPDBZF 0x4u       //   divide by zero,
#define HX_USR_FPOVFF 0x8u       //   overflow,
#define HX_USR_FPUNFF 0x10u      //   underflow,
#define HX_USR_FPINPF 0x20u      //   inexact
#define HX_USR_LPCFG_SHIFT 8     // bits 9:8 loop configuration (spNloop0)
#define HX_USR_LPCFG_MASK 0x300u
#define HX_USR_FPRND_SHIFT 22    // bits 23:22 rounding mode
#define HX_USR_FPRND_MASK 0xc00000u

struct hexsim_cpu {
    uint32_t r[32];
    uint32_t c[32];       // control registers; c[4] (P3:0) and c[9] (PC) are kept below
    uint8_t p[4];
    uint32_t g[32];       // guest control registers G0-G31 (system mode: the HVM's GELR,
                          // GSR, GOSP, GBADVA are G0-G3)
    uint32_t pc;
    uint64_t pcycles;     // the pcycle clock (UPCYCLE); the timing model advances it
    uint64_t packets;     // packets committed (PKTCOUNT)
    // LL/SC reservation (memw_locked/memd_locked): address, width and the value loaded
    bool reserved;
    uint8_t reserve_size;
    uint32_t reserve_addr;
    uint64_t reserve_val;
    struct hexsim_timing_state tm;   // the timing model's state and statistics (timing.h)
    struct hexsim_hvx hvx;           // HVX vector registers and predicates (hvx.h)
};

#endif
