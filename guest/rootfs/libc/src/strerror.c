// SPDX-License-Identifier: MIT
// Messages for errno values and signal names.
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>

int errno;

static const struct { int e; const char *m; } msgs[] = {
    { 0, "Success" }, { EPERM, "Operation not permitted" }, { ENOENT, "No such file or directory" },
    { ESRCH, "No such process" }, { EINTR, "Interrupted system call" }, { EIO, "I/O error" },
    { ENXIO, "No such device or address" }, { E2BIG, "Argument list too long" },
    { ENOEXEC, "Exec format error" }, { EBADF, "Bad file descriptor" }, { ECHILD, "No child process" },
    { EAGAIN, "Resource temporarily unavailable" }, { ENOMEM, "Out of memory" },
    { EACCES, "Permission denied" }, { EFAULT, "Bad address" }, { EBUSY, "Resource busy" },
    { EEXIST, "File exists" }, { EXDEV, "Cross-device link" }, { ENODEV, "No such device" },
    { ENOTDIR, "Not a directory" }, { EISDIR, "Is a directory" }, { EINVAL, "Invalid argument" },
    { ENFILE, "Too many open files in system" }, { EMFILE, "No file descriptors available" },
    { ENOTTY, "Not a tty" }, { ETXTBSY, "Text file busy" }, { EFBIG, "File too large" },
    { ENOSPC, "No space left on device" }, { ESPIPE, "Invalid seek" },
    { EROFS, "Read-only file system" }, { EMLINK, "Too many links" }, { EPIPE, "Broken pipe" },
    { EDOM, "Domain error" }, { ERANGE, "Result not representable" },
    { ENAMETOOLONG, "Filename too long" }, { ENOSYS, "Function not implemented" },
    { ENOTEMPTY, "Directory not empty" }, { ELOOP, "Symbolic link loop" },
    { EOVERFLOW, "Value too large for data type" }, { ENOTSOCK, "Not a socket" },
    { EOPNOTSUPP, "Not supported" }, { EAFNOSUPPORT, "Address family not supported by protocol" },
    { EADDRINUSE, "Address in use" }, { EADDRNOTAVAIL, "Address not available" },
    { ENETDOWN, "Network is down" }, { ENETUNREACH, "Network unreachable" },
    { ECONNRESET, "Connection reset by peer" }, { ENOTCONN, "Socket not connected" },
    { ETIMEDOUT, "Operation timed out" }, { ECONNREFUSED, "Connection refused" },
    { EHOSTUNREACH, "Host is unreachable" }, { EINPROGRESS, "Operation in progress" },
};

char *strerror(int e)
{
    static char buf[32];
    for (size_t i = 0; i < sizeof msgs / sizeof msgs[0]; i++)
        if (msgs[i].e == e)
            return (char *)msgs[i].m;
    snprintf(buf, sizeof buf, "Unknown error %d", e);
    return buf;
}

static const char *const signames[] = {
    0, "Hangup", "Interrupt", "Quit", "Illegal instruction", "Trace/breakpoint trap", "Aborted",
    "Bus error", "Floating point exception", "Killed", "User defined signal 1",
    "Segmentation fault", "User defined signal 2", "Broken pipe", "Alarm clock", "Terminated",
    "Stack fault", "Child exited", "Continued", "Stopped (signal)", "Stopped", "Stopped (tty input)",
    "Stopped (tty output)",
};

char *strsignal(int sig)
{
    static char buf[24];
    if (sig > 0 && sig < (int)(sizeof signames / sizeof signames[0]))
        return (char *)signames[sig];
    snprintf(buf, sizeof buf, "Signal %d", sig);
    return buf;
}

void perror(const char *s)
{
    if (s && *s)
        fprintf(stderr, "%s: %s\n", s, strerror(errno));
    else
        fprintf(stderr, "%s\n", strerror(errno));
}
