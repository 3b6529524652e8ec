/* Creation, state access and summaries of a simulation; the step itself
 * is in tick.c. */
#include "sim_internal.h"

#include <math.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scene.h"
#include "tick.h"

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
    free(s->gx); free(s->gy); free(s->gz);
    free(s->nx); free(s->ny); free(s->nz);
    free(s->c0); free(s->row_bad); free(s->scratch);
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

dinghy_sim *sim_create(const sim_params *prm, char *err, size_t err_len)
{
    dinghy_sim *s = calloc(1, sizeof *s);
    if (!s) {
        snprintf(err, err_len, "out of memory creating the simulation");
        return NULL;
    }
    s->prm = *prm;
    s->P = scene_dinghy_count(prm);
    s->M = prm->segments;
    s->N = prm->sides;
    s->V = (size_t)s->M * s->N;
    s->nverts = s->V * (size_t)s->P;
    s->nrows = (size_t)s->P * s->M;
    s->nthreads = resolve_threads(prm->threads);
    size_t n = s->nverts, r = s->nrows;
    int fail = torus_shape_init(&s->shape, s->M, s->N, prm->band, prm->major_radius, prm->minor_radius);
    if (!fail)
        fail = spring_plan_init(&s->springs, &s->shape);
    s->scratch_stride = fail ? 0 : spring_scratch_floats(&s->springs);
    fail |= alloc_buffer(&s->buf[0], n) | alloc_buffer(&s->buf[1], n);
    s->nx = malloc(n * sizeof(float)); s->ny = malloc(n * sizeof(float)); s->nz = malloc(n * sizeof(float));
    s->cx = malloc(r * sizeof(float)); s->cy = malloc(r * sizeof(float)); s->cz = malloc(r * sizeof(float));
    s->gx = malloc(r * sizeof(float)); s->gy = malloc(r * sizeof(float)); s->gz = malloc(r * sizeof(float));
    s->c0 = malloc(3 * (size_t)s->P * sizeof(double));
    s->row_bad = calloc(r, 1);
    fail |= broadphase_init(&s->bp, s->P);
    fail |= events_init(&s->ev, s->P, s->M);
    fail |= ensure_scratch(s, s->nthreads);
    if (fail || !s->nx || !s->ny || !s->nz || !s->cx || !s->cy
        || !s->cz || !s->gx || !s->gy || !s->gz || !s->c0 || !s->row_bad) {
        snprintf(err, err_len, "out of memory for %zu vertices (%d dinghies)", n, s->P);
        sim_destroy(s);
        return NULL;
    }
    sim_reset(s);
    return s;
}

