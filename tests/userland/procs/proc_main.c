// SPDX-License-Identifier: MIT
// Processes under hexsim --user and qemu-hexagon (tests/userland/procs_test.py compares
// the two): fork and the exit statuses wait4 reports, WNOHANG, children ended by signals
// (SIGKILL, SIGTERM, a handler's _exit, abort, a fault), SIGCHLD with its siginfo,
// SIGCHLD ending a pselect, SIGCHLD ignored, waitid, a pipe between parent and child,
// process groups and sessions, execve with arguments, environment, descriptors
// (O_CLOEXEC closed, others kept) and signal dispositions, execve's errors, vfork +
// execve, posix_spawn. Nothing printed depends on pid values or on how the processes
// interleave: a parent prints after its child ended.
// Usage: proc_main WORKDIR ECHO_PROGRAM [TEST], or proc_main WORKDIR ECHO_PROGRAM run PATH
// ARGS... (execve PATH ARGS, for the checks of hexsim alone), or proc_main WORKDIR
// ECHO_PROGRAM sleeper (a sleeping child killed: with host time only). PROC_EXEC_WRAP (qemu-hexagon's
// run): a program that runs ECHO_PROGRAM given as its first argument (qemu-hexagon itself:
// without binfmt_misc the host cannot execute a Hexagon program).
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/select.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static const char *echo_prog, *work;

static void describe(const char *what, int st)
{
    if (WIFEXITED(st))
        printf("%s: exited %d\n", what, WEXITSTATUS(st));
    else if (WIFSIGNALED(st))
        printf("%s: killed by %s\n", what, strsignal(WTERMSIG(st)));
    else
        printf("%s: status %#x\n", what, st);
}

static pid_t xfork(void)
{
    fflush(stdout);
    pid_t p = fork();
    if (p < 0) {
        perror("fork");
        exit(2);
    }
    return p;
}

static int wait_for(pid_t pid)
{
    int st = 0;
    pid_t r;
    while ((r = waitpid(pid, &st, 0)) < 0 && errno == EINTR)
        ;
    if (r != pid)
        printf("waitpid: %d (%s)\n", (int)r, strerror(errno));
    return st;
}

// argv for executing the echo program (through the wrapper when there is one)
static void exec_echo(char **args, char **env)
{
    const char *wrap = getenv("PROC_EXEC_WRAP");
    char *v[64];
    int n = 0;
    if (wrap)
        v[n++] = (char *)wrap;
    v[n++] = (char *)echo_prog;
    for (int i = 0; args[i] && n < 63; i++)
        v[n++] = args[i];
    v[n] = NULL;
    execve(v[0], v, env);
}

static void t_fork_exit(void)
{
    static const int codes[] = { 0, 1, 42, 255 };
    pid_t me = getpid(), pid[4];
    for (int i = 0; i < 4; i++)
        if ((pid[i] = xfork()) == 0)
            _exit(getppid() == me ? codes[i] : 99);
    for (int i = 3; i >= 0; i--) {
        char what[32];
        snprintf(what, sizeof(what), "fork child %d", i);
        describe(what, wait_for(pid[i]));
    }
    errno = 0;
    printf("wait with no children: %d %s\n", (int)wait(NULL), strerror(errno));
    printf("waitpid of a non-child: %d %s\n", (int)waitpid(1, NULL, WNOHANG), strerror(errno));
}

static void t_wnohang(void)
{
    int p[2];
    pipe(p);
    pid_t pid = xfork();
    if (pid == 0) {
        char c = 0;
        close(p[1]);
        read(p[0], &c, 1);
        _exit(c);
    }
    close(p[0]);
    int st = 0;
    printf("WNOHANG while the child runs: %d\n", (int)waitpid(pid, &st, WNOHANG));
    write(p[1], "\7", 1);
    close(p[1]);
    describe("after WNOHANG", wait_for(pid));
}

static void on_usr1(int sig)
{
    (void)sig;
    _exit(11);
}

// a child that waits (after telling the parent it is ready) until a signal ends it
static pid_t waiting_child(bool handler, bool own_group)
{
    int p[2];
    pipe(p);
    pid_t pid = xfork();
    if (pid == 0) {
        if (handler)
            signal(SIGUSR1, on_usr1);
        if (own_group)
            setpgid(0, 0);
        close(p[0]);
        write(p[1], "r", 1);
        close(p[1]);
        for (;;)
            pause();
    }
    close(p[1]);
    char c;
    read(p[0], &c, 1);
    close(p[0]);
    return pid;
}

