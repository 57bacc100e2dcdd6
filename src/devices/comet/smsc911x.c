// SPDX-License-Identifier: MIT
// SMSC LAN9118 Ethernet controller at 0x84000000 (seed 006 board.c: 32-bit bus, IRQ
// push-pull active low on SIRC0 bit 19), as Linux 6.1 drivers/net/ethernet/smsc/
// smsc911x.c and smsc911x.h program it (register offsets and bits from there; the
// behaviour the driver relies on, from its probe, open, xmit, poll and loopback test).
//
// Direct registers: RX data FIFO 0x00-0x1C, TX data FIFO 0x20-0x3C, RX status 0x40 (pop)
// and 0x44 (peek), TX status 0x48/0x4C, ID_REV 0x50 (LAN9118 rev 1), IRQ_CFG 0x54,
// INT_STS 0x58 (write 1 to clear), INT_EN 0x5C, BYTE_TEST 0x64 (0x87654321), FIFO_INT
// 0x68, RX_CFG 0x6C, TX_CFG 0x70, HW_CFG 0x74 (soft reset), RX_DP_CTRL 0x78 (fast
// forward), RX_FIFO_INF 0x7C, TX_FIFO_INF 0x80, PMT_CTRL 0x84 (READY, PHY reset),
// GPIO_CFG 0x88, GPT_CFG 0x8C/GPT_CNT 0x90 (10 kHz down-counter), WORD_SWAP 0x98,
// FREE_RUN 0x9C (25 MHz), RX_DROP 0xA0 (clears on read), MAC_CSR_CMD/DATA 0xA4/0xA8,
// AFC_CFG 0xAC, E2P_CMD/E2P_DATA 0xB0/0xB4 (a 128-byte EEPROM holding the MAC address
// behind the 0xA5 signature, so the address loads at reset). MAC CSRs (indirect): MAC_CR,
// ADDRH, ADDRL, HASHH, HASHL, MII_ACC, MII_DATA, FLOW, VLAN1, VLAN2, WUFF, WUCSR. The
// internal PHY at MII address 1 reports 100 Mbit/s full duplex, link up and
// autonegotiation complete; BMCR reset and restart-autonegotiation complete at once; BMCR
// loopback (and MAC_CR LOOPBK) turn frames around inside the chip, which the driver's
// loopback self-test at probe needs. Other MII addresses read 0xFFFF (no PHY).
//
// TX: command A, command B and the buffer's words go to the TX data FIFO; a buffer is
// (data offset + size) rounded up to its end alignment; the frame is sent when its last
// segment is complete, if TX_CFG TX_ON and MAC_CR TXEN (else it is discarded), and a TX
// status (packet tag << 16) is queued unless the status FIFO is full. RX: frames from the
// backend (or the loopback) pass the address filter (own address, broadcast unless
// BCAST, multicast by MCPAS or the hash table, everything with PRMS), and enter the RX
// data FIFO as RXDOFF pad bytes, the frame, a 4-byte FCS and pad to RX end alignment,
// with a status word (length including FCS << 16, broadcast/multicast/frame type bits).
// A frame that does not fit is dropped and counted in RX_DROP; but frames are taken from
// the backend only while the FIFOs have room for a full-size one, so a burst from the host
// (a TCP window) waits on the wire for later polls instead of overrunning the FIFO (which
// left TCP to retransmission timeouts). The backend is polled
// every poll_period pcycles while MAC RX is on; a poll that finds no frame makes the
// receiver quiet (no poll events, so an idle guest is not woken for nothing) until the
// machine wakes it (hexsim_smsc911x_wake: the host may have frames, or a vCPU runs), and
// polling resumes at the next point of the same grid. Interrupts: RSFL (RX status
// count above FIFO_INT level), TSFL, TDFA (free TX space at least TX_AVAIL_LEVEL * 64),
// RXSTOP (MAC RX disabled), TXSTOP (TX_CFG STOP_TX), SW_INT (set when SW_INT_EN goes to
// 1); IRQ_CFG IRQ_INT is any enabled status, and the pin is asserted while IRQ_EN and
// IRQ_INT, at the IRQ_POL level (the deassertion interval is not modelled). Every length
// the guest gives is bounded by the FIFO sizes; nothing can index outside the buffers.
#include <string.h>

#include "hexsim/comet.h"

