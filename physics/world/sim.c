/* A simulation's lifetime and its ring table: creation and destruction,
 * adding, placing, clearing and taking out rings, threads, the water and
 * the sizes. The step is in step.c, the tick in tick.c. */
#include "physics/world/sim_internal.h"

#include "dinghy/river.h"

#include <math.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "physics/world/sim_layout.h"
#include "physics/world/measure.h"
#include "physics/world/pose.h"
#include "physics/skin/inflate.h"
#include "physics/water/water_rows.h"
#include "physics/water/waves_couple.h"

/* ---- creation ---- */

/* Every array of the table, for room for cap rings (calloc: zeroed). */
static int alloc_arrays(dinghy_sim *s)
{
    int fail = 0;
    for (int k = 0; k < layout_array_count; k++) {
        const layout_array *a = &layout_arrays[k];
        size_t bytes = layout_ring_bytes(a, s->M, s->V);
        for (int b = 0; b < layout_copies(a); b++) {
            void **f = layout_field(s, a, b);
            *f = calloc((size_t)s->cap, bytes);
            fail |= !*f;
        }
    }
    return fail ? -1 : 0;
}

static void free_arrays(dinghy_sim *s)
{
    for (int k = 0; k < layout_array_count; k++)
        for (int b = 0; b < layout_copies(&layout_arrays[k]); b++) {
            if (layout_arrays[k].home == LAYOUT_IN_TICK && !s->tick)
                continue;
            void **f = layout_field(s, &layout_arrays[k], b);
            free(*f);
            *f = NULL;
        }
}

void sim_destroy(dinghy_sim *s)
{
    if (!s)
        return;
    free_arrays(s);
    push_out_free(s->push_out);
    if (s->tick) {
        free(s->tick->scratch);
        contact_free(s->tick->contact);
        for (int c = 0; c < 3; c++) {
            free(s->tick->cf[c]);
            free(s->tick->cs[c]);
        }
    }
    free(s->tick);
    waves_coupling_free(s->waves);
    river_destroy(s->river);
    broadphase_free(&s->bp);
    events_free(&s->ev);
    spring_plan_free(&s->springs);
    membrane_rest_free(&s->membrane);
    torus_shape_free(&s->shape);
    free(s->profile);
    free(s->fold_normals);
    free(s->edge_rest_ir2);
    free(s);
}

/* Sets substeps, base_substeps and substep_headroom from the definition
 * in force (the stretch's substeps: step.c). */
static void set_base_substeps(dinghy_sim *s)
{
    s->substeps = s->base_substeps = sim_def_substeps(&s->def);
    /* a soft skin's count is SIM_MAX_SUBSTEP's, not the bound's: its
     * substeps are shorter than its bound needs by this much, room for
     * its stretch (at 0.4 MPa the skin inflates to 1.35, and ran the pile
     * at 17 substeps) */
    const double bound = sim_def_stable_dt(&s->def);
    const double sub = s->def.solver.dt / s->base_substeps;
    s->substep_headroom = bound > SIM_MAX_SUBSTEP && bound > sub ? bound / sub : 1.0;
}

static int resolve_threads(int threads)
{
    return threads > 0 ? threads : omp_get_num_procs();
}

static int ensure_scratch(dinghy_sim *s, int threads)
{
    if (threads <= s->tick->scratch_threads)
        return 0;
    /* cache-line aligned; the stride is a multiple of 16 floats */
    float *p = aligned_alloc(64, sizeof *p * s->tick->scratch_stride * (size_t)threads);
    if (!p)
        return -1;
    free(s->tick->scratch);
    s->tick->scratch = p;
    s->tick->scratch_threads = threads;
    return 0;
}

void sim_set_count(dinghy_sim *s, int P)
{
    s->P = P;
    s->nverts = s->V * (size_t)P;
    s->nrows = (size_t)P * (size_t)s->M;
    s->bp.P = P;
    events_set_count(&s->ev, P);
}

/* Whether the bending is held over a step (bend_held), and with `shape`
 * where rings are placed and the volume their gas fills at the gauge:
 * the rest torus, or for a membrane inflated by gas its equilibrium at
 * the gauge (physics/skin/inflate.h); if that does not settle, the rest
 * torus with the gas at the gauge there (the ring then swells to less
 * than its gauge: it never starts over-pressed). */
