/* Small double-precision 3-vector helpers for the core's setup and
 * reference code (the tick's float kernels write their arithmetic out so
 * it vectorises). Private to the core and its tests. */
#ifndef DINGHY_VEC3_H
#define DINGHY_VEC3_H

static inline void sub3(const double a[3], const double b[3], double o[3])
{
    o[0] = a[0] - b[0];
    o[1] = a[1] - b[1];
    o[2] = a[2] - b[2];
}

static inline double dot3(const double a[3], const double b[3])
{
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

static inline void cross3(const double a[3], const double b[3], double o[3])
{
    o[0] = a[1] * b[2] - a[2] * b[1];
    o[1] = a[2] * b[0] - a[0] * b[2];
    o[2] = a[0] * b[1] - a[1] * b[0];
}

#endif
