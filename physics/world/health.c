/* Whether every ring is whole (see SIM_MIN_VOLUME in sim.h): the check
 * sim_step makes at the end of each call, so that a run never ends with
 * exit 0 on a ring turned inside out, torn or blown away. */
#include "physics/world/sim_internal.h"

#include <math.h>
#include <stdlib.h>

/* The longest grid edge of ring p (round the ring and round the tube) as
 * a multiple of its rest length. */
static double max_stretch(const dinghy_sim *s, int p)
{
    const sim_buffer *b = &s->buf[s->cur];
    const int M = s->M, N = s->N;
    const size_t v0 = (size_t)p * s->V;
    const sim_ring_def *r = &s->def.ring;
    double worst = 0.0;
    for (int n = 0; n < N; n++) {
        /* rest lengths depend only on n (the torus is round its axis) */
        double R = r->major_radius, rr = r->minor_radius;
        double ring_rest = torus_distance(R, rr, M, N, 0, n, 1, n);
        double tube_rest = torus_distance(R, rr, M, N, 0, n, 0, n + 1);
        for (int m = 0; m < M; m++) {
            size_t i = v0 + (size_t)m * N + n, j = v0 + (size_t)((m + 1) % M) * N + n;
            size_t k = v0 + (size_t)m * N + (n + 1) % N;
            double dj = hypot(hypot(b->x[j] - b->x[i], b->y[j] - b->y[i]), b->z[j] - b->z[i]);
            double dk = hypot(hypot(b->x[k] - b->x[i], b->y[k] - b->y[i]), b->z[k] - b->z[i]);
            worst = fmax(worst, fmax(dj / ring_rest, dk / tube_rest));
        }
    }
    return worst;
}

/* A triangle's area normal (not normalised), corners i, j, k of buffer b. */
static void tri_normal(const sim_buffer *b, size_t i, size_t j, size_t k, double n[3])
{
    double e1[3] = {b->x[j] - b->x[i], b->y[j] - b->y[i], b->z[j] - b->z[i]};
    double e2[3] = {b->x[k] - b->x[i], b->y[k] - b->y[i], b->z[k] - b->z[i]};
    n[0] = e1[1] * e2[2] - e1[2] * e2[1];
    n[1] = e1[2] * e2[0] - e1[0] * e2[2];
    n[2] = e1[0] * e2[1] - e1[1] * e2[0];
}

/* The area normal of triangle t of quad (m, n) of the ring whose vertex 0
 * is v0 (indices wrap): T1 = (m,n) (m+1,n) (m+1,n+1), T2 = (m,n) (m+1,n+1)
 * (m,n+1). */
static void quad_tri_normal(const dinghy_sim *s, size_t v0, int m, int n, int t, double out[3])
{
    const int M = s->M, N = s->N;
#define VID(m_, n_) (v0 + (size_t)((((m_) % M) + M) % M) * N + (size_t)((((n_) % N) + N) % N))
    if (t == 0)
        tri_normal(&s->buf[s->cur], VID(m, n), VID(m + 1, n), VID(m + 1, n + 1), out);
    else
        tri_normal(&s->buf[s->cur], VID(m, n), VID(m + 1, n + 1), VID(m, n + 1), out);
#undef VID
}

/* The first triangle of ring p turned against all three of its edge
 * neighbours (2 (m N + n) + t), or -1. T1(m,n) borders T2(m,n) (the
 * diagonal), T2(m+1,n) and T2(m,n-1); T2(m,n) borders T1(m,n), T1(m-1,n)
 * and T1(m,n+1). Normals are computed where needed (four per triangle):
 * the check runs once per sim_step call and allocates nothing. */
static long inverted_triangle(const dinghy_sim *s, int p)
{
    const size_t v0 = (size_t)p * s->V;
    for (int m = 0; m < s->M; m++)
        for (int n = 0; n < s->N; n++)
            for (int t = 0; t < 2; t++) {
                double a[3], c[3][3];
                quad_tri_normal(s, v0, m, n, t, a);
                quad_tri_normal(s, v0, m, n, 1 - t, c[0]);
                quad_tri_normal(s, v0, t == 0 ? m + 1 : m - 1, n, 1 - t, c[1]);
                quad_tri_normal(s, v0, m, t == 0 ? n - 1 : n + 1, 1 - t, c[2]);
                int against = 0;
                for (int k = 0; k < 3; k++)
                    against += a[0] * c[k][0] + a[1] * c[k][1] + a[2] * c[k][2] < 0.0;
                if (against == 3)
                    return 2 * ((long)m * s->N + n) + t;
            }
    return -1;
}

/* The first fault of ring p, with its figure. */
static sim_ring_fault ring_fault(dinghy_sim *s, int p, double *measure, int *vertex)
{
    const sim_ring_state *st = &s->rings[p];
    const sim_buffer *b = &s->buf[s->cur];
    const size_t v0 = (size_t)p * s->V;
    *vertex = 0;
    for (size_t i = 0; i < s->V; i++) {
        double far = fmax(fabs(b->x[v0 + i]), fmax(fabs(b->y[v0 + i]), fabs(b->z[v0 + i])));
        if (!(far < SIM_WORLD_SIZE)) {
            *measure = far;
            *vertex = (int)i;
            return SIM_RING_ESCAPED;
        }
    }
    if (s->def.ring.skin == SIM_SKIN_MEMBRANE) {
        /* no volume bound: a deflated ring is whole */
        long t = inverted_triangle(s, p);
        /* a contact's load may crumple the skin for a moment (the seed's
         * repulsion pushes a whole row at once; a rock's contact projects
         * vertices onto its surface) and it springs back: only a triangle
         * inverted at every check for SIM_INVERTED_TIME is a fault */
        if (t < 0)
            s->inverted_since[p] = -1.0;
        else if (s->inverted_since[p] < 0.0)
            s->inverted_since[p] = s->time;
        if (t >= 0 && s->time - s->inverted_since[p] >= SIM_INVERTED_TIME) {
            *measure = (double)t;
            *vertex = (int)(t / 2);
            return SIM_RING_INVERTED;
        }
    } else if (s->N >= 3 && s->rest_volume > 0.0) {
        /* a tube of two vertices round encloses nothing: no volume to check */
        double ratio = st->volume / s->rest_volume;
        *measure = ratio;
        if (!(ratio >= SIM_MIN_VOLUME))
            return SIM_RING_INSIDE_OUT;
        if (!(ratio <= SIM_MAX_VOLUME))
            return SIM_RING_BALLOONED;
    }
    double stretch = max_stretch(s, p);
    *measure = stretch;
    if (!(stretch <= SIM_MAX_STRETCH))
        return SIM_RING_TORN;
    return SIM_RING_WHOLE;
}

int sim_check_rings(dinghy_sim *s)
{
    for (int p = 0; p < s->P; p++) {
        double measure;
        int vertex;
        sim_ring_fault f = ring_fault(s, p, &measure, &vertex);
        if (f == SIM_RING_WHOLE)
            continue;
        sim_blowup_info *info = &s->blowup;
        info->happened = 1;
        info->step = s->step;
        info->time = s->time;
        info->ring = p;
        info->ring_id = sim_ring_id_at(s, p);
        info->vertex = vertex;
        info->non_finite = 0;
        info->speed = NAN;
        info->fault = f;
        info->measure = measure;
        return -1;
    }
    return 0;
}
