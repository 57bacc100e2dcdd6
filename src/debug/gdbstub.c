// SPDX-License-Identifier: MIT
// GDB remote protocol stub: see gdbstub.h. Facts: the GDB manual's "Remote Protocol"
// appendix (packet framing $...#cs, acks, qSupported, qXfer:features:read, g/p/P/m/M,
// Z/z, c/s/vCont, stop replies T/W/X, k and vKill, qRcmd with its O output packets) and lldb's docs/lldb-gdb-remote.txt (QStartNoAckMode,
// qHostInfo/qProcessInfo keys, "generic" register attributes, watch:/rwatch:/awatch: stop keys).
// Register numbers are lldb's for Hexagon (target.h); registers are sent little-endian.
#include "gdbstub.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "cli.h"
#include "vreg.h"

#define GDB_BUF 16384

struct gdb_conn {
    struct hexsim_debugger *d;
    int fd;
    bool noack;
    bool interrupted;
    char in[GDB_BUF];
    char out[GDB_BUF];
    char rx[4096];          // bytes received and not yet consumed
    size_t rx_len, rx_pos;
    FILE *log;
    struct hexsim_dbg_stop last;   // the last stop reported (qThreadStopInfo)
};

static const char hexdig[] = "0123456789abcdef";

static int rx_byte(struct gdb_conn *g)
{
    if (g->rx_pos == g->rx_len) {
        ssize_t n;
        do
            n = recv(g->fd, g->rx, sizeof(g->rx), 0);
        while (n < 0 && errno == EINTR);
        if (n <= 0)
            return -1;
        g->rx_len = (size_t)n;
        g->rx_pos = 0;
    }
    return (unsigned char)g->rx[g->rx_pos++];
}

static int send_all(struct gdb_conn *g, const char *s, size_t n)
{
    while (n) {
        ssize_t k = send(g->fd, s, n, MSG_NOSIGNAL);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0)
            return -1;
        s += k;
        n -= (size_t)k;
    }
    return 0;
}

static int put_packet(struct gdb_conn *g, const char *data, size_t len)
{
    char *pkt = malloc(len + 5);
    if (!pkt)
        return -1;
    unsigned sum = 0;
    pkt[0] = '$';
    memcpy(pkt + 1, data, len);
    for (size_t i = 0; i < len; i++)
        sum += (unsigned char)data[i];
    pkt[len + 1] = '#';
    pkt[len + 2] = hexdig[(sum >> 4) & 0xf];
    pkt[len + 3] = hexdig[sum & 0xf];
    int rc = send_all(g, pkt, len + 4);
    free(pkt);
    if (rc || g->noack)
        return rc;
    int c = rx_byte(g);   // '+' (a '-' asks again; we do not resend: TCP does not lose bytes)
    return c < 0 ? -1 : 0;
}

static int reply(struct gdb_conn *g, const char *s)
{
    return put_packet(g, s, strlen(s));
}

// Reads one packet into g->in (NUL-terminated). Returns its length, -1 at hang-up; a lone
// Ctrl-C (0x03) outside a packet comes back as the packet "\x03".
static int get_packet(struct gdb_conn *g)
{
    for (;;) {
        int c = rx_byte(g);
        if (c < 0)
            return -1;
        if (c == 0x03) {
            g->in[0] = 0x03;
            g->in[1] = '\0';
            return 1;
        }
        if (c != '$')
            continue;   // acks and noise
        size_t n = 0;
        while ((c = rx_byte(g)) >= 0 && c != '#') {
            if (n + 1 < sizeof(g->in))
                g->in[n++] = (char)c;
        }
        if (c < 0 || rx_byte(g) < 0 || rx_byte(g) < 0)
            return -1;
        g->in[n] = '\0';
        if (!g->noack && send_all(g, "+", 1))
            return -1;
        return (int)n;
    }
}

