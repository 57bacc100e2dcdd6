// SPDX-License-Identifier: MIT
// x86-64 instruction encoder (x86_emit.h). Facts: Intel SDM volume 2, chapter 2 (REX: 0100WRXB;
// ModRM mod=10 is [base + disp32]; a base of rsp or r12 needs a SIB byte, 0x24 for no index)
// and the opcode tables of chapter 3-4 (8B/89 mov, C6/C7 mov immediate, 8D lea, 81 group 1
// with /0 add, /1 or, /4 and and /7 cmp, 01 and 03 add, 09 or, 29 sub, 39 cmp, 69 imul, C1 /5 shr, 85 and F7 /0
// test, F6 /0 test, FF /1 dec, /2 call and /4 jmp, 0F B6 movzx, B8+r mov
// immediate, 50+r push, 58+r pop, 0F 80+cc jcc rel32, E8 call rel32, E9 jmp rel32, C3 ret).
#include "x86_emit.h"

#include <string.h>

void x86_init(struct x86_buf *b, uint8_t *start, size_t size)
{
    b->p = b->start = start;
    b->end = start + size;
    b->full = false;
}

// Every instruction here is at most 15 bytes: it is written only if that much room is left.
static bool room(struct x86_buf *b)
{
    if (b->full || b->end - b->p < 16) {
        b->full = true;
        return false;
    }
    return true;
}

uint8_t *x86_copy(struct x86_buf *b, const uint8_t *code, size_t n)
{
    if (b->full || (size_t)(b->end - b->p) < n + 16) {
        b->full = true;
        return NULL;
    }
    uint8_t *at = b->p;
    memcpy(at, code, n);
    b->p += n;
    return at;
}

static void byte(struct x86_buf *b, unsigned v)
{
    *b->p++ = (uint8_t)v;
}

static void imm32(struct x86_buf *b, uint32_t v)
{
    memcpy(b->p, &v, 4);
    b->p += 4;
}

// REX with W, R from reg, B from rm; written when it carries a bit or `force` (byte registers
// other than al..bl).
static void rex(struct x86_buf *b, bool w, int reg, int rm, bool force)
{
    unsigned v = 0x40u | (w ? 8u : 0u) | ((unsigned)(reg >> 3) & 1u) << 2 |
                 ((unsigned)(rm >> 3) & 1u);
    if (v != 0x40u || force)
        byte(b, v);
}

// ModRM (and SIB) for [base + disp32] with `reg` in the reg field.
static void mem(struct x86_buf *b, int reg, int base, int32_t disp)
{
    byte(b, 0x80u | ((unsigned)reg & 7u) << 3 | ((unsigned)base & 7u));
    if ((base & 7) == X86_RSP)
        byte(b, 0x24);
    imm32(b, (uint32_t)disp);
}

// ModRM for a register operand rm with `reg` (or an opcode extension) in the reg field.
static void direct(struct x86_buf *b, int reg, int rm)
{
    byte(b, 0xC0u | ((unsigned)reg & 7u) << 3 | ((unsigned)rm & 7u));
}

void x86_push(struct x86_buf *b, int r)
{
    if (!room(b))
        return;
    rex(b, false, 0, r, false);
    byte(b, 0x50u + ((unsigned)r & 7u));
}

void x86_pop(struct x86_buf *b, int r)
{
    if (!room(b))
        return;
    rex(b, false, 0, r, false);
    byte(b, 0x58u + ((unsigned)r & 7u));
}

void x86_ret(struct x86_buf *b)
{
    if (room(b))
        byte(b, 0xC3);
}

void x86_call_reg(struct x86_buf *b, int r)
{
    if (!room(b))
        return;
    rex(b, false, 0, r, false);
    byte(b, 0xFF);
    direct(b, 2, r);
}

void x86_call(struct x86_buf *b, const void *target)
{
    if (!room(b))
        return;
    intptr_t rel = (intptr_t)target - (intptr_t)(b->p + 5);
    if (rel >= INT32_MIN && rel <= INT32_MAX) {
        byte(b, 0xE8);
        imm32(b, (uint32_t)(int32_t)rel);
        return;
    }
    x86_mov_r64_imm64(b, X86_RAX, (uint64_t)(uintptr_t)target);
    x86_call_reg(b, X86_RAX);
}

void x86_mov_r64_imm64(struct x86_buf *b, int r, uint64_t v)
{
    if (!room(b))
        return;
    rex(b, true, 0, r, false);
    byte(b, 0xB8u + ((unsigned)r & 7u));
    memcpy(b->p, &v, 8);
    b->p += 8;
}

void x86_mov_r32_imm32(struct x86_buf *b, int r, uint32_t v)
{
    if (!room(b))
        return;
    rex(b, false, 0, r, false);
    byte(b, 0xB8u + ((unsigned)r & 7u));
    imm32(b, v);
}