enum {
    R_RX_DATA = 0x00, R_TX_DATA = 0x20, R_RX_STS = 0x40, R_RX_STS_PEEK = 0x44,
    R_TX_STS = 0x48, R_TX_STS_PEEK = 0x4C, R_ID_REV = 0x50, R_IRQ_CFG = 0x54,
    R_INT_STS = 0x58, R_INT_EN = 0x5C, R_BYTE_TEST = 0x64, R_FIFO_INT = 0x68,
    R_RX_CFG = 0x6C, R_TX_CFG = 0x70, R_HW_CFG = 0x74, R_RX_DP_CTRL = 0x78,
    R_RX_FIFO_INF = 0x7C, R_TX_FIFO_INF = 0x80, R_PMT_CTRL = 0x84, R_GPIO_CFG = 0x88,
    R_GPT_CFG = 0x8C, R_GPT_CNT = 0x90, R_WORD_SWAP = 0x98, R_FREE_RUN = 0x9C,
    R_RX_DROP = 0xA0, R_MAC_CSR_CMD = 0xA4, R_MAC_CSR_DATA = 0xA8, R_AFC_CFG = 0xAC,
    R_E2P_CMD = 0xB0, R_E2P_DATA = 0xB4,
};

enum { M_MAC_CR = 1, M_ADDRH, M_ADDRL, M_HASHH, M_HASHL, M_MII_ACC, M_MII_DATA, M_FLOW,
       M_VLAN1, M_VLAN2, M_WUFF, M_WUCSR };

#define ID_REV_LAN9118 0x01180001u
#define BYTE_TEST_VAL 0x87654321u

#define INT_SW 0x80000000u
#define INT_TXSTOP 0x02000000u
#define INT_RXSTOP 0x01000000u
#define INT_TDFA 0x00000200u
#define INT_TSFL 0x00000080u
#define INT_RSFL 0x00000008u

#define IRQCFG_INT 0x00001000u
#define IRQCFG_EN 0x00000100u
#define IRQCFG_POL 0x00000010u
#define IRQCFG_RW 0xFF000111u

#define TXCFG_TXS_DUMP 0x8000u
#define TXCFG_TXD_DUMP 0x4000u
#define TXCFG_TXSAO 0x4u
#define TXCFG_TX_ON 0x2u
#define TXCFG_STOP_TX 0x1u

#define RXCFG_DUMP 0x8000u
#define RXCFG_RW 0xCFFF1F00u

#define HWCFG_SRST 0x1u
#define HWCFG_32BIT 0x4u
#define HWCFG_RW 0x00373000u       // TTM, SF, TX_FIF_SZ, TR
#define PMT_READY 0x1u
#define PMT_PHY_RST 0x400u
#define PMT_RW 0x3376u

#define MACCR_RXALL 0x80000000u
#define MACCR_LOOPBK 0x00200000u
#define MACCR_MCPAS 0x00080000u
#define MACCR_PRMS 0x00040000u
#define MACCR_INVFILT 0x00020000u
#define MACCR_HPFILT 0x00002000u
#define MACCR_BCAST 0x00000800u
#define MACCR_TXEN 0x8u
#define MACCR_RXEN 0x4u

#define CSR_BUSY 0x80000000u
#define CSR_READ 0x40000000u
#define MII_WRITE 0x2u

#define E2P_BUSY 0x80000000u
#define E2P_TIMEOUT 0x200u
#define E2P_LOADED 0x100u

#define PHY_ADDR 1
#define BMCR_RESET 0x8000u
#define BMCR_LOOPBACK 0x4000u
#define BMCR_ANRESTART 0x0200u
#define BMCR_RW 0x7D80u

#define NEVER HEXSIM_TIME_NEVER
#define RX_POLL_PCYCLES 60000u      // backend polled every 100 us of guest time
#define EEPROM_SIZE HEXSIM_SMSC_EEPROM
#define PCYCLE_HZ 600000000ull

static uint32_t tx_fifo_bytes(const struct hexsim_smsc911x *e)
{
    uint32_t kb = (e->hw_cfg >> 16) & 0xF;
    if (kb < 2)
        kb = 2;
    if (kb > 14)
        kb = 14;
    uint32_t n = kb * 1024 - 512;       // 512 bytes of it hold TX statuses
    return n < HEXSIM_SMSC_TX_FIFO ? n : HEXSIM_SMSC_TX_FIFO;
}

static uint32_t rx_fifo_bytes(const struct hexsim_smsc911x *e)
{
    (void)e;
    return HEXSIM_SMSC_RX_FIFO;
}

static uint32_t tx_free(const struct hexsim_smsc911x *e)
{
    uint32_t cap = tx_fifo_bytes(e);
    uint32_t used = e->txf_n + (e->tx_state ? 8 : 0);
    return used < cap ? cap - used : 0;
}

static uint32_t int_level(const struct hexsim_smsc911x *e)
{
    uint32_t s = e->int_sts;
    if (e->rxs_n > (e->fifo_int & 0xFF))
        s |= INT_RSFL;
    if (e->txs_n > ((e->fifo_int >> 16) & 0xFF))
        s |= INT_TSFL;
    return s;
}