static void hex_le(char *out, uint64_t v, unsigned bytes)
{
    for (unsigned i = 0; i < bytes; i++) {
        unsigned b = (unsigned)(v >> (8 * i)) & 0xff;
        out[2 * i] = hexdig[b >> 4];
        out[2 * i + 1] = hexdig[b & 15];
    }
    out[2 * bytes] = '\0';
}

static int hexval(int c)
{
    return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10
         : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
}

static uint64_t parse_le(const char *s, unsigned bytes)
{
    uint64_t v = 0;
    for (unsigned i = 0; i < bytes && s[2 * i] && s[2 * i + 1]; i++)
        v |= (uint64_t)(hexval(s[2 * i]) << 4 | hexval(s[2 * i + 1])) << (8 * i);
    return v;
}

// The target description: every register of the target in its numbering.
static size_t target_xml(struct hexsim_debugger *d, char *buf, size_t len)
{
    unsigned n;
    const struct hexsim_dbg_reg_desc *r = d->t.ops->regs(d->t.ctx, &n);
    size_t pos = (size_t)snprintf(buf, len,
        "<?xml version=\"1.0\"?>\n<!DOCTYPE target SYSTEM \"gdb-target.dtd\">\n"
        "<target version=\"1.0\">\n<architecture>hexagon</architecture>\n"
        "<feature name=\"org.gnu.gdb.hexagon.core\">\n");
    bool hvx = false;
    for (unsigned i = 0; i < n && pos < len; i++) {
        if (r[i].group == HEXSIM_DBG_GRP_VECTOR) {
            hvx = true;
            continue;
        }
        const char *generic = r[i].num == HEXSIM_DBG_REG_SP ? "sp" : r[i].num == HEXSIM_DBG_REG_FP
                              ? "fp" : r[i].num == HEXSIM_DBG_REG_LR ? "ra"
                              : r[i].num == HEXSIM_DBG_REG_PC ? "pc" : NULL;
        char extra[96] = "";
        if (generic)
            snprintf(extra, sizeof(extra), " generic=\"%s\"", generic);
        if (r[i].num < 32)
            snprintf(extra + strlen(extra), sizeof(extra) - strlen(extra),
                     " dwarf_regnum=\"%u\" ehframe_regnum=\"%u\"", r[i].num, r[i].num);
        pos += (size_t)snprintf(buf + pos, len - pos,
            "<reg name=\"%s\"%s%s%s bitsize=\"%u\" regnum=\"%u\" type=\"%s\" group=\"%s\"%s/>\n",
            r[i].name, r[i].alt ? " altname=\"" : "", r[i].alt ? r[i].alt : "",
            r[i].alt ? "\"" : "", r[i].bits, r[i].num,
            r[i].num == HEXSIM_DBG_REG_PC || r[i].num == HEXSIM_DBG_REG_LR ? "code_ptr"
            : r[i].num == HEXSIM_DBG_REG_SP || r[i].num == HEXSIM_DBG_REG_FP ? "data_ptr"
            : "uint32", r[i].group == HEXSIM_DBG_GRP_GENERAL ? "general" : "control", extra);
    }
    if (pos < len)
        pos += (size_t)snprintf(buf + pos, len - pos, "</feature>\n");
    // the HVX registers: gdb's vector/union types; lldb's encoding and format (lldb-16
    // writes a vector register only in its vector-uint8 format: "{0x01 0x02 ...}")
    if (hvx && pos < len)
        pos += (size_t)snprintf(buf + pos, len - pos,
            "<feature name=\"org.gnu.gdb.hexagon.hvx\">\n"
            "<vector id=\"hvx_vb\" type=\"int8\" count=\"128\"/>\n"
            "<vector id=\"hvx_vh\" type=\"int16\" count=\"64\"/>\n"
            "<vector id=\"hvx_vw\" type=\"int32\" count=\"32\"/>\n"
            "<union id=\"hvx_v\"><field name=\"b\" type=\"hvx_vb\"/>"
            "<field name=\"h\" type=\"hvx_vh\"/><field name=\"w\" type=\"hvx_vw\"/></union>\n"
            "<vector id=\"hvx_q\" type=\"uint8\" count=\"16\"/>\n");
    for (unsigned i = 0; i < n && pos < len; i++) {
        if (r[i].group != HEXSIM_DBG_GRP_VECTOR)
            continue;
        bool v = r[i].bits > 128;
        unsigned k = v ? r[i].num - HEXSIM_DBG_REG_V0 : r[i].num - HEXSIM_DBG_REG_Q0;
        pos += (size_t)snprintf(buf + pos, len - pos,
            "<reg name=\"%s\" bitsize=\"%u\" regnum=\"%u\" type=\"%s\" group=\"vector\""
            " encoding=\"vector\" format=\"%s\" dwarf_regnum=\"%u\"/>\n",
            r[i].name, r[i].bits, r[i].num, v ? "hvx_v" : "hvx_q",
            "vector-uint8", (v ? 99u : 131u) + k);
    }
    if (hvx && pos < len)
        pos += (size_t)snprintf(buf + pos, len - pos, "</feature>\n");
    if (pos < len)
        pos += (size_t)snprintf(buf + pos, len - pos, "</target>\n");
    return pos < len ? pos : len;
}

