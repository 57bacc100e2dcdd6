// SPDX-License-Identifier: MIT
// A small x86-64 instruction encoder for the block compiler (jit.c): the handful of forms
// it needs, memory operands always as [base + disp32]. Facts: Intel 64 and IA-32
// Architectures Software Developer's Manual, volume 2 (REX prefixes, ModRM/SIB, opcodes).
#ifndef HEXSIM_CPU_X86_EMIT_H
#define HEXSIM_CPU_X86_EMIT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum x86_reg {
    X86_RAX, X86_RCX, X86_RDX, X86_RBX, X86_RSP, X86_RBP, X86_RSI, X86_RDI,
    X86_R8, X86_R9, X86_R10, X86_R11, X86_R12, X86_R13, X86_R14, X86_R15,
};

// Condition codes (the low nibble of Jcc).
enum x86_cc { X86_CC_B = 2, X86_CC_AE = 3, X86_CC_E = 4, X86_CC_NE = 5, X86_CC_BE = 6,
              X86_CC_A = 7, X86_CC_S = 8, X86_CC_L = 12, X86_CC_GE = 13 };

// Where the code goes; `full` once an instruction did not fit (nothing past `end` is written).
struct x86_buf {
    uint8_t *p, *start, *end;
    bool full;
};

void x86_init(struct x86_buf *b, uint8_t *start, size_t size);

// Copies n bytes of ready code (a stencil); returns where they went, NULL if they did not fit.
uint8_t *x86_copy(struct x86_buf *b, const uint8_t *code, size_t n);
void x86_push(struct x86_buf *b, int r);
void x86_pop(struct x86_buf *b, int r);
void x86_ret(struct x86_buf *b);
void x86_call_reg(struct x86_buf *b, int r);
// call target: rel32 when it is within reach, else through rax (clobbered either way).
void x86_call(struct x86_buf *b, const void *target);
void x86_mov_r64_imm64(struct x86_buf *b, int r, uint64_t v);
void x86_mov_r32_imm32(struct x86_buf *b, int r, uint32_t v);
void x86_mov_r64_r64(struct x86_buf *b, int dst, int src);
// Loads and stores: size 1 (stores only; loads zero-extend with x86_movzx8), 4 or 8 bytes.
void x86_load(struct x86_buf *b, unsigned size, int dst, int base, int32_t disp);
void x86_movzx8(struct x86_buf *b, int dst, int base, int32_t disp);
void x86_store(struct x86_buf *b, unsigned size, int base, int32_t disp, int src);
void x86_store_imm(struct x86_buf *b, unsigned size, int base, int32_t disp, int32_t imm);
void x86_lea(struct x86_buf *b, int dst, int base, int32_t disp);
// [base + disp] (size 4 or 8) += imm
void x86_add_mem_imm(struct x86_buf *b, unsigned size, int base, int32_t disp, int32_t imm);
void x86_or_mem_imm32(struct x86_buf *b, int base, int32_t disp, uint32_t imm);
void x86_or_mem_r32(struct x86_buf *b, int base, int32_t disp, int r);   // [base+disp] |= r
void x86_and_mem_imm32(struct x86_buf *b, int base, int32_t disp, uint32_t imm);
void x86_add_mem_r64(struct x86_buf *b, int base, int32_t disp, int r);   // [base+disp] += r
void x86_sub_r64_r64(struct x86_buf *b, int dst, int src);
void x86_add_r64_r64(struct x86_buf *b, int dst, int src);
void x86_add_r64_imm(struct x86_buf *b, int r, int32_t imm);
void x86_add_r64_mem(struct x86_buf *b, int r, int base, int32_t disp);
void x86_dec_r32(struct x86_buf *b, int r);
void x86_shr_r32_imm(struct x86_buf *b, int r, unsigned n);
void x86_and_r32_imm(struct x86_buf *b, int r, uint32_t imm);
void x86_xor_r32_r32(struct x86_buf *b, int dst, int src);
void x86_imul_r64_imm(struct x86_buf *b, int dst, int src, int32_t imm);
// Compares / tests setting the flags for a following Jcc.
void x86_cmp_mem_imm(struct x86_buf *b, unsigned size, int base, int32_t disp, int32_t imm);
void x86_cmp_r32_imm(struct x86_buf *b, int r, int32_t imm);   // always an imm32, last
void x86_cmp_r32_r32(struct x86_buf *b, int a, int c);   // a - c
void x86_cmp_r64_mem(struct x86_buf *b, int r, int base, int32_t disp);
void x86_cmp_r64_r64(struct x86_buf *b, int a, int c);   // a - c
void x86_test_mem_imm32(struct x86_buf *b, int base, int32_t disp, uint32_t imm);
void x86_test_mem_imm8(struct x86_buf *b, int base, int32_t disp, uint8_t imm);
void x86_test_r32_r32(struct x86_buf *b, int a, int c);
void x86_test_r32_imm(struct x86_buf *b, int r, uint32_t imm);
void x86_test_r64_r64(struct x86_buf *b, int a, int c);
void x86_cmp_mem_r32(struct x86_buf *b, int base, int32_t disp, int r);   // [base+disp] - r
// Jumps with a 32-bit displacement: each returns where the displacement is, for x86_patch
// (to the current position), or 0 when the buffer is full.
size_t x86_jcc(struct x86_buf *b, int cc);
size_t x86_jmp(struct x86_buf *b);
void x86_jmp_reg(struct x86_buf *b, int r);
void x86_patch(struct x86_buf *b, size_t at);
// A jump (cc < 0: unconditional) back to an earlier point of the same buffer.
void x86_jmp_back(struct x86_buf *b, int cc, const uint8_t *target);

#endif