static void update_irq(struct hexsim_dev *d)
{
    struct hexsim_smsc911x *e = d->state;
    e->int_sts = int_level(e);            // the level sources latch as status bits
    bool asserted = (e->irq_cfg & IRQCFG_EN) && (e->int_sts & e->int_en);
    bool high = (e->irq_cfg & IRQCFG_POL) != 0;
    int lvl = asserted ? high : !high;
    if (lvl != e->line) {
        e->line = lvl;
        hexsim_irq_set(&d->irq, lvl);
    }
}

static void tdfa_check(struct hexsim_smsc911x *e)
{
    if (tx_free(e) >= ((e->fifo_int >> 24) & 0xFF) * 64u)
        e->int_sts |= INT_TDFA;
}

// ---- PHY
static void phy_reset(struct hexsim_smsc911x *e)
{
    memset(e->phy, 0, sizeof(e->phy));
    e->phy[0] = 0x3000;      // autonegotiation enabled, 100 Mbit/s
    e->phy[2] = 0x0007;      // PHY identifier: SMSC
    e->phy[3] = 0xC0D1;      // LAN911x internal PHY
    e->phy[4] = 0x01E1;      // advertise 10/100 half/full
    e->phy[5] = 0x45E1;      // link partner: same, pause, acknowledged
    e->phy[6] = 0x0001;      // link partner can autonegotiate
    e->phy[17] = 0x0002;     // ENERGYON
    e->phy[18] = 0x00E0 | PHY_ADDR;
    e->phy[31] = 0x1058;     // autonegotiation done, 100BASE-TX full duplex
}

static uint16_t phy_read(struct hexsim_smsc911x *e, unsigned reg)
{
    switch (reg) {
    case 1: return 0x782D;   // 10/100 capable, autonegotiation complete, link up
    case 29: {               // interrupt source: clears on read
        uint16_t v = e->phy[29];
        e->phy[29] = 0;
        return v;
    }
    default: return e->phy[reg & 31];
    }
}

static void phy_write(struct hexsim_smsc911x *e, unsigned reg, uint16_t v)
{
    switch (reg) {
    case 0:
        if (v & BMCR_RESET) {
            phy_reset(e);
            return;
        }
        e->phy[0] = v & BMCR_RW;           // restart-autonegotiation completes at once
        break;
    case 4: e->phy[4] = v & 0x2DFF; break;
    case 17: e->phy[17] = (v & 0x3FFD) | 0x0002; break;
    case 18: e->phy[18] = v & 0x00FF; break;
    case 27: case 30: e->phy[reg] = v; break;
    default: break;                         // read-only registers
    }
}

// ---- address filter
static uint32_t ether_crc_be(const uint8_t *p, unsigned n)
{
    uint32_t crc = 0xFFFFFFFFu;
    for (unsigned i = 0; i < n; i++)
        for (unsigned b = 0; b < 8; b++) {
            uint32_t in = (p[i] >> b) & 1;
            crc = (crc << 1) ^ (((crc >> 31) ^ in) ? 0x04C11DB7u : 0);
        }
    return crc;
}

static bool accept(const struct hexsim_smsc911x *e, const uint8_t *f, uint32_t *sts)
{
    uint32_t cr = e->mac_cr;
    bool bcast = f[0] == 0xFF && f[1] == 0xFF && f[2] == 0xFF && f[3] == 0xFF &&
                 f[4] == 0xFF && f[5] == 0xFF;
    bool mcast = (f[0] & 1) && !bcast;
    if (bcast)
        *sts |= 0x2000;
    if (mcast)
        *sts |= 0x0400;
    if (cr & (MACCR_PRMS | MACCR_RXALL))
        return true;
    if (bcast)
        return !(cr & MACCR_BCAST);
    if (mcast) {
        if (cr & MACCR_MCPAS)
            return true;
        if (cr & MACCR_HPFILT) {
            unsigned h = ether_crc_be(f, 6) >> 26;
            uint32_t word = h >= 32 ? e->hashh : e->hashl;
            return (word >> (h & 31)) & 1;
        }
        return false;
    }
    bool own = f[0] == (uint8_t)e->addrl && f[1] == (uint8_t)(e->addrl >> 8) &&
               f[2] == (uint8_t)(e->addrl >> 16) && f[3] == (uint8_t)(e->addrl >> 24) &&
               f[4] == (uint8_t)e->addrh && f[5] == (uint8_t)(e->addrh >> 8);
    return (cr & MACCR_INVFILT) ? !own : own;
}

// ---- RX FIFO
static void rxd_put(struct hexsim_smsc911x *e, uint8_t b)
{
    e->rxd[(e->rxd_head + e->rxd_n) % HEXSIM_SMSC_RX_FIFO] = b;
    e->rxd_n++;
}