// gdb's signal numbers (include/gdb/signals.def), not the host's.
static int gdb_signal(int sig)
{
    switch (sig) {
    case SIGINT: return 2;
    case SIGILL: return 4;
    case SIGTRAP: return 5;
    case SIGBUS: return 10;
    case SIGSEGV: return 11;
    default: return sig ? 5 : 0;
    }
}

static bool thread_known(struct hexsim_debugger *d, long id)
{
    unsigned ids[64];
    unsigned nt = d->t.ops->threads(d->t.ctx, ids, 64);
    for (unsigned i = 0; i < nt && i < 64; i++)
        if (ids[i] == (unsigned long)id)
            return true;
    return false;
}

static int stop_reply(struct gdb_conn *g, const struct hexsim_dbg_stop *st)
{
    struct hexsim_debugger *d = g->d;
    char *o = g->out, pc[20], sp[20];
    uint64_t v = 0;
    if (st->kind == HEXSIM_DBG_STOP_EXIT) {
        if (st->signal)
            snprintf(o, GDB_BUF, "X%02x", gdb_signal(st->signal));
        else
            snprintf(o, GDB_BUF, "W%02x", st->exit_status & 0xff);
        return reply(g, o);
    }
    g->last = *st;
    int sig = st->kind == HEXSIM_DBG_STOP_FAULT ? gdb_signal(st->signal)
            : st->kind == HEXSIM_DBG_STOP_INTERRUPT ? 2 : 5;
    unsigned keep = d->thread;     // the registers of the thread that stopped
    if (st->thread)
        d->thread = st->thread;
    hexsim_dbg_reg_read(d, HEXSIM_DBG_REG_PC, &v);
    hex_le(pc, v, 4);
    hexsim_dbg_reg_read(d, HEXSIM_DBG_REG_SP, &v);
    hex_le(sp, v, 4);
    int n = snprintf(o, GDB_BUF, "T%02xthread:%x;%02x:%s;%02x:%s;", sig, d->thread,
                     HEXSIM_DBG_REG_PC, pc, HEXSIM_DBG_REG_SP, sp);
    d->thread = keep;
    if (st->kind == HEXSIM_DBG_STOP_WATCH) {
        const char *key = "watch";
        for (unsigned i = 0; i < d->nwp; i++)
            if (d->wp[i].id == st->index)
                key = d->wp[i].w.kind == HEXSIM_DBG_WATCH_READ ? "rwatch"
                    : d->wp[i].w.kind == HEXSIM_DBG_WATCH_ACCESS ? "awatch" : "watch";
        snprintf(o + n, GDB_BUF - (size_t)n, "%s:%x;", key, st->addr);
    } else if (st->kind == HEXSIM_DBG_STOP_BREAK) {
        snprintf(o + n, GDB_BUF - (size_t)n, "swbreak:;");
    }
    return reply(g, o);
}