void x86_mov_r64_r64(struct x86_buf *b, int dst, int src)
{
    if (!room(b))
        return;
    rex(b, true, src, dst, false);
    byte(b, 0x89);
    direct(b, src, dst);
}

void x86_load(struct x86_buf *b, unsigned size, int dst, int base, int32_t disp)
{
    if (!room(b))
        return;
    rex(b, size == 8, dst, base, false);
    byte(b, 0x8B);
    mem(b, dst, base, disp);
}

void x86_movzx8(struct x86_buf *b, int dst, int base, int32_t disp)
{
    if (!room(b))
        return;
    rex(b, false, dst, base, false);
    byte(b, 0x0F);
    byte(b, 0xB6);
    mem(b, dst, base, disp);
}

void x86_store(struct x86_buf *b, unsigned size, int base, int32_t disp, int src)
{
    if (!room(b))
        return;
    rex(b, size == 8, src, base, size == 1);
    byte(b, size == 1 ? 0x88 : 0x89);
    mem(b, src, base, disp);
}

void x86_store_imm(struct x86_buf *b, unsigned size, int base, int32_t disp, int32_t imm)
{
    if (!room(b))
        return;
    rex(b, size == 8, 0, base, false);
    byte(b, size == 1 ? 0xC6 : 0xC7);
    mem(b, 0, base, disp);
    if (size == 1)
        byte(b, (unsigned)imm & 0xFFu);
    else
        imm32(b, (uint32_t)imm);
}

void x86_lea(struct x86_buf *b, int dst, int base, int32_t disp)
{
    if (!room(b))
        return;
    rex(b, true, dst, base, false);
    byte(b, 0x8D);
    mem(b, dst, base, disp);
}

void x86_add_mem_imm(struct x86_buf *b, unsigned size, int base, int32_t disp, int32_t imm)
{
    if (!room(b))
        return;
    rex(b, size == 8, 0, base, false);
    byte(b, 0x81);
    mem(b, 0, base, disp);
    imm32(b, (uint32_t)imm);
}

void x86_or_mem_imm32(struct x86_buf *b, int base, int32_t disp, uint32_t imm)
{
    if (!room(b))
        return;
    rex(b, false, 0, base, false);
    byte(b, 0x81);
    mem(b, 1, base, disp);
    imm32(b, imm);
}

void x86_or_mem_r32(struct x86_buf *b, int base, int32_t disp, int r)
{
    if (!room(b))
        return;
    rex(b, false, r, base, false);
    byte(b, 0x09);
    mem(b, r, base, disp);
}

void x86_and_mem_imm32(struct x86_buf *b, int base, int32_t disp, uint32_t imm)
{
    if (!room(b))
        return;
    rex(b, false, 0, base, false);
    byte(b, 0x81);
    mem(b, 4, base, disp);
    imm32(b, imm);
}

void x86_add_mem_r64(struct x86_buf *b, int base, int32_t disp, int r)
{
    if (!room(b))
        return;
    rex(b, true, r, base, false);
    byte(b, 0x01);
    mem(b, r, base, disp);
}

void x86_sub_r64_r64(struct x86_buf *b, int dst, int src)
{
    if (!room(b))
        return;
    rex(b, true, src, dst, false);
    byte(b, 0x29);
    direct(b, src, dst);
}

void x86_add_r64_r64(struct x86_buf *b, int dst, int src)
{
    if (!room(b))
        return;
    rex(b, true, src, dst, false);
    byte(b, 0x01);
    direct(b, src, dst);
}

void x86_add_r64_imm(struct x86_buf *b, int r, int32_t imm)
{
    if (!room(b))
        return;
    rex(b, true, 0, r, false);
    byte(b, 0x81);
    direct(b, 0, r);
    imm32(b, (uint32_t)imm);
}

void x86_add_r64_mem(struct x86_buf *b, int r, int base, int32_t disp)
{
    if (!room(b))
        return;
    rex(b, true, r, base, false);
    byte(b, 0x03);
    mem(b, r, base, disp);
}

void x86_shr_r32_imm(struct x86_buf *b, int r, unsigned n)
{
    if (!room(b))
        return;
    rex(b, false, 0, r, false);
    byte(b, 0xC1);
    direct(b, 5, r);
    byte(b, n & 31u);
}

void x86_and_r32_imm(struct x86_buf *b, int r, uint32_t imm)
{
    if (!room(b))
        return;
    rex(b, false, 0, r, false);
    byte(b, 0x81);
    direct(b, 4, r);
    imm32(b, imm);
}

void x86_imul_r64_imm(struct x86_buf *b, int dst, int src, int32_t imm)
{
    if (!room(b))
        return;
    rex(b, true, dst, src, false);
    byte(b, 0x69);
    direct(b, dst, src);
    imm32(b, (uint32_t)imm);
}

