/* h1_conv: a 3x3 binomial blur (1 2 1 / 2 4 2 / 1 2 1, /16 rounded) of a 512x256 8-bit
 * image, repeated: unaligned neighbours by valign/vlalign, widening byte adds into
 * halfwords, halfword adds and shifts, a rounding saturating narrow (intrinsics).
 * Expected output: h1_conv sum=0x4ca8faf0 check=ok */
#include "hvx_rt.h"
#define W 512
#define H 256
static unsigned char img[H][W] __attribute__((aligned(128)));
static unsigned char out[H][W] __attribute__((aligned(128)));

/* horizontal 1 2 1 of row r at vector column c (bytes c*128 ...), as two halfword vectors
 * (even and odd bytes' sums: vaddubh's pair) */
static HVX_VectorPair hsum(const unsigned char *row, int c)
{
    HVX_Vector cur = ((const HVX_Vector *)row)[c];
    HVX_Vector prev = c ? ((const HVX_Vector *)row)[c - 1] : cur;
    HVX_Vector next = c < W / VB - 1 ? ((const HVX_Vector *)row)[c + 1] : cur;
    HVX_Vector left = Q6_V_vlalign_VVR(cur, prev, 1);    /* x - 1 */
    HVX_Vector right = Q6_V_valign_VVR(next, cur, 1);    /* x + 1 */
    HVX_VectorPair lr = Q6_Wh_vadd_VubVub(left, right);
    HVX_VectorPair cc = Q6_Wh_vadd_VubVub(cur, cur);
    return Q6_Wh_vadd_WhWh(lr, cc);
}

static void blur(void)
{
    for (int y = 1; y < H - 1; y++)
        for (int c = 0; c < W / VB; c++) {
            HVX_VectorPair a = hsum(img[y - 1], c), b = hsum(img[y], c), d = hsum(img[y + 1], c);
            HVX_VectorPair s = Q6_Wh_vadd_WhWh(Q6_Wh_vadd_WhWh(a, d), Q6_Wh_vadd_WhWh(b, b));
            /* (s + 8) >> 4, saturated to bytes, even and odd lanes put back in order */
            HVX_Vector v = Q6_Vub_vasr_VhVhR_rnd_sat(Q6_V_hi_W(s), Q6_V_lo_W(s), 4);
            ((HVX_Vector *)out[y])[c] = v;
        }
}

static int check(void)
{
    for (int y = 1; y < 4; y++)
        SCALAR for (int x = 0; x < W; x++) {
            int s = 0;
            for (int dy = -1; dy <= 1; dy++)
                for (int dx = -1; dx <= 1; dx++) {
                    int xx = x + dx < 0 ? 0 : x + dx >= W ? W - 1 : x + dx;
                    s += img[y + dy][xx] * (2 - (dy < 0 ? -dy : dy)) * (2 - (dx < 0 ? -dx : dx));
                }
            /* the blur's border columns repeat the vector, not the pixel: only interior */
            if (x > 0 && x < W - 1 && out[y][x] != (unsigned char)((s + 8) >> 4))
                return 0;
        }
    return 1;
}

int main(void)
{
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++)
            img[y][x] = (unsigned char)rng();
    u32 sum = 2166136261u;
    int ok = 1;
    for (int it = 0; it < 200; it++) {
        blur();
        if (it == 0)
            ok = check();
        sum = fnv(sum, out[1 + it % (H - 2)], W);
        img[it % H][it] ^= (unsigned char)sum;
    }
    sum = fnv(sum, out, sizeof(out));
    return report("h1_conv", sum, ok);
}