// The RX data FIFO bytes a frame of len bytes takes: RXDOFF pad, the frame, the FCS and
// pad to the RX end alignment.
static uint32_t rx_total(const struct hexsim_smsc911x *e, uint32_t len)
{
    uint32_t off = (e->rx_cfg >> 8) & 0x1F;
    uint32_t align = (e->rx_cfg >> 30) == 1 ? 16 : (e->rx_cfg >> 30) == 2 ? 32 : 4;
    return (off + len + 4 + align - 1) / align * align;
}

// Whether the RX FIFOs can take a frame of any size now.
static bool rx_room(const struct hexsim_smsc911x *e)
{
    return e->rxs_n < HEXSIM_SMSC_STS_FIFO &&
           e->rxd_n + rx_total(e, HEXSIM_ETH_MAX_FRAME) <= rx_fifo_bytes(e);
}

// A frame from the wire (len bytes, no FCS) arrives.
static void receive(struct hexsim_dev *d, const uint8_t *f, uint32_t len)
{
    struct hexsim_smsc911x *e = d->state;
    if (!(e->mac_cr & MACCR_RXEN) || len < 14)
        return;
    if (len > HEXSIM_ETH_MAX_FRAME)
        len = HEXSIM_ETH_MAX_FRAME;
    uint32_t sts = 0;
    if (!accept(e, f, &sts))
        return;
    uint32_t off = (e->rx_cfg >> 8) & 0x1F;
    uint32_t total = rx_total(e, len);
    if (e->rxs_n >= HEXSIM_SMSC_STS_FIFO || e->rxd_n + total > rx_fifo_bytes(e)) {
        e->rx_drop++;
        e->rx_dropped++;
        return;
    }
    uint32_t type = (uint32_t)f[12] << 8 | f[13];
    if (type >= 0x600)
        sts |= 0x20;                        // frame type: Ethernet II
    uint32_t fcs = ~0u;                     // the FCS bytes are not checked by the driver
    for (uint32_t i = 0; i < off; i++)
        rxd_put(e, 0);
    for (uint32_t i = 0; i < len; i++)
        rxd_put(e, f[i]);
    for (uint32_t i = 0; i < 4; i++)
        rxd_put(e, (uint8_t)(fcs >> (8 * i)));
    for (uint32_t i = off + len + 4; i < total; i++)
        rxd_put(e, 0);
    e->rxs[(e->rxs_head + e->rxs_n) % HEXSIM_SMSC_STS_FIFO] = (len + 4) << 16 | sts;
    e->rx_sizes[(e->rxs_head + e->rxs_n) % HEXSIM_SMSC_STS_FIFO] = total;
    e->rxs_n++;
    e->rx_frames++;
}

static uint32_t rx_data_read(struct hexsim_smsc911x *e)
{
    uint32_t v = 0;
    for (unsigned i = 0; i < 4 && e->rxd_n; i++) {
        v |= (uint32_t)e->rxd[e->rxd_head] << (8 * i);
        e->rxd_head = (e->rxd_head + 1) % HEXSIM_SMSC_RX_FIFO;
        e->rxd_n--;
    }
    e->rx_left = e->rx_left >= 4 ? e->rx_left - 4 : 0;
    return v;
}

static void rx_flush(struct hexsim_smsc911x *e)
{
    e->rxd_head = e->rxd_n = 0;
    e->rxs_head = e->rxs_n = 0;
    e->rx_left = 0;
}

// ---- TX
static void tx_status(struct hexsim_smsc911x *e, uint32_t sts)
{
    if (e->txs_n < HEXSIM_SMSC_STS_FIFO) {
        e->txs[(e->txs_head + e->txs_n) % HEXSIM_SMSC_STS_FIFO] = sts;
        e->txs_n++;
    }
}

static void transmit(struct hexsim_dev *d)
{
    struct hexsim_smsc911x *e = d->state;
    uint32_t len = e->tx_cmd_b & 0x7FF;
    if (len > e->txf_n)
        len = e->txf_n;
    uint32_t tag = e->tx_cmd_b & 0xFFFF0000u;
    e->txf_n = 0;
    if (!(e->tx_cfg & TXCFG_TX_ON) || !(e->mac_cr & MACCR_TXEN))
        return;                              // transmitter off: the frame is discarded
    bool loop = (e->phy[0] & BMCR_LOOPBACK) || (e->mac_cr & MACCR_LOOPBK);
    if (len >= 14) {
        if (loop) {
            receive(d, e->txf, len);
        } else if (e->be && e->be->send) {
            e->be->send(e->be->ctx, e->txf, len);
        }
        e->tx_frames++;
    }
    tx_status(e, tag);
}

