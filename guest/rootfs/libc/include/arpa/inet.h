// SPDX-License-Identifier: MIT
#ifndef _ARPA_INET_H
#define _ARPA_INET_H
#include <netinet/in.h>
int inet_aton(const char *s, struct in_addr *a);
in_addr_t inet_addr(const char *s);
char *inet_ntoa(struct in_addr a);
#endif
