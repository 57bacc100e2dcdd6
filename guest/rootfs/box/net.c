// SPDX-License-Identifier: MIT
// Network applets: ifconfig, route, udhcpc, ping, wget. Interfaces and routes through the
// classic socket ioctls (SIOCGIFFLAGS ... SIOCADDRT), counters and routes read from
// /proc/net/dev and /proc/net/route. udhcpc speaks DHCP (RFC 2131 message layout, RFC 2132
// options 1, 3, 6, 12, 50, 51, 53, 54, 55) on a UDP socket bound to port 68 and to the
// interface; ping sends ICMP echo requests (RFC 792) on a raw socket; wget is an HTTP/1.0
// GET over TCP to a numeric IPv4 address.
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <net/if.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>
#include "box.h"

// ---- shared helpers

static int ctl_socket(void)
{
    int fd = socket(AF_INET, SOCK_DGRAM, 0);
    if (fd < 0)
        warn_errno("socket");
    return fd;
}

static int if_req(int fd, unsigned long req, const char *ifname, struct ifreq *r)
{
    strncpy(r->ifr_name, ifname, IFNAMSIZ - 1);
    r->ifr_name[IFNAMSIZ - 1] = 0;
    return ioctl(fd, req, r);
}

static void put_in(struct sockaddr *sa, uint32_t addr_be)
{
    struct sockaddr_in *in = (struct sockaddr_in *)sa;
    memset(in, 0, sizeof(*in));
    in->sin_family = AF_INET;
    in->sin_addr.s_addr = addr_be;
}

static uint32_t get_in(const struct sockaddr *sa)
{
    return ((const struct sockaddr_in *)sa)->sin_addr.s_addr;
}

// Dotted-quad text of an address; four buffers in turn, so one printf can show several.
static const char *ip(uint32_t addr_be)
{
    static char buf[4][16];
    static unsigned next;
    struct in_addr a = { addr_be };
    char *b = buf[next++ % 4];
    snprintf(b, 16, "%s", inet_ntoa(a));
    return b;
}

static int parse_ip(const char *s, uint32_t *out)
{
    struct in_addr a;
    if (!inet_aton(s, &a)) {
        fprintf(stderr, "%s: %s: not a numeric IPv4 address\n", applet, s);
        return -1;
    }
    *out = a.s_addr;
    return 0;
}

static int set_flags(int fd, const char *ifname, short set, short clear)
{
    struct ifreq r;
    memset(&r, 0, sizeof(r));
    if (if_req(fd, SIOCGIFFLAGS, ifname, &r) < 0)
        return -1;
    r.ifr_flags = (short)((r.ifr_flags | set) & ~clear);
    return if_req(fd, SIOCSIFFLAGS, ifname, &r);
}

static int set_addr(int fd, const char *ifname, unsigned long req, uint32_t addr_be)
{
    struct ifreq r;
    memset(&r, 0, sizeof(r));
    put_in(&r.ifr_addr, addr_be);
    return if_req(fd, req, ifname, &r);
}

static int add_route(int fd, const char *dev, uint32_t dst, uint32_t mask, uint32_t gw, int add)
{
    struct rtentry rt;
    memset(&rt, 0, sizeof(rt));
    put_in(&rt.rt_dst, dst);
    put_in(&rt.rt_genmask, mask);
    put_in(&rt.rt_gateway, gw);
    rt.rt_flags = RTF_UP | (gw ? RTF_GATEWAY : 0);
    rt.rt_dev = (char *)dev;
    return ioctl(fd, add ? SIOCADDRT : SIOCDELRT, &rt);
}

static double now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1000.0 + (double)t.tv_nsec / 1e6;
}

// ---- ifconfig

// Counters of one interface from /proc/net/dev ("name: rxbytes rxpackets ... txbytes
// txpackets ..."); 0 when found.
static int if_counters(const char *ifname, unsigned long long c[16])
{
    FILE *f = fopen("/proc/net/dev", "r");
    if (!f)
        return -1;
    char line[256];
    int rc = -1;
    while (fgets(line, sizeof line, f)) {
        char *colon = strchr(line, ':'), *name = line;
        if (!colon)
            continue;
        *colon = 0;
        while (*name == ' ')
            name++;
        if (strcmp(name, ifname))
            continue;
        char *p = colon + 1;
        for (int i = 0; i < 16; i++)
            c[i] = strtoull(p, &p, 10);
        rc = 0;
        break;
    }
    fclose(f);
    return rc;
}

