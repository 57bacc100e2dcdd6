// SPDX-License-Identifier: MIT
// Between net.c (which parses --net and owns the simple backends) and net_user.c (the
// libslirp backend, compiled only when libslirp-dev is found; HEXSIM_HAVE_SLIRP).
#ifndef HEXSIM_NET_BACKEND_H
#define HEXSIM_NET_BACKEND_H

#include <stddef.h>
#include <stdio.h>

#include "hexsim/host.h"

// opts: what follows "user" in the spec ("" or ",hostfwd=...").
int hexsim_net_open_user(struct hexsim_netdev *n, const char *opts, FILE *err, char *msg,
                         size_t msglen);

#endif
