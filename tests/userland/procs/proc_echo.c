// SPDX-License-Identifier: MIT
// The program tests/userland/procs/proc_main.c executes: prints its arguments and
// environment, and does what its options say: --closed N (is descriptor N closed?),
// --write N TEXT (a line to descriptor N), --sig (which signals are ignored, which have
// their default action), --exit N (its exit status).
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

extern char **environ;

static int by_text(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

int main(int argc, char **argv)
{
    int status = 0;
    printf("echo: argc=%d\n", argc);
    for (int i = 1; i < argc; i++)   // (argv[0] is the path the caller chose)
        printf("echo: argv[%d]=\"%s\"\n", i, argv[i]);
    // sorted: qemu-hexagon hands the environment over in another order
    size_t ne = 0;
    while (environ[ne])
        ne++;
    qsort(environ, ne, sizeof(*environ), by_text);
    for (char **e = environ; *e; e++)
        if (strncmp(*e, "QEMU_", 5) != 0)
            printf("echo: env \"%s\"\n", *e);
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--closed") && i + 1 < argc) {
            int fd = atoi(argv[++i]);
            int r = fcntl(fd, F_GETFD);
            printf("echo: fd %d %s\n", fd, r < 0 && errno == EBADF ? "closed" : "open");
        } else if (!strcmp(argv[i], "--write") && i + 2 < argc) {
            int fd = atoi(argv[++i]);
            const char *t = argv[++i];
            dprintf(fd, "%s\n", t);
        } else if (!strcmp(argv[i], "--sig")) {
            struct sigaction sa;
            sigaction(SIGUSR1, NULL, &sa);
            printf("echo: SIGUSR1 %s\n", sa.sa_handler == SIG_DFL ? "default" : "not default");
            sigaction(SIGUSR2, NULL, &sa);
            printf("echo: SIGUSR2 %s\n", sa.sa_handler == SIG_IGN ? "ignored" : "not ignored");
            sigset_t m;
            sigprocmask(SIG_BLOCK, NULL, &m);
            printf("echo: SIGHUP %s\n", sigismember(&m, SIGHUP) ? "blocked" : "not blocked");
        } else if (!strcmp(argv[i], "--exit") && i + 1 < argc) {
            status = atoi(argv[++i]);
        }
    }
    fflush(stdout);
    return status;
}