void x86_dec_r32(struct x86_buf *b, int r)
{
    if (!room(b))
        return;
    rex(b, false, 0, r, false);
    byte(b, 0xFF);
    direct(b, 1, r);
}

void x86_cmp_mem_imm(struct x86_buf *b, unsigned size, int base, int32_t disp, int32_t imm)
{
    if (!room(b))
        return;
    rex(b, size == 8, 0, base, false);
    byte(b, size == 1 ? 0x80 : 0x81);
    mem(b, 7, base, disp);
    if (size == 1)
        byte(b, (unsigned)imm & 0xFFu);
    else
        imm32(b, (uint32_t)imm);
}

void x86_cmp_r32_imm(struct x86_buf *b, int r, int32_t imm)
{
    if (!room(b))
        return;
    rex(b, false, 0, r, false);
    byte(b, 0x81);
    direct(b, 7, r);
    imm32(b, (uint32_t)imm);
}

void x86_xor_r32_r32(struct x86_buf *b, int dst, int src)
{
    if (!room(b))
        return;
    rex(b, false, src, dst, false);
    byte(b, 0x31);   // xor r/m32, r32
    direct(b, src, dst);
}

void x86_cmp_r32_r32(struct x86_buf *b, int a, int c)
{
    if (!room(b))
        return;
    rex(b, false, c, a, false);
    byte(b, 0x39);   // cmp r/m32, r32
    direct(b, c, a);
}

void x86_cmp_r64_r64(struct x86_buf *b, int a, int c)
{
    if (!room(b))
        return;
    rex(b, true, c, a, false);
    byte(b, 0x39);
    direct(b, c, a);
}

void x86_cmp_r64_mem(struct x86_buf *b, int r, int base, int32_t disp)
{
    if (!room(b))
        return;
    rex(b, true, r, base, false);
    byte(b, 0x3B);
    mem(b, r, base, disp);
}

void x86_test_mem_imm32(struct x86_buf *b, int base, int32_t disp, uint32_t imm)
{
    if (!room(b))
        return;
    rex(b, false, 0, base, false);
    byte(b, 0xF7);
    mem(b, 0, base, disp);
    imm32(b, imm);
}

void x86_test_mem_imm8(struct x86_buf *b, int base, int32_t disp, uint8_t imm)
{
    if (!room(b))
        return;
    rex(b, false, 0, base, false);
    byte(b, 0xF6);
    mem(b, 0, base, disp);
    byte(b, imm);
}

void x86_test_r32_r32(struct x86_buf *b, int a, int c)
{
    if (!room(b))
        return;
    rex(b, false, c, a, false);
    byte(b, 0x85);
    direct(b, c, a);
}

void x86_test_r32_imm(struct x86_buf *b, int r, uint32_t imm)
{
    if (!room(b))
        return;
    rex(b, false, 0, r, false);
    byte(b, 0xF7);
    direct(b, 0, r);
    imm32(b, imm);
}

void x86_test_r64_r64(struct x86_buf *b, int a, int c)
{
    if (!room(b))
        return;
    rex(b, true, c, a, false);
    byte(b, 0x85);
    direct(b, c, a);
}

void x86_cmp_mem_r32(struct x86_buf *b, int base, int32_t disp, int r)
{
    if (!room(b))
        return;
    rex(b, false, r, base, false);
    byte(b, 0x39);
    mem(b, r, base, disp);
}

void x86_jmp_reg(struct x86_buf *b, int r)
{
    if (!room(b))
        return;
    rex(b, false, 0, r, false);
    byte(b, 0xFF);
    direct(b, 4, r);
}

size_t x86_jcc(struct x86_buf *b, int cc)
{
    if (!room(b))
        return 0;
    byte(b, 0x0F);
    byte(b, 0x80u + ((unsigned)cc & 15u));
    size_t at = (size_t)(b->p - b->start);
    imm32(b, 0);
    return at;
}

size_t x86_jmp(struct x86_buf *b)
{
    if (!room(b))
        return 0;
    byte(b, 0xE9);
    size_t at = (size_t)(b->p - b->start);
    imm32(b, 0);
    return at;
}

void x86_patch(struct x86_buf *b, size_t at)
{
    if (b->full || at == 0)
        return;
    int32_t rel = (int32_t)((b->p - b->start) - (ptrdiff_t)(at + 4));
    memcpy(b->start + at, &rel, 4);
}

void x86_jmp_back(struct x86_buf *b, int cc, const uint8_t *target)
{
    size_t at = cc < 0 ? x86_jmp(b) : x86_jcc(b, cc);
    if (at && !b->full) {
        int32_t rel = (int32_t)(target - (b->start + at + 4));
        memcpy(b->start + at, &rel, 4);
    }
}
