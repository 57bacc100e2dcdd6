// SPDX-License-Identifier: MIT
// System-mode test kernel for the Comet UART3 and SIRC (tests/devices): the UART is dead
// until the clock controller's UART3 branch is on; polled TX; SIRC1 bit 18 programmed as
// a level, active-high interrupt cascading into L1 24; interrupt-driven TX (TXLEV);
// polled RX and interrupt-driven RX (RXLEV/RXSTALE) of the scripted stdin "ab\ncdefgh".
// Results are reported through angel calls.
#include "hvm.h"

#define UART ((volatile u32 *)0xA9C00000u)
#define SIRC1 ((volatile u32 *)0xAB010400u)
#define CLK ((volatile u32 *)0xA8600000u)

enum { MR1 = 0, MR2 = 1, SR = 2, TF = 3, RF = 3, CR = 4, MISR = 4, IMR = 5, ISR = 5, IPR = 6,
       TFWR = 7, RFWR = 8 };
enum { S_ENABLE = 0, S_ENABLE_CLEAR = 1, S_ENABLE_SET = 2, S_TYPE = 3, S_POLARITY = 4,
       S_STATUS = 5, S_CLEAR = 6, S_SOFT = 7, S_PENDING = 8 };
#define SR_RXRDY 1u
#define SR_TXRDY 4u
#define SR_TXEMT 8u
#define BIT18 (1u << 18)

static const char *volatile tx_ptr;
static volatile u32 imr, n_irq, n_tx_irq, n_rx_irq, n_soft;
static volatile char rx_buf[32];
static volatile u32 rx_n;

static void uart_irq(void)
{
    u32 misr = UART[MISR];
    UART[IMR] = 0;
    if (misr & 0x18) {                          // RXLEV | RXSTALE: drain
        n_rx_irq++;
        while (UART[SR] & SR_RXRDY) {
            char c = (char)UART[RF];
            if (rx_n < sizeof(rx_buf))
                rx_buf[rx_n++] = c;
        }
    }
    if (misr & 1) {                             // TXLEV: refill
        n_tx_irq++;
        while (*tx_ptr && (UART[SR] & SR_TXRDY))
            UART[TF] = (u32)(unsigned char)*tx_ptr++;
        if (!*tx_ptr)
            imr &= ~1u;
    }
    UART[IMR] = imr;
}

void hvm_event(u32 slot, u32 *rec)
{
    if (slot != 7)
        return;
    n_irq++;
    CHECK_EQ(GSR_CAUSE(rec[1]), 24);
    u32 st = SIRC1[S_STATUS];
    if (st & BIT18)
        uart_irq();
    if (st & SIRC1[S_SOFT]) {
        n_soft++;
        SIRC1[S_SOFT] = 0;                      // the soft source is ours to end
    }
    vmintop(GLOBEN, 24, 0);
}

static void put_polled(const char *s)
{
    for (; *s; s++) {
        while (!(UART[SR] & SR_TXRDY))
            ;
        UART[TF] = (u32)(unsigned char)*s;
    }
}

static void spin(u32 n)
{
    for (volatile u32 i = 0; i < n; i++)
        ;
}

int main(void)
{
    CHECK_EQ(map_board(), 0);
    // reset and enable as msm_reset/msm_set_baud_rate do
    UART[CR] = 0x10;                            // reset RX
    UART[CR] = 0x20;                            // reset TX
    UART[CR] = 0x30;                            // reset error
    UART[MR2] = 0x34;                           // 8 bits, 1 stop, no parity
    UART[IPR] = 0x21;                           // stale timeout: 1 character
    UART[RFWR] = 48;
    UART[TFWR] = 10;
    UART[CR] = 0x05;                            // TX and RX enable
    CHECK_EQ(UART[MR2], 0x34);
    // dead without its clock
    UART[TF] = '#';
    spin(20000);
    CHECK_EQ(UART[SR] & SR_TXEMT, 0);
    CLK[0xC0 / 4] = 0x00020000;                 // comet_init: UART3 branch enable
    while (!(UART[SR] & SR_TXEMT))
        ;
    put_polled("UART polled\r\n");
    while (!(UART[SR] & SR_TXEMT))
        ;
    // polled RX of the first line of the script
    char line[4];
    for (int i = 0; i < 3; i++) {
        while (!(UART[SR] & SR_RXRDY))
            ;
        line[i] = (char)UART[RF];
    }
    CHECK_EQ(line[0], 'a');
    CHECK_EQ(line[1], 'b');
    CHECK_EQ(line[2], '\n');
    // SIRC1 bit 18: level, active high, enabled; L1 24
    SIRC1[S_TYPE] = SIRC1[S_TYPE] & ~BIT18;
    SIRC1[S_POLARITY] = SIRC1[S_POLARITY] & ~BIT18;
    SIRC1[S_ENABLE_SET] = BIT18;
    vmintop(LOCEN, 24, 0);                      // (a trap1 also keeps the load below in a
    CHECK_EQ(SIRC1[S_ENABLE] & BIT18, BIT18);   // later packet than the store above)
    CHECK_EQ(SIRC1[S_STATUS], 0);
    vmsetie(1);
    // interrupt-driven RX of the rest: RXLEV above 48 never fires, the stale timeout does
    imr = 0x18;
    UART[IMR] = imr;
    while (rx_n < 6)
        vmwait();
    CHECK_EQ(rx_n, 6);
    CHECK(n_rx_irq >= 1);
    CHECK_EQ(rx_buf[0], 'c');
    CHECK_EQ(rx_buf[5], 'h');
    // interrupt-driven TX: a text longer than the FIFO
    tx_ptr = "UART interrupt-driven TX: 0123456789abcdefghijklmnopqrstuvwxyz"
             "ABCDEFGHIJKLMNOPQRSTUVWXYZ 0123456789\r\n";
    imr = 0x19;
    UART[IMR] = imr;
    while (*tx_ptr)
        vmwait();
    while (!(UART[SR] & SR_TXEMT))
        ;
    CHECK(n_tx_irq >= 2);
    UART[IMR] = 0;
    CHECK_EQ(SIRC1[S_PENDING] & BIT18, 0);
    // soft interrupt through SIRC1 (bit 3) reaches L1 24 as well
    vmsetie(0);
    SIRC1[S_ENABLE_SET] = 1u << 3;
    SIRC1[S_SOFT] = 1u << 3;
    CHECK_EQ(SIRC1[S_STATUS], 1u << 3);
    vmsetie(1);                                 // taken now
    CHECK_EQ(n_soft, 1);
    CHECK_EQ(SIRC1[S_STATUS], 0);
    SIRC1[S_ENABLE_CLEAR] = 1u << 3;
    finish("uart");
    return 0;
}
