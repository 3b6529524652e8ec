/* The gather both face kernels (face_loads.c, membrane.c) end with: each
 * vertex sums its six triangle corners, always in one order. Private. */
#ifndef DINGHY_CORNER_GATHER_H
#define DINGHY_CORNER_GATHER_H

#include <stddef.h>

/* f[L] += the six corners at L of vertex L, for L in [L0, L1), in this
 * order (the sum's rounding is part of the result): quad (m, n): T1 corner
 * 0, T2 corner 0; quad (m, n-1): T2 corner 2; quad (m-1, n): T1 corner 1;
 * quad (m-1, n-1): T1 corner 2, T2 corner 1. The caller offsets each
 * array so that index L holds vertex L's corner. */
static inline void gather_corners(size_t L0, size_t L1, const float *restrict t1a,
                                  const float *restrict t2a, const float *restrict t2c,
                                  const float *restrict t1b, const float *restrict t1c,
                                  const float *restrict t2b, float *restrict f)
{
    for (size_t L = L0; L < L1; L++)
        f[L] += ((((t1a[L] + t2a[L]) + t2c[L]) + t1b[L]) + t1c[L]) + t2b[L];
}

#endif