static void tx_data_write(struct hexsim_dev *d, uint32_t v)
{
    struct hexsim_smsc911x *e = d->state;
    switch (e->tx_state) {
    case 0: {                                // command A
        e->tx_cmd_a = v;
        uint32_t size = v & 0x7FF, off = (v >> 16) & 0x1F;
        unsigned a = (v >> 24) & 3;
        uint32_t align = a == 1 ? 16 : a == 2 ? 32 : 4;
        e->tx_skip = off;
        e->tx_buf_bytes = size;
        e->tx_words = (off + size + align - 1) / align * align / 4;
        if (v & 0x2000)                      // first segment: a new frame
            e->txf_n = 0;
        e->tx_state = 1;
        break;
    }
    case 1:                                  // command B
        e->tx_cmd_b = v;
        e->tx_state = e->tx_words ? 2 : 0;
        if (!e->tx_words && (e->tx_cmd_a & 0x1000))
            transmit(d);
        break;
    default:                                 // buffer data
        for (unsigned i = 0; i < 4; i++) {
            if (e->tx_skip) {
                e->tx_skip--;
                continue;
            }
            if (e->tx_buf_bytes) {
                e->tx_buf_bytes--;
                if (e->txf_n < HEXSIM_SMSC_TX_FIFO)
                    e->txf[e->txf_n++] = (uint8_t)(v >> (8 * i));
            }
        }
        if (--e->tx_words == 0) {
            e->tx_state = 0;
            if (e->tx_cmd_a & 0x1000)        // last segment
                transmit(d);
        }
        break;
    }
}

// ---- EEPROM
static void e2p_command(struct hexsim_smsc911x *e, uint32_t v)
{
    unsigned cmd = (v >> 28) & 7, addr = v & 0x7F;
    e->e2p_cmd = (v & 0x700000FFu) | (e->e2p_cmd & E2P_LOADED);
    switch (cmd) {
    case 0: e->e2p_data = e->eeprom[addr]; break;                 // READ
    case 1: e->eeprom_we = false; break;                           // EWDS
    case 2: e->eeprom_we = true; break;                            // EWEN
    case 3: if (e->eeprom_we) e->eeprom[addr] = (uint8_t)e->e2p_data; break;   // WRITE
    case 4: if (e->eeprom_we) memset(e->eeprom, (uint8_t)e->e2p_data, EEPROM_SIZE); break;
    case 5: if (e->eeprom_we) e->eeprom[addr] = 0xFF; break;      // ERASE
    case 6: if (e->eeprom_we) memset(e->eeprom, 0xFF, EEPROM_SIZE); break;
    default:                                                       // RELOAD
        if (e->eeprom[0] == 0xA5) {
            e->addrl = (uint32_t)e->eeprom[1] | (uint32_t)e->eeprom[2] << 8 |
                       (uint32_t)e->eeprom[3] << 16 | (uint32_t)e->eeprom[4] << 24;
            e->addrh = (uint32_t)e->eeprom[5] | (uint32_t)e->eeprom[6] << 8;
            e->e2p_cmd |= E2P_LOADED;
        }
        break;
    }
}

// ---- MAC CSRs
static uint32_t mac_read(struct hexsim_smsc911x *e, unsigned a)
{
    switch (a) {
    case M_MAC_CR: return e->mac_cr;
    case M_ADDRH: return e->addrh;
    case M_ADDRL: return e->addrl;
    case M_HASHH: return e->hashh;
    case M_HASHL: return e->hashl;
    case M_MII_ACC: return e->mii_acc;
    case M_MII_DATA: return e->mii_data;
    case M_FLOW: return e->flow;
    case M_VLAN1: return e->vlan1;
    case M_VLAN2: return e->vlan2;
    case M_WUCSR: return e->wucsr;
    default: return 0;
    }
}

static void mac_write(struct hexsim_smsc911x *e, unsigned a, uint32_t v)
{
    switch (a) {
    case M_MAC_CR:
        if ((e->mac_cr & MACCR_RXEN) && !(v & MACCR_RXEN))
            e->int_sts |= INT_RXSTOP;
        e->mac_cr = v & 0xB0FBFDECu;
        break;
    case M_ADDRH: e->addrh = v & 0xFFFF; break;
    case M_ADDRL: e->addrl = v; break;
    case M_HASHH: e->hashh = v; break;
    case M_HASHL: e->hashl = v; break;
    case M_MII_ACC:
        // Every write starts an access, whether or not it sets MIIBZY: Linux 6.1's
        // smsc911x_mii_read/_write write only the address, index and direction, then poll
        // MIIBZY. The access completes at once, so MIIBZY always reads 0.
        e->mii_acc = v & 0xFFC2u;
        {
            unsigned phy = (v >> 11) & 0x1F, reg = (v >> 6) & 0x1F;
            if (v & MII_WRITE) {
                if (phy == PHY_ADDR)
                    phy_write(e, reg, (uint16_t)e->mii_data);
            } else {
                e->mii_data = phy == PHY_ADDR ? phy_read(e, reg) : 0xFFFF;
            }
        }
        break;
    case M_MII_DATA: e->mii_data = v & 0xFFFF; break;
    case M_FLOW: e->flow = v & 0xFFFF0006u; break;
    case M_VLAN1: e->vlan1 = v & 0xFFFF; break;
    case M_VLAN2: e->vlan2 = v & 0xFFFF; break;
    case M_WUCSR: e->wucsr = v & 0x206u; break;
    default: break;
    }
}

