/* Sizes: one place for what sim_create allocates and what
 * sim_memory_estimate says it will (sim_def_check asks before creating). */
#include "layout.h"

#include <omp.h>

#include "sim_internal.h"
#include "skin.h"

#define STATE_FLOATS_PER_VERTEX 12 /* two buffers of x, y, z, vx, vy, vz */
#define FLOATS_PER_ROW 18          /* segment centre, mean velocity, repulsion, water (8), hit */
#define DOUBLES_PER_ROW 1          /* the row's share of the enclosed volume */
#define DOUBLES_PER_RING 11        /* ring centre, mean velocity, volume, station, travelled,
                                      gas fraction, hole area */
#define FLOATS_PER_RING 1          /* gas gauge pressure */

static size_t round16(size_t n) { return (n + 15) / 16 * 16; }

size_t layout_scratch_floats(int M, int N, int B, size_t *skin_offset)
{
    spring_plan dims;
    size_t spring = round16(spring_plan_dims(&dims, M, N, B));
    if (skin_offset)
        *skin_offset = spring;
    return spring + round16(skin_scratch_floats(N, dims.max_rows));
}

/* Heap bytes of a simulation with room for cap rings and scratch for
 * `threads` threads, with the contact lists at their first size. */
static size_t layout_bytes(const ring_def *r, int cap, int threads)
{
    size_t V = (size_t)r->segments * r->sides, rows = (size_t)cap * r->segments;
    size_t noff = (size_t)r->band * r->band;
    return sizeof(dinghy_sim)
         + STATE_FLOATS_PER_VERTEX * V * (size_t)cap * sizeof(float)
         + rows * (FLOATS_PER_ROW * sizeof(float) + DOUBLES_PER_ROW * sizeof(double) + 2)
         + (size_t)cap * (DOUBLES_PER_RING * sizeof(double) + FLOATS_PER_RING * sizeof(float)
                          + sizeof(int) + 1 + sizeof(sim_ring_state))
         + noff * (2 * sizeof(int) + (size_t)r->sides * sizeof(float))  /* torus_shape */
         + spring_plan_bytes(r->segments, r->sides, r->band)
         + layout_scratch_floats(r->segments, r->sides, r->band, NULL) * sizeof(float) * (size_t)threads
         + broadphase_bytes(cap) + events_bytes(cap, r->segments);
}

/* The contact lists' first size: 8 neighbour slots per ring. */
static size_t contact_bytes(size_t slots, int M)
{
    return slots * (sizeof(int) + (size_t)M + 2 + sizeof(int));
}

size_t sim_memory_estimate(const sim_def *def, int rings)
{
    int threads = def->solver.threads > 0 ? def->solver.threads : omp_get_num_procs();
    return layout_bytes(&def->ring, rings, threads)
         + contact_bytes(8 * (size_t)rings, def->ring.segments);
}

size_t sim_memory_bytes(const dinghy_sim *s)
{
    return layout_bytes(&s->def.ring, s->cap, s->scratch_threads)
         + s->bp.nb_cap * sizeof(int) + s->ev.slot_cap * ((size_t)s->M + 2 + sizeof(int));
}

