/* Reference tick: docs/physics.md section 1, line by line, in double precision,
 * one vertex at a time. Kept slow and simple on purpose. */
#include "dinghy/reference.h"

#include <math.h>
#include <stdlib.h>

typedef struct { double x, y, z; } vec3;

static vec3 add(vec3 a, vec3 b) { return (vec3){a.x + b.x, a.y + b.y, a.z + b.z}; }
static vec3 sub(vec3 a, vec3 b) { return (vec3){a.x - b.x, a.y - b.y, a.z - b.z}; }
static vec3 scale(vec3 a, double s) { return (vec3){a.x * s, a.y * s, a.z * s}; }
static double length(vec3 a) { return sqrt(a.x * a.x + a.y * a.y + a.z * a.z); }

struct ref_sim {
    sim_def def;
    int P, M, N, B;
    vec3 *x, *v;      /* state, P*M*N */
    vec3 *force;      /* temp: force per vertex */
    double *rest;     /* rest length per vertex per offset, [vertex][B*B] */
    vec3 *seg_centre; /* P*M */
    vec3 *centre;     /* P */
    vec3 *seg_push;   /* repulsion per segment, P*M */
};

/* Grid point (m, n) of the undeformed torus (axis z, centred on the
 * origin), m: the closed form written out here again, so that the oracle
 * shares no code with the tick it checks (the core's copy is private). */
static void torus_point(double R, double r, int M, int N, int m, int n, double out[3])
{
    const double two_pi = 6.283185307179586476925286766559;
    double phi = two_pi * m / M, theta = two_pi * n / N;
    double rho = R + r * cos(theta);
    out[0] = rho * cos(phi);
    out[1] = rho * sin(phi);
    out[2] = r * sin(theta);
}

static size_t vid(const ref_sim *r, int p, int m, int n)
{
    return ((size_t)p * r->M + (size_t)((m % r->M + r->M) % r->M)) * r->N
         + (size_t)((n % r->N + r->N) % r->N);
}

/* Neighbour of (m, n) for offset index o of the B x B neighbourhood;
 * the centre offset is the vertex across the tube. */
static void neighbour(const ref_sim *r, int m, int n, int o, int *nm, int *nn)
{
    int h = r->B / 2, i = o / r->B - h, j = o % r->B - h;
    if (i == 0 && j == 0) {
        *nm = m;
        *nn = n + r->N / 2;
    } else {
        *nm = m + i;
        *nn = n + j;
    }
}

ref_sim *ref_create(const dinghy_sim *sim)
{
    ref_sim *r = calloc(1, sizeof *r);
    if (!r)
        return NULL;
    r->def = *sim_get_def(sim);
    const sim_ring_def *ring = &r->def.ring;
    r->P = sim_ring_count(sim);
    r->M = ring->segments;
    r->N = ring->sides;
    r->B = ring->band;
    size_t nv = (size_t)r->P * r->M * r->N;
    r->x = calloc(nv, sizeof *r->x);
    r->v = calloc(nv, sizeof *r->v);
    r->force = calloc(nv, sizeof *r->force);
    r->rest = calloc(nv * (size_t)(r->B * r->B), sizeof *r->rest);
    r->seg_centre = calloc((size_t)r->P * r->M, sizeof *r->seg_centre);
    r->seg_push = calloc((size_t)r->P * r->M, sizeof *r->seg_push);
    r->centre = calloc((size_t)r->P, sizeof *r->centre);
    if (!r->x || !r->v || !r->force || !r->rest || !r->seg_centre || !r->seg_push || !r->centre) {
        ref_destroy(r);
        return NULL;
    }
    sim_state_view st = sim_state(sim);
    for (size_t i = 0; i < nv; i++) {
        r->x[i] = (vec3){st.x[i], st.y[i], st.z[i]};
        r->v[i] = (vec3){st.vx[i], st.vy[i], st.vz[i]};
    }
    /* Rest lengths: distances in the undeformed torus. */
    for (int p = 0; p < r->P; p++)
        for (int m = 0; m < r->M; m++)
            for (int n = 0; n < r->N; n++)
                for (int o = 0; o < r->B * r->B; o++) {
                    int nm, nn;
                    double a[3], b[3];
                    neighbour(r, m, n, o, &nm, &nn);
                    torus_point(ring->major_radius, ring->minor_radius, r->M, r->N, m, n, a);
                    torus_point(ring->major_radius, ring->minor_radius, r->M, r->N, nm, nn, b);
                    vec3 d = {b[0] - a[0], b[1] - a[1], b[2] - a[2]};
                    r->rest[vid(r, p, m, n) * (size_t)(r->B * r->B) + o] = length(d);
                }
    return r;
}