static int if_show(int fd, const char *ifname)
{
    struct ifreq r;
    memset(&r, 0, sizeof(r));
    if (if_req(fd, SIOCGIFFLAGS, ifname, &r) < 0) {
        fprintf(stderr, "ifconfig: %s: %s\n", ifname, strerror(errno));
        return -1;
    }
    short flags = r.ifr_flags;
    printf("%-9s Link encap:%s", ifname, flags & IFF_LOOPBACK ? "Local Loopback" : "Ethernet");
    if (!(flags & IFF_LOOPBACK) && if_req(fd, SIOCGIFHWADDR, ifname, &r) == 0) {
        const unsigned char *m = (const unsigned char *)r.ifr_hwaddr.sa_data;
        printf("  HWaddr %02x:%02x:%02x:%02x:%02x:%02x", m[0], m[1], m[2], m[3], m[4], m[5]);
    }
    printf("\n");
    if (if_req(fd, SIOCGIFADDR, ifname, &r) == 0) {
        printf("          inet addr:%s", ip(get_in(&r.ifr_addr)));
        if (if_req(fd, SIOCGIFNETMASK, ifname, &r) == 0)
            printf("  Mask:%s", ip(get_in(&r.ifr_netmask)));
        printf("\n");
    }
    int mtu = if_req(fd, SIOCGIFMTU, ifname, &r) == 0 ? r.ifr_mtu : 0;
    printf("         %s%s%s%s%s  MTU:%d\n", flags & IFF_UP ? " UP" : "",
           flags & IFF_BROADCAST ? " BROADCAST" : "", flags & IFF_LOOPBACK ? " LOOPBACK" : "",
           flags & IFF_RUNNING ? " RUNNING" : "", flags & IFF_MULTICAST ? " MULTICAST" : "", mtu);
    unsigned long long c[16];
    if (if_counters(ifname, c) == 0)
        printf("          RX packets:%llu bytes:%llu  TX packets:%llu bytes:%llu\n", c[1], c[0],
               c[9], c[8]);
    printf("\n");
    return 0;
}

static int if_show_all(int fd)
{
    FILE *f = fopen("/proc/net/dev", "r");
    if (!f) {
        warn_errno("/proc/net/dev");
        return 1;
    }
    char line[256];
    int rc = 0;
    while (fgets(line, sizeof line, f)) {
        char *colon = strchr(line, ':'), *name = line;
        if (!colon)
            continue;
        *colon = 0;
        while (*name == ' ')
            name++;
        rc |= if_show(fd, name) < 0;
    }
    fclose(f);
    return rc;
}

int ifconfig_main(int argc, char **argv)
{
    int fd = ctl_socket();
    if (fd < 0)
        return 1;
    if (argc < 2)
        return if_show_all(fd);
    const char *ifname = argv[1];
    if (argc == 2)
        return if_show(fd, ifname) < 0;
    for (int i = 2; i < argc; i++) {
        uint32_t a;
        int rc;
        if (!strcmp(argv[i], "up"))
            rc = set_flags(fd, ifname, IFF_UP, 0);
        else if (!strcmp(argv[i], "down"))
            rc = set_flags(fd, ifname, 0, IFF_UP);
        else if (!strcmp(argv[i], "netmask") && i + 1 < argc) {
            if (parse_ip(argv[++i], &a))
                return 1;
            rc = set_addr(fd, ifname, SIOCSIFNETMASK, a);
        } else if (argv[i][0] >= '0' && argv[i][0] <= '9') {
            if (parse_ip(argv[i], &a))
                return 1;
            rc = set_addr(fd, ifname, SIOCSIFADDR, a);
            if (rc == 0)
                rc = set_flags(fd, ifname, IFF_UP, 0);   // an address implies up
        } else {
            fprintf(stderr, "usage: ifconfig [IFACE [up|down] [ADDR] [netmask MASK]]\n");
            return 2;
        }
        if (rc < 0) {
            fprintf(stderr, "ifconfig: %s %s: %s\n", ifname, argv[i], strerror(errno));
            return 1;
        }
    }
    return 0;
}

