/* b11_fsm: switch-heavy state machines: a tokenizer for a C-like language (a dozen states,
 * a switch on the character class in each) over generated source text, a bytecode
 * interpreter with 24 opcodes (a dense switch: a jump table, an indirect jump per
 * instruction) running a generated program, and a protocol parser's nested switch.
 * Expected output: tok=0x8716dd40 vm=0x4250fbe4 proto=0x11e7993b */
#include "rt.h"
static char src[65536];
static unsigned char code[4096];
static unsigned char msgs[32768];
static u32 seed = 99;
static u32 rnd(void) { seed = seed * 1103515245u + 12345u; return seed >> 8; }
static void gen_src(void)
{
    static const char *words[] = { "int ", "while", "(", ")", "{", "}", "x1", "count", "=",
        "==", "+", "-", "*", "/", "// note\n", "/* c */", "\"str\\n\"", "'c'", "0x1f", "42",
        "3.25", ";", "\n", "  ", "return ", "if", "<=", ">>", "&&", "name_2" };
    u32 n = 0;
    while (n < sizeof(src) - 32) {
        const char *w = words[rnd() % 30];
        while (*w) src[n++] = *w++;
        if (rnd() % 3 == 0) src[n++] = ' ';
    }
    src[n] = 0;
}
enum { S_START, S_IDENT, S_NUM, S_HEX, S_FLOAT, S_STR, S_STRESC, S_CHR, S_SLASH, S_LINEC,
       S_BLOCKC, S_BLOCKSTAR, S_OP };