// While running: a Ctrl-C from the client stops the target.
static bool poll_client(void *ctx)
{
    struct gdb_conn *g = ctx;
    struct pollfd p = { g->fd, POLLIN, 0 };
    while (g->rx_pos < g->rx_len || poll(&p, 1, 0) > 0) {
        int c = rx_byte(g);
        if (c < 0 || c == 0x03) {
            g->interrupted = true;
            return true;
        }
    }
    return false;
}

static void read_mem(struct gdb_conn *g, const char *args)
{
    char *end;
    uint64_t addr = strtoull(args, &end, 16);
    size_t len = *end == ',' ? strtoul(end + 1, NULL, 16) : 0;
    if (len > (GDB_BUF - 8) / 2)
        len = (GDB_BUF - 8) / 2;
    uint8_t *buf = malloc(len ? len : 1);
    if (!buf) {
        reply(g, "E01");
        return;
    }
    size_t got = g->d->t.ops->read_mem(g->d->t.ctx, g->d->thread, addr, buf, len, 0);
    if (!got && len) {
        reply(g, "E14");
    } else {
        for (size_t i = 0; i < got; i++) {
            g->out[2 * i] = hexdig[buf[i] >> 4];
            g->out[2 * i + 1] = hexdig[buf[i] & 15];
        }
        put_packet(g, g->out, 2 * got);
    }
    free(buf);
}

static void write_mem(struct gdb_conn *g, const char *args)
{
    char *end;
    uint64_t addr = strtoull(args, &end, 16);
    size_t len = *end == ',' ? strtoul(end + 1, &end, 16) : 0;
    const char *hex = strchr(end, ':');
    if (!hex || strlen(hex + 1) < 2 * len) {
        reply(g, "E01");
        return;
    }
    hex++;
    uint8_t *buf = malloc(len ? len : 1);
    if (!buf) {
        reply(g, "E01");
        return;
    }
    for (size_t i = 0; i < len; i++)
        buf[i] = (uint8_t)(hexval(hex[2 * i]) << 4 | hexval(hex[2 * i + 1]));
    size_t put = g->d->t.ops->write_mem(g->d->t.ctx, g->d->thread, addr, buf, len, 0);
    free(buf);
    reply(g, put == len ? "OK" : "E14");
}

static unsigned reg_bytes(struct hexsim_debugger *d, unsigned num)
{
    unsigned n;
    const struct hexsim_dbg_reg_desc *r = d->t.ops->regs(d->t.ctx, &n);
    for (unsigned i = 0; i < n; i++)
        if (r[i].num == num)
            return r[i].bits / 8;
    return 0;
}

// Register num (bytes long) as little-endian hex at out (2 * bytes characters and a NUL).
// 0, or -1 (unreadable).
static int reg_hex(struct hexsim_debugger *d, unsigned num, unsigned bytes, char *out)
{
    if (bytes <= 8) {
        uint64_t v = 0;
        if (hexsim_dbg_reg_read(d, num, &v))
            return -1;
        hex_le(out, v, bytes);
        return 0;
    }
    uint8_t buf[HEXSIM_DBG_REG_MAX_BYTES];
    if (bytes > sizeof(buf) || hexsim_dbg_vreg_read(d, num, buf))
        return -1;
    for (unsigned i = 0; i < bytes; i++) {
        out[2 * i] = hexdig[buf[i] >> 4];
        out[2 * i + 1] = hexdig[buf[i] & 15];
    }
    out[2 * bytes] = '\0';
    return 0;
}

// Writes register num (bytes long) from little-endian hex. 0 or -1.
static int reg_put(struct hexsim_debugger *d, unsigned num, unsigned bytes, const char *hex)
{
    if (bytes <= 8)
        return hexsim_dbg_reg_write(d, num, parse_le(hex, bytes));
    uint8_t buf[HEXSIM_DBG_REG_MAX_BYTES];
    if (bytes > sizeof(buf) || strlen(hex) < 2 * (size_t)bytes)
        return -1;
    for (unsigned i = 0; i < bytes; i++) {
        int hi = hexval(hex[2 * i]), lo = hexval(hex[2 * i + 1]);
        if (hi < 0 || lo < 0)
            return -1;
        buf[i] = (uint8_t)(hi << 4 | lo);
    }
    return hexsim_dbg_vreg_write(d, num, buf);
}