// ---- route

static uint32_t hex_be(const char *s)
{
    return (uint32_t)strtoul(s, NULL, 16);   // /proc/net/route prints the raw (network) word
}

static int route_list(void)
{
    FILE *f = fopen("/proc/net/route", "r");
    if (!f) {
        warn_errno("/proc/net/route");
        return 1;
    }
    char line[256];
    printf("Kernel IP routing table\n%-15s %-15s %-15s Flags Iface\n", "Destination", "Gateway",
           "Genmask");
    fgets(line, sizeof line, f);             // the header
    while (fgets(line, sizeof line, f)) {
        char dev[IFNAMSIZ + 1], dst[16], gw[16], fl[16], mask[16];
        if (sscanf(line, "%16s %15s %15s %15s %*s %*s %*s %15s", dev, dst, gw, fl, mask) != 5)
            continue;
        unsigned flags = (unsigned)strtoul(fl, NULL, 16);
        char d[16], g[16];
        uint32_t dv = hex_be(dst), gv = hex_be(gw);
        snprintf(d, sizeof d, "%s", dv ? ip(dv) : "default");
        snprintf(g, sizeof g, "%s", ip(gv));
        printf("%-15s %-15s %-15s %s%s    %s\n", d, g, ip(hex_be(mask)), flags & RTF_UP ? "U" : "",
               flags & RTF_GATEWAY ? "G" : " ", dev);
    }
    fclose(f);
    return 0;
}

int route_main(int argc, char **argv)
{
    if (argc < 2)
        return route_list();
    int add = !strcmp(argv[1], "add");
    if (!add && strcmp(argv[1], "del")) {
        fprintf(stderr, "usage: route [add|del default gw GW [dev IFACE]]\n"
                        "       route [add|del -net NET netmask MASK [gw GW] [dev IFACE]]\n");
        return 2;
    }
    uint32_t dst = 0, mask = 0, gw = 0;
    const char *dev = NULL;
    for (int i = 2; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "default"))
            continue;
        if ((!strcmp(a, "-net") || !strcmp(a, "gw") || !strcmp(a, "netmask") ||
             !strcmp(a, "dev")) && !v) {
            fprintf(stderr, "route: %s needs a value\n", a);
            return 2;
        }
        if (!strcmp(a, "-net")) {
            if (parse_ip(v, &dst))
                return 1;
        } else if (!strcmp(a, "netmask")) {
            if (parse_ip(v, &mask))
                return 1;
        } else if (!strcmp(a, "gw")) {
            if (parse_ip(v, &gw))
                return 1;
        } else if (!strcmp(a, "dev")) {
            dev = v;
        } else {
            fprintf(stderr, "route: unknown argument '%s'\n", a);
            return 2;
        }
        i++;
    }
    int fd = ctl_socket();
    if (fd < 0)
        return 1;
    if (add_route(fd, dev, dst, mask, gw, add) < 0) {
        warn_errno(add ? "SIOCADDRT" : "SIOCDELRT");
        return 1;
    }
    return 0;
}

// ---- udhcpc

#define DHCP_MAGIC 0x63825363u
enum { DHCPDISCOVER = 1, DHCPOFFER, DHCPREQUEST, DHCPDECLINE, DHCPACK, DHCPNAK };

struct dhcp_msg {
    uint8_t op, htype, hlen, hops;
    uint32_t xid;
    uint16_t secs, flags;
    uint32_t ciaddr, yiaddr, siaddr, giaddr;
    uint8_t chaddr[16], sname[64], file[128];
    uint32_t magic;
    uint8_t options[312];
};

struct lease {
    uint32_t addr, server, mask, router, dns, time;
    int type;
};

