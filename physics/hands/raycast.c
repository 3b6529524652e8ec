/* Ray casts against the rings' skins: which ring, and where, is under a
 * cursor (the demo's grab, puncture and take-out). */
#include "physics/world/sim_internal.h"

#include <math.h>

/* Distance along the ray to triangle (a, b, c), or -1 when it misses
 * (Moller-Trumbore, both faces). */
static double ray_triangle(const double o[3], const double d[3], const double a[3],
                           const double b[3], const double c[3])
{
    double e1[3], e2[3], pv[3], tv[3], qv[3];
    for (int k = 0; k < 3; k++) {
        e1[k] = b[k] - a[k];
        e2[k] = c[k] - a[k];
        tv[k] = o[k] - a[k];
    }
    pv[0] = d[1] * e2[2] - d[2] * e2[1];
    pv[1] = d[2] * e2[0] - d[0] * e2[2];
    pv[2] = d[0] * e2[1] - d[1] * e2[0];
    double det = e1[0] * pv[0] + e1[1] * pv[1] + e1[2] * pv[2];
    if (fabs(det) < 1e-18)
        return -1.0;
    double inv = 1.0 / det;
    double u = (tv[0] * pv[0] + tv[1] * pv[1] + tv[2] * pv[2]) * inv;
    if (u < 0.0 || u > 1.0)
        return -1.0;
    qv[0] = tv[1] * e1[2] - tv[2] * e1[1];
    qv[1] = tv[2] * e1[0] - tv[0] * e1[2];
    qv[2] = tv[0] * e1[1] - tv[1] * e1[0];
    double v = (d[0] * qv[0] + d[1] * qv[1] + d[2] * qv[2]) * inv;
    if (v < 0.0 || u + v > 1.0)
        return -1.0;
    return (e2[0] * qv[0] + e2[1] * qv[1] + e2[2] * qv[2]) * inv;
}

/* Whether the ray passes within radius of point c. */
static int ray_near(const double o[3], const double d[3], const double c[3], double radius)
{
    double w[3] = {c[0] - o[0], c[1] - o[1], c[2] - o[2]};
    double t = w[0] * d[0] + w[1] * d[1] + w[2] * d[2];
    double q[3] = {w[0] - t * d[0], w[1] - t * d[1], w[2] - t * d[2]};
    return q[0] * q[0] + q[1] * q[1] + q[2] * q[2] <= radius * radius
        && t > -radius; /* not behind the origin */
}

int sim_ray_cast(const dinghy_sim *s, const double origin[3], const double dir[3],
                 double max_distance, sim_ray_hit *hit)
{
    const sim_buffer *b = &s->buf[s->cur];
    const int M = s->M, N = s->N;
    /* a generous bound: a ring deformed by a throw still fits */
    const double bound = 1.5 * (s->def.ring.major_radius + s->def.ring.minor_radius);
    double best = max_distance;
    int found = 0;
    for (int p = 0; p < s->P; p++) {
        if (!ray_near(origin, dir, s->rings[p].centre, bound))
            continue;
        const size_t base = (size_t)p * s->V;
        for (int m = 0; m < M; m++)
            for (int n = 0; n < N; n++) {
                size_t q[4] = {base + (size_t)m * N + n, base + (size_t)((m + 1) % M) * N + n,
                               base + (size_t)((m + 1) % M) * N + (n + 1) % N,
                               base + (size_t)m * N + (n + 1) % N};
                double v[4][3];
                for (int j = 0; j < 4; j++) {
                    v[j][0] = b->x[q[j]];
                    v[j][1] = b->y[q[j]];
                    v[j][2] = b->z[q[j]];
                }
                for (int tri = 0; tri < 2; tri++) { /* (0, 1, 2) and (0, 2, 3) */
                    double t = ray_triangle(origin, dir, v[0], v[1 + tri], v[2 + tri]);
                    if (t < 0.0 || t >= best)
                        continue;
                    best = t;
                    found = 1;
                    hit->ring = p;
                    hit->id = sim_ring_id_at(s, p);
                    hit->distance = t;
                    double d2best = INFINITY;
                    for (int k = 0; k < 3; k++)
                        hit->point[k] = origin[k] + t * dir[k];
                    for (int j = 0; j < 4; j++) { /* the quad's vertex nearest the hit */
                        double dx = v[j][0] - hit->point[0], dy = v[j][1] - hit->point[1];
                        double dz = v[j][2] - hit->point[2], d2 = dx * dx + dy * dy + dz * dz;
                        if (d2 < d2best) {
                            d2best = d2;
                            hit->vertex = (int)(q[j] - base);
                        }
                    }
                }
            }
    }
    return found;
}