static void all_regs(struct gdb_conn *g)
{
    unsigned n;
    const struct hexsim_dbg_reg_desc *r = g->d->t.ops->regs(g->d->t.ctx, &n);
    size_t pos = 0;
    for (unsigned i = 0; i < n; i++) {
        unsigned bytes = r[i].bits / 8;
        if (pos + 2 * bytes + 1 >= GDB_BUF)
            break;
        if (reg_hex(g->d, r[i].num, bytes, g->out + pos))
            memset(g->out + pos, 'x', 2 * bytes);
        pos += 2 * bytes;
    }
    put_packet(g, g->out, pos);
}

static void write_all_regs(struct gdb_conn *g, const char *hex)
{
    unsigned n;
    const struct hexsim_dbg_reg_desc *r = g->d->t.ops->regs(g->d->t.ctx, &n);
    size_t len = strlen(hex), pos = 0;
    for (unsigned i = 0; i < n; i++) {
        unsigned bytes = r[i].bits / 8;
        if (pos + 2 * bytes > len)
            break;
        if (hex[pos] != 'x')
            reg_put(g->d, r[i].num, bytes, hex + pos);
        pos += 2 * bytes;
    }
    reply(g, "OK");
}

static void breakpoint(struct gdb_conn *g, const char *args, bool insert)
{
    char *end;
    int type = (int)strtol(args, &end, 10);
    uint64_t addr = *end == ',' ? strtoull(end + 1, &end, 16) : 0;
    uint32_t len = *end == ',' ? (uint32_t)strtoul(end + 1, NULL, 16) : 4;
    int rc;
    if (type == 0 || type == 1) {
        rc = insert ? (hexsim_dbg_break_add(g->d, (uint32_t)addr, false, true, "gdb") < 0 ? -1 : 0)
                    : hexsim_dbg_remote_remove(g->d, false, (uint32_t)addr);
    } else if (type >= 2 && type <= 4) {
        unsigned kind = type == 2 ? HEXSIM_DBG_WATCH_WRITE : type == 3 ? HEXSIM_DBG_WATCH_READ
                                                                       : HEXSIM_DBG_WATCH_ACCESS;
        rc = insert ? (hexsim_dbg_watch_add(g->d, (uint32_t)addr, len ? len : 1, kind, true,
                                            "gdb") < 0 ? -1 : 0)
                    : hexsim_dbg_remote_remove(g->d, true, (uint32_t)addr);
    } else {
        reply(g, "");
        return;
    }
    reply(g, rc ? "E01" : "OK");
}

static void resume(struct gdb_conn *g, bool step)
{
    struct hexsim_dbg_stop st;
    if (step) {
        hexsim_dbg_stepi(g->d, NULL, &st);
    } else {
        g->d->poll = poll_client;
        g->d->poll_ctx = g;
        hexsim_dbg_continue(g->d, &st);
        g->d->poll = NULL;
    }
    stop_reply(g, &st);
}

