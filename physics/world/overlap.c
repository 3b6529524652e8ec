/* Rings through each other (dinghy/overlap.h): whether a pose is clear of
 * the rings there, by the distance between centre-line circles; the
 * vertices inside another ring's skin, counted and pushed out once a step
 * (physics/contact/push_out.h). */
#include "physics/world/overlap.h"

#include <math.h>

#include "physics/contact/push_out.h"
#include "physics/skin/cross.h"

#include "dinghy/health.h"
#include "physics/world/vec3.h"

#define PI 3.14159265358979323846
/* Finds and push-outs in one step, at most (in the burst pile one pass
 * left 0 or 1 vertex inside at some steps; four left none in 20 s). */
#define PUSH_OUT_PASSES 4

/* A ring as a circle (centre c, unit normal n, in-plane unit e1, e2,
 * radius R, m) and the tube round it (radius r, m) that holds its skin. */
typedef struct {
    double c[3], n[3], e1[3], e2[3];
    double R, r;
} ring_circle;

static void normalise(double v[3])
{
    double l = sqrt(dot3(v, v));
    for (int k = 0; k < 3; k++)
        v[k] = l > 0.0 ? v[k] / l : (k == 2);
}

/* Two unit vectors completing the unit n to an orthonormal frame. */
static void complete_frame(ring_circle *c)
{
    double a[3] = {1.0, 0.0, 0.0};
    if (fabs(c->n[0]) > 0.7)
        a[0] = 0.0, a[1] = 1.0;
    cross3(c->n, a, c->e1);
    normalise(c->e1);
    cross3(c->n, c->e1, c->e2);
}

/* Distance from the point x to the circle (its centre line), m. */
static double circle_distance(const ring_circle *c, const double x[3])
{
    double d[3];
    sub3(x, c->c, d);
    double h = dot3(d, c->n);
    double rho2 = dot3(d, d) - h * h;
    double rho = rho2 > 0.0 ? sqrt(rho2) : 0.0;
    return sqrt(h * h + (rho - c->R) * (rho - c->R));
}

static double circle_gap_at(const ring_circle *a, const ring_circle *b, double phi)
{
    double x[3];
    for (int k = 0; k < 3; k++)
        x[k] = a->c[k] + a->R * (cos(phi) * a->e1[k] + sin(phi) * a->e2[k]);
    return circle_distance(b, x);
}

/* Branch and bound on [p0, p1] of f(phi) = distance of a's point at phi
 * to b, Lipschitz with constant L = R_a: 1 when f > t on all of it. */
static int apart_on(const ring_circle *a, const ring_circle *b, double t, double p0, double p1,
                    double f0, double f1, int depth)
{
    if (0.5 * (f0 + f1) - 0.5 * a->R * (p1 - p0) > t)
        return 1;
    if (depth == 0)
        return 0; /* undecided this close to t: not clear */
    double pm = 0.5 * (p0 + p1), fm = circle_gap_at(a, b, pm);
    if (fm <= t)
        return 0;
    return apart_on(a, b, t, p0, pm, f0, fm, depth - 1)
        && apart_on(a, b, t, pm, p1, fm, f1, depth - 1);
}

/* 1 when the circles a and b are more than t apart (m). */
static int circles_apart(const ring_circle *a, const ring_circle *b, double t)
{
    double d[3];
    sub3(a->c, b->c, d);
    if (sqrt(dot3(d, d)) > a->R + b->R + t)
        return 1;
    enum { K = 64 };
    double f[K + 1];
    for (int k = 0; k < K; k++)
        if ((f[k] = circle_gap_at(a, b, 2.0 * PI * k / K)) <= t)
            return 0;
    f[K] = f[0];
    for (int k = 0; k < K; k++)
        if (!apart_on(a, b, t, 2.0 * PI * k / K, 2.0 * PI * (k + 1) / K, f[k], f[k + 1], 16))
            return 0;
    return 1;
}

/* The centre of ring q's row m relative to c, m. */
static void row_centre(const dinghy_sim *s, int q, int m, const double c[3], double g[3])
{
    const sim_buffer *b = &s->buf[s->cur];
    const size_t r0 = (size_t)q * s->V + (size_t)(m % s->M) * s->N;
    g[0] = g[1] = g[2] = 0.0;
    for (int n = 0; n < s->N; n++) {
        g[0] += b->x[r0 + n];
        g[1] += b->y[r0 + n];
        g[2] += b->z[r0 + n];
    }
    for (int k = 0; k < 3; k++)
        g[k] = g[k] / s->N - c[k];
}

/* The circle fitted to ring q's vertices in the current state: the centre
 * of its vertices, the normal of its row centres' polygon, the mean radius
 * of the row centres in that plane, and the tube that holds every vertex. */