// a child blocked in read() of a pipe nobody writes, after telling the parent it is ready
// (a signal may come just before the read: only one whose default action ends the child
// gives the same result either way); *hold is the pipe's write end, which the parent keeps
static pid_t blocked_reader(int *hold)
{
    int p[2], r[2];
    pipe(p);
    pipe(r);
    pid_t pid = xfork();
    if (pid == 0) {
        close(p[1]);
        close(r[0]);
        write(r[1], "r", 1);
        char c;
        errno = 0;
        ssize_t n = read(p[0], &c, 1);
        _exit(n < 0 ? 12 : 13);
    }
    close(p[0]);
    close(r[1]);
    char c;
    read(r[0], &c, 1);
    close(r[0]);
    *hold = p[1];
    return pid;
}

static void t_signals(void)
{
    int hold;
    pid_t rd = blocked_reader(&hold);
    kill(rd, SIGTERM);
    describe("SIGTERM to a reader", wait_for(rd));
    close(hold);
    pid_t pid = waiting_child(false, false);
    kill(pid, SIGKILL);
    describe("SIGKILL", wait_for(pid));
    pid = waiting_child(false, false);
    kill(pid, SIGTERM);
    describe("SIGTERM", wait_for(pid));
    pid = waiting_child(true, false);
    kill(pid, SIGUSR1);
    describe("SIGUSR1 handler", wait_for(pid));
    pid = waiting_child(false, true);
    printf("child's group is its pid: %d\n", getpgid(pid) == pid);
    printf("kill of the group: %d\n", kill(-pid, SIGHUP));
    describe("group SIGHUP", wait_for(pid));
    if ((pid = xfork()) == 0)
        abort();
    describe("abort", wait_for(pid));
    if ((pid = xfork()) == 0)
        *(volatile int *)16 = 1;
    describe("fault", wait_for(pid));
    if ((pid = xfork()) == 0) {
        raise(SIGINT);
        _exit(0);
    }
    describe("raise SIGINT", wait_for(pid));
    errno = 0;
    printf("kill of no process: %d %s\n", kill(pid, 0), strerror(errno));
}

static volatile sig_atomic_t chld_count, chld_code, chld_status, chld_pid;

static void on_chld(int sig, siginfo_t *si, void *uc)
{
    (void)sig;
    (void)uc;
    chld_count++;
    chld_code = si->si_code;
    chld_status = si->si_status;
    chld_pid = si->si_pid;
}

