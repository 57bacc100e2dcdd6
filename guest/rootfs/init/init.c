// SPDX-License-Identifier: MIT
// /init for the hexsim root file system (PID 1): mounts proc, sysfs, devtmpfs and tmpfs,
// sets the hostname, opens /dev/console, starts /bin/sh on it in a new session, reaps every
// child (orphans are re-parented here), and powers the machine off when the shell exits.
// Kernel command-line words "init.shell=PATH" and "init.nopoweroff" (passed to init as
// arguments or environment) change the shell and the last step; `init.reboot` reboots.
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
#include <unistd.h>

static void try_mount(const char *src, const char *dir, const char *type, unsigned long flags,
                      const char *data)
{
    mkdir(dir, 0755);
    if (mount(src, dir, type, flags, data) < 0 && errno != EBUSY)
        fprintf(stderr, "init: mount %s on %s: %s\n", type, dir, strerror(errno));
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

int main(int argc, char **argv)
{
    const char *shell = "/bin/sh";
    int poweroff = 1, do_reboot = 0;
    for (int i = 1; i < argc; i++) {
        if (!strncmp(argv[i], "init.shell=", 11))
            shell = argv[i] + 11;
        else if (!strcmp(argv[i], "init.nopoweroff"))
            poweroff = 0;
        else if (!strcmp(argv[i], "init.reboot"))
            do_reboot = 1;
    }

    umask(022);
    try_mount("proc", "/proc", "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC, 0);
    try_mount("sysfs", "/sys", "sysfs", MS_NOSUID | MS_NODEV | MS_NOEXEC, 0);
    try_mount("devtmpfs", "/dev", "devtmpfs", MS_NOSUID, "mode=0755");
    try_mount("tmpfs", "/tmp", "tmpfs", MS_NOSUID | MS_NODEV, "mode=1777");
    try_mount("tmpfs", "/run", "tmpfs", MS_NOSUID | MS_NODEV, "mode=0755");
    if (sethostname("hexagon", 7) < 0)
        fprintf(stderr, "init: sethostname: %s\n", strerror(errno));
    open_console();
    setenv("PATH", "/bin:/sbin:/usr/bin:/usr/sbin", 1);
    setenv("HOME", "/root", 1);
    setenv("TERM", "vt100", 0);
    chdir("/");

    // Ctrl-Alt-Del goes to us as SIGINT instead of rebooting at once.
    reboot(RB_DISABLE_CAD);
    signal(SIGINT, SIG_IGN);
    signal(SIGTERM, SIG_IGN);
    signal(SIGHUP, SIG_IGN);

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
        char *sargv[] = { (char *)shell, 0 };
        execve(shell, sargv, environ);
        fprintf(stderr, "init: exec %s: %s\n", shell, strerror(errno));
        _exit(127);
    }
    if (sh < 0)
        fprintf(stderr, "init: fork: %s\n", strerror(errno));

    int status = 0;
    for (;;) {
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
    // Reap whatever is still around, briefly, then power off.
    int st;
    while (waitpid(-1, &st, WNOHANG) > 0)
        ;
    sync();
    fprintf(stderr, "init: shell exited (status %d); %s\n", WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status),
            do_reboot ? "rebooting" : poweroff ? "powering off" : "halting");
    if (do_reboot)
        reboot(RB_AUTOBOOT);
    else
        reboot(poweroff ? RB_POWER_OFF : RB_HALT_SYSTEM);
    for (;;)
        sleep(1000);
}