static size_t dhcp_build(struct dhcp_msg *m, uint32_t xid, const uint8_t mac[6], int type,
                         const struct lease *offer)
{
    memset(m, 0, sizeof(*m));
    m->op = 1;
    m->htype = 1;
    m->hlen = 6;
    m->xid = xid;
    m->flags = htons(0x8000);                 // answers by broadcast: we have no address yet
    memcpy(m->chaddr, mac, 6);
    m->magic = htonl(DHCP_MAGIC);
    uint8_t *o = m->options;
    *o++ = 53, *o++ = 1, *o++ = (uint8_t)type;
    *o++ = 61, *o++ = 7, *o++ = 1;
    memcpy(o, mac, 6), o += 6;
    if (offer) {
        *o++ = 50, *o++ = 4;
        memcpy(o, &offer->addr, 4), o += 4;
        *o++ = 54, *o++ = 4;
        memcpy(o, &offer->server, 4), o += 4;
    }
    *o++ = 55, *o++ = 5, *o++ = 1, *o++ = 3, *o++ = 6, *o++ = 51, *o++ = 54;
    char host[64];
    if (gethostname(host, sizeof host) == 0 && host[0]) {
        size_t n = strlen(host) < 32 ? strlen(host) : 32;
        *o++ = 12, *o++ = (uint8_t)n;
        memcpy(o, host, n), o += n;
    }
    *o++ = 255;
    return (size_t)(o - (uint8_t *)m);
}

// Parses a server's answer to transaction xid; 0 with *l filled, -1 for anything else.
static int dhcp_parse(const struct dhcp_msg *m, size_t n, uint32_t xid, struct lease *l)
{
    if (n < offsetof(struct dhcp_msg, options) || m->op != 2 || m->xid != xid ||
        m->magic != htonl(DHCP_MAGIC))
        return -1;
    memset(l, 0, sizeof(*l));
    l->addr = m->yiaddr;
    const uint8_t *o = m->options, *end = (const uint8_t *)m + n;
    while (o < end && *o != 255) {
        if (*o == 0) {
            o++;
            continue;
        }
        if (o + 2 > end || o + 2 + o[1] > end)
            break;
        uint8_t code = o[0], len = o[1];
        const uint8_t *v = o + 2;
        uint32_t w = 0;
        if (len >= 4)
            memcpy(&w, v, 4);
        switch (code) {
        case 53: if (len >= 1) l->type = v[0]; break;
        case 1: if (len >= 4) l->mask = w; break;
        case 3: if (len >= 4) l->router = w; break;
        case 6: if (len >= 4) l->dns = w; break;
        case 51: if (len >= 4) l->time = ntohl(w); break;
        case 54: if (len >= 4) l->server = w; break;
        default: break;
        }
        o += 2 + len;
    }
    return l->type ? 0 : -1;
}

// Sends msg and waits up to timeout_ms for an answer of one of the types wanted (a bit
// mask of 1 << type); 0 with *l, -1 on timeout or error.
static int dhcp_exchange(int s, const struct dhcp_msg *msg, size_t len, uint32_t xid,
                         unsigned wanted, int timeout_ms, struct lease *l)
{
    struct sockaddr_in to = { .sin_family = AF_INET, .sin_port = htons(67),
                              .sin_addr = { INADDR_BROADCAST } };
    if (sendto(s, msg, len, 0, (struct sockaddr *)&to, sizeof to) < 0) {
        warn_errno("sendto");
        return -1;
    }
    double deadline = now_ms() + timeout_ms;
    for (;;) {
        int left = (int)(deadline - now_ms());
        if (left <= 0)
            return -1;
        struct pollfd p = { s, POLLIN, 0 };
        if (poll(&p, 1, left) <= 0)
            continue;
        struct dhcp_msg in;
        ssize_t n = recv(s, &in, sizeof in, 0);
        if (n > 0 && dhcp_parse(&in, (size_t)n, xid, l) == 0 && (wanted >> l->type & 1))
            return 0;
    }
}

static int dhcp_apply(const char *ifname, const struct lease *l)
{
    int fd = ctl_socket();
    if (fd < 0)
        return -1;
    uint32_t mask = l->mask ? l->mask : htonl(0xffffff00u);
    if (set_addr(fd, ifname, SIOCSIFADDR, l->addr) < 0 ||
        set_addr(fd, ifname, SIOCSIFNETMASK, mask) < 0) {
        warn_errno(ifname);
        close(fd);
        return -1;
    }
    if (l->router) {
        add_route(fd, ifname, 0, 0, 0, 0);    // an old default route, if any
        if (add_route(fd, ifname, 0, 0, l->router, 1) < 0)
            warn_errno("default route");
    }
    close(fd);
    if (l->dns) {
        FILE *f = fopen("/etc/resolv.conf", "w");
        if (f) {
            fprintf(f, "nameserver %s\n", ip(l->dns));
            fclose(f);
        }
    }
    return 0;
}

