/* Creation, rings, state access and measurements of a simulation; the
 * step itself is in tick.c. */
#include "sim_internal.h"

#include <math.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dinghy/river.h"

#include "skin.h"
#include "tick.h"

/* ---- sizes: one place for what the allocator takes and the estimate says ---- */

#define STATE_FLOATS_PER_VERTEX 12 /* two buffers of x, y, z, vx, vy, vz */
#define FLOATS_PER_ROW 18          /* segment centre, mean velocity, repulsion, water (8), hit */
#define DOUBLES_PER_ROW 1          /* the row's share of the enclosed volume */
#define DOUBLES_PER_RING 11        /* ring centre, mean velocity, volume, station, travelled,
                                      gas fraction, hole area */
#define FLOATS_PER_RING 1          /* gas gauge pressure */

static size_t round16(size_t n) { return (n + 15) / 16 * 16; }

/* Floats of one thread's scratch: the spring kernel's, then the skin's. */
static size_t scratch_floats(int M, int N, int B, size_t *skin_offset)
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
         + scratch_floats(r->segments, r->sides, r->band, NULL) * sizeof(float) * (size_t)threads
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

/* ---- creation ---- */

static void free_buffer(sim_buffer *b)
{
    free(b->x); free(b->y); free(b->z);
    free(b->vx); free(b->vy); free(b->vz);
}

static int alloc_buffer(sim_buffer *b, size_t n)
{
    b->x = calloc(n, sizeof(float));
    b->y = calloc(n, sizeof(float));
    b->z = calloc(n, sizeof(float));
    b->vx = calloc(n, sizeof(float));
    b->vy = calloc(n, sizeof(float));
    b->vz = calloc(n, sizeof(float));
    return (b->x && b->y && b->z && b->vx && b->vy && b->vz) ? 0 : -1;
}

void sim_destroy(dinghy_sim *s)
{
    if (!s)
        return;
    free_buffer(&s->buf[0]);
    free_buffer(&s->buf[1]);
    free(s->cx); free(s->cy); free(s->cz);
    free(s->cvx); free(s->cvy); free(s->cvz);
    free(s->gx); free(s->gy); free(s->gz);
    free(s->c0); free(s->v0); free(s->row_bad); free(s->scratch); free(s->rings);
    free(s->row_vol); free(s->ring_vol); free(s->ring_gauge);
    free(s->gas_frac); free(s->hole_area);
    free(s->weta); free(s->wsx); free(s->wsy); free(s->wpx); free(s->wpy);
    free(s->wu); free(s->wv); free(s->ww); free(s->row_hit);
    free(s->wnear); free(s->ring_s); free(s->travelled); free(s->respawns); free(s->hitting);
    river_destroy(s->river);
    broadphase_free(&s->bp);
    events_free(&s->ev);
    spring_plan_free(&s->springs);
    torus_shape_free(&s->shape);
    free(s);
}

static int resolve_threads(int threads)
{
    return threads > 0 ? threads : omp_get_num_procs();
}

