// SPDX-License-Identifier: MIT
// POSIX getopt (short options, grouped flags, "x:" arguments, stops at "--").
#include <stdio.h>
#include <string.h>
#include <unistd.h>

char *optarg;
int optind = 1, opterr = 1, optopt;
static int optpos = 1;

int getopt(int argc, char *const argv[], const char *opts)
{
    if (optind >= argc || !argv[optind] || argv[optind][0] != '-' || !argv[optind][1])
        return -1;
    if (!strcmp(argv[optind], "--")) {
        optind++;
        return -1;
    }
    int c = argv[optind][optpos++];
    const char *o = c == ':' ? 0 : strchr(opts, c);
    int last = argv[optind][optpos] == 0;
    if (!o) {
        optopt = c;
        if (opterr && *opts != ':')
            fprintf(stderr, "%s: unknown option -%c\n", argv[0], c);
        if (last) {
            optind++;
            optpos = 1;
        }
        return '?';
    }
    if (o[1] == ':') {
        if (!last) {
            optarg = (char *)argv[optind] + optpos;
        } else if (optind + 1 < argc) {
            optarg = argv[++optind];
        } else {
            optopt = c;
            optind++;
            optpos = 1;
            if (opterr && *opts != ':')
                fprintf(stderr, "%s: option -%c needs an argument\n", argv[0], c);
            return *opts == ':' ? ':' : '?';
        }
        optind++;
        optpos = 1;
        return c;
    }
    if (last) {
        optind++;
        optpos = 1;
    }
    return c;
}