void sim_inflate(dinghy_sim *s, int shape)
{
    const sim_ring_def *r = &s->def.ring;
    double *rho = s->profile, *z = s->profile + s->N;
    membrane_material mat = {r->youngs_modulus, r->thickness, r->poisson_ratio};
    /* the bending is sub-cycled at the step (membrane.h) only while the
     * step is within half its own bound sqrt(2 m / k_bend): a thick skin
     * (t 0.1 m at 4 MPa) held it over 12 substeps and blew up in 5 ms */
    s->bend_held = 1;
    if (r->skin == SIM_SKIN_MEMBRANE) {
        const double kb = membrane_max_bending_stiffness(&s->membrane, &mat);
        s->bend_held = !(kb > 0.0)
                    || s->def.solver.dt <= 0.5 * sqrt(2.0 * sim_ring_vertex_mass(r) / kb);
    }
    if (!shape)
        return;
    torus_profile(r->major_radius, r->minor_radius, s->N, rho, z);
    s->fill_volume = s->rest_volume;
    if (r->skin != SIM_SKIN_MEMBRANE || r->inflation != SIM_INFLATION_GAS
        || !(r->gauge_pressure > 0.0))
        return;
    double volume;
    if (membrane_inflated_profile(&s->membrane, &mat, r->major_radius, r->minor_radius,
                                  r->gauge_pressure, sim_ring_vertex_mass(r), rho, z, &volume)
        == 0)
        s->fill_volume = volume;
    else
        torus_profile(r->major_radius, r->minor_radius, s->N, rho, z);
}

dinghy_sim *sim_create(const sim_def *def, int capacity, char *err, size_t err_len)
{
    dinghy_sim *s = calloc(1, sizeof *s);
    if (s && !(s->tick = calloc(1, sizeof *s->tick))) {
        free(s);
        s = NULL;
    }
    if (!s) {
        snprintf(err, err_len, "out of memory creating the simulation");
        return NULL;
    }
    const sim_ring_def *ring = &def->ring;
    s->def = *def;
    s->cap = capacity > 0 ? capacity : 1;
    s->M = ring->segments;
    s->N = ring->sides;
    s->V = (size_t)s->M * s->N;
    s->nthreads = resolve_threads(def->solver.threads);
    team_init(&s->team, s->nthreads, def->solver.threads == 0);
    s->step_threads = s->nthreads;
    size_t n = s->V * (size_t)s->cap;
    int fail = torus_shape_init(&s->shape, s->M, s->N, ring->band, ring->major_radius,
                                ring->minor_radius);
    if (!fail)
        fail = spring_plan_init(&s->springs, &s->shape);
    layout_scratch at;
    s->tick->scratch_stride = layout_scratch_floats(ring, &at);
    s->tick->face_loads_offset = at.face_loads;
    s->tick->force_floats = at.force_floats;
    s->tick->membrane_offset = at.membrane;
    if (!fail && ring->skin == SIM_SKIN_MEMBRANE) /* rest data once per simulation */
        fail = membrane_rest_init_torus(&s->membrane, s->M, s->N, s->springs.max_rows,
                                        ring->major_radius, ring->minor_radius);
    s->rest_volume = sim_ring_rest_volume(ring);
    if (!fail)
        fail = !(s->profile = malloc(sizeof *s->profile * 2 * (size_t)s->N));
    if (!fail)
        fail = !(s->fold_normals = malloc(sizeof *s->fold_normals * 6 * s->V));
    if (!fail)
        fail = !(s->edge_rest_ir2 = malloc(sizeof *s->edge_rest_ir2 * 2 * (size_t)s->N));
    for (int n = 0; !fail && n < s->N; n++) { /* the torus is round its axis: by n only */
        const double R = ring->major_radius, r = ring->minor_radius;
        const double a = torus_distance(R, r, s->M, s->N, 0, n, 1, n);
        const double b = torus_distance(R, r, s->M, s->N, 0, n, 0, n + 1);
        s->edge_rest_ir2[n] = 1.0 / (a * a);
        s->edge_rest_ir2[s->N + n] = 1.0 / (b * b);
    }
    if (!fail)
        sim_inflate(s, 1);
    set_base_substeps(s);
    s->river_rng = 0x5eed0f7a1e5ull;
    fail |= alloc_arrays(s);
    fail |= broadphase_init(&s->bp, s->cap);
    fail |= events_init(&s->ev, s->cap, s->M);
    fail |= ensure_scratch(s, s->nthreads);
    if (ring->contact == SIM_CONTACT_SKIN) {
        fail |= !(s->tick->contact = contact_create(s->cap, s->M, s->N));
        fail |= !(s->push_out = push_out_create(s->cap, s->M, s->N));
    }
    if (fail) {
        snprintf(err, err_len, "out of memory for %zu vertices (%d rings)", n, s->cap);
        sim_destroy(s);
        return NULL;
    }
    for (int k = 0; k < s->cap; k++)
        s->slot_ring[k] = -1; /* every slot free, generation 0 */
    sim_set_count(s, 0);
    sim_clear_rings(s);
    if (waves_follow_def(s, 0, err, err_len) != 0) {
        sim_destroy(s);
        return NULL;
    }
    return s;
}