// Answers one packet. Returns 1 to end the session (*end: how, HEXSIM_GDB_DETACHED or
// HEXSIM_GDB_KILLED; left as it was at a hang-up).
// qRcmd,HEX (gdb's `monitor CMD`, lldb's `process plugin packet monitor CMD`): one of the
// debugger's own commands that only look (bt across the kernel's event entry, ps, dmesg,
// vtop, info, print, x, ptype, whatis), its output in O packets, then OK. Commands that run
// or change the target are refused: the client runs it.
static void monitor(struct gdb_conn *g, const char *hex)
{
    static const char *const looks[] = { "bt", "backtrace", "where", "ps", "dmesg", "vtop",
                                         "info", "print", "p", "x", "ptype", "whatis", NULL };
    char cmd[256];
    size_t n = 0;
    for (; hex[0] && hex[1] && n + 1 < sizeof(cmd); hex += 2)
        cmd[n++] = (char)(hexval(hex[0]) << 4 | hexval(hex[1]));
    cmd[n] = '\0';
    size_t w = strcspn(cmd, " /\t");
    bool ok = false;
    for (unsigned i = 0; looks[i]; i++)
        ok |= strlen(looks[i]) == w && strncmp(cmd, looks[i], w) == 0;
    char *text = NULL;
    size_t len = 0;
    FILE *mem = open_memstream(&text, &len);
    if (!mem) {
        reply(g, "E01");
        return;
    }
    if (ok) {
        FILE *keep = g->d->out;
        struct hexsim_dbg_cli c;
        g->d->out = mem;
        hexsim_dbg_cli_init(&c, g->d, false);
        hexsim_dbg_cli_exec(&c, cmd);
        g->d->out = keep;
    } else {
        fprintf(mem, "monitor: %s is not one of hexsim's monitor commands (bt, ps, dmesg, "
                "vtop, info, print, x, ptype, whatis)\n", cmd);
    }
    fclose(mem);
    for (size_t off = 0; off < len; off += 2048) {   // O packets of at most 2 KiB of text
        size_t k = len - off < 2048 ? len - off : 2048;
        g->out[0] = 'O';
        for (size_t i = 0; i < k; i++) {
            g->out[1 + 2 * i] = hexdig[(unsigned char)text[off + i] >> 4];
            g->out[2 + 2 * i] = hexdig[text[off + i] & 15];
        }
        put_packet(g, g->out, 1 + 2 * k);
    }
    free(text);
    reply(g, "OK");
}

