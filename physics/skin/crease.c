/* The crease stop; see crease.h. */
#include "physics/skin/crease.h"

#include <math.h>

#include "physics/skin/membrane.h"

/* 1 when the hinge (corners q) is folded at least CREASE_WATCH_ANGLE: its
 * two normals at least that far apart (cos theta <= cos of it), in float
 * and without an arc tangent (most hinges are not). */
static int watched(const float *x, const float *y, const float *z, const int q[4])
{
    const float ex = x[q[1]] - x[q[0]], ey = y[q[1]] - y[q[0]], ez = z[q[1]] - z[q[0]];
    const float ax = x[q[2]] - x[q[0]], ay = y[q[2]] - y[q[0]], az = z[q[2]] - z[q[0]];
    const float bx = x[q[3]] - x[q[1]], by = y[q[3]] - y[q[1]], bz = z[q[3]] - z[q[1]];
    const float NAx = ey * az - ez * ay, NAy = ez * ax - ex * az, NAz = ex * ay - ey * ax;
    const float NBx = by * ez - bz * ey, NBy = bz * ex - bx * ez, NBz = bx * ey - by * ex;
    const float cs = NAx * NBx + NAy * NBy + NAz * NBz;
    const float nA2 = NAx * NAx + NAy * NAy + NAz * NAz, nB2 = NBx * NBx + NBy * NBy + NBz * NBz;
    const float c = (float)cos(CREASE_WATCH_ANGLE); /* negative */
    return cs < 0.0f && cs * cs >= c * c * nA2 * nB2;
}

/* The hinge's corners and their positions in double. */
static void corners_of(const float *x, const float *y, const float *z, const int q[4],
                       double p[4][3])
{
    for (int c = 0; c < 4; c++) {
        p[c][0] = x[q[c]];
        p[c][1] = y[q[c]];
        p[c][2] = z[q[c]];
    }
}

/* One pass over the ring's hinges in index order: each watched hinge's
 * angle followed on from theta and, with `stop`, moved back to the stop
 * when past it (crease_stop); without, only recorded (crease_track).
 * Returns the hinges stopped. */
static int pass(int M, int N, float *x, float *y, float *z, float *vx, float *vy, float *vz,
                float dt, float *theta, int stop_on)
{
    const double two_pi = 6.283185307179586;
    int stopped = 0;
    for (int m = 0; m < M; m++)
        for (int n = 0; n < N; n++)
            for (int kind = 0; kind < MEMBRANE_EDGE_KINDS; kind++) {
                const int h = 3 * (m * N + n) + kind;
                int q[4];
                membrane_hinge_corners(M, N, m, n, kind, q);
                if (!watched(x, y, z, q)) {
                    theta[h] = 0.0f;
                    continue;
                }
                double p[4][3], g[4][3];
                corners_of(x, y, z, q, p);
                double t = membrane_hinge_gradient(p[0], p[1], p[2], p[3], g);
                /* followed on from the last substep's angle: past pi the
                 * measured angle wraps, the fold goes on */
                const double before = theta[h];
                if (stop_on && fabs(before) >= CREASE_WATCH_ANGLE)
                    t += two_pi * nearbyint((before - t) / two_pi);
                const double stop = t > 0.0 ? CREASE_MAX_ANGLE : -CREASE_MAX_ANGLE;
                double g2 = 0.0;
                for (int c = 0; c < 4; c++)
                    g2 += g[c][0] * g[c][0] + g[c][1] * g[c][1] + g[c][2] * g[c][2];
                /* within the stop, or no area: no direction to open it in */
                if (!stop_on || fabs(t) <= CREASE_MAX_ANGLE || !(g2 > 0.0)) {
                    theta[h] = (float)t;
                    continue;
                }
                /* one Newton step on theta(x) = stop along the gradient */
                const double lambda = (stop - t) / g2;
                for (int c = 0; c < 4; c++) {
                    const int i = q[c];
                    const float dx = (float)(lambda * g[c][0]), dy = (float)(lambda * g[c][1]);
                    const float dz = (float)(lambda * g[c][2]);
                    x[i] += dx;
                    y[i] += dy;
                    z[i] += dz;
                    vx[i] += dx / dt;
                    vy[i] += dy / dt;
                    vz[i] += dz / dt;
                }
                theta[h] = (float)stop;
                stopped++;
            }
    return stopped;
}

void crease_track(int M, int N, const float *x, const float *y, const float *z, float *theta)
{
    /* read only without the stop: the casts drop a const never used */
    pass(M, N, (float *)x, (float *)y, (float *)z, NULL, NULL, NULL, 1.0f, theta, 0);
}

int crease_stop(int M, int N, float *x, float *y, float *z, float *vx, float *vy, float *vz,
                float dt, float *theta)
{
    return pass(M, N, x, y, z, vx, vy, vz, dt, theta, 1);
}
