/* The hands on the rings: grab and throw, puncture, take a ring out. The
 * tick reaches in only through hands_forces; nothing here calls the tick. */
#include "physics/hands/hands_internal.h"

#include <math.h>
#include <string.h>

#include "physics/world/measure.h"

#define PI 3.14159265358979323846

/* ---- grab ---- */

int sim_grab(dinghy_sim *s, sim_ring_id id, int vertex, const double hand[3])
{
    const int ring = sim_ring_index(s, id);
    if (ring < 0 || vertex < 0 || (size_t)vertex >= s->V)
        return -1;
    const sim_buffer *b = &s->buf[s->cur];
    const size_t base = (size_t)ring * s->V;
    const double px = b->x[base + vertex], py = b->y[base + vertex], pz = b->z[base + vertex];
    grab_state *g = &s->grab;
    g->count = 0;
    /* the patch: the picked vertex and those nearest to it within the
     * radius, in index order (deterministic) */
    for (size_t i = 0; i < s->V && g->count < SIM_GRAB_MAX_VERTICES; i++) {
        double dx = b->x[base + i] - px, dy = b->y[base + i] - py, dz = b->z[base + i] - pz;
        if (dx * dx + dy * dy + dz * dz > SIM_GRAB_RADIUS * SIM_GRAB_RADIUS)
            continue;
        g->vertex[g->count] = (int)i;
        g->off[0][g->count] = (float)dx;
        g->off[1][g->count] = (float)dy;
        g->off[2][g->count] = (float)dz;
        g->count++;
    }
    const double m = s->def.ring.mass, w = 2.0 * PI * SIM_GRAB_HZ;
    const double dt = s->def.solver.dt / s->substeps;
    double c = 2.0 * m * w / g->count;
    /* explicit damping is stable while c dt / m_vertex < 2; stay well within */
    const double c_max = 0.5 * sim_ring_vertex_mass(&s->def.ring) / dt;
    g->k = (float)(m * w * w / g->count);
    g->c = (float)(c < c_max ? c : c_max);
    g->held = id;
    for (int k = 0; k < 3; k++) {
        g->hand[k] = hand[k];
        g->velocity[k] = 0.0;
    }
    return 0;
}

void sim_grab_move(dinghy_sim *s, const double hand[3], const double velocity[3])
{
    for (int k = 0; k < 3; k++) {
        s->grab.hand[k] = hand[k];
        s->grab.velocity[k] = velocity[k];
    }
}

void sim_grab_release(dinghy_sim *s)
{
    const int p = sim_ring_index(s, s->grab.held);
    s->grab.held = SIM_RING_NONE;
    if (p < 0)
        return;
    /* the throw: an impulse m (v_hand - v_centre) spread evenly, so the
     * centre of mass leaves at the hand's velocity and the ring keeps its
     * spin and wobble about it */
    const sim_ring_state *r = &s->rings[p];
    sim_buffer *b = &s->buf[s->cur];
    float *v[3] = {b->vx, b->vy, b->vz};
    const size_t base = (size_t)p * s->V;
    double hand = 0.0; /* a throw no faster than SIM_GRAB_MAX_THROW */
    for (int k = 0; k < 3; k++)
        hand += s->grab.velocity[k] * s->grab.velocity[k];
    const double slow = hand > SIM_GRAB_MAX_THROW * SIM_GRAB_MAX_THROW
                      ? SIM_GRAB_MAX_THROW / sqrt(hand) : 1.0;
    for (int k = 0; k < 3; k++) {
        const float dv = (float)(slow * s->grab.velocity[k] - r->velocity[k]);
        for (size_t i = 0; i < s->V; i++)
            v[k][base + i] += dv;
    }
    sim_measure_ring(s, p);
}

sim_ring_id sim_grabbed_ring(const dinghy_sim *s)
{
    return sim_ring_valid(s, s->grab.held) ? s->grab.held : SIM_RING_NONE;
}

int sim_grab_target(const dinghy_sim *s, double hand[3])
{
    if (!sim_ring_valid(s, s->grab.held))
        return -1;
    memcpy(hand, s->grab.hand, sizeof s->grab.hand);
    return 0;
}

void hands_forces(const dinghy_sim *s, const sim_buffer *in, size_t p, size_t a, size_t nb,
                  float *const f[3], int W, int h)
{
    const grab_state *g = &s->grab;
    if (sim_ring_index(s, g->held) != (int)p)
        return;
    const size_t N = (size_t)s->N, lo = a * N, hi = (a + nb) * N, base = p * s->V;
    const float *x[3] = {in->x + base, in->y + base, in->z + base};
    const float *v[3] = {in->vx + base, in->vy + base, in->vz + base};
    for (int j = 0; j < g->count; j++) {
        size_t i = (size_t)g->vertex[j];
        if (i < lo || i >= hi)
            continue;
        size_t at = (i / N - a) * (size_t)W + (size_t)h + i % N;
        float pull[3], p2 = 0.0f;
        for (int k = 0; k < 3; k++) { /* spring toward hand + offset, damped against the hand */
            pull[k] = g->k * ((float)g->hand[k] + g->off[k][j] - x[k][i])
                    - g->c * (v[k][i] - (float)g->velocity[k]);
            p2 += pull[k] * pull[k];
        }
        /* a hand pulls no harder than its spring at SIM_GRAB_REACH: a cursor
         * flung to the horizon drags the ring, it does not tear it */
        const float most = g->k * (float)SIM_GRAB_REACH;
        const float scale = p2 > most * most ? most / sqrtf(p2) : 1.0f;
        for (int k = 0; k < 3; k++)
            f[k][at] += scale * pull[k];
    }
}

void hands_advance(dinghy_sim *s, double dt)
{
    if (!sim_ring_valid(s, s->grab.held))
        return;
    for (int k = 0; k < 3; k++)
        s->grab.hand[k] += s->grab.velocity[k] * dt;
}

/* ---- puncture ---- */

int sim_puncture(dinghy_sim *s, sim_ring_id id, double area)
{
    const int ring = sim_ring_index(s, id);
    if (ring < 0 || !(area > 0.0) || !isfinite(area))
        return -1;
    s->hole_area[ring] += area;
    sim_measure_ring(s, ring);
    return 0;
}

/* ---- take a ring out ---- */

int sim_remove_ring(dinghy_sim *s, sim_ring_id id)
{
    const int ring = sim_ring_index(s, id);
    if (ring < 0)
        return -1;
    if (sim_ring_id_equal(s->grab.held, id))
        s->grab.held = SIM_RING_NONE; /* the other rings' ids, the held one's too, stay valid */
    ring_table_remove(s, ring);
    return 0;
}
