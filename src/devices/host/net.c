// SPDX-License-Identifier: MIT
// Network backends behind the Ethernet device. "none": frames the guest sends vanish and
// nothing arrives (the guest still sees a link, as with an unplugged switch port that keeps
// carrier). "pcap=FILE": the same, and every frame the guest sends is recorded in FILE in
// the classic libpcap format (Ethernet link type), with the frame's sequence number as its
// time stamp so the file is reproducible. "user[,hostfwd=...]": libslirp (net_user.c),
// when the build found libslirp-dev; otherwise refused with a message saying so.
#include <stdlib.h>
#include <string.h>

#include "hexsim/host.h"
#include "net_backend.h"

struct pcap_be {
    FILE *f;
    uint32_t n;
};

static void put32(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)v;
    p[1] = (uint8_t)(v >> 8);
    p[2] = (uint8_t)(v >> 16);
    p[3] = (uint8_t)(v >> 24);
}

static void pcap_send(void *ctx, const uint8_t *frame, size_t len)
{
    struct pcap_be *p = ctx;
    uint8_t h[16];
    p->n++;
    put32(h, p->n);          // seconds: the frame number (reproducible)
    put32(h + 4, 0);
    put32(h + 8, (uint32_t)len);
    put32(h + 12, (uint32_t)len);
    fwrite(h, 1, sizeof(h), p->f);
    fwrite(frame, 1, len, p->f);
}

static size_t no_recv(void *ctx, uint8_t *frame, size_t cap)
{
    (void)ctx;
    (void)frame;
    (void)cap;
    return 0;
}

static void pcap_close(void *ctx)
{
    struct pcap_be *p = ctx;
    fclose(p->f);
    free(p);
}

bool hexsim_net_user_available(void)
{
#ifdef HEXSIM_HAVE_SLIRP
    return true;
#else
    return false;
#endif
}

int hexsim_net_open(struct hexsim_netdev *n, const char *spec, FILE *err, char *msg,
                    size_t msglen)
{
    memset(n, 0, sizeof(*n));
    if (!spec || strcmp(spec, "none") == 0)
        return 0;
    if (strncmp(spec, "pcap=", 5) == 0 && spec[5]) {
        struct pcap_be *p = calloc(1, sizeof(*p));
        if (!p) {
            snprintf(msg, msglen, "out of memory");
            return -1;
        }
        p->f = fopen(spec + 5, "wb");
        if (!p->f) {
            snprintf(msg, msglen, "--net %s: cannot create the file", spec);
            free(p);
            return -1;
        }
        uint8_t h[24];
        put32(h, 0xA1B2C3D4u);           // magic, microsecond time stamps
        h[4] = 2; h[5] = 0; h[6] = 4; h[7] = 0;   // version 2.4
        put32(h + 8, 0);
        put32(h + 12, 0);
        put32(h + 16, 65535);             // snapshot length
        put32(h + 20, 1);                 // LINKTYPE_ETHERNET
        fwrite(h, 1, sizeof(h), p->f);
        n->send = pcap_send;
        n->recv = no_recv;
        n->close = pcap_close;
        n->ctx = p;
        return 0;
    }
    if (strncmp(spec, "user", 4) == 0 && (spec[4] == 0 || spec[4] == ',')) {
#ifdef HEXSIM_HAVE_SLIRP
        return hexsim_net_open_user(n, spec + 4, err, msg, msglen);
#else
        (void)err;
        snprintf(msg, msglen, "--net user: this hexsim was built without libslirp (install "
                 "libslirp-dev and rebuild); use --net none or --net pcap=FILE");
        return -1;
#endif
    }
    snprintf(msg, msglen, "--net %s: unknown backend (none, user[,hostfwd=tcp::HOSTPORT-:"
             "GUESTPORT], pcap=FILE)", spec);
    return -1;
}

void hexsim_net_close(struct hexsim_netdev *n)
{
    if (n->close)
        n->close(n->ctx);
    memset(n, 0, sizeof(*n));
}

bool hexsim_net_has_wait(const struct hexsim_netdev *n)
{
    return n->wait != NULL;
}

int hexsim_net_wait(struct hexsim_netdev *n, int wake_fd, uint64_t timeout_ns)
{
    return n->wait ? n->wait(n->ctx, wake_fd, timeout_ns) : 0;
}
