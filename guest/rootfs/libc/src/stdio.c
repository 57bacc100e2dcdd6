// SPDX-License-Identifier: MIT
// Buffered streams over descriptors. stdout is line-buffered on a terminal and fully
// buffered otherwise, stderr is unbuffered; all open streams are flushed at exit and by
// fflush(NULL) (the shell calls it before fork).
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "libc.h"

#define F_READ 1
#define F_WRITE 2
#define F_EOF 4
#define F_ERR 8
#define F_OWNBUF 16

struct _FILE {
    int fd, flags, mode;
    unsigned char *buf;
    size_t size;
    size_t rpos, rlen;   // read buffer window
    size_t wlen;         // pending output bytes
    int unget;
    struct _FILE *next;
};

static unsigned char outbuf[BUFSIZ], inbuf[BUFSIZ];
static struct _FILE f_stdin = { 0, F_READ, _IOFBF, inbuf, BUFSIZ, 0, 0, 0, -1, 0 };
static struct _FILE f_stdout = { 1, F_WRITE, -1, outbuf, BUFSIZ, 0, 0, 0, -1, &f_stdin };
static struct _FILE f_stderr = { 2, F_WRITE, _IONBF, 0, 0, 0, 0, 0, -1, &f_stdout };
FILE *stdin = &f_stdin, *stdout = &f_stdout, *stderr = &f_stderr;
static struct _FILE *all_files = &f_stderr;

static int flush_out(FILE *f)
{
    size_t off = 0;
    while (off < f->wlen) {
        ssize_t w = write(f->fd, f->buf + off, f->wlen - off);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0) {
            f->flags |= F_ERR;
            f->wlen = 0;
            return EOF;
        }
        off += (size_t)w;
    }
    f->wlen = 0;
    return 0;
}

int fflush(FILE *f)
{
    if (!f) {
        int r = 0;
        for (FILE *g = all_files; g; g = g->next)
            if (g->wlen && flush_out(g))
                r = EOF;
        return r;
    }
    if (f->wlen)
        return flush_out(f);
    if (f->rlen > f->rpos) {
        // Give unread input back to the descriptor when it can seek.
        lseek(f->fd, -(off_t)(f->rlen - f->rpos), SEEK_CUR);
        f->rpos = f->rlen = 0;
    }
    return 0;
}

void __stdio_flush_all(void) { fflush(0); }

static int mode_flags(const char *mode, int *oflags)
{
    int fl, o;
    switch (*mode) {
    case 'r': fl = F_READ; o = O_RDONLY; break;
    case 'w': fl = F_WRITE; o = O_WRONLY | O_CREAT | O_TRUNC; break;
    case 'a': fl = F_WRITE; o = O_WRONLY | O_CREAT | O_APPEND; break;
    default: errno = EINVAL; return -1;
    }
    if (strchr(mode, '+')) {
        fl = F_READ | F_WRITE;
        o = (o & ~O_ACCMODE) | O_RDWR;
    }
    if (strchr(mode, 'e'))
        o |= O_CLOEXEC;
    *oflags = o;
    return fl;
}

FILE *fdopen(int fd, const char *mode)
{
    int o;
    int fl = mode_flags(mode, &o);
    if (fl < 0)
        return 0;
    FILE *f = calloc(1, sizeof *f);
    if (!f)
        return 0;
    f->buf = malloc(BUFSIZ);
    if (!f->buf) {
        free(f);
        return 0;
    }
    f->fd = fd;
    f->flags = fl | F_OWNBUF;
    f->mode = _IOFBF;
    f->size = BUFSIZ;
    f->unget = -1;
    f->next = all_files;
    all_files = f;
    return f;
}

FILE *fopen(const char *restrict path, const char *restrict mode)
{
    int o;
    if (mode_flags(mode, &o) < 0)
        return 0;
    int fd = open(path, o, 0666);
    if (fd < 0)
        return 0;
    FILE *f = fdopen(fd, mode);
    if (!f)
        close(fd);
    return f;
}

int fclose(FILE *f)
{
    int r = fflush(f);
    if (close(f->fd) < 0)
        r = EOF;
    for (FILE **pp = &all_files; *pp; pp = &(*pp)->next)
        if (*pp == f) {
            *pp = f->next;
            break;
        }
    if (f->flags & F_OWNBUF)
        free(f->buf);
    if (f != stdin && f != stdout && f != stderr)
        free(f);
    return r;
}

int setvbuf(FILE *restrict f, char *restrict buf, int mode, size_t size)
{
    f->mode = mode;
    if (buf && size) {
        if (f->flags & F_OWNBUF)
            free(f->buf);
        f->flags &= ~F_OWNBUF;
        f->buf = (unsigned char *)buf;
        f->size = size;
    }
    return 0;
}

void setbuf(FILE *restrict f, char *restrict buf) { setvbuf(f, buf, buf ? _IOFBF : _IONBF, BUFSIZ); }

