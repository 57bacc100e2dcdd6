// SPDX-License-Identifier: MIT
// /init for the hexsim root file system (PID 1), built with tools/hexagon-cc (musl):
// mounts proc, sysfs, devtmpfs, devpts and tmpfs, sets the hostname, opens /dev/console,
// starts /bin/sh (BusyBox's ash) on it in a new session with the console as controlling
// terminal, reaps every child (orphans are re-parented here), and powers the machine off
// when the shell exits, after sync and a read-only remount of / (on a disk root, ext4's
// journal is then checkpointed and the file system left clean). BusyBox's halt, poweroff and reboot ask PID 1 by signal (SIGUSR1,
// SIGUSR2, SIGTERM: BusyBox init's convention, init/halt.c); this init does it at once.
// (A shell script cannot be this init: ash starts background jobs with SIGINT ignored
// when job control is off, for good, and a foreground shell would hold the signals back.)
// Words after `--` on the kernel command line come here as arguments: "init.shell=PATH"
// runs another shell, "init.nopoweroff" halts instead, "init.reboot" reboots;
// "init.date=SECONDS" sets the clock (the board has no RTC the kernel reads: the date at
// boot, seconds since 1970 UTC, plus the time since boot), "init.tty=ROWSxCOLS" the
// console's window size (TIOCSWINSZ, as `stty rows R cols C`). hexsim passes both
// (src/loader/boot_env.c).
// _GNU_SOURCE: sethostname, sync, environ beside -std=c11.
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/reboot.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

static void try_mount(const char *src, const char *dir, const char *type, unsigned long flags,
                      const char *data)
{
    mkdir(dir, 0755);
    if (mount(src, dir, type, flags, data) < 0 && errno != EBUSY)
        fprintf(stderr, "init: mount %s on %s: %s\n", type, dir, strerror(errno));
}

// Before the power goes: what the guest wrote reaches the disk, and a disk root is left
// clean (read-only remount; an initramfs root just says no, quietly).
static void quiesce(void)
{
    sync();
    mount(NULL, "/", NULL, MS_REMOUNT | MS_RDONLY, NULL);
}

// The action a signal asked for (0: none yet): RB_HALT_SYSTEM, RB_POWER_OFF, RB_AUTOBOOT.
static volatile sig_atomic_t requested;

static void on_request(int sig)
{
    requested = sig == SIGUSR1 ? 1 : sig == SIGUSR2 ? 2 : 3;
}

static void open_console(void)
{
    int fd = open("/dev/console", O_RDWR);
    if (fd < 0)
        fd = open("/dev/ttyMSM0", O_RDWR);
    if (fd < 0)
        return;
    dup2(fd, 0);
    dup2(fd, 1);
    dup2(fd, 2);
    if (fd > 2)
        close(fd);
}

// init.date=SECONDS: the date at boot; the clock is set to it plus the time since boot.
static void set_date(const char *v)
{
    char *end;
    long long at = strtoll(v, &end, 10);
    struct timespec up, now;
    if (*end || at < 0 || clock_gettime(CLOCK_BOOTTIME, &up) < 0)
        return;
    now.tv_sec = (time_t)at + up.tv_sec;
    now.tv_nsec = up.tv_nsec;
    if (clock_settime(CLOCK_REALTIME, &now) < 0)
        fprintf(stderr, "init: clock_settime: %s\n", strerror(errno));
}

// init.tty=ROWSxCOLS: the console's window size.
static void set_tty_size(const char *v)
{
    unsigned rows, cols;
    char x;
    if (sscanf(v, "%u%c%u", &rows, &x, &cols) != 3 || x != 'x' || !rows || !cols ||
        rows > 0xffff || cols > 0xffff)
        return;
    struct winsize ws = { .ws_row = (unsigned short)rows, .ws_col = (unsigned short)cols };
    if (ioctl(0, TIOCSWINSZ, &ws) < 0)
        fprintf(stderr, "init: TIOCSWINSZ: %s\n", strerror(errno));
}