static ring_circle fit_ring(const dinghy_sim *s, int q)
{
    const sim_buffer *b = &s->buf[s->cur];
    const size_t v0 = (size_t)q * s->V;
    ring_circle c = {{0, 0, 0}, {0, 0, 0}, {0, 0, 0}, {0, 0, 0}, 0.0, 0.0};
    for (size_t i = v0; i < v0 + s->V; i++) {
        c.c[0] += b->x[i];
        c.c[1] += b->y[i];
        c.c[2] += b->z[i];
    }
    for (int k = 0; k < 3; k++)
        c.c[k] /= (double)s->V;
    double g0[3], g1[3], x[3], sumR = 0.0;
    row_centre(s, q, 0, c.c, g0);
    for (int m = 1; m <= s->M; m++) {
        row_centre(s, q, m, c.c, g1);
        cross3(g0, g1, x);
        for (int k = 0; k < 3; k++)
            c.n[k] += x[k], g0[k] = g1[k];
    }
    if (dot3(c.n, c.n) <= 0.0) { /* no plane: the circle shrinks to its centre */
        c.n[2] = 1.0;
    } else {
        normalise(c.n);
        for (int m = 0; m < s->M; m++) {
            row_centre(s, q, m, c.c, g1);
            double h = dot3(g1, c.n);
            sumR += sqrt(fmax(0.0, dot3(g1, g1) - h * h));
        }
        c.R = sumR / s->M;
    }
    complete_frame(&c);
    for (size_t i = v0; i < v0 + s->V; i++) {
        double p[3] = {b->x[i], b->y[i], b->z[i]};
        c.r = fmax(c.r, circle_distance(&c, p));
    }
    return c;
}

/* How far any vertex of a whole ring can be from its centre, m: no two
 * vertices are further apart than SIM_MAX_STRETCH times the longest path
 * between them along the rest mesh's edges (a longer edge is torn). */
static double whole_ring_reach(const dinghy_sim *s)
{
    const sim_ring_def *d = &s->def.ring;
    double round = 2.0 * (d->major_radius + d->minor_radius) * sin(PI / s->M);
    double tube = 2.0 * d->minor_radius * sin(PI / s->N);
    return SIM_MAX_STRETCH * (0.5 * s->M * round + 0.5 * s->N * tube);
}

/* The largest distance of ring q's vertices from the point c, m. */
static double ring_bound_radius(const dinghy_sim *s, int q, const double c[3])
{
    const sim_buffer *b = &s->buf[s->cur];
    const size_t v0 = (size_t)q * s->V;
    const float cx = (float)c[0], cy = (float)c[1], cz = (float)c[2];
    float m2 = 0.0f;
    for (size_t i = v0; i < v0 + s->V; i++) {
        float dx = b->x[i] - cx, dy = b->y[i] - cy, dz = b->z[i] - cz;
        float d2 = dx * dx + dy * dy + dz * dz;
        m2 = d2 > m2 ? d2 : m2;
    }
    return sqrt((double)m2) * (1.0 + 1e-6) + 1e-6; /* above float round-off */
}

int overlap_pose_clear(const dinghy_sim *s, const sim_ring_pose *pose, double margin, int skip)
{
    const sim_ring_def *d = &s->def.ring;
    ring_circle a;
    for (int k = 0; k < 3; k++) {
        a.c[k] = pose->centre[k];
        a.e1[k] = pose->rot[3 * k];
        a.e2[k] = pose->rot[3 * k + 1];
        a.n[k] = pose->rot[3 * k + 2];
    }
    a.R = d->major_radius;
    a.r = d->minor_radius;
    if (s->profile) { /* placed at the cross-section sim_inflate chose (inflated: larger) */
        const double *rho = s->profile, *z = s->profile + s->N;
        double rm = 0.0, zm = 0.0, far = 0.0;
        for (int n = 0; n < s->N; n++)
            rm += rho[n], zm += z[n];
        rm /= s->N, zm /= s->N;
        for (int n = 0; n < s->N; n++)
            far = fmax(far, hypot(rho[n] - rm, z[n] - zm));
        a.R = rm;
        a.r = far;
    }
    const double near = a.R + a.r + whole_ring_reach(s) + margin;
    for (int q = 0; q < s->P; q++) {
        double dc[3] = {s->c0[3 * q] - a.c[0], s->c0[3 * q + 1] - a.c[1],
                        s->c0[3 * q + 2] - a.c[2]};
        if (q == skip || dot3(dc, dc) > near * near)
            continue;
        double out = a.R + a.r + margin + ring_bound_radius(s, q, s->c0 + 3 * q);
        if (dot3(dc, dc) > out * out)
            continue; /* the spheres round the two are apart */
        ring_circle b = fit_ring(s, q);
        if (!circles_apart(&a, &b, a.r + b.r + margin))
            return 0;
    }
    return 1;
}

