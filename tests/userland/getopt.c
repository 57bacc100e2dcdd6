// SPDX-License-Identifier: MIT
// getopt and getopt_long over the arguments the test passes, then the environment:
// getenv of set, empty and unset variables, setenv with and without overwrite,
// putenv, unsetenv, clearenv-free iteration of environ for this test's variables.
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

extern char **environ;

int main(int argc, char **argv)
{
    static const struct option longs[] = {
        { "long", required_argument, NULL, 'L' },
        { "flag", no_argument, NULL, 'F' },
        { NULL, 0, NULL, 0 },
    };
    int c, idx;
    opterr = 0;
    while ((c = getopt_long(argc, argv, "ab:c::", longs, &idx)) != -1) {
        switch (c) {
        case 'a': printf("opt a\n"); break;
        case 'b': printf("opt b arg %s\n", optarg); break;
        case 'c': printf("opt c arg %s\n", optarg ? optarg : "(none)"); break;
        case 'L': printf("long %s arg %s\n", longs[idx].name, optarg); break;
        case 'F': printf("flag\n"); break;
        default: printf("unknown option %c\n", optopt); break;
        }
    }
    printf("operands from %d:", optind);
    for (int i = optind; i < argc; i++)
        printf(" [%s]", argv[i]);
    printf("\n");
    // A second scan with plain getopt after a reset.
    char *args2[] = { "prog", "-x", "-y", "val", "-z", "end", NULL };
    optind = 1;
    while ((c = getopt(6, args2, "xy:")) != -1)
        printf("getopt %c %s\n", c == '?' ? '?' : c, c == 'y' ? optarg : c == '?' ? "(bad)" : "");
    printf("stopped at %d [%s]\n", optind, args2[optind]);

    const char *a = getenv("USERLAND_A"), *b = getenv("USERLAND_B"), *u = getenv("USERLAND_UNSET");
    printf("getenv A=[%s] B=[%s] unset=%d\n", a ? a : "?", b ? b : "?", u == NULL);
    printf("setenv %d overwrite0 %d", setenv("USERLAND_A", "beta", 0), setenv("USERLAND_C", "gamma", 1));
    printf(" -> A=%s C=%s\n", getenv("USERLAND_A"), getenv("USERLAND_C"));
    setenv("USERLAND_A", "delta", 1);
    static char pe[] = "USERLAND_D=putenv";
    putenv(pe);
    printf("A=%s D=%s\n", getenv("USERLAND_A"), getenv("USERLAND_D"));
    printf("setenv bad name %d\n", setenv("BAD=NAME", "x", 1));
    unsetenv("USERLAND_C");
    int n = 0;
    for (char **e = environ; *e; e++)
        if (strncmp(*e, "USERLAND_", 9) == 0)
            n++;
    printf("USERLAND_ vars %d C=%s\n", n, getenv("USERLAND_C") ? "set" : "unset");
    return 0;
}
