// SPDX-License-Identifier: MIT
// System applets: echo env true false clear sleep sync kill hostname date uname mount umount
// dmesg free uptime ps poweroff reboot halt nproc taskset.
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/klog.h>
#include <sys/mount.h>
#include <sys/reboot.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/sysinfo.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>
#include "box.h"

int echo_main(int argc, char **argv)
{
    int i = 1, nl = 1, esc = 0;
    for (; i < argc && argv[i][0] == '-' && argv[i][1] && strspn(argv[i] + 1, "neE") == strlen(argv[i] + 1); i++)
        for (const char *f = argv[i] + 1; *f; f++)
            if (*f == 'n') nl = 0;
            else esc = *f == 'e';
    for (int first = 1; i < argc; i++, first = 0) {
        if (!first)
            putchar(' ');
        for (const char *s = argv[i]; *s; s++) {
            if (!esc || *s != '\\' || !s[1]) {
                putchar(*s);
                continue;
            }
            s++;
            switch (*s) {
            case 'n': putchar('\n'); break;
            case 't': putchar('\t'); break;
            case 'r': putchar('\r'); break;
            case '\\': putchar('\\'); break;
            case 'c': return 0;
            default: putchar('\\'); putchar(*s); break;
            }
        }
    }
    if (nl)
        putchar('\n');
    return 0;
}

int true_main(int argc, char **argv) { return 0; }
int false_main(int argc, char **argv) { return 1; }
int sync_main(int argc, char **argv) { sync(); return 0; }
int clear_main(int argc, char **argv) { fputs("\x1b[H\x1b[2J", stdout); return 0; }

int env_main(int argc, char **argv)
{
    for (char **e = environ; e && *e; e++)
        puts(*e);
    return 0;
}

int sleep_main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: sleep SECONDS[.FRACTION]\n");
        return 1;
    }
    // Integer and fractional parts parsed as text (no floating point needed).
    char *end;
    long sec = strtol(argv[1], &end, 10);
    long nsec = 0;
    if (*end == '.') {
        long scale = 100000000;
        for (char *p = end + 1; *p >= '0' && *p <= '9' && scale; p++, scale /= 10)
            nsec += (*p - '0') * scale;
    }
    struct timespec ts = { sec, nsec, 0 };
    while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
        ;
    return 0;
}

int kill_main(int argc, char **argv)
{
    int sig = SIGTERM, i = 1;
    if (argc > 1 && argv[1][0] == '-') {
        const char *s = argv[1] + 1;
        if (!strcmp(s, "l")) {
            for (int k = 1; k < 32; k++)
                printf("%2d) %s\n", k, strsignal(k));
            return 0;
        }
        static const char *const names[] = { "HUP", "INT", "QUIT", "ILL", "TRAP", "ABRT", "BUS",
                                             "FPE", "KILL", "USR1", "SEGV", "USR2", "PIPE",
                                             "ALRM", "TERM" };
        if (!strncmp(s, "SIG", 3))
            s += 3;
        sig = isdigit((unsigned char)*s) ? atoi(s) : -1;
        for (int k = 0; k < 15 && sig < 0; k++)
            if (!strcmp(s, names[k]))
                sig = k + 1;
        if (sig < 0) {
            fprintf(stderr, "kill: unknown signal %s\n", argv[1]);
            return 1;
        }
        i = 2;
    }
    int rc = 0;
    for (; i < argc; i++)
        if (kill(atoi(argv[i]), sig) < 0) {
            warn_errno(argv[i]);
            rc = 1;
        }
    return rc;
}

int hostname_main(int argc, char **argv)
{
    if (argc > 1) {
        if (sethostname(argv[1], strlen(argv[1])) < 0) {
            warn_errno(argv[1]);
            return 1;
        }
        return 0;
    }
    struct utsname u;
    if (uname(&u) < 0) {
        warn_errno("uname");
        return 1;
    }
    puts(u.nodename);
    return 0;
}

int date_main(int argc, char **argv)
{
    time_t t = time(0);
    struct tm tm;
    char buf[64];
    gmtime_r(&t, &tm);
    const char *fmt = argc > 1 && argv[1][0] == '+' ? argv[1] + 1 : "%a %b %e %H:%M:%S %Z %Y";
    strftime(buf, sizeof buf, fmt, &tm);
    puts(buf);
    return 0;
}

