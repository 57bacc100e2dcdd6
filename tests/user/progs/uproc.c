// SPDX-License-Identifier: MIT
// Guest program for tests/user: prints argc, argv, one environment variable, a few auxv
// entries' presence, brk growth, an mmap'd buffer, uname and getpid, file I/O through
// openat/read/_llseek/fstat64/close, code written at run time (a packet run, rewritten by a
// store, run again: the decoded-packet cache must see the store), then exits with the status
// given as argv[1].
#include "urt.h"

int main(int argc, char **argv, char **envp)
{
    put_str("argc="); put_dec(argc); put_str("\n");
    for (int i = 0; i < argc; i++) { put_str("argv: "); put_str(argv[i]); put_str("\n"); }
    for (char **e = envp; *e; e++)
        if (starts(*e, "HEXSIM_TEST_VAR=")) { put_str("env: "); put_str(*e); put_str("\n"); }
    char **e = envp;
    while (*e) e++;
    u32 *aux = (u32 *)(e + 1);
    int have_pagesz = 0, have_random = 0;
    for (; aux[0]; aux += 2) {
        if (aux[0] == 6 && aux[1] == 4096) have_pagesz = 1;
        if (aux[0] == 25 && aux[1]) have_random = 1;
    }
    put_str("auxv pagesz="); put_dec(have_pagesz); put_str(" random="); put_dec(have_random); put_str("\n");
    long b0 = sys(214, 0, 0, 0, 0, 0, 0);
    long b1 = sys(214, b0 + 100000, 0, 0, 0, 0, 0);
    char *heap = (char *)b0;
    heap[0] = 'h'; heap[99999] = 'z';
    put_str("brk grew="); put_dec(b1 - b0); put_str("\n");
    char *m = (char *)sys(222, 0, 8192, 3, 0x22, -1, 0);
    m[0] = 'm'; m[8191] = 'n';
    put_str("mmap ok="); put_dec(m[0] == 'm' && m[8191] == 'n'); put_str("\n");
    put_str("munmap="); put_dec(sys(215, (long)m, 8192, 0, 0, 0, 0)); put_str("\n");
    // { r0 = #5; jumpr r31 } (one duplex word), then the same with #6
    volatile u32 *code = (volatile u32 *)sys(222, 0, 4096, 7, 0x22, -1, 0);
    code[0] = 0x48503fc0;
    int first = ((int (*)(void))code)();
    code[0] = 0x48603fc0;
    int second = ((int (*)(void))code)();
    put_str("code="); put_dec(first); put_str(","); put_dec(second); put_str("\n");
    char uts[390];
    sys(160, (long)uts, 0, 0, 0, 0, 0);
    put_str("uname: "); put_str(uts); put_str(" "); put_str(uts + 4 * 65); put_str("\n");
    put_str("getpid="); put_dec(sys(172, 0, 0, 0, 0, 0, 0)); put_str("\n");
    long fd = sys(56, -100, (long)argv[2], 0, 0, 0, 0);
    char buf[16];
    long n = sys(63, fd, (long)buf, 5, 0, 0, 0);
    put_str("read="); put_dec(n); put_str(" ");
    sys(64, 1, (long)buf, n, 0, 0, 0);
    put_str("\n");
    unsigned long long pos = 0;
    sys(62, fd, 0, 2, (long)&pos, 1, 0);   // _llseek(fd, offset 2, &pos, SEEK_CUR): 5 + 2
    put_str("pos="); put_dec((long)pos); put_str("\n");
    unsigned char st[104];
    sys(80, fd, (long)st, 0, 0, 0, 0);
    put_str("size="); put_dec(st[48] | st[49] << 8); put_str("\n");
    put_str("close="); put_dec(sys(57, fd, 0, 0, 0, 0, 0)); put_str("\n");
    put_str("badfd="); put_dec(sys(64, 40, (long)buf, 1, 0, 0, 0)); put_str("\n");
    put_str("efault="); put_dec(sys(64, 1, 16, 1, 0, 0, 0)); put_str("\n");
    put_str("enosys="); put_dec(sys(999, 0, 0, 0, 0, 0, 0)); put_str("\n");
    put_str("acct="); put_dec(sys(89, 0, 0, 0, 0, 0, 0)); put_str("\n");   // named, not implemented
    return argc > 1 ? to_int(argv[1]) : 0;
}