void ref_destroy(ref_sim *r)
{
    if (!r)
        return;
    free(r->x); free(r->v); free(r->force); free(r->rest);
    free(r->seg_centre); free(r->seg_push); free(r->centre);
    free(r);
}

static void one_step(ref_sim *r)
{
    const sim_ring_def *k = &r->def.ring;
    const sim_world_def *w = &r->def.world;
    const double dt = r->def.solver.dt, beta = r->def.solver.damping;
    const int P = r->P, M = r->M, N = r->N, BB = r->B * r->B;
    const double mass = sim_ring_vertex_mass(k);

    /* 1. Springs. */
    for (int p = 0; p < P; p++)
        for (int m = 0; m < M; m++)
            for (int n = 0; n < N; n++) {
                size_t i = vid(r, p, m, n);
                vec3 f = {0, 0, 0};
                for (int o = 0; o < BB; o++) {
                    int nm, nn;
                    neighbour(r, m, n, o, &nm, &nn);
                    vec3 d = sub(r->x[vid(r, p, nm, nn)], r->x[i]);
                    double len = length(d);
                    if (len > 0.0)
                        f = add(f, scale(d, k->stiffness * (len - r->rest[i * BB + o]) / len));
                }
                r->force[i] = f;
            }

    /* 2. Segment centres and ring centres. */
    for (int p = 0; p < P; p++) {
        vec3 all = {0, 0, 0};
        for (int m = 0; m < M; m++) {
            vec3 c = {0, 0, 0};
            for (int n = 0; n < N; n++)
                c = add(c, r->x[vid(r, p, m, n)]);
            r->seg_centre[p * M + m] = scale(c, 1.0 / N);
            all = add(all, c);
        }
        r->centre[p] = scale(all, 1.0 / (M * N));
    }

    /* 3. Inflation. */
    for (int p = 0; p < P; p++)
        for (int m = 0; m < M; m++)
            for (int n = 0; n < N; n++) {
                size_t i = vid(r, p, m, n);
                vec3 d = sub(r->x[i], r->seg_centre[p * M + m]);
                double len = length(d);
                if (len > 0.0)
                    r->force[i] = add(r->force[i], scale(d, k->pressure / len));
            }

    /* 4. Repulsion between rings whose bounding spheres (plus contact
     * range) overlap, between segment centres closer than the contact range. */
    double reach = 2.0 * (k->major_radius + k->minor_radius) + k->contact_range;
    double shift = pow(k->contact_range, -k->repulsion_exponent);
    for (int p = 0; p < P; p++)
        for (int a = 0; a < M; a++) {
            vec3 g = {0, 0, 0};
            for (int q = 0; q < P; q++) {
                if (q == p || !(length(sub(r->centre[p], r->centre[q])) < reach))
                    continue;
                for (int b = 0; b < M; b++) {
                    vec3 d = sub(r->seg_centre[p * M + a], r->seg_centre[q * M + b]);
                    double dist = length(d);
                    double gap = dist - 2.0 * k->minor_radius;
                    if (gap >= k->contact_range || dist <= 0.0)
                        continue;
                    double f = k->repulsion * (pow(fmax(0.01, gap), -k->repulsion_exponent) - shift);
                    g = add(g, scale(d, f / dist));
                }
            }
            r->seg_push[p * M + a] = g;
        }

    /* 6. Integrate: symplectic Euler with gravity, seed buoyancy, damping
     * (stronger under water: the water drags). */
    double damp_air = exp(-beta * dt);
    double damp_water = exp(-(beta + w->water.drag) * dt);
    for (int p = 0; p < P; p++)
        for (int m = 0; m < M; m++)
            for (int n = 0; n < N; n++) {
                size_t i = vid(r, p, m, n);
                vec3 a = scale(add(r->force[i], r->seg_push[p * M + m]), 1.0 / mass);
                a.z -= w->gravity + w->water.buoyancy * fmin(0.0, r->x[i].z - w->water.level);
                double damp = r->x[i].z < w->water.level ? damp_water : damp_air;
                r->v[i] = scale(add(r->v[i], scale(a, dt)), damp);
                r->x[i] = add(r->x[i], scale(r->v[i], dt));
            }
}

void ref_step(ref_sim *r, long steps)
{
    for (long s = 0; s < steps; s++)
        one_step(r);
}

size_t ref_vertex_count(const ref_sim *r) { return (size_t)r->P * r->M * r->N; }

void ref_vertex(const ref_sim *r, size_t i, double pos[3], double vel[3])
{
    pos[0] = r->x[i].x; pos[1] = r->x[i].y; pos[2] = r->x[i].z;
    vel[0] = r->v[i].x; vel[1] = r->v[i].y; vel[2] = r->v[i].z;
}
