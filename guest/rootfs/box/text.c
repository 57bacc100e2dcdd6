// SPDX-License-Identifier: MIT
// Text applets: grep head tail wc hexdump. grep's patterns: a small regular-expression
// matcher (^ $ . * [set] [^set] \x; with -E also + ? and |; -F fixed strings).
#include <ctype.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "box.h"

// ---- regular expressions (backtracking over the pattern text)

static int icase, extended;

static int chr_eq(int a, int b) { return icase ? tolower(a) == tolower(b) : a == b; }

// Length of one atom at p (a char, \x, ., or [set]).
static int atom_len(const char *p)
{
    if (*p == '\\' && p[1])
        return 2;
    if (*p == '[') {
        const char *q = p + 1;
        if (*q == '^')
            q++;
        if (*q == ']')
            q++;
        while (*q && *q != ']')
            q++;
        return *q ? (int)(q - p + 1) : 1;
    }
    return 1;
}

static int atom_match(const char *p, int len, int c)
{
    if (!c)
        return 0;
    if (*p == '.' && len == 1)
        return 1;
    if (*p == '\\' && len == 2) {
        if (p[1] == 'w') return isalnum(c) || c == '_';
        if (p[1] == 's') return isspace(c);
        if (p[1] == 'd') return isdigit(c);
        return chr_eq(p[1], c);
    }
    if (*p == '[' && len > 1) {
        const char *q = p + 1, *end = p + len - 1;
        int neg = *q == '^';
        if (neg)
            q++;
        int hit = 0;
        for (; q < end; q++) {
            if (q + 2 < end && q[1] == '-') {
                if ((c >= q[0] && c <= q[2]) || (icase && tolower(c) >= tolower(q[0]) && tolower(c) <= tolower(q[2])))
                    hit = 1;
                q += 2;
            } else if (chr_eq(*q, c)) {
                hit = 1;
            }
        }
        return hit != neg;
    }
    return chr_eq(*p, c);
}

static int match_here(const char *re, const char *end, const char *s);

static int match_repeat(const char *atom, int alen, int min, int max, const char *rest,
                        const char *end, const char *s)
{
    int n = 0;
    while ((max < 0 || n < max) && atom_match(atom, alen, (unsigned char)s[n]))
        n++;
    for (; n >= min; n--)
        if (match_here(rest, end, s + n))
            return 1;
    return 0;
}

static const char *match_end;   // where the last successful match ended

static int match_here(const char *re, const char *end, const char *s)
{
    if (re >= end) {
        match_end = s;
        return 1;
    }
    if (*re == '$' && re + 1 == end) {
        if (*s == 0) {
            match_end = s;
            return 1;
        }
        return 0;
    }
    int alen = atom_len(re);
    const char *next = re + alen;
    if (next < end && *next == '*')
        return match_repeat(re, alen, 0, -1, next + 1, end, s);
    if (extended && next < end && *next == '+')
        return match_repeat(re, alen, 1, -1, next + 1, end, s);
    if (extended && next < end && *next == '?')
        return match_repeat(re, alen, 0, 1, next + 1, end, s);
    if (!extended && next + 1 < end && next[0] == '\\' && next[1] == '+')
        return match_repeat(re, alen, 1, -1, next + 2, end, s);
    if (atom_match(re, alen, (unsigned char)*s))
        return match_here(next, end, s + 1);
    return 0;
}

static int match_branch(const char *re, const char *end, const char *s)
{
    if (*re == '^')
        return match_here(re + 1, end, s);
    do {
        if (match_here(re, end, s))
            return 1;
    } while (*s++);
    return 0;
}

static int regex_match(const char *re, const char *s)
{
    if (extended) {   // top-level alternation
        const char *start = re;
        for (const char *p = re;; p++) {
            if (*p == '\\' && p[1]) {
                p++;
                continue;
            }
            if (*p == '|' || !*p) {
                if (match_branch(start, p, s))
                    return 1;
                if (!*p)
                    return 0;
                start = p + 1;
            }
        }
    }
    return match_branch(re, re + strlen(re), s);
}

static int fixed_match(const char *pat, const char *s)
{
    size_t n = strlen(pat);
    for (; *s; s++)
        if (icase ? !strncasecmp(s, pat, n) : !strncmp(s, pat, n))
            return 1;
    return n == 0;
}