static void t_sigchld(void)
{
    struct sigaction sa = { 0 };
    sa.sa_sigaction = on_chld;
    sa.sa_flags = SA_SIGINFO | SA_RESTART;
    sigaction(SIGCHLD, &sa, NULL);
    sigset_t block, old;
    sigemptyset(&block);
    sigaddset(&block, SIGCHLD);
    sigprocmask(SIG_BLOCK, &block, &old);
    pid_t pid = xfork();
    if (pid == 0)
        _exit(5);
    while (!chld_count)
        sigsuspend(&old);
    printf("SIGCHLD: count %d, from the child %d, CLD_EXITED %d, status %d\n", (int)chld_count,
           chld_pid == pid, chld_code == CLD_EXITED, (int)chld_status);
    siginfo_t si = { 0 };
    int r = waitid(P_PID, (id_t)pid, &si, WEXITED | WNOWAIT);
    printf("waitid WNOWAIT: %d, pid ok %d, code %s, status %d\n", r, si.si_pid == pid,
           si.si_code == CLD_EXITED ? "CLD_EXITED" : "?", si.si_status);
    describe("then waitpid", wait_for(pid));
    sigprocmask(SIG_SETMASK, &old, NULL);
    // a child killed by a signal: si_code CLD_KILLED
    chld_count = 0;
    sigprocmask(SIG_BLOCK, &block, &old);
    pid = waiting_child(false, false);
    kill(pid, SIGTERM);
    while (!chld_count)
        sigsuspend(&old);
    sigprocmask(SIG_SETMASK, &old, NULL);
    printf("SIGCHLD: CLD_KILLED %d, signal %s\n", chld_code == CLD_KILLED,
           strsignal(chld_status));
    memset(&si, 0, sizeof(si));
    printf("waitid: %d, killed %d\n", waitid(P_ALL, 0, &si, WEXITED),
           si.si_code == CLD_KILLED && si.si_status == SIGTERM && si.si_pid == pid);
    // pselect with SIGCHLD blocked but for the call (make's idiom): the child's end
    // interrupts it, the descriptor it waits on never becomes ready
    chld_count = 0;
    sigprocmask(SIG_BLOCK, &block, &old);
    int p[2];
    pipe(p);
    pid = xfork();
    if (pid == 0)
        _exit(9);
    fd_set rd;
    FD_ZERO(&rd);
    FD_SET(p[0], &rd);
    errno = 0;
    r = pselect(p[0] + 1, &rd, NULL, NULL, NULL, &old);
    printf("pselect: %d %s, SIGCHLD handled %d\n", r, strerror(errno), (int)chld_count);
    describe("pselect's child", wait_for(pid));
    close(p[0]);
    close(p[1]);
    sigprocmask(SIG_SETMASK, &old, NULL);
    // SIGCHLD ignored: children go when they end; wait waits for them, then says ECHILD
    signal(SIGCHLD, SIG_IGN);
    for (int i = 0; i < 3; i++)
        if (xfork() == 0)
            _exit(i);
    errno = 0;
    r = wait(NULL);
    printf("SIG_IGN: wait %d %s\n", r, strerror(errno));
    signal(SIGCHLD, SIG_DFL);
}

static void t_pipe(void)
{
    int to[2], from[2];
    pipe(to);
    pipe(from);
    pid_t pid = xfork();
    if (pid == 0) {
        dup2(to[0], 0);
        dup2(from[1], 1);
        close(to[0]);
        close(to[1]);
        close(from[0]);
        close(from[1]);
        char b[256];
        ssize_t n;
        while ((n = read(0, b, sizeof(b))) > 0) {
            for (ssize_t i = 0; i < n; i++)
                if (b[i] >= 'a' && b[i] <= 'z')
                    b[i] -= 32;
            write(1, b, (size_t)n);
        }
        _exit(0);
    }
    close(to[0]);
    close(from[1]);
    const char msg[] = "hello\nthrough two pipes\n";
    write(to[1], msg, sizeof(msg) - 1);
    close(to[1]);
    char b[256];
    size_t got = 0;
    ssize_t n;
    while ((n = read(from[0], b + got, sizeof(b) - 1 - got)) > 0)
        got += (size_t)n;
    b[got] = 0;
    close(from[0]);
    printf("pipe: the child sent back: %s", b);
    describe("pipe child", wait_for(pid));
}

static void t_groups(void)
{
    pid_t pid = xfork();
    if (pid == 0) {
        pid_t s = setsid();
        _exit(s == getpid() && getsid(0) == getpid() && getpgid(0) == getpid() ? 0 : 1);
    }
    describe("setsid in a child", wait_for(pid));
    if ((pid = xfork()) == 0) {
        setpgid(0, 0);
        errno = 0;
        _exit(setsid() < 0 && errno == EPERM ? 0 : 1);
    }
    describe("setsid of a group leader fails", wait_for(pid));
}

static void t_exec(void)
{
    int p[2];
    pipe(p);
    int ce = open("/dev/null", O_RDONLY | O_CLOEXEC), keep = open("/dev/null", O_RDONLY);
    char wfd[16], cfd[16], kfd[16];
    snprintf(wfd, sizeof(wfd), "%d", p[1]);
    snprintf(cfd, sizeof(cfd), "%d", ce);
    snprintf(kfd, sizeof(kfd), "%d", keep);
    pid_t pid = xfork();
    if (pid == 0) {
        close(p[0]);
        signal(SIGUSR1, on_usr1);
        signal(SIGUSR2, SIG_IGN);
        sigset_t m;
        sigemptyset(&m);
        sigaddset(&m, SIGHUP);
        sigprocmask(SIG_BLOCK, &m, NULL);
        char *args[] = { "a b", "", "--write", wfd, "through the inherited pipe", "--closed", cfd,
                         "--closed", kfd, "--sig", "--exit", "3", NULL };
        char *env[] = { "FOO=bar", "EMPTY=", NULL };
        exec_echo(args, env);
        printf("execve: %s\n", strerror(errno));
        _exit(127);
    }
    close(p[1]);
    describe("execve child", wait_for(pid));
    char b[128];
    ssize_t n = read(p[0], b, sizeof(b) - 1);
    b[n > 0 ? n : 0] = 0;
    printf("the pipe said: %s", b);
    close(p[0]);
    close(ce);
    close(keep);
}