static int handle(struct gdb_conn *g, int *end)
{
    struct hexsim_debugger *d = g->d;
    char *p = g->in;
    char tmp[64];
    switch (p[0]) {
    case 0x03: {
        struct hexsim_dbg_stop st = { .kind = HEXSIM_DBG_STOP_INTERRUPT, .thread = d->thread };
        stop_reply(g, &st);
        return 0;
    }
    case '?': {
        struct hexsim_dbg_stop st = { .kind = d->ended ? HEXSIM_DBG_STOP_EXIT : HEXSIM_DBG_STOP_STEP,
                                      .thread = d->thread, .exit_status = d->exit_status };
        stop_reply(g, &st);
        return 0;
    }
    case 'g': all_regs(g); return 0;
    case 'G': write_all_regs(g, p + 1); return 0;
    case 'p': {
        unsigned num = (unsigned)strtoul(p + 1, NULL, 16);
        unsigned bytes = reg_bytes(d, num);
        char hex[2 * HEXSIM_DBG_REG_MAX_BYTES + 1];
        reply(g, !bytes || reg_hex(d, num, bytes, hex) ? "E45" : hex);
        return 0;
    }
    case 'P': {
        char *eq;
        unsigned num = (unsigned)strtoul(p + 1, &eq, 16);
        unsigned bytes = reg_bytes(d, num);
        if (*eq != '=' || !bytes || reg_put(d, num, bytes, eq + 1))
            reply(g, "E45");
        else
            reply(g, "OK");
        return 0;
    }
    case 'm': read_mem(g, p + 1); return 0;
    case 'M': write_mem(g, p + 1); return 0;
    case 'Z': breakpoint(g, p + 1, true); return 0;
    case 'z': breakpoint(g, p + 1, false); return 0;
    case 'c': case 'C':
        if (p[0] == 'c' && p[1])
            hexsim_dbg_reg_write(d, HEXSIM_DBG_REG_PC, strtoull(p + 1, NULL, 16));
        resume(g, false);
        return 0;
    case 's': case 'S':
        if (p[0] == 's' && p[1])
            hexsim_dbg_reg_write(d, HEXSIM_DBG_REG_PC, strtoull(p + 1, NULL, 16));
        resume(g, true);
        return 0;
    case 'H':
    case 'T': {
        // Hg/Hc ID selects the thread (vCPU) later packets use; T ID asks whether it exists.
        // 0 and -1 (any, all) keep the current one.
        const char *idp = p[0] == 'H' ? (p[1] ? p + 2 : p + 1) : p + 1;
        long id = strtol(idp, NULL, 16);
        bool known = id <= 0 || thread_known(d, id);
        if (known && p[0] == 'H' && p[1] == 'g' && id > 0)
            d->thread = (unsigned)id;
        reply(g, known ? "OK" : "E01");
        return 0;
    }
    case 'k':
        // The program ends as if by SIGKILL: the stop reply X09 (lldb waits for a W or X
        // reply and reports its value; gdb sends k without waiting for one).
        reply(g, "X09");
        *end = HEXSIM_GDB_KILLED;
        return 1;
    case 'D':
        reply(g, "OK");
        *end = HEXSIM_GDB_DETACHED;
        return 1;
    case 'v':
        if (strcmp(p, "vCont?") == 0) {
            reply(g, "vCont;c;C;s;S");
        } else if (strncmp(p, "vCont;", 6) == 0) {
            // vCont;s:ID steps thread ID (the others stay); a thread ID on c changes nothing
            bool step = p[6] == 's' || p[6] == 'S';
            const char *colon = strchr(p + 6, ':');
            if (step && colon) {
                long id = strtol(colon + 1, NULL, 16);
                if (thread_known(d, id) && id > 0)
                    d->thread = (unsigned)id;
            }
            resume(g, step);
        } else if (strncmp(p, "vKill", 5) == 0) {
            reply(g, "OK");
            *end = HEXSIM_GDB_KILLED;
            return 1;
        } else {
            reply(g, "");
        }
        return 0;
    case 'q':
        if (strncmp(p, "qSupported", 10) == 0) {
            reply(g, "PacketSize=3fff;qXfer:features:read+;swbreak+;hwbreak+;"
                     "QStartNoAckMode+;vContSupported+");
        } else if (strcmp(p, "qC") == 0) {
            snprintf(tmp, sizeof(tmp), "QC%x", d->thread);
            reply(g, tmp);
        } else if (strcmp(p, "qfThreadInfo") == 0) {
            unsigned ids[64];
            unsigned nt = d->t.ops->threads(d->t.ctx, ids, 64);
            size_t pos = 1;
            g->out[0] = 'm';
            for (unsigned i = 0; i < nt && i < 64; i++)
                pos += (size_t)snprintf(g->out + pos, GDB_BUF - pos, "%s%x", i ? "," : "", ids[i]);
            put_packet(g, g->out, pos);
        } else if (strncmp(p, "qThreadStopInfo", 15) == 0) {
            // lldb asks each thread why it stopped: the one that stopped says so, the
            // others (vCPUs held while it ran) have no reason (signal 0)
            long id = strtol(p + 15, NULL, 16);
            if (!thread_known(d, id) || id <= 0 || d->ended) {
                reply(g, "E01");
            } else if ((unsigned)id == g->last.thread) {
                struct hexsim_dbg_stop st = g->last;
                stop_reply(g, &st);
            } else {
                snprintf(tmp, sizeof(tmp), "T00thread:%lx;", id);
                reply(g, tmp);
            }
        } else if (strcmp(p, "qsThreadInfo") == 0) {
            reply(g, "l");
        } else if (strcmp(p, "qAttached") == 0) {
            reply(g, "1");
        } else if (strcmp(p, "qHostInfo") == 0 || strcmp(p, "qProcessInfo") == 0) {
            char triple[64];
            hex_le(triple, 0, 0);
            // no OS in the triple: lldb then loads the ELF at its link addresses (a
            // "linux" triple makes it wait for a dynamic loader that user mode lacks)
            const char *t = "hexagon-unknown-unknown";
            for (size_t i = 0; t[i]; i++) {
                triple[2 * i] = hexdig[(unsigned char)t[i] >> 4];
                triple[2 * i + 1] = hexdig[t[i] & 15];
                triple[2 * i + 2] = '\0';
            }
            snprintf(g->out, GDB_BUF, "%striple:%s;endian:little;ptrsize:4;",
                     p[1] == 'P' ? "pid:1;" : "", triple);
            reply(g, g->out);
        } else if (strncmp(p, "qXfer:features:read:target.xml:", 31) == 0) {
            char *end;
            size_t off = strtoul(p + 31, &end, 16);
            size_t len = *end == ',' ? strtoul(end + 1, NULL, 16) : 0;
            char *xml = malloc(GDB_BUF);
            if (!xml) {
                reply(g, "E01");
                return 0;
            }
            size_t n = target_xml(d, xml, GDB_BUF);
            if (len > GDB_BUF - 2)
                len = GDB_BUF - 2;
            if (off >= n) {
                reply(g, "l");
            } else {
                size_t k = n - off < len ? n - off : len;
                g->out[0] = off + k >= n ? 'l' : 'm';
                memcpy(g->out + 1, xml + off, k);
                put_packet(g, g->out, k + 1);
            }
            free(xml);
        } else if (strcmp(p, "qOffsets") == 0) {
            reply(g, "Text=0;Data=0;Bss=0");
        } else if (strncmp(p, "qRcmd,", 6) == 0) {
            monitor(g, p + 6);
        } else if (strncmp(p, "qSymbol", 7) == 0) {
            reply(g, "OK");
        } else {
            reply(g, "");
        }
        return 0;
    case 'Q':
        if (strcmp(p, "QStartNoAckMode") == 0) {
            reply(g, "OK");
            g->noack = true;
        } else {
            reply(g, "");
        }
        return 0;
    default:
        reply(g, "");
        return 0;
    }
}

