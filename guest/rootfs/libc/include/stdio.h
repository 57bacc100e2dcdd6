// SPDX-License-Identifier: MIT
// Buffered stdio over file descriptors and the printf family.
#ifndef _STDIO_H
#define _STDIO_H
#include <stdarg.h>
#include <sys/types.h>
#define EOF (-1)
#define BUFSIZ 1024
#define _IOFBF 0
#define _IOLBF 1
#define _IONBF 2
#define SEEK_SET 0
#define SEEK_CUR 1
#define SEEK_END 2
typedef struct _FILE FILE;
extern FILE *stdin, *stdout, *stderr;
FILE *fopen(const char *restrict path, const char *restrict mode);
FILE *fdopen(int fd, const char *mode);
int fclose(FILE *f);
int fflush(FILE *f);
size_t fread(void *restrict p, size_t sz, size_t n, FILE *restrict f);
size_t fwrite(const void *restrict p, size_t sz, size_t n, FILE *restrict f);
int fgetc(FILE *f);
int getc(FILE *f);
int getchar(void);
int ungetc(int c, FILE *f);
char *fgets(char *restrict s, int n, FILE *restrict f);
ssize_t getline(char **restrict line, size_t *restrict cap, FILE *restrict f);
ssize_t getdelim(char **restrict line, size_t *restrict cap, int delim, FILE *restrict f);
int fputc(int c, FILE *f);
int putc(int c, FILE *f);
int putchar(int c);
int fputs(const char *restrict s, FILE *restrict f);
int puts(const char *s);
int feof(FILE *f);
int ferror(FILE *f);
void clearerr(FILE *f);
int fileno(FILE *f);
int fseek(FILE *f, long off, int whence);
long ftell(FILE *f);
void rewind(FILE *f);
int setvbuf(FILE *restrict f, char *restrict buf, int mode, size_t size);
void setbuf(FILE *restrict f, char *restrict buf);
void perror(const char *s);
int remove(const char *path);
int rename(const char *from, const char *to);
int printf(const char *restrict fmt, ...) __attribute__((format(printf, 1, 2)));
int fprintf(FILE *restrict f, const char *restrict fmt, ...) __attribute__((format(printf, 2, 3)));
int dprintf(int fd, const char *restrict fmt, ...) __attribute__((format(printf, 2, 3)));
int sprintf(char *restrict s, const char *restrict fmt, ...) __attribute__((format(printf, 2, 3)));
int snprintf(char *restrict s, size_t n, const char *restrict fmt, ...) __attribute__((format(printf, 3, 4)));
int asprintf(char **s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
int vprintf(const char *restrict fmt, va_list ap);
int vfprintf(FILE *restrict f, const char *restrict fmt, va_list ap);
int vdprintf(int fd, const char *restrict fmt, va_list ap);
int vsprintf(char *restrict s, const char *restrict fmt, va_list ap);
int vsnprintf(char *restrict s, size_t n, const char *restrict fmt, va_list ap);
int vasprintf(char **s, const char *fmt, va_list ap);
int sscanf(const char *restrict s, const char *restrict fmt, ...);
#endif
