// SPDX-License-Identifier: MIT
// Network applets (ifconfig route udhcpc ping wget): placeholders until written.
#include <stdio.h>
#include "box.h"
static int todo(void) { fprintf(stderr, "%s: not implemented yet\n", applet); return 1; }
int ifconfig_main(int argc, char **argv) { return todo(); }
int route_main(int argc, char **argv) { return todo(); }
int udhcpc_main(int argc, char **argv) { return todo(); }
int ping_main(int argc, char **argv) { return todo(); }
int wget_main(int argc, char **argv) { return todo(); }