// ---- reset
static void soft_reset(struct hexsim_dev *d)
{
    struct hexsim_smsc911x *e = d->state;
    e->irq_cfg = e->int_sts = e->int_en = 0;
    e->fifo_int = 0x48000000u;
    e->rx_cfg = e->tx_cfg = 0;
    e->hw_cfg = 0x00050000u | HWCFG_32BIT;
    e->pmt_ctrl = PMT_READY;
    e->gpio_cfg = e->gpt_cfg = e->afc_cfg = e->word_swap = e->rx_drop = 0;
    e->gpt_cfg = 0xFFFF;
    e->gpt_count = 0xFFFF;
    e->gpt_t0 = *d->now;
    e->mac_csr_cmd = e->mac_csr_data = 0;
    e->mac_cr = 0;                           // RX and TX off
    e->addrh = 0xFFFF;
    e->addrl = 0xFFFFFFFFu;
    e->hashh = e->hashl = e->mii_acc = e->mii_data = e->flow = 0;
    e->vlan1 = e->vlan2 = e->wucsr = 0;
    rx_flush(e);
    e->txf_n = 0;
    e->tx_state = 0;
    e->txs_head = e->txs_n = 0;
    e->e2p_cmd = 0;
    e->e2p_data = 0;
    e2p_command(e, 0x70000000u);             // the EEPROM loads the MAC address
    e->e2p_cmd &= ~0x700000FFu;
    phy_reset(e);
    e->rx_poll = NEVER;
}

static uint64_t smsc_read(struct hexsim_dev *d, uint32_t off, unsigned size)
{
    struct hexsim_smsc911x *e = d->state;
    uint32_t v = 0;
    if (size != 4 || (off & 3)) {
        hexsim_dev_undef(d, "read", off, size, 0);
        return 0;
    }
    if (off < R_TX_DATA) {
        v = rx_data_read(e);
        update_irq(d);
        return v;
    }
    if (off < R_RX_STS)
        return 0;                            // the TX data FIFO is write-only
    switch (off) {
    case R_RX_STS:
    case R_RX_STS_PEEK:
        if (e->rxs_n) {
            v = e->rxs[e->rxs_head];
            if (off == R_RX_STS) {
                e->rx_left = e->rx_sizes[e->rxs_head];
                e->rxs_head = (e->rxs_head + 1) % HEXSIM_SMSC_STS_FIFO;
                e->rxs_n--;
                update_irq(d);
            }
        }
        return v;
    case R_TX_STS:
    case R_TX_STS_PEEK:
        if (e->txs_n) {
            v = e->txs[e->txs_head];
            if (off == R_TX_STS) {
                e->txs_head = (e->txs_head + 1) % HEXSIM_SMSC_STS_FIFO;
                e->txs_n--;
                update_irq(d);
            }
        }
        return v;
    case R_ID_REV: return ID_REV_LAN9118;
    case R_IRQ_CFG:
        return e->irq_cfg | ((e->int_sts & e->int_en) ? IRQCFG_INT : 0);
    case R_INT_STS: return int_level(e);
    case R_INT_EN: return e->int_en;
    case R_BYTE_TEST: return BYTE_TEST_VAL;
    case R_FIFO_INT: return e->fifo_int;
    case R_RX_CFG: return e->rx_cfg;
    case R_TX_CFG: return e->tx_cfg;
    case R_HW_CFG: return e->hw_cfg;
    case R_RX_DP_CTRL: return 0;             // fast forward completes at once
    case R_RX_FIFO_INF: return (e->rxs_n & 0xFF) << 16 | (e->rxd_n & 0xFFFF);
    case R_TX_FIFO_INF: return (e->txs_n & 0xFF) << 16 | (tx_free(e) & 0xFFFF);
    case R_PMT_CTRL: return e->pmt_ctrl;
    case R_GPIO_CFG: return e->gpio_cfg;
    case R_GPT_CFG: return e->gpt_cfg;
    case R_GPT_CNT: {
        if (!(e->gpt_cfg & 0x20000000u))
            return e->gpt_count;
        uint64_t ticks = (*d->now - e->gpt_t0) / (PCYCLE_HZ / 10000);
        uint32_t load = e->gpt_cfg & 0xFFFF;
        return (uint32_t)((load + 0x10000u - ticks % 0x10000u) & 0xFFFF);
    }
    case R_WORD_SWAP: return e->word_swap;
    case R_FREE_RUN: return (uint32_t)(*d->now / (PCYCLE_HZ / 25000000));
    case R_RX_DROP: v = e->rx_drop; e->rx_drop = 0; return v;
    case R_MAC_CSR_CMD: return e->mac_csr_cmd;
    case R_MAC_CSR_DATA: return e->mac_csr_data;
    case R_AFC_CFG: return e->afc_cfg;
    case R_E2P_CMD: return e->e2p_cmd;
    case R_E2P_DATA: return e->e2p_data;
    default:
        hexsim_dev_undef(d, "read", off, size, 0);
        return 0;
    }
}

