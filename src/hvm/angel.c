// SPDX-License-Identifier: MIT
// Angel (semihosting) calls: trap0(#0) in guest mode, operation in r0, argument in r1,
// result in r0 (seed 007 angel_console.c, angel_misc.c; the ARM semihosting numbering the
// Hexagon simulator follows). 0x43: write the character in r1. 0x03: write the character r1
// points to (the seed's console calls it once per character). 0x04: write the NUL-terminated
// string at r1. 0x05: r1 -> {fd, buffer, length}, write (fd 1 and 2 go to the console);
// returns the number of bytes not written. 0x15: r1 -> {buffer, length}: copy the command
// line to the buffer (a physical address: the kernel passes __pa(), as the simulator
// bypasses the MMU for it) and return 0. 0x18 SYS_EXIT: r1 = reason; 0x20026
// (ADP_Stopped_ApplicationExit) ends the run with status 0, any other reason (the Comet
// kernel's panic notifier sends 0x20023, run-time error) with status 4. Anything else returns -1, reported once.
#include <string.h>

#include "hexsim/machine.h"

// The boot console and UART3 share the host's terminal: what the guest wrote to UART3
// before (still in its TX FIFO, sent at the line's pace) goes out first, so the two
// consoles' lines do not interleave when the kernel hands over from one to the other.
static void out(struct hexsim_machine *m, const void *b, size_t n)
{
    hexsim_msm_uart_show(&m->uart[2]);
    if (m->console.write)
        m->console.write(m->console.ctx, b, n);
}

static int read_words(struct hexsim_vcpu *v, uint32_t va, uint32_t *w, unsigned n)
{
    uint8_t b[12];
    if (hexsim_virt_copy_out(v, va, b, 4 * n))
        return -1;
    for (unsigned i = 0; i < n; i++)
        w[i] = (uint32_t)b[4 * i] | (uint32_t)b[4 * i + 1] << 8 | (uint32_t)b[4 * i + 2] << 16 |
               (uint32_t)b[4 * i + 3] << 24;
    return 0;
}

void hexsim_hvm_angel(struct hexsim_vcpu *v)
{
    struct hexsim_machine *m = v->m;
    uint32_t *r = v->cpu.r;
    uint32_t op = r[0], arg = r[1];
    m->counts.angel++;
    int32_t ret = 0;
    switch (op) {
    case 0x43: {
        char ch = (char)arg;
        out(m, &ch, 1);
        break;
    }
    case 0x03: {
        char ch;
        if (hexsim_virt_copy_out(v, arg, &ch, 1))
            ret = -1;
        else
            out(m, &ch, 1);
        break;
    }
    case 0x04: {
        char ch;
        for (uint32_t a = arg; a - arg < 65536; a++) {
            if (hexsim_virt_copy_out(v, a, &ch, 1)) {
                ret = -1;
                break;
            }
            if (!ch)
                break;
            out(m, &ch, 1);
        }
        break;
    }
    case 0x05: {
        uint32_t w[3];
        if (read_words(v, arg, w, 3)) {
            ret = -1;
            break;
        }
        uint32_t left = w[2];
        char buf[256];
        while (left) {
            uint32_t n = left < sizeof(buf) ? left : (uint32_t)sizeof(buf);
            if (hexsim_virt_copy_out(v, w[1] + (w[2] - left), buf, n))
                break;
            if (w[0] == 1 || w[0] == 2)
                out(m, buf, n);
            left -= n;
        }
        ret = (int32_t)left;
        break;
    }
    case 0x15: {
        uint32_t w[2];
        if (read_words(v, arg, w, 2)) {
            ret = -1;
            break;
        }
        size_t len = strlen(m->cmdline);
        if (w[1] == 0) {
            ret = -1;
            break;
        }
        if (len > w[1] - 1)
            len = w[1] - 1;
        for (size_t i = 0; i <= len; i++)
            hexsim_phys_write(m, w[0] + (uint32_t)i, 1, i < len ? (uint8_t)m->cmdline[i] : 0);
        break;
    }
    case 0x18:   // SYS_EXIT: r1 = reason; ADP_Stopped_ApplicationExit is success
        if (arg == 0x20026) {
            hexsim_machine_halt(m, HEXSIM_SYS_EXIT_OK);
        } else {
            hexsim_machine_halt(m, HEXSIM_SYS_EXIT_GUEST_FAIL);   // the panic lines first
            fprintf(m->err, "hexsim: the guest ended the run with angel SYS_EXIT, reason 0x%x%s "
                    "(PC 0x%08x)\n", arg, arg == 0x20023 ? " (run-time error: a kernel panic)"
                    : "", v->cpu.pc);
        }
        break;
    default:
        ret = -1;
        if (!m->warned_angel) {
            m->warned_angel = true;
            fprintf(m->err, "hexsim: angel call 0x%x at PC 0x%08x is not implemented; r0 = -1 "
                    "(reported once)\n", op, v->cpu.pc);
        }
        break;
    }
    r[0] = (uint32_t)ret;
}