static u32 tokenize(void)
{
    u32 h = 0, ntok = 0, st = S_START;
    for (const char *p = src;; p++) {
        char c = *p;
        if (c == 0)
            return h ^ ntok;
        int cls = c == 0 ? 0 : (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' ? 1
                  : c >= '0' && c <= '9' ? 2 : c == ' ' || c == '\n' ? 3 : c == '"' ? 4
                  : c == '\'' ? 5 : c == '/' ? 6 : c == '*' ? 7 : c == '\\' ? 8 : c == '.' ? 9 : 10;
        switch (st) {
        case S_START:
            switch (cls) {
            case 1: st = S_IDENT; break;
            case 2: st = c == '0' && p[1] == 'x' ? (p++, S_HEX) : S_NUM; break;
            case 3: break;
            case 4: st = S_STR; break;
            case 5: st = S_CHR; break;
            case 6: st = S_SLASH; break;
            default: st = S_OP; p--; break;
            }
            break;
        case S_IDENT: if (cls != 1 && cls != 2) { h = h * 31 + 1; ntok++; st = S_START; p--; } break;
        case S_NUM:
            if (cls == 9) st = S_FLOAT;
            else if (cls != 2) { h = h * 31 + 2; ntok++; st = S_START; p--; }
            break;
        case S_HEX:
            if (!(cls == 2 || (c >= 'a' && c <= 'f'))) { h = h * 31 + 3; ntok++; st = S_START; p--; }
            break;
        case S_FLOAT: if (cls != 2) { h = h * 31 + 4; ntok++; st = S_START; p--; } break;
        case S_STR: if (cls == 8) st = S_STRESC; else if (cls == 4) { h = h * 31 + 5; ntok++; st = S_START; } break;
        case S_STRESC: st = S_STR; break;
        case S_CHR: if (cls == 5) { h = h * 31 + 6; ntok++; st = S_START; } break;
        case S_SLASH:
            if (cls == 6) st = S_LINEC;
            else if (cls == 7) st = S_BLOCKC;
            else { h = h * 31 + 7; ntok++; st = S_START; p--; }
            break;
        case S_LINEC: if (c == '\n') st = S_START; break;
        case S_BLOCKC: if (cls == 7) st = S_BLOCKSTAR; break;
        case S_BLOCKSTAR: st = cls == 6 ? S_START : cls == 7 ? S_BLOCKSTAR : S_BLOCKC; break;
        case S_OP:
            switch (c) {
            case '(': case ')': h = h * 31 + 8; break;
            case '{': case '}': h = h * 31 + 9; break;
            case '=': h = h * 31 + (p[1] == '=' ? (p++, 10) : 11); break;
            case '<': case '>': h = h * 31 + (p[1] == c || p[1] == '=' ? (p++, 12) : 13); break;
            case '&': h = h * 31 + (p[1] == '&' ? (p++, 14) : 15); break;
            case ';': h = h * 31 + 16; break;
            default: h = h * 31 + (u32)c; break;
            }
            ntok++;
            st = S_START;
            break;
        }
    }
}
enum { O_HALT, O_PUSH, O_POP, O_DUP, O_SWAP, O_ADD, O_SUB, O_MUL, O_AND, O_OR, O_XOR, O_SHL,
       O_SHR, O_NOT, O_NEG, O_INC, O_DEC, O_LOAD, O_STORE, O_JZ, O_JMP, O_LT, O_ROT, O_OVER };
static u32 run_vm(u32 arg)
{
    u32 st[64], mem[16] = { 0 }, sp = 0, pc = 0, steps = 0;
    st[sp++] = arg;
    for (;;) {
        unsigned char op = code[pc++];
        if (++steps > 200000) return st[sp ? sp - 1 : 0] ^ steps;
        switch (op % 24) {
        case O_HALT: return sp ? st[sp - 1] : 0;
        case O_PUSH: if (sp < 60) st[sp++] = code[pc]; pc++; break;
        case O_POP: if (sp > 1) sp--; break;
        case O_DUP: if (sp < 60) { st[sp] = st[sp - 1]; sp++; } break;
        case O_SWAP: if (sp > 1) { u32 t = st[sp - 1]; st[sp - 1] = st[sp - 2]; st[sp - 2] = t; } break;
        case O_ADD: if (sp > 1) { st[sp - 2] += st[sp - 1]; sp--; } break;
        case O_SUB: if (sp > 1) { st[sp - 2] -= st[sp - 1]; sp--; } break;
        case O_MUL: if (sp > 1) { st[sp - 2] *= st[sp - 1]; sp--; } break;
        case O_AND: if (sp > 1) { st[sp - 2] &= st[sp - 1]; sp--; } break;
        case O_OR: if (sp > 1) { st[sp - 2] |= st[sp - 1]; sp--; } break;
        case O_XOR: if (sp > 1) { st[sp - 2] ^= st[sp - 1]; sp--; } break;
        case O_SHL: st[sp - 1] <<= 1; break;
        case O_SHR: st[sp - 1] >>= 3; break;
        case O_NOT: st[sp - 1] = ~st[sp - 1]; break;
        case O_NEG: st[sp - 1] = -st[sp - 1]; break;
        case O_INC: st[sp - 1]++; break;
        case O_DEC: st[sp - 1]--; break;
        case O_LOAD: st[sp - 1] = mem[st[sp - 1] & 15]; break;
        case O_STORE: if (sp > 1) { mem[st[sp - 1] & 15] = st[sp - 2]; sp -= 2; if (!sp) st[sp++] = 0; } break;
        case O_JZ: { u32 t = code[pc++]; if (sp > 1 && st[--sp] == 0) pc = t * 4 % 4000; } break;
        case O_JMP: { u32 t = code[pc++]; if ((st[sp - 1] & 7) != 0) pc = t * 4 % 4000; } break;
        case O_LT: if (sp > 1) { st[sp - 2] = st[sp - 2] < st[sp - 1]; sp--; } break;
        case O_ROT: if (sp > 2) { u32 t = st[sp - 3]; st[sp - 3] = st[sp - 2]; st[sp - 2] = st[sp - 1]; st[sp - 1] = t; } break;
        case O_OVER: if (sp > 1 && sp < 60) { st[sp] = st[sp - 2]; sp++; } break;
        }
        if (pc >= 4090) pc = 0;
    }
}
static u32 parse_msgs(void)
{
    u32 h = 0, i = 0;
    while (i + 8 < sizeof(msgs)) {
        unsigned char type = msgs[i] & 7, len = msgs[i + 1] & 15;
        switch (type) {
        case 0: h += len; break;
        case 1:
            for (u32 k = 0; k < len; k++)
                switch (msgs[i + 2 + k] & 3) {
                case 0: h ^= k; break;
                case 1: h += msgs[i + 2 + k]; break;
                case 2: h = (h << 3) | (h >> 29); break;
                default: h *= 3; break;
                }
            break;
        case 2: h = h * 17 + msgs[i + 2]; break;
        case 3: if (msgs[i + 2] & 1) h ^= 0x5a5a; else h -= 7; break;
        case 4: case 5: h += (u32)msgs[i + 2] << (type * 2); break;
        default: h = ~h; break;
        }
        i += 2 + len;
    }
    return h;
}
int main(void)
{
    gen_src();
    u32 th = 0;
    for (int r = 0; r < 30; r++) { th = th * 7 + tokenize(); src[r * 97] = ' '; }
    for (u32 i = 0; i < sizeof(code); i++) code[i] = (unsigned char)(rnd() % 256);
    u32 vh = 0;
    for (u32 a = 0; a < 200; a++) vh = vh * 31 + run_vm(a);
    for (u32 i = 0; i < sizeof(msgs); i++) msgs[i] = (unsigned char)rnd();
    u32 ph = 0;
    for (int r = 0; r < 100; r++) { ph = ph * 13 + parse_msgs(); msgs[r * 11] ^= 0x55; }
    put_str("tok="); put_hex(th); put_str(" vm="); put_hex(vh); put_str(" proto="); put_hex(ph);
    put_str("\n");
    return 0;
}