int udhcpc_main(int argc, char **argv)
{
    const char *ifname = "eth0";
    int tries = 3, timeout_s = 3, c;
    while ((c = getopt(argc, argv, "i:t:T:qnf")) != -1) {
        switch (c) {
        case 'i': ifname = optarg; break;
        case 't': tries = atoi(optarg); break;
        case 'T': timeout_s = atoi(optarg); break;
        case 'q': case 'n': case 'f': break;  // always: one lease, then exit; fail if none
        default:
            fprintf(stderr, "usage: udhcpc [-i IFACE] [-t TRIES] [-T SECONDS] [-q] [-n]\n");
            return 2;
        }
    }
    int fd = ctl_socket();
    if (fd < 0)
        return 1;
    struct ifreq r;
    memset(&r, 0, sizeof(r));
    if (set_flags(fd, ifname, IFF_UP, 0) < 0 || if_req(fd, SIOCGIFHWADDR, ifname, &r) < 0) {
        fprintf(stderr, "udhcpc: %s: %s\n", ifname, strerror(errno));
        close(fd);
        return 1;
    }
    close(fd);
    uint8_t mac[6];
    memcpy(mac, r.ifr_hwaddr.sa_data, 6);
    int s = socket(AF_INET, SOCK_DGRAM, IPPROTO_UDP);
    int one = 1;
    struct sockaddr_in me = { .sin_family = AF_INET, .sin_port = htons(68) };
    if (s < 0 || setsockopt(s, SOL_SOCKET, SO_BROADCAST, &one, sizeof one) < 0 ||
        setsockopt(s, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one) < 0 ||
        setsockopt(s, SOL_SOCKET, SO_BINDTODEVICE, ifname, (socklen_t)strlen(ifname) + 1) < 0 ||
        bind(s, (struct sockaddr *)&me, sizeof me) < 0) {
        warn_errno("udp socket on port 68");
        return 1;
    }
    uint32_t xid = (uint32_t)getpid() * 2654435761u ^ (uint32_t)mac[5] << 8 ^ mac[4];
    struct dhcp_msg msg;
    struct lease offer, ack;
    for (int t = 0; t < tries; t++) {
        printf("udhcpc: sending discover\n");
        size_t n = dhcp_build(&msg, xid, mac, DHCPDISCOVER, NULL);
        if (dhcp_exchange(s, &msg, n, xid, 1u << DHCPOFFER, timeout_s * 1000, &offer) < 0)
            continue;
        printf("udhcpc: sending select for %s\n", ip(offer.addr));
        n = dhcp_build(&msg, xid, mac, DHCPREQUEST, &offer);
        if (dhcp_exchange(s, &msg, n, xid, 1u << DHCPACK | 1u << DHCPNAK, timeout_s * 1000,
                          &ack) < 0 || ack.type == DHCPNAK)
            continue;
        close(s);
        if (!ack.server)
            ack.server = offer.server;
        printf("udhcpc: lease of %s obtained from %s, lease time %u\n", ip(ack.addr),
               ip(ack.server), ack.time);
        return dhcp_apply(ifname, &ack) < 0;
    }
    close(s);
    fprintf(stderr, "udhcpc: no lease on %s after %d tries\n", ifname, tries);
    return 1;
}

// ---- ping

static uint16_t inet_sum(const void *buf, size_t n)
{
    const uint8_t *p = buf;
    uint32_t s = 0;
    for (size_t i = 0; i + 1 < n; i += 2)
        s += (uint32_t)p[i] << 8 | p[i + 1];
    if (n & 1)
        s += (uint32_t)p[n - 1] << 8;
    while (s >> 16)
        s = (s & 0xffff) + (s >> 16);
    return htons((uint16_t)~s);
}