void sim_clear_rings(dinghy_sim *s)
{
    sim_set_count(s, 0);
    s->cur = 0;
    s->step = 0;
    s->time = 0.0;
    memset(s->travelled, 0, sizeof *s->travelled * (size_t)s->cap);
    memset(s->respawns, 0, sizeof *s->respawns * (size_t)s->cap);
    memset(&s->blowup, 0, sizeof s->blowup);
    memset(s->tick->row_bad, 0, (size_t)s->cap * s->M);
    s->grab.held = SIM_RING_NONE;
    for (int k = 0; k < s->cap; k++)
        if (s->slot_ring[k] >= 0) { /* the ring's id goes stale */
            s->slot_ring[k] = -1;
            s->slot_gen[k]++;
        }
    events_reset(&s->ev);
    if (s->waves)
        waves_coupling_reset(s->waves);
}

/* ---- ring handles ---- */

int sim_ring_index(const dinghy_sim *s, sim_ring_id id)
{
    const int slot = id.slot1 - 1;
    if (slot < 0 || slot >= s->cap || s->slot_gen[slot] != id.generation)
        return -1;
    return s->slot_ring[slot]; /* -1 when free */
}

int sim_ring_valid(const dinghy_sim *s, sim_ring_id id) { return sim_ring_index(s, id) >= 0; }

sim_ring_id sim_ring_id_at(const dinghy_sim *s, int p)
{
    if (p < 0 || p >= s->P)
        return SIM_RING_NONE;
    const int slot = s->ring_slot[p];
    sim_ring_id id = {slot + 1, s->slot_gen[slot]};
    return id;
}

int sim_ring_id_equal(sim_ring_id a, sim_ring_id b)
{
    return a.slot1 == b.slot1 && a.generation == b.generation;
}

sim_ring_id sim_add_ring(dinghy_sim *s, const sim_ring_pose *pose)
{
    if (s->P >= s->cap)
        return SIM_RING_NONE;
    int p = s->P, slot = 0;
    while (s->slot_ring[slot] >= 0) /* the lowest free slot (there is one: P < cap) */
        slot++;
    s->slot_ring[slot] = p;
    s->ring_slot[p] = slot;
    sim_set_count(s, p + 1);
    s->travelled[p] = 0.0;
    s->respawns[p] = 0;
    ring_write_pose(s, p, pose); /* full of gas, the definition's hole only */
    sim_measure_ring(s, p);
    return sim_ring_id_at(s, p);
}

int sim_place_ring(dinghy_sim *s, sim_ring_id id, const sim_ring_pose *pose)
{
    const int p = sim_ring_index(s, id);
    if (p < 0)
        return -1;
    ring_write_pose(s, p, pose);
    sim_measure_ring(s, p);
    return 0;
}

/* Moves n elements of size sz from index `from` to `to` within a. */
static void shift(void *a, size_t sz, size_t to, size_t from, size_t n)
{
    memmove((char *)a + to * sz, (char *)a + from * sz, n * sz);
}

void ring_table_remove(dinghy_sim *s, int ring)
{
    const size_t P = (size_t)s->P, p = (size_t)ring;
    const size_t after = P - p - 1; /* rings moving down one */
    const int slot = s->ring_slot[p];
    for (int k = 0; k < layout_array_count; k++) {
        const layout_array *a = &layout_arrays[k];
        if (!a->shifts)
            continue;
        size_t bytes = layout_ring_bytes(a, s->M, s->V);
        for (int b = 0; b < layout_copies(a); b++)
            shift(*layout_field(s, a, b), bytes, p, p + 1, after);
    }
    /* the ring's id goes stale, the later rings' slots name their new index */
    s->slot_ring[slot] = -1;
    s->slot_gen[slot]++;
    for (size_t q = p; q + 1 < P; q++)
        s->slot_ring[s->ring_slot[q]] = (int)q;
    /* the contacts remembered between steps name rings by index: forget
     * them (a touching pair may report its contact start once more) */
    events_reset(&s->ev);
    sim_set_count(s, (int)P - 1);
}

