/* Whether every ring is whole (see SIM_MIN_VOLUME in sim.h): the check
 * sim_step makes at the end of each call, so that a run never ends with
 * exit 0 on a ring turned inside out, torn or blown away. */
#include "physics/world/sim_internal.h"
#include "physics/skin/fold.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* The larger of best and v's bits, v a non-negative double: their order
 * as integers is theirs as numbers, and an integer maximum vectorises (a
 * floating one does not without -ffinite-math-only); a NaN comes out
 * above any number. */
static int64_t max_bits(int64_t best, double v)
{
    int64_t u;
    memcpy(&u, &v, sizeof u);
    return u > best ? u : best;
}

double sim_ring_max_stretch(const dinghy_sim *s, int p)
{
    const sim_buffer *b = &s->buf[s->cur];
    const int M = s->M, N = s->N;
    const double *ir2 = s->edge_rest_ir2, *it2 = s->edge_rest_ir2 + N;
    const float *x = b->x + (size_t)p * s->V, *y = b->y + (size_t)p * s->V, *z = b->z + (size_t)p * s->V;
    int64_t worst = 0; /* squared: one square root for the ring, not two a vertex */
    for (int m = 0; m < M; m++) {
        const size_t i0 = (size_t)m * N, j0 = (size_t)(m + 1 < M ? m + 1 : 0) * N;
        /* within the world (checked first), no square overflows */
        for (int n = 0; n < N; n++) { /* round the ring: (m, n) to (m + 1, n) */
            const double dx = (double)x[j0 + n] - x[i0 + n], dy = (double)y[j0 + n] - y[i0 + n];
            const double dz = (double)z[j0 + n] - z[i0 + n];
            worst = max_bits(worst, (dx * dx + dy * dy + dz * dz) * ir2[n]);
        }
        for (int n = 0; n < N; n++) { /* round the tube: (m, n) to (m, n + 1) */
            const size_t k = i0 + (size_t)(n + 1 < N ? n + 1 : 0);
            const double dx = (double)x[k] - x[i0 + n], dy = (double)y[k] - y[i0 + n];
            const double dz = (double)z[k] - z[i0 + n];
            worst = max_bits(worst, (dx * dx + dy * dy + dz * dz) * it2[n]);
        }
    }
    double w2;
    memcpy(&w2, &worst, sizeof w2);
    return sqrt(w2);
}

/* The first triangle of ring p turned against all three of its edge
 * neighbours (2 (m N + n) + t), or -1; with `wind`, the first of them that
 * also faces its skin's inside (physics/skin/fold.h). Each triangle's
 * normal is computed once, into the simulation's fold_normals (allocated
 * with it: the check allocates nothing). */
static long inverted_triangle(const dinghy_sim *s, int p, int wind)
{
    const sim_buffer *b = &s->buf[s->cur];
    const size_t v0 = (size_t)p * s->V;
    const float *x = b->x + v0, *y = b->y + v0, *z = b->z + v0;
    /* a triangle against all its neighbours is against its quad's other
     * one: with no quad folded along its diagonal (an inflated ring's
     * every check), none is */
    if (fold_normals(s->M, s->N, x, y, z, s->fold_normals) == 0)
        return -1;
    for (int m = 0; m < s->M; m++)
        for (int n = 0; n < s->N; n++)
            for (int t = 0; t < 2; t++)
                if (fold_against_neighbours_of(s->M, s->N, s->fold_normals, m, n, t)
                    && (!wind || fold_faces_inward(s->M, s->N, x, y, z, m, n, t, SIM_FOLD_PROBE)))
                    return 2 * ((long)m * s->N + n) + t;
    return -1;
}

/* The first fault of ring p, with its figure. */
static sim_ring_fault ring_fault(dinghy_sim *s, int p, double *measure, int *vertex)
{
    const sim_ring_state *st = &s->rings[p];
    const sim_buffer *b = &s->buf[s->cur];
    const size_t v0 = (size_t)p * s->V;
    *vertex = 0;
    /* counted in a loop that vectorises (every ring, every call), then
     * found; a NaN coordinate counts as out */
    const float world = (float)SIM_WORLD_SIZE;
    int out = 0;
    for (size_t i = v0; i < v0 + s->V; i++)
        out += !(fabsf(b->x[i]) < world && fabsf(b->y[i]) < world && fabsf(b->z[i]) < world);
    for (size_t i = 0; out && i < s->V; i++) {
        const float ax = fabsf(b->x[v0 + i]), ay = fabsf(b->y[v0 + i]), az = fabsf(b->z[v0 + i]);
        if (!(ax < world && ay < world && az < world)) {
            const float far = ax > ay ? (ax > az ? ax : az) : (ay > az ? ay : az);
            *measure = isnan(ax + ay + az) ? NAN : far;
            *vertex = (int)i;
            return SIM_RING_ESCAPED;
        }
    }
    if (s->def.ring.skin == SIM_SKIN_MEMBRANE) {
        /* no volume bound: a deflated ring is whole */
        long t = inverted_triangle(s, p, 0);
        /* a contact's load may crumple the skin for a moment (the seed's
         * repulsion pushes a whole row at once; a rock's contact projects
         * vertices onto its surface) and it springs back: only a triangle
         * inverted at every check for SIM_INVERTED_TIME is looked at, and
         * it is a fault only when it faces its own skin's inside (a limp
         * skin folded flat turns triangles against their neighbours in
         * folds that are whole); a ring whose folds are whole is looked at
         * again SIM_INVERTED_TIME later */
        if (t < 0)
            s->inverted_since[p] = -1.0;
        else if (s->inverted_since[p] < 0.0)
            s->inverted_since[p] = s->time;
        if (t >= 0 && s->time - s->inverted_since[p] >= SIM_INVERTED_TIME) {
            t = inverted_triangle(s, p, 1);
            if (t >= 0) {
                *measure = (double)t;
                *vertex = (int)(t / 2);
                return SIM_RING_INVERTED;
            }
            s->inverted_since[p] = s->time;
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
    double stretch = sim_ring_max_stretch(s, p);
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