static int ensure_scratch(dinghy_sim *s, int threads)
{
    if (threads <= s->scratch_threads)
        return 0;
    /* cache-line aligned; the stride is a multiple of 16 floats */
    float *p = aligned_alloc(64, sizeof *p * s->scratch_stride * (size_t)threads);
    if (!p)
        return -1;
    free(s->scratch);
    s->scratch = p;
    s->scratch_threads = threads;
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

dinghy_sim *sim_create(const sim_def *def, int capacity, char *err, size_t err_len)
{
    dinghy_sim *s = calloc(1, sizeof *s);
    if (!s) {
        snprintf(err, err_len, "out of memory creating the simulation");
        return NULL;
    }
    const ring_def *ring = &def->ring;
    s->def = *def;
    s->cap = capacity > 0 ? capacity : 1;
    s->M = ring->segments;
    s->N = ring->sides;
    s->V = (size_t)s->M * s->N;
    s->nthreads = resolve_threads(def->solver.threads);
    size_t n = s->V * (size_t)s->cap, r = (size_t)s->cap * s->M;
    int fail = torus_shape_init(&s->shape, s->M, s->N, ring->band, ring->major_radius,
                                ring->minor_radius);
    if (!fail)
        fail = spring_plan_init(&s->springs, &s->shape);
    s->scratch_stride = scratch_floats(s->M, s->N, ring->band, &s->skin_offset);
    s->rest_volume = ring_rest_volume(ring);
    s->substeps = sim_def_substeps(def);
    fail |= alloc_buffer(&s->buf[0], n) | alloc_buffer(&s->buf[1], n);
    float **rowf[FLOATS_PER_ROW] = {&s->cx, &s->cy, &s->cz, &s->cvx, &s->cvy, &s->cvz,
                                    &s->gx, &s->gy, &s->gz, &s->weta, &s->wsx, &s->wsy,
                                    &s->wpx, &s->wpy, &s->wu, &s->wv, &s->ww, &s->row_hit};
    for (int k = 0; k < FLOATS_PER_ROW; k++) {
        *rowf[k] = calloc(r, sizeof(float));
        fail |= !*rowf[k];
    }
    s->c0 = calloc(3 * (size_t)s->cap, sizeof(double));
    s->v0 = calloc(3 * (size_t)s->cap, sizeof(double));
    s->rings = calloc((size_t)s->cap, sizeof *s->rings);
    s->row_bad = calloc(r, 1);
    s->row_vol = calloc(r, sizeof *s->row_vol);
    s->wnear = calloc(r, 1);
    s->ring_s = calloc((size_t)s->cap, sizeof *s->ring_s);
    s->travelled = calloc((size_t)s->cap, sizeof *s->travelled);
    s->respawns = calloc((size_t)s->cap, sizeof *s->respawns);
    s->hitting = calloc((size_t)s->cap, 1);
    s->river_rng = 0x5eed0f7a1e5ull;
    s->ring_vol = calloc((size_t)s->cap, sizeof *s->ring_vol);
    s->ring_gauge = calloc((size_t)s->cap, sizeof *s->ring_gauge);
    s->gas_frac = calloc((size_t)s->cap, sizeof *s->gas_frac);
    s->hole_area = calloc((size_t)s->cap, sizeof *s->hole_area);
    fail |= !s->c0 || !s->v0 || !s->rings || !s->row_bad || !s->row_vol || !s->ring_vol
          || !s->ring_gauge || !s->wnear || !s->ring_s || !s->travelled || !s->respawns
          || !s->hitting || !s->gas_frac || !s->hole_area;
    fail |= broadphase_init(&s->bp, s->cap);
    fail |= events_init(&s->ev, s->cap, s->M);
    fail |= ensure_scratch(s, s->nthreads);
    if (fail) {
        snprintf(err, err_len, "out of memory for %zu vertices (%d rings)", n, s->cap);
        sim_destroy(s);
        return NULL;
    }
    sim_set_count(s, 0);
    sim_clear_rings(s);
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
    memset(s->row_bad, 0, (size_t)s->cap * s->M);
    s->grab.ring = -1;
    events_reset(&s->ev);
}

/* Writes ring p, undeformed, in the pose into the current buffer. */
/* The volumes of ring p's rows and its gas pressure, from the current
 * state (the tick then keeps them up to date). */
static void ring_volumes(dinghy_sim *s, int p)
{
    const sim_buffer *b = &s->buf[s->cur];
    const size_t base = (size_t)p * s->V;
    const double origin[3] = {b->x[base], b->y[base], b->z[base]};
    double vol = 0.0;
    for (int m = 0; m < s->M; m++) {
        double v = skin_row_volume(s->M, s->N, b->x + base, b->y + base, b->z + base, m, origin);
        s->row_vol[(size_t)p * s->M + m] = v;
        vol += v;
    }
    s->ring_vol[p] = vol;
    s->ring_gauge[p] = (float)gas_gauge(s, p, vol);
}

void sim_refresh_volumes(dinghy_sim *s)
{
    for (int p = 0; p < s->P; p++)
        ring_volumes(s, p);
}

static void write_pose(dinghy_sim *s, int p, const ring_pose *d)
{
    const ring_def *ring = &s->def.ring;
    sim_buffer *b = &s->buf[s->cur];
    for (int m = 0; m < s->M; m++)
        for (int n = 0; n < s->N; n++) {
            double c[3];
            torus_point(ring->major_radius, ring->minor_radius, s->M, s->N, m, n, c);
            size_t i = (size_t)p * s->V + (size_t)m * s->N + n;
            b->x[i] = (float)(d->centre[0] + d->rot[0] * c[0] + d->rot[1] * c[1] + d->rot[2] * c[2]);
            b->y[i] = (float)(d->centre[1] + d->rot[3] * c[0] + d->rot[4] * c[1] + d->rot[5] * c[2]);
            b->z[i] = (float)(d->centre[2] + d->rot[6] * c[0] + d->rot[7] * c[1] + d->rot[8] * c[2]);
            b->vx[i] = (float)d->velocity[0];
            b->vy[i] = (float)d->velocity[1];
            b->vz[i] = (float)d->velocity[2];
        }
    memset(s->row_bad + (size_t)p * s->M, 0, (size_t)s->M);
    ring_volumes(s, p);
    /* its rows' centres, the ring's centre, and the water they sit in */
    double c[3] = {0.0, 0.0, 0.0};
    for (int m = 0; m < s->M; m++) {
        size_t row = (size_t)p * s->M + m, v0 = row * (size_t)s->N;
        double r[3] = {0.0, 0.0, 0.0};
        for (int n = 0; n < s->N; n++) {
            r[0] += b->x[v0 + n];
            r[1] += b->y[v0 + n];
            r[2] += b->z[v0 + n];
        }
        s->cx[row] = (float)(r[0] / s->N);
        s->cy[row] = (float)(r[1] / s->N);
        s->cz[row] = (float)(r[2] / s->N);
        s->row_hit[row] = 0.0f;
        water_sample_row(s, row);
        for (int k = 0; k < 3; k++)
            c[k] += r[k] / s->V;
    }
    for (int k = 0; k < 3; k++) {
        s->c0[3 * p + k] = c[k];
        s->v0[3 * p + k] = d->velocity[k];
    }
    double n;
    s->ring_s[p] = 0.0;
    if (s->river)
        river_station(s->river, c[0], c[1], &s->ring_s[p], &n);
}

int sim_add_ring(dinghy_sim *s, const ring_pose *pose)
{
    if (s->P >= s->cap)
        return -1;
    int p = s->P;
    sim_set_count(s, p + 1);
    s->travelled[p] = 0.0;
    s->respawns[p] = 0;
    s->gas_frac[p] = 1.0; /* fully inflated, no holes */
    s->hole_area[p] = 0.0;
    write_pose(s, p, pose);
    sim_measure_ring(s, p);
    return p;
}

void sim_place_ring(dinghy_sim *s, int p, const ring_pose *pose)
{
    if (p < 0 || p >= s->P)
        return;
    write_pose(s, p, pose);
    sim_measure_ring(s, p);
}

static void record_blowup(dinghy_sim *s)
{
    for (size_t r = 0; r < s->nrows; r++) {
        if (!s->row_bad[r])
            continue;
        const sim_buffer *b = &s->buf[s->cur];
        size_t v0 = r * (size_t)s->N;
        sim_blowup_info *info = &s->blowup;
        info->happened = 1;
        info->step = s->step;
        info->time = s->time;
        info->dinghy = (int)(r / (size_t)s->M);
        info->non_finite = s->row_bad[r] == 2;
        for (int n = 0; n < s->N; n++) {
            size_t i = v0 + n;
            double s2 = (double)b->vx[i] * b->vx[i] + (double)b->vy[i] * b->vy[i]
                      + (double)b->vz[i] * b->vz[i];
            int nonfin = !isfinite(s2) || !isfinite(b->x[i] + b->y[i] + b->z[i]);
            if (nonfin || s2 > SIM_RUNAWAY_SPEED * SIM_RUNAWAY_SPEED) {
                info->vertex = (int)(i - (size_t)info->dinghy * s->V);
                info->speed = nonfin ? NAN : sqrt(s2);
                return;
            }
        }
        return;
    }
}

long sim_step(dinghy_sim *s, long steps)
{
    long done = 0;
    if (s->blowup.happened || s->P == 0)
        return 0;
    const double dt = s->def.solver.dt / s->substeps;
    for (; done < steps; done++) {
        int rc = 0;
        for (int k = 0; k < s->substeps && rc == 0; k++)
            rc = tick_step(s, dt, k == 0, k == s->substeps - 1);
        grab_advance(s, s->def.solver.dt);
        if (rc == 0 && s->river) {
            water_hit_events(s);
            water_endless_run(s);
        }
        if (rc != 0) {
            if (rc > 0) {
                done++;
                record_blowup(s);
            } else {
                /* out of memory growing the neighbour list: report as a blow-up */
                s->blowup.happened = 1;
                s->blowup.step = s->step + 1;
                s->blowup.time = s->time;
                s->blowup.speed = NAN;
                s->blowup.non_finite = 1;
            }
            break;
        }
    }
    if (done > 0) {
        sim_measure_rings(s);
        if (!s->blowup.happened)
            sim_check_rings(s);
    }
    return done;
}

const sim_event *sim_events(const dinghy_sim *s, size_t *count, long *dropped)
{
    *count = s->ev.count;
    if (dropped)
        *dropped = s->ev.dropped;
    return s->ev.out;
}

void sim_clear_events(dinghy_sim *s)
{
    s->ev.count = 0;
    s->ev.dropped = 0;
}

sim_blowup_info sim_blowup(const dinghy_sim *s) { return s->blowup; }

void sim_blowup_message(const dinghy_sim *s, char *buf, size_t len)
{
    const sim_blowup_info *b = &s->blowup;
    const sim_def *d = &s->def;
    double bound = sim_def_stable_dt(d), dt = d->solver.dt / s->substeps;
    char what[96];
    if (b->non_finite)
        snprintf(what, sizeof what, "a non-finite position or velocity");
    else
        snprintf(what, sizeof what, "a runaway speed of %.3g m/s (limit %.0f)", b->speed,
                 SIM_RUNAWAY_SPEED);
    char cause[512];
    static const char *const fault_what[] = {
        "", "is turned inside out or crushed: its volume is %.3g of its rest volume",
        "is blown up like a balloon: its volume is %.3g times its rest volume",
        "is torn: a skin edge is %.3g times its rest length",
        "has flown away: a vertex is %.3g m from the origin",
    };
    static const char *const fault_fix[] = {
        "",
        ("the springs are too soft for the load on them (heavy rings, a hard squeeze, a low "
         "gauge pressure or a constant inflation that cannot hold the shape); raise the spring "
         "stiffness or the gauge pressure, or use the gas inflation"),
        ("the inflation is too strong for the springs; lower the inflation (gauge pressure or "
         "constant force) or raise the spring stiffness"),
        "the springs are too soft for the inflation or the load; raise the spring stiffness",
        "a force too strong for the time step threw it; use automatic substeps",
    };
    if (b->fault != SIM_RING_WHOLE) {
        char what2[160];
        snprintf(what2, sizeof what2, fault_what[b->fault], b->measure);
        snprintf(buf, len, "simulation blew up at step %ld (t = %.4f s): ring %d %s (the bound "
                 "is %g to %g of the rest volume, %g times a rest length); likely cause: %s",
                 b->step, b->time, b->dinghy, what2, SIM_MIN_VOLUME, SIM_MAX_VOLUME,
                 SIM_MAX_STRETCH, fault_fix[b->fault]);
        return;
    }
    if (dt > bound)
        snprintf(cause, sizeof cause,
                 "the time step %g s is above the stability bound %.3g s = sqrt(2 m / sum k) "
                 "for vertex mass m = %.3g kg, band B = %d, spring stiffness k = %g N/m and "
                 "the gas and water stiffness; use more substeps (automatic: %d), a shorter "
                 "time step or softer springs", dt, bound, ring_vertex_mass(&d->ring),
                 d->ring.band, d->ring.stiffness, (int)ceil(d->solver.dt / (0.9 * bound)));
    else
        snprintf(cause, sizeof cause,
                 "the time step %g s is within the stability bound %.3g s, so suspect a start that "
                 "is far from rest (rings overlapping, or deep under water) or a repulsion "
                 "strength (%g N), inflation force (%g N) or seed buoyancy (%g 1/s^2) too "
                 "strong for this time step", dt, bound, d->ring.repulsion,
                 d->ring.pressure, d->world.water.buoyancy);
    snprintf(buf, len, "simulation blew up at step %ld (t = %.4f s): ring %d vertex %d has %s; "
             "likely cause: %s", b->step, b->time, b->dinghy, b->vertex, what, cause);
}

void sim_set_threads(dinghy_sim *s, int threads)
{
    int t = resolve_threads(threads);
    if (ensure_scratch(s, t) == 0)
        s->nthreads = t;
}

int sim_threads(const dinghy_sim *s) { return s->nthreads; }

int sim_enable_river(dinghy_sim *s)
{
    river_world *w = river_create(&s->def.world.river);
    if (!w)
        return -1;
    river_destroy(s->river);
    s->river = w;
    for (size_t r = 0; r < s->nrows; r++) /* the rings there now sit in the river */
        water_sample_row(s, r);
    return 0;
}

const river_world *sim_river(const dinghy_sim *s) { return s->river; }

void sim_water_at(const dinghy_sim *s, double x, double y, double z, water_point *out)
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
    sim_def_copy_live(&s->def, def);
    if (s->river)
        river_set_live(s->river, s->def.world.river.speed, s->def.world.river.waves);
    s->substeps = sim_def_substeps(&s->def);
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

static const char *const phase_names[PHASE_COUNT] = {
    "centres", "broadphase", "contacts", "springs", "integrate", "events",
};

const char *sim_phase_name(sim_phase ph) { return ph < PHASE_COUNT ? phase_names[ph] : "?"; }

void sim_phase_times(const dinghy_sim *s, double out[PHASE_COUNT])
{
    memcpy(out, s->phase_s, sizeof s->phase_s);
}

void sim_reset_phase_times(dinghy_sim *s) { memset(s->phase_s, 0, sizeof s->phase_s); }