int ping_main(int argc, char **argv)
{
    int count = 4, c;
    while ((c = getopt(argc, argv, "c:")) != -1) {
        if (c != 'c') {
            fprintf(stderr, "usage: ping [-c COUNT] ADDR\n");
            return 2;
        }
        count = atoi(optarg);
    }
    if (optind != argc - 1) {
        fprintf(stderr, "usage: ping [-c COUNT] ADDR\n");
        return 2;
    }
    uint32_t dst;
    if (parse_ip(argv[optind], &dst))
        return 2;
    int s = socket(AF_INET, SOCK_RAW, IPPROTO_ICMP);
    if (s < 0) {
        warn_errno("raw ICMP socket");
        return 1;
    }
    struct sockaddr_in to = { .sin_family = AF_INET, .sin_addr = { dst } };
    uint16_t id = (uint16_t)getpid();
    int sent = 0, got = 0;
    printf("PING %s: 56 data bytes\n", ip(dst));
    for (int seq = 0; seq < count; seq++) {
        uint8_t pkt[64];
        memset(pkt, 0, sizeof pkt);
        pkt[0] = 8;                           // echo request
        pkt[4] = (uint8_t)(id >> 8), pkt[5] = (uint8_t)id;
        pkt[6] = (uint8_t)(seq >> 8), pkt[7] = (uint8_t)seq;
        for (int i = 8; i < 64; i++)
            pkt[i] = (uint8_t)i;
        uint16_t sum = inet_sum(pkt, sizeof pkt);
        memcpy(pkt + 2, &sum, 2);
        double t0 = now_ms();
        if (sendto(s, pkt, sizeof pkt, 0, (struct sockaddr *)&to, sizeof to) < 0) {
            warn_errno("sendto");
            break;
        }
        sent++;
        while (now_ms() - t0 < 1000) {
            struct pollfd p = { s, POLLIN, 0 };
            if (poll(&p, 1, (int)(1000 - (now_ms() - t0)) + 1) <= 0)
                continue;
            uint8_t in[128];
            ssize_t n = recv(s, in, sizeof in, 0);
            if (n < 28)
                continue;
            size_t hl = (size_t)(in[0] & 15) * 4;
            if ((size_t)n < hl + 8 || in[hl] != 0 || in[hl + 4] != pkt[4] ||
                in[hl + 5] != pkt[5] || in[hl + 6] != pkt[6] || in[hl + 7] != pkt[7])
                continue;
            got++;
            printf("%d bytes from %s: seq=%d ttl=%d time=%.3f ms\n", (int)(n - (ssize_t)hl),
                   ip(dst), seq, in[8], now_ms() - t0);
            break;
        }
    }
    close(s);
    printf("--- %s ping statistics ---\n%d packets transmitted, %d packets received, %d%% "
           "packet loss\n", ip(dst), sent, got, sent ? (sent - got) * 100 / sent : 0);
    return got ? 0 : 1;
}

// ---- wget

struct url { char host[64]; unsigned port; const char *path; };

static int parse_url(const char *u, struct url *out)
{
    if (strncmp(u, "http://", 7)) {
        fprintf(stderr, "wget: %s: only http:// URLs are supported\n", u);
        return -1;
    }
    u += 7;
    size_t n = strcspn(u, ":/");
    if (n == 0 || n >= sizeof out->host) {
        fprintf(stderr, "wget: bad host in URL\n");
        return -1;
    }
    memcpy(out->host, u, n);
    out->host[n] = 0;
    u += n;
    out->port = 80;
    if (*u == ':') {
        char *end;
        unsigned long p = strtoul(u + 1, &end, 10);
        if (end == u + 1 || p == 0 || p > 65535 || (*end && *end != '/')) {
            fprintf(stderr, "wget: bad port in URL\n");
            return -1;
        }
        out->port = (unsigned)p;
        u = end;
    }
    out->path = *u ? u : "/";
    return 0;
}

// Reads the status line and headers from s into buf (NUL-ended); returns the number of bytes
// read in all (the body's first bytes follow the headers in buf), *hdr_len the header size.
static ssize_t read_headers(int s, char *buf, size_t cap, size_t *hdr_len)
{
    size_t n = 0;
    while (n < cap - 1) {
        ssize_t r = read(s, buf + n, cap - 1 - n);
        if (r <= 0)
            return -1;
        n += (size_t)r;
        buf[n] = 0;
        char *e = strstr(buf, "\r\n\r\n");
        if (e) {
            *hdr_len = (size_t)(e - buf) + 4;
            return (ssize_t)n;
        }
    }
    return -1;
}