int uname_main(int argc, char **argv)
{
    struct utsname u;
    if (uname(&u) < 0) {
        warn_errno("uname");
        return 1;
    }
    int want = 0, c;   // bits: s n r v m
    while ((c = getopt(argc, argv, "asnrvmpio")) != -1) {
        switch (c) {
        case 'a': want |= 31; break;
        case 's': want |= 1; break;
        case 'n': want |= 2; break;
        case 'r': want |= 4; break;
        case 'v': want |= 8; break;
        case 'm': case 'p': case 'i': want |= 16; break;
        case 'o': want |= 32; break;
        default: return 1;
        }
    }
    if (!want)
        want = 1;
    const char *f[] = { u.sysname, u.nodename, u.release, u.version, u.machine, "Linux" };
    int first = 1;
    for (int i = 0; i < 6; i++)
        if (want & (1 << i)) {
            printf(first ? "%s" : " %s", f[i]);
            first = 0;
        }
    putchar('\n');
    return 0;
}

int mount_main(int argc, char **argv)
{
    const char *type = 0;
    char data[256] = "";
    unsigned long flags = 0;
    int c;
    while ((c = getopt(argc, argv, "t:o:")) != -1) {
        if (c == 't') {
            type = optarg;
        } else if (c == 'o') {
            char *opts = strdup(optarg), *save, *o;
            for (o = strtok_r(opts, ",", &save); o; o = strtok_r(0, ",", &save)) {
                if (!strcmp(o, "ro")) flags |= MS_RDONLY;
                else if (!strcmp(o, "rw")) flags &= ~(unsigned long)MS_RDONLY;
                else if (!strcmp(o, "remount")) flags |= MS_REMOUNT;
                else if (!strcmp(o, "bind")) flags |= MS_BIND;
                else if (!strcmp(o, "nosuid")) flags |= MS_NOSUID;
                else if (!strcmp(o, "nodev")) flags |= MS_NODEV;
                else if (!strcmp(o, "noexec")) flags |= MS_NOEXEC;
                else if (!strcmp(o, "noatime")) flags |= MS_NOATIME;
                else if (!strcmp(o, "defaults")) ;
                else {
                    if (*data)
                        strncat(data, ",", sizeof data - strlen(data) - 1);
                    strncat(data, o, sizeof data - strlen(data) - 1);
                }
            }
            free(opts);
        } else {
            return 1;
        }
    }
    if (optind >= argc) {
        char buf[8192];
        if (read_file("/proc/mounts", buf, sizeof buf) < 0) {
            warn_errno("/proc/mounts");
            return 1;
        }
        fputs(buf, stdout);
        return 0;
    }
    const char *src = argv[optind], *dir = optind + 1 < argc ? argv[optind + 1] : 0;
    if (!dir) {
        if (!(flags & MS_REMOUNT)) {
            fprintf(stderr, "usage: mount [-t TYPE] [-o OPTS] SOURCE DIR\n");
            return 1;
        }
        dir = src;
    }
    if (!type)
        type = (flags & (MS_BIND | MS_REMOUNT)) ? "" : src;
    if (mount(src, dir, type, flags, *data ? data : 0) < 0) {
        warn_errno(dir);
        return 1;
    }
    return 0;
}

int umount_main(int argc, char **argv)
{
    int rc = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "-l"))
            continue;
        if (umount2(argv[i], 0) < 0) {
            warn_errno(argv[i]);
            rc = 1;
        }
    }
    return rc;
}

int dmesg_main(int argc, char **argv)
{
    int clear = 0, raw = 0, c;
    while ((c = getopt(argc, argv, "cr")) != -1)
        if (c == 'c') clear = 1;
        else if (c == 'r') raw = 1;
        else return 1;
    int len = klogctl(10, 0, 0);   // SYSLOG_ACTION_SIZE_BUFFER
    if (len < 16 * 1024)
        len = 16 * 1024;
    char *buf = malloc((size_t)len + 1);
    int n = klogctl(clear ? 4 : 3, buf, len);   // READ_CLEAR or READ_ALL
    if (n < 0) {
        warn_errno("klogctl");
        return 1;
    }
    buf[n] = 0;
    for (char *p = buf; *p;) {
        char *nl = strchr(p, '\n');
        size_t l = nl ? (size_t)(nl - p + 1) : strlen(p);
        char *s = p;
        if (!raw && *s == '<') {   // drop the "<level>" prefix
            char *e = strchr(s, '>');
            if (e && e < p + l)
                s = e + 1;
        }
        fwrite(s, 1, l - (size_t)(s - p), stdout);
        p += l;
    }
    free(buf);
    return 0;
}