int grep_main(int argc, char **argv)
{
    int invert = 0, count = 0, number = 0, quiet = 0, fixed = 0, names = -1, list = 0, c;
    icase = extended = 0;
    const char *pat = 0;
    while ((c = getopt(argc, argv, "ivcnqFEHhle:")) != -1) {
        switch (c) {
        case 'i': icase = 1; break;
        case 'v': invert = 1; break;
        case 'c': count = 1; break;
        case 'n': number = 1; break;
        case 'q': quiet = 1; break;
        case 'F': fixed = 1; break;
        case 'E': extended = 1; break;
        case 'H': names = 1; break;
        case 'h': names = 0; break;
        case 'l': list = 1; break;
        case 'e': pat = optarg; break;
        default: return 2;
        }
    }
    if (!pat) {
        if (optind >= argc) {
            fprintf(stderr, "usage: grep [-ivcnqFEHhl] PATTERN [FILE...]\n");
            return 2;
        }
        pat = argv[optind++];
    }
    int nfiles = argc - optind;
    if (names < 0)
        names = nfiles > 1;
    int found = 0, rc_err = 0;
    for (int i = 0; i < (nfiles ? nfiles : 1); i++) {
        const char *name = nfiles ? argv[optind + i] : "(standard input)";
        FILE *f = nfiles && strcmp(name, "-") ? fopen(name, "r") : stdin;
        if (!f) {
            warn_errno(name);
            rc_err = 1;
            continue;
        }
        char *line = 0;
        size_t cap = 0;
        ssize_t len;
        long lineno = 0, hits = 0;
        while ((len = getline(&line, &cap, f)) > 0) {
            lineno++;
            if (line[len - 1] == '\n')
                line[len - 1] = 0;
            int m = fixed ? fixed_match(pat, line) : regex_match(pat, line);
            if (m == invert)
                continue;
            hits++;
            found = 1;
            if (quiet)
                return 0;
            if (list)
                break;
            if (count)
                continue;
            if (names)
                printf("%s:", name);
            if (number)
                printf("%ld:", lineno);
            puts(line);
        }
        free(line);
        if (count) {
            if (names)
                printf("%s:", name);
            printf("%ld\n", hits);
        }
        if (list && hits)
            puts(name);
        if (f != stdin)
            fclose(f);
    }
    return rc_err && !found ? 2 : found ? 0 : 1;
}

// -n N or -N; returns the count.
static long count_opt(int *argc, char ***argv, long dflt, int *from_end_plus)
{
    long n = dflt;
    int i = 1;
    if (from_end_plus)
        *from_end_plus = 0;
    while (i < *argc && (*argv)[i][0] == '-' && (*argv)[i][1]) {
        const char *a = (*argv)[i];
        if (a[1] == 'n') {
            const char *v = a[2] ? a + 2 : i + 1 < *argc ? (*argv)[++i] : "10";
            if (*v == '+' && from_end_plus)
                *from_end_plus = 1;
            n = strtol(v, 0, 10);
            if (n < 0)
                n = -n;
        } else if (isdigit((unsigned char)a[1])) {
            n = strtol(a + 1, 0, 10);
        } else {
            break;
        }
        i++;
    }
    *argc -= i - 1;
    *argv += i - 1;
    return n;
}

int head_main(int argc, char **argv)
{
    long bytes = -1;                  // head -c N: the first N bytes instead of lines
    if (argc > 1 && !strncmp(argv[1], "-c", 2)) {
        int used = argv[1][2] ? 1 : 2;
        bytes = strtol(used == 1 ? argv[1] + 2 : argc > 2 ? argv[2] : "0", 0, 10);
        if (used > argc - 1)
            used = argc - 1;
        argv[used] = argv[0];
        argv += used;
        argc -= used;
    }
    long n = count_opt(&argc, &argv, 10, 0);
    int rc = 0;
    for (int i = 1; i < (argc > 1 ? argc : 2); i++) {
        FILE *f = argc > 1 ? fopen(argv[i], "r") : stdin;
        if (!f) {
            warn_errno(argv[i]);
            rc = 1;
            continue;
        }
        if (argc > 2)
            printf("%s==> %s <==\n", i > 1 ? "\n" : "", argv[i]);
        long lines = 0, got = 0;
        int ch;
        while ((bytes < 0 ? lines < n : got < bytes) && (ch = fgetc(f)) != EOF) {
            putchar(ch);
            got++;
            if (ch == '\n')
                lines++;
        }
        if (f != stdin)
            fclose(f);
    }
    return rc;
}