void sim_set_threads(dinghy_sim *s, int threads)
{
    int t = resolve_threads(threads);
    if (ensure_scratch(s, t) == 0) {
        s->nthreads = t;
        team_init(&s->team, t, threads == 0);
        s->step_threads = t;
    }
}

int sim_step_threads(const dinghy_sim *s) { return s->step_threads; }

int sim_threads(const dinghy_sim *s) { return s->nthreads; }

int sim_enable_river(dinghy_sim *s)
{
    river_world *w = river_create(&s->def.world.river);
    if (!w)
        return -1;
    river_destroy(s->river);
    s->river = w;
    /* the distances the vertices last saw were the old river's */
    memset(s->tick->sd, 0, sizeof *s->tick->sd * (size_t)s->cap * s->V);
    for (size_t r = 0; r < s->nrows; r++) /* the rings there now sit in the river */
        water_sample_row(s, r);
    char err[256]; /* the layer over the river, or no layer: the old one's water is gone */
    return s->waves ? waves_follow_def(s, 1, err, sizeof err) : 0;
}

const river_world *sim_river(const dinghy_sim *s) { return s->river; }

int sim_enable_pen(dinghy_sim *s, double half_x, double half_y)
{
    if (s->river || !(half_x > 0.0) || !(half_y > 0.0))
        return -1;
    s->pen.on = 1;
    s->pen.half_x = (float)half_x;
    s->pen.half_y = (float)half_y;
    return 0;
}

int sim_pen(const dinghy_sim *s, double *half_x, double *half_y)
{
    *half_x = s->pen.on ? s->pen.half_x : 0.0;
    *half_y = s->pen.on ? s->pen.half_y : 0.0;
    return s->pen.on;
}
void sim_enable_floor(dinghy_sim *s, double z)
{
    s->has_floor = 1;
    s->floor_z = z;
}

void sim_disable_floor(dinghy_sim *s) { s->has_floor = 0; }

void sim_water_at(const dinghy_sim *s, double x, double y, double z, dinghy_water_point *out)
{
    if (s->river) {
        river_sample(s->river, x, y, z, s->time, out);
        return;
    }
    out->height = s->def.world.water.level;
    out->normal[0] = out->normal[1] = 0.0;
    out->normal[2] = 1.0;
    out->velocity[0] = out->velocity[1] = out->velocity[2] = 0.0;
}

void sim_set_live(dinghy_sim *s, const sim_def *def)
{
    const sim_ring_def was = s->def.ring;
    sim_def_copy_live(&s->def, def);
    const sim_ring_def *r = &s->def.ring;
    /* the inflated shape and the gas's fill follow the skin and the gauge */
    sim_inflate(s, was.youngs_modulus != r->youngs_modulus || was.thickness != r->thickness
                       || was.poisson_ratio != r->poisson_ratio
                       || was.gauge_pressure != r->gauge_pressure
                       || was.inflation != r->inflation);
    if (s->river)
        river_set_live(s->river, s->def.world.river.speed, s->def.world.river.waves);
    char err[256]; /* the wave layer on or off, its damping (only memory can fail) */
    waves_follow_def(s, 0, err, sizeof err);
    set_base_substeps(s);
    sim_set_threads(s, def->solver.threads);
}

int sim_substeps(const dinghy_sim *s) { return s->substeps; }
double sim_rest_volume(const dinghy_sim *s) { return s->rest_volume; }

const sim_def *sim_get_def(const dinghy_sim *s) { return &s->def; }
int sim_ring_count(const dinghy_sim *s) { return s->P; }
int sim_ring_capacity(const dinghy_sim *s) { return s->cap; }
int sim_segments(const dinghy_sim *s) { return s->M; }
int sim_sides(const dinghy_sim *s) { return s->N; }
size_t sim_vertex_count(const dinghy_sim *s) { return s->nverts; }
long sim_steps_done(const dinghy_sim *s) { return s->step; }
double sim_time(const dinghy_sim *s) { return s->time; }

size_t sim_spring_count(const dinghy_sim *s)
{
    /* Each vertex has B*B - 1 grid springs and one across-tube spring, each
     * shared by two vertices. */
    return s->nverts * (size_t)s->shape.noff / 2;
}