static void try_exec(const char *what, const char *path, char **argv)
{
    char *env[] = { NULL };
    errno = 0;
    int r = execve(path, argv, env);
    printf("execve %s: %d %s\n", what, r, strerror(errno));
}

static void t_exec_errors(void)
{
    char noexec[512], garbage[512];
    snprintf(noexec, sizeof(noexec), "%s/noexec", work);
    snprintf(garbage, sizeof(garbage), "%s/garbage", work);
    int fd = open(noexec, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    write(fd, "#!/bin/sh\n", 10);
    close(fd);
    fd = open(garbage, O_WRONLY | O_CREAT | O_TRUNC, 0755);
    write(fd, "this is not a program\n", 22);
    close(fd);
    char *argv[] = { "x", NULL };
    try_exec("of a missing file", "/nonexistent/program", argv);
    try_exec("of a file without x permission", noexec, argv);
    try_exec("of a file that is no program", garbage, argv);
    try_exec("of a directory", work, argv);
    try_exec("with a bad argv", echo_prog, (char **)16);
}

static void t_vfork_spawn(void)
{
    char *env[] = { "VIA=vfork", NULL };
    fflush(stdout);
    pid_t pid = vfork();
    if (pid == 0) {
        char *args[] = { "--exit", "4", NULL };
        exec_echo(args, env);
        _exit(127);
    }
    describe("vfork + execve", wait_for(pid));
    const char *wrap = getenv("PROC_EXEC_WRAP");
    char *sargs[] = { wrap ? (char *)wrap : (char *)echo_prog, (char *)echo_prog, "spawned",
                      "--exit", "6", NULL };
    char *senv[] = { "VIA=posix_spawn", NULL };
    fflush(stdout);
    int r = posix_spawn(&pid, sargs[0], NULL, NULL, wrap ? sargs : sargs + 1, senv);
    printf("posix_spawn: %d\n", r);
    if (!r)
        describe("posix_spawn child", wait_for(pid));
    char *bad[] = { "/nonexistent/program", NULL };
    r = posix_spawn(&pid, bad[0], NULL, NULL, bad, senv);
    printf("posix_spawn of a missing program: %s\n", strerror(r));
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: proc_main WORKDIR ECHO_PROGRAM [TEST]\n");
        return 2;
    }
    work = argv[1];
    echo_prog = argv[2];
    if (argc > 3 && !strcmp(argv[3], "sleeper")) {   // (host time only: not in the list)
        pid_t pid = xfork();
        if (pid == 0) {
            sleep(5);   // (SIGTERM before the sleep ends the child as well)
            _exit(0);
        }
        kill(pid, SIGTERM);
        describe("SIGTERM to a sleeping child", wait_for(pid));
        return 0;
    }
    if (argc > 4 && !strcmp(argv[3], "run")) {   // proc_main W E run PATH ARGS: execve it
        extern char **environ;
        execve(argv[4], argv + 4, environ);
        printf("execve %s: %s\n", argv[4], strerror(errno));
        return 127;
    }
    static const struct { const char *name; void (*fn)(void); } tests[] = {
        { "fork_exit", t_fork_exit }, { "wnohang", t_wnohang }, { "signals", t_signals },
        { "sigchld", t_sigchld }, { "pipe", t_pipe }, { "groups", t_groups },
        { "exec", t_exec }, { "exec_errors", t_exec_errors }, { "vfork_spawn", t_vfork_spawn },
    };
    for (size_t i = 0; i < sizeof(tests) / sizeof(tests[0]); i++) {
        if (argc > 3 && strcmp(argv[3], tests[i].name) != 0)
            continue;
        printf("== %s\n", tests[i].name);
        tests[i].fn();
        fflush(stdout);
    }
    printf("ok\n");
    return 0;
}