int tail_main(int argc, char **argv)
{
    int plus;
    long n = count_opt(&argc, &argv, 10, &plus);
    FILE *f = argc > 1 ? fopen(argv[1], "r") : stdin;
    if (!f) {
        warn_errno(argv[1]);
        return 1;
    }
    char **ring = calloc((size_t)(n ? n : 1), sizeof(char *));
    char *line = 0;
    size_t cap = 0;
    long total = 0;
    while (getline(&line, &cap, f) > 0) {
        total++;
        if (plus) {
            if (total >= n)
                fputs(line, stdout);
            continue;
        }
        if (!n)
            continue;
        free(ring[(total - 1) % n]);
        ring[(total - 1) % n] = strdup(line);
    }
    if (!plus)
        for (long i = total > n ? total - n : 0; i < total; i++)
            fputs(ring[i % n], stdout);
    return 0;
}

int wc_main(int argc, char **argv)
{
    int want_l = 0, want_w = 0, want_c = 0, c;
    while ((c = getopt(argc, argv, "lwcm")) != -1)
        if (c == 'l') want_l = 1;
        else if (c == 'w') want_w = 1;
        else if (c == 'c' || c == 'm') want_c = 1;
        else return 1;
    if (!want_l && !want_w && !want_c)
        want_l = want_w = want_c = 1;
    int nfiles = argc - optind, rc = 0;
    unsigned long long tl = 0, tw = 0, tc = 0;
    for (int i = 0; i < (nfiles ? nfiles : 1); i++) {
        const char *name = nfiles ? argv[optind + i] : 0;
        int fd = name && strcmp(name, "-") ? open(name, O_RDONLY) : 0;
        if (fd < 0) {
            warn_errno(name);
            rc = 1;
            continue;
        }
        unsigned long long l = 0, w = 0, ch = 0;
        int inword = 0;
        char buf[4096];
        ssize_t r;
        while ((r = read(fd, buf, sizeof buf)) > 0) {
            ch += (unsigned long long)r;
            for (ssize_t k = 0; k < r; k++) {
                if (buf[k] == '\n')
                    l++;
                if (isspace((unsigned char)buf[k]))
                    inword = 0;
                else if (!inword) {
                    inword = 1;
                    w++;
                }
            }
        }
        if (fd)
            close(fd);
        tl += l;
        tw += w;
        tc += ch;
        const char *sep = "";
        int only = want_l + want_w + want_c == 1 && !name;
        const char *fmt = only ? "%s%llu" : "%s%7llu";
        if (want_l) { printf(fmt, sep, l); sep = " "; }
        if (want_w) { printf(fmt, sep, w); sep = " "; }
        if (want_c) { printf(fmt, sep, ch); sep = " "; }
        if (name)
            printf(" %s", name);
        putchar('\n');
    }
    if (nfiles > 1) {
        const char *sep = "";
        if (want_l) { printf("%s%7llu", sep, tl); sep = " "; }
        if (want_w) { printf("%s%7llu", sep, tw); sep = " "; }
        if (want_c) { printf("%s%7llu", sep, tc); sep = " "; }
        printf(" total\n");
    }
    return rc;
}

int hexdump_main(int argc, char **argv)
{
    int canon = 0, c;
    while ((c = getopt(argc, argv, "C")) != -1)
        if (c == 'C') canon = 1;
        else return 1;
    int fd = optind < argc ? open(argv[optind], O_RDONLY) : 0;
    if (fd < 0) {
        warn_errno(argv[optind]);
        return 1;
    }
    unsigned char row[16], prev[16];
    unsigned long long off = 0;
    int have_prev = 0, starred = 0;
    for (;;) {
        int n = 0;
        while (n < 16) {
            ssize_t r = read(fd, row + n, (size_t)(16 - n));
            if (r <= 0)
                break;
            n += (int)r;
        }
        if (n == 0)
            break;
        if (n == 16 && have_prev && !memcmp(row, prev, 16)) {
            if (!starred)
                puts("*");
            starred = 1;
            off += 16;
            continue;
        }
        starred = 0;
        memcpy(prev, row, 16);
        have_prev = n == 16;
        if (canon) {
            printf("%08llx ", off);
            for (int i = 0; i < 16; i++) {
                if (i == 8)
                    putchar(' ');
                if (i < n)
                    printf(" %02x", row[i]);
                else
                    printf("   ");
            }
            printf("  |");
            for (int i = 0; i < n; i++)
                putchar(isprint(row[i]) ? row[i] : '.');
            printf("|\n");
        } else {
            printf("%07llx", off);
            for (int i = 0; i < n; i += 2)
                printf(" %04x", i + 1 < n ? row[i] | row[i + 1] << 8 : row[i]);
            putchar('\n');
        }
        off += (unsigned long long)n;
    }
    if (off || canon)
        printf(canon ? "%08llx\n" : "%07llx\n", off);
    if (fd)
        close(fd);
    return 0;
}
