// SPDX-License-Identifier: MIT
// string.h, strings.h, ctype.h and the string conversions of stdlib.h: copying and
// comparing, searching, tokenising, overlapping moves, case, numeric parsing with
// bases, signs, overflow and end pointers.
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static int sign(int x) { return (x > 0) - (x < 0); }

int main(void)
{
    char buf[128];
    printf("strlen %zu %zu\n", strlen(""), strlen("hello, world"));
    printf("strcmp %d %d %d %d\n", sign(strcmp("abc", "abd")), sign(strcmp("b", "a")),
           sign(strcmp("same", "same")), sign(strcmp("a\xff", "a\x01")));
    printf("strncmp %d %d\n", sign(strncmp("abcdef", "abcxyz", 3)), sign(strncmp("abcdef", "abcxyz", 4)));
    printf("strcasecmp %d %d\n", sign(strcasecmp("HeLLo", "hello")), sign(strncasecmp("ABCd", "abce", 4)));
    strcpy(buf, "foo");
    strcat(buf, "bar");
    strncat(buf, "bazqux", 3);
    printf("cat %s\n", buf);
    memset(buf, 'x', sizeof buf);
    strncpy(buf, "ab", 5);
    printf("strncpy %d %d %d %c\n", buf[0], buf[2], buf[4], buf[5]);
    const char *hay = "the quick brown fox jumps over the lazy dog";
    printf("strchr %td strrchr %td strstr %td %d\n", strchr(hay, 'q') - hay, strrchr(hay, 'o') - hay,
           strstr(hay, "lazy") - hay, strstr(hay, "cat") == NULL);
    printf("strspn %zu strcspn %zu strpbrk %td\n", strspn(hay, "the "), strcspn(hay, "xyz"),
           strpbrk(hay, "jz") - hay);
    printf("memchr %td memrchr-like %td\n", (const char *)memchr(hay, 'b', 43) - hay,
           strrchr(hay, 't') - hay);
    char tok[] = "a,b,,c;d ;; e";
    char *save, *t = strtok_r(tok, ",; ", &save);
    printf("tokens:");
    while (t) {
        printf(" [%s]", t);
        t = strtok_r(NULL, ",; ", &save);
    }
    printf("\n");
    char ov[32] = "0123456789abcdefghij";
    memmove(ov + 4, ov, 10);
    printf("memmove up %s\n", ov);
    memmove(ov, ov + 6, 10);
    printf("memmove down %s\n", ov);
    unsigned char big[300], big2[300];
    for (int i = 0; i < 300; i++)
        big[i] = (unsigned char)(i * 13);
    memcpy(big2, big, 300);
    big2[299] ^= 1;
    printf("memcmp %d %d\n", sign(memcmp(big, big2, 299)), sign(memcmp(big, big2, 300)));
    char *d = strdup("duplicate");
    char *dn = strndup("duplicate", 3);
    printf("strdup %s %s\n", d, dn);
    free(d);
    free(dn);
    for (int c = 0; c < 128; c += 9)
        printf("%c%d%d%d%d%c ", isprint(c) ? c : '.', !!isalpha(c), !!isdigit(c), !!isspace(c),
               !!ispunct(c), toupper(c) > 32 && toupper(c) < 127 ? toupper(c) : '.');
    printf("\n");
    // long is 32 bits on Hexagon and 64 on the host: strtol and atoi only on values
    // that fit in 32 bits; strtoll and strtoull (64 bits on both) on all.
    static const char *nums[] = {
        "123", "-123", "  +42xyz", "0x1F", "0777", "2147483647", "-2147483648", "-1", "zz", "",
        "2147483648", "-2147483649", "9223372036854775807", "9223372036854775808",
        "18446744073709551615", "-9223372036854775809",
    };
    for (size_t i = 0; i < sizeof nums / sizeof nums[0]; i++) {
        char *end;
        errno = 0;
        long long ll = strtoll(nums[i], &end, 0);
        int e1 = errno;
        errno = 0;
        unsigned long long u = strtoull(nums[i], NULL, 0);
        int e2 = errno;
        printf("%-22s strtoll %lld/%d end %td strtoull %llu/%d", nums[i], ll, e1 == ERANGE,
               end - nums[i], u, e2 == ERANGE);
        if (i < 10) {
            errno = 0;
            long l = strtol(nums[i], &end, 10);
            printf(" strtol %ld/%d end %td atoi %d", l, errno == ERANGE, end - nums[i], atoi(nums[i]));
        }
        printf("\n");
    }
    printf("base36 %ld base2 %ld\n", strtol("zz", NULL, 36), strtol("101101", NULL, 2));
    printf("ffs %d %d\n", ffs(0x80), ffs(0));
    return 0;
}