static void smsc_write(struct hexsim_dev *d, uint32_t off, unsigned size, uint64_t val)
{
    struct hexsim_smsc911x *e = d->state;
    uint32_t v = (uint32_t)val;
    if (size != 4 || (off & 3)) {
        hexsim_dev_undef(d, "write", off, size, val);
        return;
    }
    if (off >= R_TX_DATA && off < R_RX_STS) {
        tx_data_write(d, v);
        tdfa_check(e);
        update_irq(d);
        return;
    }
    switch (off) {
    case R_IRQ_CFG: e->irq_cfg = v & IRQCFG_RW; break;
    case R_INT_STS: e->int_sts &= ~v; break;
    case R_INT_EN:
        if ((v & INT_SW) && !(e->int_en & INT_SW))
            e->int_sts |= INT_SW;
        e->int_en = v & 0xFBFFFEFFu;
        break;
    case R_BYTE_TEST: break;                 // read-only (a write wakes the chip)
    case R_FIFO_INT: e->fifo_int = v; tdfa_check(e); break;
    case R_RX_CFG:
        if (v & RXCFG_DUMP)
            rx_flush(e);
        e->rx_cfg = v & RXCFG_RW;
        break;
    case R_TX_CFG:
        if (v & TXCFG_TXS_DUMP)
            e->txs_head = e->txs_n = 0;
        if (v & TXCFG_TXD_DUMP) {
            e->txf_n = 0;
            e->tx_state = 0;
        }
        e->tx_cfg = v & (TXCFG_TXSAO | TXCFG_TX_ON);
        if (v & TXCFG_STOP_TX) {
            e->tx_cfg &= ~TXCFG_TX_ON;
            e->int_sts |= INT_TXSTOP;
        }
        break;
    case R_HW_CFG:
        if (v & HWCFG_SRST)
            soft_reset(d);
        else
            e->hw_cfg = (v & HWCFG_RW) | HWCFG_32BIT;
        break;
    case R_RX_DP_CTRL:
        if (v & 0x80000000u) {               // fast forward past the current frame
            while (e->rx_left && e->rxd_n)
                rx_data_read(e);
        }
        break;
    case R_PMT_CTRL:
        if (v & PMT_PHY_RST)
            phy_reset(e);                    // completes at once: the bit reads 0
        e->pmt_ctrl = (v & PMT_RW & ~PMT_PHY_RST) | PMT_READY;
        break;
    case R_GPIO_CFG: e->gpio_cfg = v & 0x777F0737u; break;
    case R_GPT_CFG:
        e->gpt_cfg = v & 0x2000FFFFu;
        e->gpt_t0 = *d->now;
        e->gpt_count = v & 0xFFFF;
        break;
    case R_WORD_SWAP: e->word_swap = v; break;
    case R_MAC_CSR_CMD:
        e->mac_csr_cmd = v & 0x400000FFu;    // BUSY: the access completes at once
        if (v & CSR_BUSY) {
            if (v & CSR_READ)
                e->mac_csr_data = mac_read(e, v & 0xFF);
            else
                mac_write(e, v & 0xFF, e->mac_csr_data);
        }
        break;
    case R_MAC_CSR_DATA: e->mac_csr_data = v; break;
    case R_AFC_CFG: e->afc_cfg = v & 0x00FFFFFFu; break;
    case R_E2P_CMD:
        if (v & E2P_BUSY)
            e2p_command(e, v);
        break;
    case R_E2P_DATA: e->e2p_data = v & 0xFF; break;
    case R_ID_REV: case R_RX_FIFO_INF: case R_TX_FIFO_INF: case R_FREE_RUN: case R_RX_DROP:
    case R_RX_STS: case R_RX_STS_PEEK: case R_TX_STS: case R_TX_STS_PEEK:
        break;                               // read-only
    default:
        hexsim_dev_undef(d, "write", off, size, val);
        return;
    }
    if ((e->mac_cr & MACCR_RXEN) && e->be && e->be->recv) {
        if (e->rx_poll == NEVER)
            e->rx_poll = *d->now + e->poll_period;
    } else {
        e->rx_poll = NEVER;
        e->rx_quiet = false;
    }
    update_irq(d);
}