static unsigned long long meminfo_kb(const char *text, const char *key)
{
    const char *p = strstr(text, key);
    if (!p)
        return 0;
    p += strlen(key);
    while (*p == ' ' || *p == ':')
        p++;
    return strtoull(p, 0, 10);
}

int free_main(int argc, char **argv)
{
    char buf[4096];
    unsigned long long total, fr, buffers, cached, shared, avail, stotal, sfree;
    int unit_div = 1;   // -m: MiB
    if (argc > 1 && !strcmp(argv[1], "-m"))
        unit_div = 1024;
    if (read_file("/proc/meminfo", buf, sizeof buf) > 0) {
        total = meminfo_kb(buf, "MemTotal");
        fr = meminfo_kb(buf, "MemFree");
        buffers = meminfo_kb(buf, "Buffers");
        cached = meminfo_kb(buf, "\nCached");
        shared = meminfo_kb(buf, "Shmem");
        avail = meminfo_kb(buf, "MemAvailable");
        stotal = meminfo_kb(buf, "SwapTotal");
        sfree = meminfo_kb(buf, "SwapFree");
    } else {
        struct sysinfo si;
        if (sysinfo(&si) < 0) {
            warn_errno("sysinfo");
            return 1;
        }
        unsigned long long u = si.mem_unit ? si.mem_unit : 1;
        total = si.totalram * u / 1024;
        fr = si.freeram * u / 1024;
        buffers = si.bufferram * u / 1024;
        shared = si.sharedram * u / 1024;
        cached = 0;
        avail = fr;
        stotal = si.totalswap * u / 1024;
        sfree = si.freeswap * u / 1024;
    }
    unsigned long long used = total - fr - buffers - cached;
    printf("%15s %11s %11s %11s %11s %11s\n", "total", "used", "free", "shared", "buff/cache", "available");
    printf("Mem:   %11llu %11llu %11llu %11llu %11llu %11llu\n", total / unit_div, used / unit_div,
           fr / unit_div, shared / unit_div, (buffers + cached) / unit_div, avail / unit_div);
    printf("Swap:  %11llu %11llu %11llu\n", stotal / unit_div, (stotal - sfree) / unit_div, sfree / unit_div);
    return 0;
}

int uptime_main(int argc, char **argv)
{
    struct sysinfo si;
    if (sysinfo(&si) < 0) {
        warn_errno("sysinfo");
        return 1;
    }
    time_t now = time(0);
    struct tm tm;
    gmtime_r(&now, &tm);
    long up = si.uptime;
    printf(" %02d:%02d:%02d up ", tm.tm_hour, tm.tm_min, tm.tm_sec);
    if (up >= 86400)
        printf("%ld day%s, ", up / 86400, up >= 172800 ? "s" : "");
    if (up % 86400 >= 3600)
        printf("%2ld:%02ld, ", up % 86400 / 3600, up % 3600 / 60);
    else
        printf("%ld min, ", up % 3600 / 60);
    unsigned long l[3];
    for (int i = 0; i < 3; i++)
        l[i] = (si.loads[i] * 100 + 32768) >> 16;   // 1/65536 units to hundredths
    printf(" load average: %lu.%02lu, %lu.%02lu, %lu.%02lu\n", l[0] / 100, l[0] % 100, l[1] / 100,
           l[1] % 100, l[2] / 100, l[2] % 100);
    return 0;
}