int hexsim_gdb_serve(struct hexsim_debugger *d, const char *hostport, FILE *log)
{
    char host[64] = "127.0.0.1";
    const char *colon = strrchr(hostport, ':');
    const char *port = hostport;
    if (colon) {
        snprintf(host, sizeof(host), "%.*s", (int)(colon - hostport), hostport);
        port = colon + 1;
        if (!host[0])
            snprintf(host, sizeof(host), "127.0.0.1");
    }
    struct sockaddr_in sa;
    memset(&sa, 0, sizeof(sa));
    sa.sin_family = AF_INET;
    sa.sin_port = htons((uint16_t)atoi(port));
    if (inet_pton(AF_INET, host, &sa.sin_addr) != 1) {
        fprintf(log, "hexsim: --gdb: bad address '%s' (use an IPv4 address)\n", host);
        return -1;
    }
    int ls = socket(AF_INET, SOCK_STREAM, 0);
    int one = 1;
    if (ls < 0) {
        fprintf(log, "hexsim: --gdb: socket: %s\n", strerror(errno));
        return -1;
    }
    setsockopt(ls, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
    socklen_t sl = sizeof(sa);
    if (bind(ls, (struct sockaddr *)&sa, sizeof(sa)) || listen(ls, 1) ||
        getsockname(ls, (struct sockaddr *)&sa, &sl)) {
        fprintf(log, "hexsim: --gdb: cannot listen on %s:%s: %s\n", host, port, strerror(errno));
        close(ls);
        return -1;
    }
    fprintf(log, "hexsim: waiting for a gdb connection on %s:%u\n", host, ntohs(sa.sin_port));
    fflush(log);
    int fd;
    do
        fd = accept(ls, NULL, NULL);
    while (fd < 0 && errno == EINTR);
    close(ls);
    if (fd < 0) {
        fprintf(log, "hexsim: --gdb: accept: %s\n", strerror(errno));
        return -1;
    }
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
    struct gdb_conn *g = calloc(1, sizeof(*g));
    if (!g) {
        close(fd);
        return -1;
    }
    g->d = d;
    g->fd = fd;
    g->log = log;
    int end = HEXSIM_GDB_HUNG_UP;
    while (get_packet(g) >= 0)
        if (handle(g, &end))
            break;
    close(fd);
    free(g);
    return end;
}