int sim_pose_clear(const dinghy_sim *s, const sim_ring_pose *pose, double margin)
{
    return overlap_pose_clear(s, pose, margin, -1);
}

static push_out_mesh current_mesh(const dinghy_sim *s)
{
    const sim_buffer *b = &s->buf[s->cur];
    return (push_out_mesh){s->P, s->M, s->N, b->x, b->y, b->z};
}

int sim_overlap_count(const dinghy_sim *s, sim_overlap_info *first)
{
    if (first)
        *first = (sim_overlap_info){-1, -1, -1, 0.0};
    push_out_work *w = push_out_create(s->P, s->M, s->N);
    push_out_mesh m = current_mesh(s);
    long n = w ? push_out_find(w, &m, s->step_threads) : -1;
    if (n > 0 && first) {
        long count;
        const push_out_hit *h = push_out_hits(w, &count);
        *first = (sim_overlap_info){h->ring, h->vertex, h->other, h->winding};
    }
    push_out_free(w);
    return (int)n;
}

/* A limp ring's vertex put out of another ring can pass through its own
 * flattened tube's far wall (the burst rapids: ring 29 at 8.5 s, 4 crossed
 * triangle pairs made by the push-out, none by the step), which the
 * self-crossing stop would then hold crossed for good. So when the step
 * ended the stops' window, the stop (cross.h) runs again on each limp ring
 * that had vertices pushed, over the window's motion with the push-out's
 * moves in it: a pushed vertex that crossed its own skin is put back on
 * its side (left inside the other ring, which the rings' parting moves
 * off in the next steps). Within a window the window's own stop sees the
 * moves. Serial, in ring order. */
static void stop_pushed_crossings(dinghy_sim *s)
{
    if (!s->tick->window_ended || s->def.ring.skin != SIM_SKIN_MEMBRANE)
        return;
    long n = 0;
    const push_out_hit *hit = push_out_hits(s->push_out, &n);
    sim_buffer *b = &s->buf[s->cur];
    const tick_context *t = s->tick;
    for (long i = 0; i < n; i++) {
        const int p = hit[i].ring;
        if ((i > 0 && hit[i - 1].ring == p) || !t->crease_on[p])
            continue;
        const size_t v0 = (size_t)p * s->V;
        cross_stop(s->M, s->N, t->cross_x0 + v0, t->cross_y0 + v0, t->cross_z0 + v0, b->x + v0,
                   b->y + v0, b->z + v0, b->vx + v0, b->vy + v0, b->vz + v0,
                   (float)s->def.ring.contact_thickness, CROSS_PASSES, t->scratch);
    }
}

/* Finds and pushes out once: 0 when nothing was inside, 1 when some were
 * (and were pushed), -1 out of memory. Only the first pass moves rings
 * apart (at most SIM_PUSH_OUT_SPEED times the step). */
static int push_out_pass(dinghy_sim *s, int pass)
{
    push_out_mesh m = current_mesh(s);
    long n = push_out_find(s->push_out, &m, s->step_threads);
    if (n <= 0)
        return (int)n;
    sim_buffer *b = &s->buf[s->cur];
    const sim_ring_def *d = &s->def.ring;
    /* a quarter of the shortest rest edge: neighbours moved apart by up to
     * twice that stretch their edge by at most half its length */
    double edge = fmin(2.0 * d->minor_radius * sin(PI / s->N),
                       2.0 * (d->major_radius - d->minor_radius) * sin(PI / s->M));
    push_out_state st = {b->x, b->y, b->z, b->vx, b->vy, b->vz, sim_ring_vertex_mass(d),
                         d->contact_thickness, 0.25 * edge, pass == 0 ? SIM_PUSH_OUT_SPEED : 0.0,
                         s->def.solver.dt};
    if (push_out_apply(s->push_out, &m, &st) != 0)
        return -1;
    stop_pushed_crossings(s);
    return 1;
}

int overlap_push_out(dinghy_sim *s)
{
    if (!s->push_out || s->P < 2) /* made with the simulation for skin contact */
        return 0;
    /* a vertex put out can land inside another fold of that skin or in a
     * third ring, and a skin's own vertices put out move it over another
     * ring's vertex (the burst pile): find again until none is inside */
    for (int pass = 0; pass < PUSH_OUT_PASSES; pass++) {
        const int rc = push_out_pass(s, pass);
        if (rc <= 0)
            return rc;
    }
    return 0;
}
