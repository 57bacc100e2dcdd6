// SPDX-License-Identifier: MIT
// Check suite of the network backends (src/devices/host/net.c, net_user.c) driven the
// way the SMSC911x model drives them (send a frame, ask for received frames): the --net
// spec parser and its messages; with libslirp, a DHCP DISCOVER answered by an OFFER of
// 10.0.2.15 from 10.0.2.2 (RFC 2131 layout), an ARP request for the router answered, and a
// hostfwd rule that turns a host connection to 127.0.0.1:PORT into a TCP SYN to the guest;
// the idle wait's precision (no rounding to a millisecond) and its early return on frames.
#include "../check_main.h"
#include <arpa/inet.h>
#include <check.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "hexsim/host.h"

static const uint8_t guest_mac[6] = { 0x52, 0x54, 0x00, 0x12, 0x34, 0x56 };

static void put16(uint8_t *p, unsigned v)
{
    p[0] = (uint8_t)(v >> 8);
    p[1] = (uint8_t)v;
}

static unsigned get16(const uint8_t *p) { return (unsigned)p[0] << 8 | p[1]; }

static void ip_checksum(uint8_t *ip)
{
    uint32_t sum = 0;
    put16(ip + 10, 0);
    for (int i = 0; i < 20; i += 2)
        sum += get16(ip + i);
    while (sum >> 16)
        sum = (sum & 0xFFFF) + (sum >> 16);
    put16(ip + 10, ~sum & 0xFFFF);
}

// A DHCP message of type `type` from the guest MAC, broadcast; returns the frame length.
static size_t dhcp_frame(uint8_t *f, uint8_t type, uint32_t xid)
{
    memset(f, 0, 600);
    memset(f, 0xFF, 6);
    memcpy(f + 6, guest_mac, 6);
    put16(f + 12, 0x0800);
    uint8_t *ip = f + 14, *udp = ip + 20, *b = udp + 8;
    b[0] = 1;                                   // BOOTREQUEST
    b[1] = 1;                                   // Ethernet
    b[2] = 6;
    b[4] = (uint8_t)(xid >> 24); b[5] = (uint8_t)(xid >> 16);
    b[6] = (uint8_t)(xid >> 8); b[7] = (uint8_t)xid;
    b[10] = 0x80;                               // broadcast flag
    memcpy(b + 28, guest_mac, 6);
    uint8_t *o = b + 236;
    o[0] = 99; o[1] = 130; o[2] = 83; o[3] = 99; // magic cookie
    o[4] = 53; o[5] = 1; o[6] = type;
    o[7] = 255;
    size_t blen = 236 + 8 + 56;                 // padded to the BOOTP minimum of 300
    put16(udp, 68);
    put16(udp + 2, 67);
    put16(udp + 4, (unsigned)(8 + blen));
    ip[0] = 0x45;
    put16(ip + 2, (unsigned)(20 + 8 + blen));
    ip[8] = 64;
    ip[9] = 17;
    memset(ip + 16, 0xFF, 4);                   // to 255.255.255.255 from 0.0.0.0
    ip_checksum(ip);
    return 14 + 20 + 8 + blen;
}

// Asks the backend for a frame for up to ~2 s (serving its sockets meanwhile).
static size_t wait_frame(struct hexsim_netdev *n, uint8_t *f)
{
    for (int i = 0; i < 200; i++) {
        size_t len = n->recv(n->ctx, f, HEXSIM_ETH_MAX_FRAME);
        if (len)
            return len;
        hexsim_net_wait(n, -1, 10000000);
    }
    return 0;
}

