/* Whether every ring is whole (see SIM_MIN_VOLUME in sim.h): the check
 * sim_step makes at the end of each call, so that a run never ends with
 * exit 0 on a ring turned inside out, torn or blown away. */
#include "sim_internal.h"

#include <math.h>

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

/* The first fault of ring p, with its figure. */
static sim_ring_fault ring_fault(const dinghy_sim *s, int p, double *measure, int *vertex)
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
    /* a tube of two vertices round encloses nothing: no volume to check */
    if (s->N >= 3 && s->rest_volume > 0.0) {
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
