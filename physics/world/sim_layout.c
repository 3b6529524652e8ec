/* Sizes: one place for what sim_create allocates and what
 * sim_memory_estimate says it will (sim_def_check asks before creating). */
#include "physics/world/sim_layout.h"

#include <omp.h>
#include <stddef.h>

#include "physics/world/sim_internal.h"
#include "physics/skin/cross.h"
#include "physics/skin/membrane.h"
#include "physics/water/face_loads.h"

#define ARRAY(home_, type_, field_, elem_, count_, unit_, saved_, shifts_) \
    {#field_, home_, offsetof(type_, field_), sizeof(elem_), count_, unit_, saved_, shifts_}
#define STATE(field_, elem_, count_, unit_, saved_) \
    ARRAY(LAYOUT_IN_SIM, dinghy_sim, field_, elem_, count_, unit_, saved_, 1)
#define TICK(field_, elem_, count_, unit_, saved_) \
    ARRAY(LAYOUT_IN_TICK, tick_context, field_, elem_, count_, unit_, saved_, 1)
#define SLOT(field_, elem_) \
    ARRAY(LAYOUT_IN_SIM, dinghy_sim, field_, elem_, 1, LAYOUT_PER_RING, 1, 0)
#define BUFFER(field_) ARRAY(LAYOUT_IN_BUFFER, sim_buffer, field_, float, 1, LAYOUT_PER_VERTEX, 1, 1)

const layout_array layout_arrays[] = {
    /* the state: positions and velocities, two buffers */
    BUFFER(x), BUFFER(y), BUFFER(z), BUFFER(vx), BUFFER(vy), BUFFER(vz),
    /* per row */
    TICK(cx, float, 1, LAYOUT_PER_ROW, 0),
    TICK(cy, float, 1, LAYOUT_PER_ROW, 0),
    TICK(cz, float, 1, LAYOUT_PER_ROW, 0),
    TICK(cvx, float, 1, LAYOUT_PER_ROW, 0),
    TICK(cvy, float, 1, LAYOUT_PER_ROW, 0),
    TICK(cvz, float, 1, LAYOUT_PER_ROW, 0),
    TICK(gx, float, 1, LAYOUT_PER_ROW, 0),
    TICK(gy, float, 1, LAYOUT_PER_ROW, 0),
    TICK(gz, float, 1, LAYOUT_PER_ROW, 0),
    TICK(weta, float, 1, LAYOUT_PER_ROW, 0),
    TICK(wsx, float, 1, LAYOUT_PER_ROW, 0),
    TICK(wsy, float, 1, LAYOUT_PER_ROW, 0),
    TICK(wpx, float, 1, LAYOUT_PER_ROW, 0),
    TICK(wpy, float, 1, LAYOUT_PER_ROW, 0),
    TICK(wu, float, 1, LAYOUT_PER_ROW, 0),
    TICK(wv, float, 1, LAYOUT_PER_ROW, 0),
    TICK(ww, float, 1, LAYOUT_PER_ROW, 0),
    TICK(row_hit, float, 1, LAYOUT_PER_ROW, 0),
    TICK(row_v2, float, 1, LAYOUT_PER_ROW, 0),
    TICK(row_v2_found, float, 1, LAYOUT_PER_ROW, 0),
    STATE(row_vol, double, 1, LAYOUT_PER_ROW, 0),
    STATE(depth, double, 1, LAYOUT_PER_VERTEX, 0),
    /* the membrane's bending force, held over a step's substeps (12 B per vertex) */
    TICK(bfx, float, 1, LAYOUT_PER_VERTEX, 0),
    TICK(bfy, float, 1, LAYOUT_PER_VERTEX, 0),
    TICK(bfz, float, 1, LAYOUT_PER_VERTEX, 0),
    /* the water's face loads, held over water_every substeps (12 B per vertex) */
    TICK(wfx, float, 1, LAYOUT_PER_VERTEX, 0),
    TICK(wfy, float, 1, LAYOUT_PER_VERTEX, 0),
    TICK(wfz, float, 1, LAYOUT_PER_VERTEX, 0),
    /* the drag's implicit factor per vertex, held with them (4 B per vertex) */
    TICK(wimp, float, 1, LAYOUT_PER_VERTEX, 0),
    /* the buoyancy's stiffness and the heights the loads were taken at (8 B per vertex) */
    TICK(wkz, float, 1, LAYOUT_PER_VERTEX, 0),
    TICK(wz0, float, 1, LAYOUT_PER_VERTEX, 0),
    /* the crease stop: each hinge's tracked angle (12 B per vertex), and per
     * ring whether it is limp enough to need it this step */
    TICK(crease_theta, float, 3, LAYOUT_PER_VERTEX, 0),
    TICK(crease_on, unsigned char, 1, LAYOUT_PER_RING, 0),
    /* the self-crossing stop: a limp ring's positions at the step's start (12 B per vertex) */
    TICK(cross_x0, float, 1, LAYOUT_PER_VERTEX, 0),
    TICK(cross_y0, float, 1, LAYOUT_PER_VERTEX, 0),
    TICK(cross_z0, float, 1, LAYOUT_PER_VERTEX, 0),
    TICK(contact_mass, float, 1, LAYOUT_PER_RING, 0),
    STATE(contact_vertices, int, 1, LAYOUT_PER_RING, 0),
    STATE(contact_force, float, 1, LAYOUT_PER_RING, 0),
    TICK(wdist, float, 1, LAYOUT_PER_ROW, 0),
    /* the solids' distance at each vertex's last look (16 B per vertex) */
    TICK(sdx, float, 1, LAYOUT_PER_VERTEX, 0),
    TICK(sdy, float, 1, LAYOUT_PER_VERTEX, 0),
    TICK(sdz, float, 1, LAYOUT_PER_VERTEX, 0),
    TICK(sd, float, 1, LAYOUT_PER_VERTEX, 0),
    TICK(wpz, float, 1, LAYOUT_PER_ROW, 0),
    TICK(row_bad, unsigned char, 1, LAYOUT_PER_ROW, 0),
    /* per ring */
    STATE(c0, double, 3, LAYOUT_PER_RING, 0),
    STATE(v0, double, 3, LAYOUT_PER_RING, 0),
    STATE(ring_vol, double, 1, LAYOUT_PER_RING, 0),
    STATE(ring_gauge, float, 1, LAYOUT_PER_RING, 0),
    STATE(gas_frac, double, 1, LAYOUT_PER_RING, 1),
    STATE(hole_area, double, 1, LAYOUT_PER_RING, 1),
    STATE(inverted_since, double, 1, LAYOUT_PER_RING, 1),
    STATE(ring_s, double, 1, LAYOUT_PER_RING, 1),
    STATE(travelled, double, 1, LAYOUT_PER_RING, 1),
    STATE(respawns, int, 1, LAYOUT_PER_RING, 1),
    STATE(hitting, unsigned char, 1, LAYOUT_PER_RING, 0),
    STATE(rings, sim_ring_state, 1, LAYOUT_PER_RING, 0),
    /* the ring handles: dense index to slot, and per slot (not shifted) */
    STATE(ring_slot, int, 1, LAYOUT_PER_RING, 1),
    SLOT(slot_ring, int),
    SLOT(slot_gen, unsigned),
};
const int layout_array_count = (int)(sizeof layout_arrays / sizeof *layout_arrays);

size_t layout_ring_bytes(const layout_array *a, int M, size_t V)
{
    size_t n = (size_t)a->count;
    if (a->unit == LAYOUT_PER_ROW)
        n *= (size_t)M;
    else if (a->unit == LAYOUT_PER_VERTEX)
        n *= V;
    return n * a->size;
}

int layout_copies(const layout_array *a) { return a->home == LAYOUT_IN_BUFFER ? 2 : 1; }

void **layout_field(dinghy_sim *s, const layout_array *a, int buffer)
{
    char *home = (char *)s;
    if (a->home == LAYOUT_IN_BUFFER)
        home = (char *)&s->buf[buffer];
    else if (a->home == LAYOUT_IN_TICK)
        home = (char *)s->tick;
    return (void **)(home + a->offset);
}

static size_t round16(size_t n) { return (n + 15) / 16 * 16; }

size_t layout_scratch_floats(const sim_ring_def *r, layout_scratch *at)
{
    spring_plan dims;
    layout_scratch where = {0, 0, 0};
    size_t kernel = round16(spring_plan_dims(&dims, r->segments, r->sides, r->band));
    if (r->skin == SIM_SKIN_MEMBRANE) {
        where.force_floats = round16((size_t)dims.max_rows * (size_t)MEMBRANE_FORCE_STRIDE(r->sides));
        where.membrane = 3 * where.force_floats;
        kernel = where.membrane + round16(membrane_scratch_floats(r->sides, dims.max_rows));
    }
    /* the self-crossing stop's edges, one ring at a time (the creases' stage) */
    if (r->skin == SIM_SKIN_MEMBRANE && round16(CROSS_SCRATCH_FLOATS(r->segments, r->sides)) > kernel)
        kernel = round16(CROSS_SCRATCH_FLOATS(r->segments, r->sides));
    where.face_loads = kernel;
    if (at)
        *at = where;
    size_t floats = kernel + round16(face_loads_scratch_floats(r->sides, dims.max_rows));
    /* skin contact's grid reuses it after the forces (one ring's boxes) */
    size_t grid = round16(contact_grid_scratch_bytes(r->segments, r->sides) / sizeof(float));
    if (r->contact == SIM_CONTACT_SKIN && grid > floats)
        floats = grid;
    return floats;
}

/* Bytes of the membrane's rest data (none with springs). */
static size_t membrane_bytes(const sim_ring_def *r)
{
    if (r->skin != SIM_SKIN_MEMBRANE)
        return 0;
    spring_plan dims;
    spring_plan_dims(&dims, r->segments, r->sides, r->band);
    return membrane_rest_bytes(r->sides, dims.max_rows);
}

/* Heap bytes of a simulation with room for cap rings and scratch for
 * `threads` threads, with the contact lists at their first size (contact
 * 0: without skin contact's). */
static size_t layout_bytes(const sim_ring_def *r, int cap, int threads, int contact)
{
    size_t V = (size_t)r->segments * r->sides, arrays = 0;
    size_t noff = (size_t)r->band * r->band;
    for (int k = 0; k < layout_array_count; k++) {
        const layout_array *a = &layout_arrays[k];
        arrays += (size_t)layout_copies(a) * layout_ring_bytes(a, r->segments, V);
    }
    return sizeof(dinghy_sim) + sizeof(tick_context)
         + arrays * (size_t)cap
         + noff * (2 * sizeof(int) + (size_t)r->sides * sizeof(float))  /* torus_shape */
         + spring_plan_bytes(r->segments, r->sides, r->band)
         + membrane_bytes(r)
         /* sim_create's profile and edge_rest_ir2 (2 N each) and the health
          * check's fold_normals (6 M N) */
         + sizeof(double) * (4 * (size_t)r->sides + 6 * (size_t)r->segments * (size_t)r->sides)
         + layout_scratch_floats(r, NULL) * sizeof(float) * (size_t)threads
         + broadphase_bytes(cap) + events_bytes(cap, r->segments)
         + (contact && r->contact == SIM_CONTACT_SKIN ? contact_create_bytes(cap, r->segments, r->sides) : 0);
}

/* The contact lists' first size: 8 neighbour slots per ring. */
static size_t contact_bytes(size_t slots, int M)
{
    return slots * (sizeof(int) + (size_t)M + 2 + sizeof(int));
}

size_t sim_memory_estimate(const sim_def *def, int rings)
{
    int threads = def->solver.threads > 0 ? def->solver.threads : omp_get_num_procs();
    return layout_bytes(&def->ring, rings, threads, 1)
         + contact_bytes(8 * (size_t)rings, def->ring.segments)
         + (def->ring.contact == SIM_CONTACT_SKIN
                ? push_out_reserve_bytes(rings > 0 ? rings : 1, def->ring.segments,
                                         def->ring.sides) : 0);
}

size_t sim_memory_bytes(const dinghy_sim *s)
{
    return layout_bytes(&s->def.ring, s->cap, s->tick->scratch_threads, 0)
         + s->bp.nb_cap * sizeof(int) + s->ev.slot_cap * ((size_t)s->M + 2 + sizeof(int))
         + (s->tick->contact ? contact_heap_bytes(s->tick->contact) : 0)
         + s->tick->contact_cap * 6 * sizeof(float) /* the contact forces in use */
         + (s->push_out ? push_out_bytes(s->push_out) : 0);
}