START_TEST(spec_errors)
{
    struct hexsim_netdev n;
    char msg[256];
    ck_assert_int_eq(hexsim_net_open(&n, "none", stderr, msg, sizeof(msg)), 0);
    ck_assert(!hexsim_net_has_wait(&n));
    hexsim_net_close(&n);
    ck_assert_int_eq(hexsim_net_open(&n, "tap0", stderr, msg, sizeof(msg)), -1);
    ck_assert_ptr_nonnull(strstr(msg, "unknown backend"));
    ck_assert_int_eq(hexsim_net_open(&n, "userx", stderr, msg, sizeof(msg)), -1);
    if (!hexsim_net_user_available()) {
        ck_assert_int_eq(hexsim_net_open(&n, "user", stderr, msg, sizeof(msg)), -1);
        ck_assert_ptr_nonnull(strstr(msg, "without libslirp"));
        return;
    }
    ck_assert_int_eq(hexsim_net_open(&n, "user,foo=1", stderr, msg, sizeof(msg)), -1);
    ck_assert_ptr_nonnull(strstr(msg, "unknown option 'foo=1'"));
    ck_assert_int_eq(hexsim_net_open(&n, "user,hostfwd=tcp:0.0.0.0:8080-:80", stderr, msg,
                                     sizeof(msg)), -1);
    ck_assert_ptr_nonnull(strstr(msg, "bad hostfwd rule"));
    ck_assert_int_eq(hexsim_net_open(&n, "user,hostfwd=tcp::70000-:80", stderr, msg,
                                     sizeof(msg)), -1);
    ck_assert_int_eq(hexsim_net_open(&n, "user,hostfwd=tcp::8080-:", stderr, msg,
                                     sizeof(msg)), -1);
}
END_TEST

