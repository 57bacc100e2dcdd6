/* h6_sort: a sorting network on vectors, repeated: 16 vectors of 64 signed halfwords are
 * sorted column by column (each lane position across the 16 vectors) by Batcher's odd-even
 * merge sort of 16 inputs (63 compare-exchanges of vmin/vmax), over 256 blocks; each round
 * starts from the seed data XORed with a splat (vxor).
 * Expected output: h6_sort sum=0xc432f45d check=ok */
#include "hvx_rt.h"
#define ROWS 16
#define BLOCKS 256
static short data[BLOCKS][ROWS][64] __attribute__((aligned(128)));
static short seed[BLOCKS][ROWS][64] __attribute__((aligned(128)));

static void sort_block(short (*blk)[64])
{
    HVX_Vector v[ROWS];
    for (int r = 0; r < ROWS; r++)
        v[r] = *(HVX_Vector *)blk[r];
#define CX(i, j) do { HVX_Vector lo_ = Q6_Vh_vmin_VhVh(v[i], v[j]); \
        v[j] = Q6_Vh_vmax_VhVh(v[i], v[j]); v[i] = lo_; } while (0)
    /* the network, unrolled by the compiler from the constant table below */
    static const unsigned char n16[63][2] = {
        {0,1},{2,3},{4,5},{6,7},{8,9},{10,11},{12,13},{14,15},
        {0,2},{1,3},{4,6},{5,7},{8,10},{9,11},{12,14},{13,15},
        {1,2},{5,6},{9,10},{13,14},
        {0,4},{1,5},{2,6},{3,7},{8,12},{9,13},{10,14},{11,15},
        {2,4},{3,5},{10,12},{11,13},
        {1,2},{3,4},{5,6},{9,10},{11,12},{13,14},
        {0,8},{1,9},{2,10},{3,11},{4,12},{5,13},{6,14},{7,15},
        {4,8},{5,9},{6,10},{7,11},
        {2,4},{3,5},{6,8},{7,9},{10,12},{11,13},
        {1,2},{3,4},{5,6},{7,8},{9,10},{11,12},{13,14}};
#pragma clang loop unroll(full)
    for (int c = 0; c < 63; c++)
        CX(n16[c][0], n16[c][1]);
    for (int r = 0; r < ROWS; r++)
        *(HVX_Vector *)blk[r] = v[r];
}

int main(void)
{
    for (int b = 0; b < BLOCKS; b++)
        for (int r = 0; r < ROWS; r++)
            for (int l = 0; l < 64; l++)
                seed[b][r][l] = (short)rng();
    u32 sum = 2166136261u;
    int ok = 1;
    for (int it = 0; it < 60; it++) {
        HVX_Vector k = Q6_Vh_vsplat_R(it * 0x9e37);
        for (int b = 0; b < BLOCKS; b++)
            for (int r = 0; r < ROWS; r++)
                *(HVX_Vector *)data[b][r] = Q6_V_vxor_VV(*(HVX_Vector *)seed[b][r], k);
        for (int b = 0; b < BLOCKS; b++)
            sort_block(data[b]);
        /* every column sorted */
        for (int b = 0; b < BLOCKS; b += 1 + it)
            SCALAR for (int l = 0; l < 64; l++)
                SCALAR for (int r = 1; r < ROWS; r++)
                    ok &= data[b][r - 1][l] <= data[b][r][l];
        sum = fnv(sum, data, sizeof(data));
    }
    return report("h6_sort", sum, ok);
}