void sim_reset(dinghy_sim *s)
{
    dinghy_pose *poses = malloc(sizeof *poses * (size_t)s->P);
    double *canon = malloc(sizeof *canon * 3 * s->V);
    if (!poses || !canon) { /* keep the old state rather than fail half-way */
        free(poses);
        free(canon);
        return;
    }
    scene_build(&s->prm, poses);
    for (int m = 0; m < s->M; m++)
        for (int n = 0; n < s->N; n++)
            torus_point(s->prm.major_radius, s->prm.minor_radius, s->M, s->N, m, n,
                        &canon[3 * ((size_t)m * s->N + n)]);
    sim_buffer *b = &s->buf[0];
    for (int p = 0; p < s->P; p++) {
        const dinghy_pose *d = &poses[p];
        for (size_t v = 0; v < s->V; v++) {
            const double *c = &canon[3 * v];
            size_t i = (size_t)p * s->V + v;
            b->x[i] = (float)(d->centre[0] + d->rot[0] * c[0] + d->rot[1] * c[1] + d->rot[2] * c[2]);
            b->y[i] = (float)(d->centre[1] + d->rot[3] * c[0] + d->rot[4] * c[1] + d->rot[5] * c[2]);
            b->z[i] = (float)(d->centre[2] + d->rot[6] * c[0] + d->rot[7] * c[1] + d->rot[8] * c[2]);
            b->vx[i] = (float)d->velocity[0];
            b->vy[i] = (float)d->velocity[1];
            b->vz[i] = (float)d->velocity[2];
        }
    }
    free(poses);
    free(canon);
    s->cur = 0;
    s->step = 0;
    s->time = 0.0;
    s->normals_step = -1;
    memset(&s->blowup, 0, sizeof s->blowup);
    memset(s->row_bad, 0, s->nrows);
    events_reset(&s->ev);
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
    if (s->blowup.happened)
        return 0;
    for (; done < steps; done++) {
        int rc = tick_step(s);
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
    const sim_params *p = &s->prm;
    double bound = sim_params_stable_dt(p);
    char what[96];
    if (b->non_finite)
        snprintf(what, sizeof what, "a non-finite position or velocity");
    else
        snprintf(what, sizeof what, "a runaway speed of %.3g m/s (limit %.0f)", b->speed,
                 SIM_RUNAWAY_SPEED);
    char cause[512];
    if (p->dt > bound)
        snprintf(cause, sizeof cause,
                 "sim.dt = %g s is above the stability bound %.3g s = sqrt(2 m / (B^2 k)) "
                 "for vertex mass m = %.3g kg, band B = %d, stiffness k = %g N/m; "
                 "lower sim.dt or dinghy.stiffness", p->dt, bound, sim_params_vertex_mass(p),
                 p->band, p->stiffness);
    else
        snprintf(cause, sizeof cause,
                 "sim.dt = %g s is within the spring bound %.3g s, so suspect a start that is "
                 "far from rest (dinghies overlapping, or deep under water: scene.height) or "
                 "dinghy.repulsion (%g), dinghy.pressure (%g) or water.buoyancy (%g) too strong "
                 "for this dt", p->dt, bound, p->repulsion, p->pressure, p->buoyancy);
    snprintf(buf, len, "simulation blew up at step %ld (t = %.4f s): dinghy %d vertex %d has %s; "
             "likely cause: %s", b->step, b->time, b->dinghy, b->vertex, what, cause);
}

void sim_set_threads(dinghy_sim *s, int threads)
{
    int t = resolve_threads(threads);
    if (ensure_scratch(s, t) == 0)
        s->nthreads = t;
}

int sim_threads(const dinghy_sim *s) { return s->nthreads; }

void sim_set_tunables(dinghy_sim *s, const sim_params *p)
{
    sim_params *q = &s->prm;
    q->dt = p->dt;
    q->damping = p->damping;
    q->gravity = p->gravity;
    q->water_level = p->water_level;
    q->buoyancy = p->buoyancy;
    q->water_density = p->water_density;
    q->water_drag = p->water_drag;
    q->stiffness = p->stiffness;
    q->pressure = p->pressure;
    q->repulsion = p->repulsion;
    q->repulsion_exponent = p->repulsion_exponent;
    q->contact_range = p->contact_range;
}

const sim_params *sim_get_params(const dinghy_sim *s) { return &s->prm; }
int sim_dinghy_count(const dinghy_sim *s) { return s->P; }
int sim_segments(const dinghy_sim *s) { return s->M; }
int sim_sides(const dinghy_sim *s) { return s->N; }
size_t sim_vertex_count(const dinghy_sim *s) { return s->nverts; }
long sim_steps_done(const dinghy_sim *s) { return s->step; }
double sim_time(const dinghy_sim *s) { return s->time; }

size_t sim_memory_bytes(const dinghy_sim *s)
{
    size_t f = sizeof(float), n = s->nverts, r = s->nrows, P = (size_t)s->P;
    size_t bytes = sizeof *s
        + 2 * 6 * n * f                                    /* state and next */
        + 3 * n * f                                        /* normals */
        + 6 * r * f + r                                    /* centres, repulsion, row flags */
        + 3 * P * sizeof(double)                           /* dinghy centres */
        + s->scratch_stride * (size_t)s->scratch_threads * f
        + (size_t)s->shape.noff * (2 * sizeof(int) + (size_t)s->N * f)
        + (size_t)s->springs.noff * (s->springs.src_len * f + sizeof(int) + sizeof(float *))
        + 2 * s->springs.src_len * f
        + (3 * P + 2 * P + 1) * sizeof(int) + P * sizeof(unsigned)
        + (s->bp.table_size + 1) * sizeof(int) + s->bp.nb_cap * sizeof(int)
        + r * (sizeof(int) + f) + P * (sizeof(int) + f) + (P + 1) * sizeof(int)
        + s->ev.slot_cap * ((size_t)s->M + 2 + sizeof(int))
        + SIM_EVENT_CAPACITY * sizeof(sim_event);
    return bytes;
}

size_t sim_spring_count(const dinghy_sim *s)
{
    /* Each vertex has B*B - 1 grid springs and one across-tube spring, each
     * shared by two vertices. */
    return s->nverts * (size_t)s->shape.noff / 2;
}

sim_state_view sim_state(const dinghy_sim *s)
{
    const sim_buffer *b = &s->buf[s->cur];
    sim_state_view v = {b->x, b->y, b->z, b->vx, b->vy, b->vz};
    return v;
}

sim_normals_view sim_normals(dinghy_sim *s)
{
    if (s->normals_step != s->step) {
        tick_normals(s);
        s->normals_step = s->step;
    }
    sim_normals_view v = {s->nx, s->ny, s->nz};
    return v;
}

static uint64_t fnv1a(uint64_t h, const void *data, size_t len)
{
    const unsigned char *c = data;
    for (size_t i = 0; i < len; i++) {
        h ^= c[i];
        h *= 0x100000001b3ull;
    }
    return h;
}

uint64_t sim_hash(const dinghy_sim *s)
{
    const sim_buffer *b = &s->buf[s->cur];
    uint64_t h = 0xcbf29ce484222325ull;
    for (size_t i = 0; i < s->nverts; i++) {
        float v[3] = {b->x[i], b->y[i], b->z[i]};
        h = fnv1a(h, v, sizeof v);
    }
    for (size_t i = 0; i < s->nverts; i++) {
        float v[3] = {b->vx[i], b->vy[i], b->vz[i]};
        h = fnv1a(h, v, sizeof v);
    }
    return h;
}

sim_dinghy_summary sim_summary(const dinghy_sim *s, int p)
{
    const sim_buffer *b = &s->buf[s->cur];
    const size_t v0 = (size_t)p * s->V;
    const double level = s->prm.water_level;
    sim_dinghy_summary out;
    memset(&out, 0, sizeof out);
    out.min_z = INFINITY;
    out.max_z = -INFINITY;
    for (size_t i = v0; i < v0 + s->V; i++) {
        out.com[0] += b->x[i]; out.com[1] += b->y[i]; out.com[2] += b->z[i];
        out.velocity[0] += b->vx[i]; out.velocity[1] += b->vy[i]; out.velocity[2] += b->vz[i];
        double depth = level - b->z[i];
        out.mean_depth += depth > 0.0 ? depth : 0.0;
        if (b->z[i] < out.min_z) out.min_z = b->z[i];
        if (b->z[i] > out.max_z) out.max_z = b->z[i];
    }
    for (int k = 0; k < 3; k++) {
        out.com[k] /= (double)s->V;
        out.velocity[k] /= (double)s->V;
    }
    out.mean_depth /= (double)s->V;
    /* Enclosed volume: (1/6) sum over outward triangles of a . (b x c),
     * relative to the centre of mass for precision. */
    const int M = s->M, N = s->N;
    double vol = 0.0;
    for (int m = 0; m < M; m++)
        for (int n = 0; n < N; n++) {
            size_t q[4] = {
                v0 + (size_t)m * N + n, v0 + (size_t)((m + 1) % M) * N + n,
                v0 + (size_t)((m + 1) % M) * N + (n + 1) % N, v0 + (size_t)m * N + (n + 1) % N,
            };
            double P4[4][3];
            for (int k = 0; k < 4; k++) {
                P4[k][0] = b->x[q[k]] - out.com[0];
                P4[k][1] = b->y[q[k]] - out.com[1];
                P4[k][2] = b->z[q[k]] - out.com[2];
            }
            for (int t = 0; t < 2; t++) {
                const double *A = P4[0], *B = P4[1 + t], *C = P4[2 + t];
                vol += A[0] * (B[1] * C[2] - B[2] * C[1]) + A[1] * (B[2] * C[0] - B[0] * C[2])
                     + A[2] * (B[0] * C[1] - B[1] * C[0]);
            }
        }
    out.volume = vol / 6.0;
    return out;
}

void sim_totals(const dinghy_sim *s, double momentum[3], double *kinetic_energy)
{
    const sim_buffer *b = &s->buf[s->cur];
    const double m = sim_params_vertex_mass(&s->prm);
    double px = 0.0, py = 0.0, pz = 0.0, v2 = 0.0;
    for (size_t i = 0; i < s->nverts; i++) {
        px += b->vx[i]; py += b->vy[i]; pz += b->vz[i];
        v2 += (double)b->vx[i] * b->vx[i] + (double)b->vy[i] * b->vy[i] + (double)b->vz[i] * b->vz[i];
    }
    momentum[0] = m * px;
    momentum[1] = m * py;
    momentum[2] = m * pz;
    *kinetic_energy = 0.5 * m * v2;
}

static const char *const phase_names[PHASE_COUNT] = {
    "centres", "broadphase", "contacts", "springs", "integrate", "events", "normals",
};

const char *sim_phase_name(sim_phase ph) { return ph < PHASE_COUNT ? phase_names[ph] : "?"; }

void sim_phase_times(const dinghy_sim *s, double out[PHASE_COUNT])
{
    memcpy(out, s->phase_s, sizeof s->phase_s);
}

void sim_reset_phase_times(dinghy_sim *s) { memset(s->phase_s, 0, sizeof s->phase_s); }
