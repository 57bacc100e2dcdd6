// SPDX-License-Identifier: MIT
// HVM test kernel: the kernel command line hexsim builds for a Linux kernel (one that has
// the symbol vm_cmdline_set, as the Comet patches' kernel does): --append's kernel options,
// the board's (console=, mem=, virtio_mmio.device=), then `--`, --append's own words for
// init and the date and console size for /init (src/loader/boot_env.c). The kernel prints
// the line from the angel command-line call (0x15) between brackets; hvm_test.py compares
// it.
#include "hvm.h"

int vm_cmdline_set;   // "a Linux kernel": hexsim adds what such a kernel needs

void hvm_event(u32 slot, u32 *rec)
{
    (void)slot, (void)rec;
    failures++;   // no event is expected
}

int main(void)
{
    static char cmd[512];
    static u32 cb[2];
    cb[0] = (u32)cmd;
    cb[1] = sizeof(cmd);
    CHECK_EQ(angel(0x15, (u32)cb), 0);
    puts_("[");
    puts_(cmd);
    puts_("]\n");
    finish("cmdline_linux");
    return 0;
}