size_t fwrite(const void *restrict p, size_t sz, size_t n, FILE *restrict f)
{
    size_t total = sz * n;
    const unsigned char *s = p;
    if (!total)
        return 0;
    if (f->mode < 0)
        f->mode = isatty(f->fd) ? _IOLBF : _IOFBF;
    if (f->mode == _IONBF || !f->buf) {
        size_t off = 0;
        while (off < total) {
            ssize_t w = write(f->fd, s + off, total - off);
            if (w < 0 && errno == EINTR)
                continue;
            if (w <= 0) {
                f->flags |= F_ERR;
                return off / sz;
            }
            off += (size_t)w;
        }
        return n;
    }
    for (size_t i = 0; i < total;) {
        if (f->wlen == f->size && flush_out(f))
            return i / sz;
        size_t k = f->size - f->wlen;
        if (k > total - i)
            k = total - i;
        memcpy(f->buf + f->wlen, s + i, k);
        f->wlen += k;
        i += k;
    }
    if (f->mode == _IOLBF && memchr(s, '\n', total) && flush_out(f))
        return 0;
    return n;
}

int fputc(int c, FILE *f)
{
    unsigned char ch = (unsigned char)c;
    return fwrite(&ch, 1, 1, f) == 1 ? ch : EOF;
}
int putc(int c, FILE *f) { return fputc(c, f); }
int putchar(int c) { return fputc(c, stdout); }

int fputs(const char *restrict s, FILE *restrict f)
{
    size_t n = strlen(s);
    return fwrite(s, 1, n, f) == n ? 0 : EOF;
}

int puts(const char *s)
{
    if (fputs(s, stdout) == EOF)
        return EOF;
    return fputc('\n', stdout) == EOF ? EOF : 0;
}

static int fill(FILE *f)
{
    if (f == stdin && stdout->wlen)
        fflush(stdout);
    ssize_t r;
    do
        r = read(f->fd, f->buf, f->size);
    while (r < 0 && errno == EINTR);
    if (r <= 0) {
        f->flags |= r == 0 ? F_EOF : F_ERR;
        return EOF;
    }
    f->rpos = 0;
    f->rlen = (size_t)r;
    return 0;
}

int fgetc(FILE *f)
{
    if (f->unget >= 0) {
        int c = f->unget;
        f->unget = -1;
        return c;
    }
    if (f->rpos >= f->rlen && fill(f))
        return EOF;
    return f->buf[f->rpos++];
}
int getc(FILE *f) { return fgetc(f); }
int getchar(void) { return fgetc(stdin); }

int ungetc(int c, FILE *f)
{
    if (c == EOF)
        return EOF;
    f->unget = (unsigned char)c;
    f->flags &= ~F_EOF;
    return c;
}

size_t fread(void *restrict p, size_t sz, size_t n, FILE *restrict f)
{
    size_t total = sz * n, got = 0;
    unsigned char *d = p;
    if (total && f->unget >= 0) {
        d[got++] = (unsigned char)f->unget;
        f->unget = -1;
    }
    while (got < total) {
        if (f->rpos < f->rlen) {
            size_t k = f->rlen - f->rpos;
            if (k > total - got)
                k = total - got;
            memcpy(d + got, f->buf + f->rpos, k);
            f->rpos += k;
            got += k;
            continue;
        }
        if (total - got >= f->size) {
            ssize_t r = read(f->fd, d + got, total - got);
            if (r < 0 && errno == EINTR)
                continue;
            if (r <= 0) {
                f->flags |= r == 0 ? F_EOF : F_ERR;
                break;
            }
            got += (size_t)r;
            continue;
        }
        if (fill(f))
            break;
    }
    return sz ? got / sz : 0;
}

char *fgets(char *restrict s, int n, FILE *restrict f)
{
    int i = 0;
    while (i < n - 1) {
        int c = fgetc(f);
        if (c == EOF)
            break;
        s[i++] = (char)c;
        if (c == '\n')
            break;
    }
    if (i == 0)
        return 0;
    s[i] = 0;
    return s;
}

ssize_t getdelim(char **restrict line, size_t *restrict cap, int delim, FILE *restrict f)
{
    size_t n = 0;
    for (;;) {
        int c = fgetc(f);
        if (c == EOF) {
            if (n == 0)
                return -1;
            break;
        }
        if (n + 2 > *cap || !*line) {
            size_t nc = *cap < 64 ? 128 : *cap * 2;
            char *nl = realloc(*line, nc);
            if (!nl)
                return -1;
            *line = nl;
            *cap = nc;
        }
        (*line)[n++] = (char)c;
        if (c == delim)
            break;
    }
    (*line)[n] = 0;
    return (ssize_t)n;
}

ssize_t getline(char **restrict line, size_t *restrict cap, FILE *restrict f)
{
    return getdelim(line, cap, '\n', f);
}

int feof(FILE *f) { return (f->flags & F_EOF) != 0; }
int ferror(FILE *f) { return (f->flags & F_ERR) != 0; }
void clearerr(FILE *f) { f->flags &= ~(F_EOF | F_ERR); }
int fileno(FILE *f) { return f->fd; }

int fseek(FILE *f, long off, int whence)
{
    if (fflush(f))
        return -1;
    if (whence == SEEK_CUR)
        off -= (long)(f->rlen - f->rpos);
    f->rpos = f->rlen = 0;
    f->unget = -1;
    f->flags &= ~F_EOF;
    return lseek(f->fd, off, whence) < 0 ? -1 : 0;
}

long ftell(FILE *f)
{
    off_t p = lseek(f->fd, 0, SEEK_CUR);
    if (p < 0)
        return -1;
    return (long)(p - (off_t)(f->rlen - f->rpos) + (off_t)f->wlen - (f->unget >= 0));
}

void rewind(FILE *f)
{
    fseek(f, 0, SEEK_SET);
    clearerr(f);
}