static uint64_t mono_ns(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

// The idle wait is as long as asked to the microsecond, not rounded up to a millisecond
// (which made each 8.68 us idle step of the guest cost 1 ms), and returns at once with
// HEXSIM_NET_FRAMES when slirp has a frame for the guest.
START_TEST(user_wait_precision)
{
    if (!hexsim_net_user_available())
        return;
    struct hexsim_netdev n;
    char msg[256];
    ck_assert_msg(hexsim_net_open(&n, "user", stderr, msg, sizeof(msg)) == 0, "%s", msg);
    uint64_t best = UINT64_MAX;
    for (int i = 0; i < 10; i++) {          // the best of ten: a loaded host only adds
        uint64_t t0 = mono_ns();
        ck_assert_int_eq(hexsim_net_wait(&n, -1, 200000), 0);
        uint64_t took = mono_ns() - t0;
        if (took < best)
            best = took;
    }
    ck_assert_uint_ge(best, 200000);
    ck_assert_uint_lt(best, 900000);
    uint8_t f[HEXSIM_ETH_MAX_FRAME];
    n.send(n.ctx, f, dhcp_frame(f, 1, 0x1234u));   // slirp answers a DHCP discover
    uint64_t t0 = mono_ns();
    int r = 0;
    for (int i = 0; i < 100 && !(r & HEXSIM_NET_FRAMES); i++)
        r = hexsim_net_wait(&n, -1, 20000000);
    ck_assert_int_eq(r & HEXSIM_NET_FRAMES, HEXSIM_NET_FRAMES);
    ck_assert_uint_lt(mono_ns() - t0, 1000000000u);
    ck_assert_uint_gt(n.recv(n.ctx, f, sizeof f), 0);
    hexsim_net_close(&n);
}
END_TEST

START_TEST(user_dhcp_arp_hostfwd)
{
    if (!hexsim_net_user_available())
        return;   // spec_errors checks the message of a build without libslirp
    // a free loopback port for the forward
    int probe = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in a = { .sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
    ck_assert_int_eq(bind(probe, (struct sockaddr *)&a, sizeof(a)), 0);
    socklen_t al = sizeof(a);
    getsockname(probe, (struct sockaddr *)&a, &al);
    unsigned port = ntohs(a.sin_port);
    close(probe);
    char spec[64], msg[256];
    snprintf(spec, sizeof(spec), "user,hostfwd=tcp::%u-:80", port);
    struct hexsim_netdev n;
    ck_assert_msg(hexsim_net_open(&n, spec, stderr, msg, sizeof(msg)) == 0, "%s", msg);
    ck_assert(hexsim_net_has_wait(&n));

    uint8_t f[HEXSIM_ETH_MAX_FRAME];
    size_t len = dhcp_frame(f, 1, 0x12345678u);
    n.send(n.ctx, f, len);
    len = wait_frame(&n, f);
    ck_assert_uint_ge(len, 14 + 20 + 8 + 240);
    ck_assert_uint_eq(get16(f + 12), 0x0800);
    const uint8_t *ip = f + 14, *udp = ip + 20, *b = udp + 8;
    ck_assert_uint_eq(ip[9], 17);
    ck_assert_uint_eq(get16(udp), 67);
    ck_assert_uint_eq(get16(udp + 2), 68);
    ck_assert_uint_eq(b[0], 2);                           // BOOTREPLY
    ck_assert_uint_eq((uint32_t)b[4] << 24 | b[5] << 16 | b[6] << 8 | b[7], 0x12345678u);
    ck_assert_mem_eq(b + 16, "\x0a\x00\x02\x0f", 4);      // yiaddr 10.0.2.15
    ck_assert_mem_eq(ip + 12, "\x0a\x00\x02\x02", 4);     // from 10.0.2.2
    const uint8_t *o = b + 240;
    bool offer = false;
    while (o < f + len && *o != 255) {
        if (*o == 0) {
            o++;
            continue;
        }
        if (o[0] == 53 && o[1] == 1 && o[2] == 2)
            offer = true;
        o += 2 + o[1];
    }
    ck_assert(offer);

    // ARP: who has 10.0.2.2? tell 10.0.2.15
    memset(f, 0, 60);
    memset(f, 0xFF, 6);
    memcpy(f + 6, guest_mac, 6);
    put16(f + 12, 0x0806);
    uint8_t *arp = f + 14;
    put16(arp, 1);
    put16(arp + 2, 0x0800);
    arp[4] = 6;
    arp[5] = 4;
    put16(arp + 6, 1);
    memcpy(arp + 8, guest_mac, 6);
    memcpy(arp + 14, "\x0a\x00\x02\x0f", 4);
    memcpy(arp + 24, "\x0a\x00\x02\x02", 4);
    n.send(n.ctx, f, 60);
    len = wait_frame(&n, f);
    ck_assert_uint_ge(len, 42);
    ck_assert_uint_eq(get16(f + 12), 0x0806);
    ck_assert_uint_eq(get16(arp + 6), 2);                 // reply
    ck_assert_mem_eq(arp + 14, "\x0a\x00\x02\x02", 4);
    ck_assert_mem_eq(f, guest_mac, 6);

    // hostfwd: a host connection to 127.0.0.1:port becomes a SYN to 10.0.2.15:80
    int s = socket(AF_INET, SOCK_STREAM, 0);
    a.sin_port = htons((uint16_t)port);
    ck_assert_int_eq(connect(s, (struct sockaddr *)&a, sizeof(a)), 0);
    bool syn = false;
    for (int i = 0; i < 20 && !syn; i++) {
        len = wait_frame(&n, f);
        if (len >= 14 + 20 + 20 && get16(f + 12) == 0x0800 && f[14 + 9] == 6) {
            const uint8_t *tcp = f + 14 + (f[14] & 15) * 4;
            ck_assert_mem_eq(f + 14 + 16, "\x0a\x00\x02\x0f", 4);
            ck_assert_uint_eq(get16(tcp + 2), 80);
            syn = (tcp[13] & 0x02) != 0;
        }
    }
    ck_assert(syn);
    close(s);
    hexsim_net_close(&n);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("net_backends");
    TCase *t = tcase_create("net");
    tcase_set_timeout(t, 30);
    tcase_add_test(t, spec_errors);
    tcase_add_test(t, user_dhcp_arp_hostfwd);
    tcase_add_test(t, user_wait_precision);
    suite_add_tcase(s, t);
    return hexsim_check_run(s);
}