int wget_main(int argc, char **argv)
{
    const char *out = NULL;
    int quiet = 0, c;
    while ((c = getopt(argc, argv, "O:q")) != -1) {
        if (c == 'O')
            out = optarg;
        else if (c == 'q')
            quiet = 1;
        else {
            fprintf(stderr, "usage: wget [-q] [-O FILE|-] http://ADDR[:PORT]/PATH\n");
            return 2;
        }
    }
    if (optind != argc - 1) {
        fprintf(stderr, "usage: wget [-q] [-O FILE|-] http://ADDR[:PORT]/PATH\n");
        return 2;
    }
    struct url u;
    uint32_t addr;
    if (parse_url(argv[optind], &u) || parse_ip(u.host, &addr))
        return 1;
    if (!out) {
        const char *slash = strrchr(u.path, '/');
        out = slash && slash[1] ? slash + 1 : "index.html";
    }
    if (!quiet)
        fprintf(stderr, "Connecting to %s:%u\n", u.host, u.port);
    int s = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in to = { .sin_family = AF_INET, .sin_port = htons((uint16_t)u.port),
                              .sin_addr = { addr } };
    if (s < 0 || connect(s, (struct sockaddr *)&to, sizeof to) < 0) {
        fprintf(stderr, "wget: can't connect to %s:%u: %s\n", u.host, u.port, strerror(errno));
        return 1;
    }
    char req[512];
    int rl = snprintf(req, sizeof req, "GET %s HTTP/1.0\r\nHost: %s:%u\r\nUser-Agent: "
                      "hexsim-box-wget\r\nConnection: close\r\n\r\n", u.path, u.host, u.port);
    if (rl <= 0 || (size_t)rl >= sizeof req || write_all(s, req, (size_t)rl) < 0) {
        fprintf(stderr, "wget: can't send the request\n");
        close(s);
        return 1;
    }
    static char buf[8192];
    size_t hl;
    ssize_t n = read_headers(s, buf, sizeof buf, &hl);
    int status = 0;
    if (n < 0 || sscanf(buf, "HTTP/%*d.%*d %d", &status) != 1) {
        fprintf(stderr, "wget: no HTTP answer from %s:%u\n", u.host, u.port);
        close(s);
        return 1;
    }
    if (status != 200) {
        char *eol = strstr(buf, "\r\n");
        if (eol)
            *eol = 0;
        fprintf(stderr, "wget: server returned error: %s\n", buf);
        close(s);
        return 1;
    }
    long long want = -1;
    for (char *h = buf; h && h < buf + hl; h = strstr(h, "\r\n"), h = h ? h + 2 : NULL)
        if (!strncasecmp(h, "Content-Length:", 15))
            want = strtoll(h + 15, NULL, 10);
    int fd = strcmp(out, "-") ? open(out, O_WRONLY | O_CREAT | O_TRUNC, 0644) : 1;
    if (fd < 0) {
        warn_errno(out);
        close(s);
        return 1;
    }
    long long total = 0;
    int rc = 0;
    if ((size_t)n > hl) {
        rc = write_all(fd, buf + hl, (size_t)n - hl);
        total = n - (ssize_t)hl;
    }
    while (rc == 0) {
        ssize_t r = read(s, buf, sizeof buf);
        if (r < 0 && errno == EINTR)
            continue;
        if (r < 0) {
            warn_errno("read");
            rc = -1;
        }
        if (r <= 0)
            break;
        rc = write_all(fd, buf, (size_t)r);
        total += r;
    }
    close(s);
    if (fd != 1 && close(fd) < 0)
        rc = -1;
    if (rc == 0 && want >= 0 && total != want) {
        fprintf(stderr, "wget: short transfer: %lld of %lld bytes\n", total, want);
        return 1;
    }
    if (rc == 0 && !quiet)
        fprintf(stderr, "'%s' saved (%lld bytes)\n", out, total);
    return rc < 0;
}