int main(int argc, char **argv)
{
    const char *shell = "/bin/sh";
    const char *date = NULL, *tty = NULL;
    int poweroff = 1, do_reboot = 0;
    for (int i = 1; i < argc; i++) {
        if (!strncmp(argv[i], "init.shell=", 11))
            shell = argv[i] + 11;
        else if (!strncmp(argv[i], "init.date=", 10))
            date = argv[i] + 10;
        else if (!strncmp(argv[i], "init.tty=", 9))
            tty = argv[i] + 9;
        else if (!strcmp(argv[i], "init.nopoweroff"))
            poweroff = 0;
        else if (!strcmp(argv[i], "init.reboot"))
            do_reboot = 1;
    }

    umask(022);
    try_mount("proc", "/proc", "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC, 0);
    try_mount("sysfs", "/sys", "sysfs", MS_NOSUID | MS_NODEV | MS_NOEXEC, 0);
    try_mount("devtmpfs", "/dev", "devtmpfs", MS_NOSUID, "mode=0755");
    mkdir("/dev/pts", 0755);
    try_mount("devpts", "/dev/pts", "devpts", MS_NOSUID | MS_NOEXEC, "gid=5,mode=0620");
    try_mount("tmpfs", "/tmp", "tmpfs", MS_NOSUID | MS_NODEV, "mode=1777");
    try_mount("tmpfs", "/run", "tmpfs", MS_NOSUID | MS_NODEV, "mode=0755");
    if (sethostname("hexagon", 7) < 0)
        fprintf(stderr, "init: sethostname: %s\n", strerror(errno));
    open_console();
    if (date)
        set_date(date);
    if (tty)
        set_tty_size(tty);
    setenv("PATH", "/bin:/sbin:/usr/bin:/usr/sbin", 1);
    setenv("HOME", "/root", 1);
    setenv("TERM", "vt100", 0);
    // ash expands this prompt: root@hexagon:/# (the old shell's, and what the tests read)
    setenv("PS1", "\\u@\\h:\\w\\$ ", 1);
    chdir("/");

    // Ctrl-Alt-Del goes to us as SIGINT instead of rebooting at once.
    reboot(RB_DISABLE_CAD);
    signal(SIGINT, SIG_IGN);
    signal(SIGTERM, SIG_IGN);
    signal(SIGHUP, SIG_IGN);
    struct sigaction sa = { .sa_handler = on_request };   // no SA_RESTART: wait() returns
    sigemptyset(&sa.sa_mask);
    sigaction(SIGUSR1, &sa, 0);
    sigaction(SIGUSR2, &sa, 0);
    sigaction(SIGTERM, &sa, 0);

    pid_t sh = fork();
    if (sh == 0) {
        setsid();
        int fd = open("/dev/console", O_RDWR);
        if (fd >= 0) {
            ioctl(fd, TIOCSCTTY, (void *)0);
            dup2(fd, 0);
            dup2(fd, 1);
            dup2(fd, 2);
            if (fd > 2)
                close(fd);
        }
        signal(SIGINT, SIG_DFL);
        signal(SIGTERM, SIG_DFL);
        signal(SIGHUP, SIG_DFL);
        signal(SIGUSR1, SIG_DFL);
        signal(SIGUSR2, SIG_DFL);
        // as login(1) would: programs that start "the user's shell" read it (taskset's
        // test in BusyBox's testsuite runs `taskset 0x1 $SHELL -c ...`)
        setenv("SHELL", shell, 1);
        char *sargv[] = { (char *)shell, 0 };
        execve(shell, sargv, environ);
        fprintf(stderr, "init: exec %s: %s\n", shell, strerror(errno));
        _exit(127);
    }
    if (sh < 0)
        fprintf(stderr, "init: fork: %s\n", strerror(errno));

    int status = 0;
    while (!requested) {
        int st;
        pid_t p = wait(&st);
        if (p < 0) {
            if (errno == EINTR)
                continue;
            break;   // ECHILD: nothing left
        }
        if (p == sh) {
            status = st;
            break;
        }
    }
    if (requested) {
        quiesce();
        // Everything the shell wrote reaches the console first: typed-ahead commands
        // leave output queued in the tty when `poweroff` runs, and reboot() drops it.
        tcdrain(1);
        static const int how[] = { 0, RB_HALT_SYSTEM, RB_POWER_OFF, RB_AUTOBOOT };
        reboot(how[requested]);
    }
    // Reap whatever is still around, briefly, then power off.
    int st;
    while (waitpid(-1, &st, WNOHANG) > 0)
        ;
    quiesce();
    fprintf(stderr, "init: shell exited (status %d); %s\n", WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status),
            do_reboot ? "rebooting" : poweroff ? "powering off" : "halting");
    tcdrain(1);
    if (do_reboot)
        reboot(RB_AUTOBOOT);
    else
        reboot(poweroff ? RB_POWER_OFF : RB_HALT_SYSTEM);
    for (;;)
        sleep(1000);
}
