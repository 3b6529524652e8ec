/* The bare spring stream; see bench_floor.h. */
#include "app/bench_floor.h"

#include <math.h>
#include <omp.h>
#include <stdlib.h>

/* Springs per pass: 7 arrays of this many floats (28 KiB) stay in L1. */
#define FLOOR_SPRINGS 1024
#define FLOOR_PASSES 20000
#define FLOOR_REPEATS 5

/* One pass: the force of every spring from its two ends and rest length,
 * as the tick's kernel computes it (k (|d| - L) d / |d|). */
static void spring_pass(int n, float k, const float *restrict dx, const float *restrict dy,
                        const float *restrict dz, const float *restrict rest,
                        float *restrict fx, float *restrict fy, float *restrict fz)
{
    for (int i = 0; i < n; i++) {
        float len = sqrtf(dx[i] * dx[i] + dy[i] * dy[i] + dz[i] * dz[i]);
        float safe = len > 0.0f ? len : 1.0f;
        float s = k * (len - rest[i]) / safe;
        fx[i] += s * dx[i];
        fy[i] += s * dy[i];
        fz[i] += s * dz[i];
    }
}

double bench_spring_floor_ns(void)
{
    float *mem = aligned_alloc(64, sizeof(float) * 7 * FLOOR_SPRINGS);
    if (!mem)
        return NAN;
    float *dx = mem, *dy = dx + FLOOR_SPRINGS, *dz = dy + FLOOR_SPRINGS;
    float *rest = dz + FLOOR_SPRINGS, *fx = rest + FLOOR_SPRINGS, *fy = fx + FLOOR_SPRINGS;
    float *fz = fy + FLOOR_SPRINGS;
    for (int i = 0; i < FLOOR_SPRINGS; i++) {
        dx[i] = 0.1f + 0.001f * (float)(i % 7);
        dy[i] = 0.05f - 0.002f * (float)(i % 5);
        dz[i] = 0.02f * (float)(i % 3);
        rest[i] = 0.1f;
        fx[i] = fy[i] = fz[i] = 0.0f;
    }
    double best = INFINITY;
    for (int r = 0; r < FLOOR_REPEATS; r++) {
        double t0 = omp_get_wtime();
        for (int p = 0; p < FLOOR_PASSES; p++)
            spring_pass(FLOOR_SPRINGS, 400.0f, dx, dy, dz, rest, fx, fy, fz);
        double t = omp_get_wtime() - t0;
        if (t < best)
            best = t;
    }
    /* the forces must be used, or the compiler may drop the passes */
    volatile float sink = fx[1] + fy[2] + fz[3];
    (void)sink;
    free(mem);
    return best * 1e9 / ((double)FLOOR_PASSES * FLOOR_SPRINGS);
}
