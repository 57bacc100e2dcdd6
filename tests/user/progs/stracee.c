// SPDX-License-Identifier: MIT
// Guest program for tests/user/strace_test.py: raw system calls whose --strace lines show
// each kind of decoding (strings with escapes and truncation, a bad string pointer, errno
// names, open/mmap/clone/futex/signal flags, stat, timespec, sigaction, sigset, iovec, a
// read buffer shown after the call, a pipe's descriptors, sockets, socket addresses and
// messages, epoll, eventfd and timerfd, an unimplemented call by name), a second thread ([pid N] and a
// wait left unfinished), a signal to a handler, and the end: exit_group (argument "e"), or
// with argument "s" a store to an unmapped address (SIGSEGV).
#define URT_CLONE
#include "urt.h"

#define CLONE_FLAGS (0x100 | 0x200 | 0x400 | 0x800 | 0x10000 | 0x40000 | 0x100000 | 0x200000)

struct ksigaction { void (*h)(int); unsigned flags; unsigned long long mask; };
static char stack[8192] __attribute__((aligned(8)));
static volatile int child_tid;
static volatile int got;

static int child(long arg)
{
    sys(64, 1, (long)"child\n", 6, 0, 0, 0);
    return (int)arg;
}

static void on_usr1(int sig) { got = sig; }

int main(int argc, char **argv, char **envp)
{
    static const char msg[] = "hello\n";
    sys(64, 1, (long)msg, 6, 0, 0, 0);
    sys(64, 1, (long)"0123456789abcdefghijklmnopqrstuvwxyz\t\"\\\001\n", 42, 0, 0, 0);
    sys(56, -100, (long)"/no/such/file", 0, 0, 0, 0);                 // ENOENT
    sys(56, -100, 0x10, 0, 0, 0, 0);                                  // EFAULT: bad pointer
    sys(64, 1, 0x10, 5, 0, 0, 0);                                     // ... a bad buffer
    sys(134, 10, 0x10, 0, 8, 0, 0);                                   // ... a bad sigaction
    long fd = sys(56, -100, (long)"strace.tmp", 0101 | 01000 | 02000000, 0644, 0, 0);
    sys(57, fd, 0, 0, 0, 0, 0);
    sys(35, -100, (long)"strace.tmp", 0, 0, 0, 0);                    // unlinkat
    sys(57, 99, 0, 0, 0, 0, 0);                                       // EBADF
    long p = sys(222, 0, 8192, 3, 0x22, -1, 0);                       // mmap2
    sys(226, p, 4096, 1, 0, 0, 0);                                    // mprotect
    sys(215, p, 8192, 0, 0, 0, 0);
    int fds[2];
    sys(59, (long)fds, 02000000, 0, 0, 0, 0);                         // pipe2(O_CLOEXEC)
    struct { const char *b; long n; } iov[2] = { { "pi", 2 }, { "ng", 2 } };
    sys(66, fds[1], (long)iov, 2, 0, 0, 0);                           // writev
    char buf[64];
    sys(63, fds[0], (long)buf, sizeof(buf), 0, 0, 0);                 // read: "ping"
    unsigned st[26];
    sys(80, fds[0], (long)st, 0, 0, 0, 0);                            // fstat64: S_IFIFO
    sys(80, 1000, (long)st, 0, 0, 0, 0);
    long long ts[2];
    sys(403, 1, (long)ts, 0, 0, 0, 0);                                // clock_gettime64
    long long req[2] = { 0, 1000 };
    sys(407, 1, 0, (long)req, 0, 0, 0);                               // clock_nanosleep
    struct ksigaction sa = { on_usr1, 0x10000000, 1ull << 11 };       // SA_RESTART, [USR2]
    sys(134, 10, (long)&sa, 0, 8, 0, 0);
    unsigned long long set = 1ull << 11, old = 0;
    sys(135, 0, (long)&set, (long)&old, 8, 0, 0);                     // SIG_BLOCK [USR2]
    sys(129, 1, 10, 0, 0, 0, 0);                                      // kill(1, SIGUSR1)
    sys(62, fds[0], 0, 0, (long)ts, 1, 0);                            // _llseek: ESPIPE
    sys(29, fds[0], 0x5413, (long)buf, 0, 0, 0);                      // ioctl: ENOTTY
    sys(25, fds[0], 4, 04000, 0, 0, 0);                               // F_SETFL O_NONBLOCK
    // sockets and event descriptors
    int sv[2];
    sys(199, 1, 1 | 02000000, 0, (long)sv, 0, 0);                     // socketpair
    struct { const char *b; long n; } hi = { "hi", 2 };
    unsigned mh[7] = { 0, 0, (unsigned)(long)&hi, 1, 0, 0, 0 };
    sys(211, sv[0], (long)mh, 0x4000, 0, 0, 0);                       // sendmsg MSG_NOSIGNAL
    struct { char *b; long n; } rio = { buf, sizeof(buf) };
    unsigned rh[7] = { 0, 0, (unsigned)(long)&rio, 1, 0, 0, 0 };
    sys(212, sv[1], (long)rh, 0x40, 0, 0, 0);                         // recvmsg MSG_DONTWAIT
    sys(212, sv[1], (long)rh, 0x40, 0, 0, 0);                         // ... EAGAIN
    long us = sys(198, 2, 2, 0, 0, 0, 0);                             // socket(AF_INET, DGRAM)
    int one = 1;
    sys(208, us, 1, 2, (long)&one, 4, 0);                             // SO_REUSEADDR
    unsigned char sin[16] = { 2, 0, 0, 9, 127, 0, 0, 1 };             // 127.0.0.1:9
    sys(203, us, (long)sin, 16, 0, 0, 0);                             // connect
    unsigned slen = 16;
    sys(205, us, (long)sin, (long)&slen, 0, 0, 0);                    // getpeername
    long efd = sys(19, 2, 02000000, 0, 0, 0, 0);                      // eventfd2
    long ep = sys(20, 0, 0, 0, 0, 0, 0);                              // epoll_create1
    unsigned ev[4] = { 1, 0, 42, 0 };
    sys(21, ep, 1, efd, (long)ev, 0, 0);                              // epoll_ctl ADD
    unsigned evo[8];
    sys(22, ep, (long)evo, 2, -1, 0, 8);                              // epoll_pwait
    long tfd = sys(85, 1, 0, 0, 0, 0, 0);                             // timerfd_create
    long long its[4] = { 0, 0, 0, 5000 };
    sys(411, tfd, 0, (long)its, 0, 0, 0);                             // timerfd_settime64
    sys(63, tfd, (long)buf, 8, 0, 0, 0);                              // read: waits 5 us
    sys(232, 0, 0, 0, 0, 0, 0);                                       // mincore: ENOSYS
    // a thread: the parent waits for its exit (CLONE_CHILD_CLEARTID's wake)
    long *sp = (long *)(stack + sizeof(stack)) - 2;
    sp[0] = (long)child;
    sp[1] = 7;
    long tid = uclone(CLONE_FLAGS, sp, (int *)&child_tid, (int *)&child_tid, 0);
    while (child_tid == tid)
        sys(422, (long)&child_tid, 0, tid, 0, 0, 0);                  // FUTEX_WAIT
    if (argc > 1 && argv[1][0] == 's')
        *(volatile int *)0x20 = got;
    sys(94, got == 10 ? 3 : 1, 0, 0, 0, 0, 0);
    (void)envp;
    return 0;
}