static uint64_t smsc_next(const struct hexsim_dev *d)
{
    const struct hexsim_smsc911x *e = d->state;
    return e->rx_quiet ? NEVER : e->rx_poll;
}

static void smsc_advance(struct hexsim_dev *d)
{
    struct hexsim_smsc911x *e = d->state;
    if (e->rx_poll > *d->now)
        return;
    if (e->rx_quiet)
        return;
    // frames are taken from the backend only while the FIFOs have room for one: the rest
    // wait there (on the wire) for the next poll, instead of overrunning the FIFO
    unsigned got = 0;
    bool full = false;
    for (; e->be && e->be->recv; got++) {
        if (!rx_room(e)) {
            full = true;
            break;
        }
        size_t n = e->be->recv(e->be->ctx, e->frame, HEXSIM_ETH_MAX_FRAME);
        if (!n)
            break;
        receive(d, e->frame, (uint32_t)(n > HEXSIM_ETH_MAX_FRAME ? HEXSIM_ETH_MAX_FRAME : n));
    }
    e->rx_quiet = got == 0 && !full;   // nothing came: no more polls until a wake
    e->rx_poll = (e->mac_cr & MACCR_RXEN) ? *d->now + e->poll_period : NEVER;
    update_irq(d);
}

void hexsim_smsc911x_wake(struct hexsim_dev *d)
{
    struct hexsim_smsc911x *e = d->state;
    if (!e->rx_quiet)
        return;
    e->rx_quiet = false;
    uint64_t now = *d->now;
    if (e->rx_poll != NEVER && e->rx_poll < now)    // the next point of the poll grid
        e->rx_poll += (now - e->rx_poll + e->poll_period - 1) / e->poll_period * e->poll_period;
}

static void smsc_reset(struct hexsim_dev *d)
{
    struct hexsim_smsc911x *e = d->state;
    e->line = -1;
    soft_reset(d);
    update_irq(d);
}

static size_t smsc_save(const struct hexsim_dev *d, void *buf, size_t len)
{
    if (len >= sizeof(struct hexsim_smsc911x))
        memcpy(buf, d->state, sizeof(struct hexsim_smsc911x));
    return sizeof(struct hexsim_smsc911x);
}

static int smsc_restore(struct hexsim_dev *d, const void *buf, size_t len)
{
    struct hexsim_smsc911x *e = d->state;
    if (len != sizeof(*e))
        return -1;
    struct hexsim_netdev *be = e->be;
    uint64_t poll_period = e->poll_period;
    memcpy(e, buf, len);
    e->be = be;
    e->poll_period = poll_period;       // configuration, not guest state
    HEXSIM_RESTORE_BOOL(e, buf, struct hexsim_smsc911x, eeprom_we);
    HEXSIM_RESTORE_BOOL(e, buf, struct hexsim_smsc911x, rx_quiet);
    // keep every index inside its buffer whatever the snapshot says
    e->rxd_head %= HEXSIM_SMSC_RX_FIFO;
    if (e->rxd_n > HEXSIM_SMSC_RX_FIFO)
        e->rxd_n = HEXSIM_SMSC_RX_FIFO;
    e->rxs_head %= HEXSIM_SMSC_STS_FIFO;
    e->txs_head %= HEXSIM_SMSC_STS_FIFO;
    if (e->rxs_n > HEXSIM_SMSC_STS_FIFO)
        e->rxs_n = HEXSIM_SMSC_STS_FIFO;
    if (e->txs_n > HEXSIM_SMSC_STS_FIFO)
        e->txs_n = HEXSIM_SMSC_STS_FIFO;
    if (e->txf_n > HEXSIM_SMSC_TX_FIFO)
        e->txf_n = HEXSIM_SMSC_TX_FIFO;
    return 0;
}

static const struct hexsim_dev_ops smsc_ops = {
    .name = "smsc911x",
    .read = smsc_read,
    .write = smsc_write,
    .reset = smsc_reset,
    .save = smsc_save,
    .restore = smsc_restore,
    .next_event = smsc_next,
    .advance = smsc_advance,
};

void hexsim_smsc911x_init(struct hexsim_dev *d, struct hexsim_smsc911x *e,
                          const uint8_t mac[6], struct hexsim_netdev *be)
{
    memset(e, 0, sizeof(*e));
    memset(d, 0, sizeof(*d));
    e->be = be;
    e->poll_period = RX_POLL_PCYCLES;
    memset(e->eeprom, 0xFF, EEPROM_SIZE);
    e->eeprom[0] = 0xA5;
    memcpy(e->eeprom + 1, mac, 6);
    e->rx_poll = NEVER;
    e->line = -1;
    d->ops = &smsc_ops;
    d->base = HEXSIM_SMSC911X_BASE;
    d->size = 0x1000;
    d->state = e;
}