int ps_main(int argc, char **argv)
{
    DIR *d = opendir("/proc");
    if (!d) {
        warn_errno("/proc");
        return 1;
    }
    printf("  PID  PPID USER     STAT   VSZ COMMAND\n");
    struct dirent *e;
    int pids[1024], n = 0;
    while ((e = readdir(d)) && n < 1024)
        if (isdigit((unsigned char)e->d_name[0]))
            pids[n++] = atoi(e->d_name);
    closedir(d);
    for (int i = 1; i < n; i++)   // sort numerically
        for (int k = i; k > 0 && pids[k - 1] > pids[k]; k--) {
            int t = pids[k];
            pids[k] = pids[k - 1];
            pids[k - 1] = t;
        }
    for (int i = 0; i < n; i++) {
        char path[64], sbuf[1024], cmd[1024];
        snprintf(path, sizeof path, "/proc/%d/stat", pids[i]);
        if (read_file(path, sbuf, sizeof sbuf) <= 0)
            continue;
        // pid (comm) state ppid pgrp session tty tpgid flags minflt cminflt majflt cmajflt
        // utime stime cutime cstime priority nice threads itrealvalue starttime vsize ...
        char *lp = strchr(sbuf, '('), *rp = strrchr(sbuf, ')');
        if (!lp || !rp)
            continue;
        *rp = 0;
        const char *comm = lp + 1;
        char state = rp[2];
        int ppid = 0;
        unsigned long vsz = 0;
        char *f = rp + 2;
        int field = 3;
        for (char *tok = strtok(f, " "); tok; tok = strtok(0, " "), field++) {
            if (field == 4) ppid = atoi(tok);
            if (field == 23) vsz = strtoul(tok, 0, 10);
        }
        snprintf(path, sizeof path, "/proc/%d/cmdline", pids[i]);
        int len = read_file(path, cmd, sizeof cmd);
        if (len > 0) {
            for (int k = 0; k < len - 1; k++)
                if (!cmd[k])
                    cmd[k] = ' ';
        } else {
            snprintf(cmd, sizeof cmd, "[%s]", comm);
        }
        snprintf(path, sizeof path, "/proc/%d", pids[i]);
        struct stat st;
        const char *user = "root";
        char uidbuf[16];
        if (stat(path, &st) == 0 && st.st_uid != 0) {
            snprintf(uidbuf, sizeof uidbuf, "%u", st.st_uid);
            user = uidbuf;
        }
        printf("%5d %5d %-8s %c    %5luk %s\n", pids[i], ppid, user, state, vsz / 1024, cmd);
    }
    return 0;
}

static int power(int cmd)
{
    sync();
    fflush(stdout);
    // Let the console send what is queued (the shell's last output) before the machine
    // stops; not a terminal: nothing to wait for.
    ioctl(STDOUT_FILENO, TCSBRK, 1);
    // The kernel stops the machine at once; the shell and init never return from here.
    if (reboot(cmd) < 0) {
        warn_errno("reboot");
        return 1;
    }
    return 0;
}

int poweroff_main(int argc, char **argv) { return power(RB_POWER_OFF); }
int reboot_main(int argc, char **argv) { return power(RB_AUTOBOOT); }
int halt_main(int argc, char **argv) { return power(RB_HALT_SYSTEM); }

// The CPUs process pid (0: this one) may run on, as a mask (CPUs 0-31); -1 on error.
static long affinity(long pid, unsigned long *mask)
{
    unsigned long m[4] = { 0 };
    if (syscall(SYS_sched_getaffinity, pid, (long)sizeof(m), (long)m) < 0)
        return -1;
    *mask = m[0];
    return 0;
}

// nproc: how many CPUs this process may run on.
int nproc_main(int argc, char **argv)
{
    unsigned long mask;
    (void)argc;
    (void)argv;
    if (affinity(0, &mask) < 0) {
        warn_errno("sched_getaffinity");
        return 1;
    }
    printf("%d\n", __builtin_popcountl(mask));
    return 0;
}

// taskset MASK CMD [ARG...]: runs CMD on the CPUs in MASK (hexadecimal, bit N: CPU N);
// taskset -p PID: prints PID's mask.
int taskset_main(int argc, char **argv)
{
    unsigned long mask;
    char *end;
    if (argc == 3 && !strcmp(argv[1], "-p")) {
        if (affinity(atoi(argv[2]), &mask) < 0) {
            warn_errno(argv[2]);
            return 1;
        }
        printf("pid %s's current affinity mask: %lx\n", argv[2], mask);
        return 0;
    }
    if (argc < 3) {
        fprintf(stderr, "usage: taskset MASK CMD [ARG...] | taskset -p PID\n");
        return 1;
    }
    mask = strtoul(argv[1], &end, 16);
    if (*end || !mask) {
        fprintf(stderr, "taskset: bad CPU mask %s\n", argv[1]);
        return 1;
    }
    if (syscall(SYS_sched_setaffinity, 0, (long)sizeof(mask), (long)&mask) < 0) {
        warn_errno("sched_setaffinity");
        return 1;
    }
    execvp(argv[2], argv + 2);
    warn_errno(argv[2]);
    return 127;
}
