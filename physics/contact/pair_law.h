/* The law for one pair, point P of mass m_P against triangle T with
 * corners a, b, c: its geometry and the force of one iteration, inlined
 * into the search (which pairs are made) and the gather (their forces).
 * pair_law.c fixes a pair's inputs for the substep and gives the law's
 * constants and stiffness.
 *
 * Geometry: q = w_a x_a + w_b x_b + w_c x_c, the closest point of T to P
 * (barycentric w >= 0, sum 1). If q is inside T, the direction u is T's
 * outward unit normal and s = (P - q).u (m, negative behind the face); if
 * q is on an edge or a corner, the pair counts only with P on the outer
 * side of T's plane, u = (P - q)/|P - q| and s = |P - q|. A ring's own
 * skin is two-sided: with P behind its own triangle (inside the tube,
 * where the walls of a tube folding flat meet) the inner side counts as
 * the outer one, u = -n and s = -(P - q).n, and P is held on it.
 * (One-sided, the walls of a burst ring were pushed through each other;
 * the ring then turned inside out and sank.) The gap is d = s - h (m): h
 * is the skin's contact thickness (0.01 m).
 * A pair is made when s >= -h and d <= max(0, -vn) dt: in the band, or
 * closing fast enough to reach it within the substep (speculative).
 * Relative normal velocity vn = (v_P - sum w_k v_k).u (m/s, < 0 closing).
 * Effective mass, split (Gershgorin): 1/m_eff = c_P/m_P + sum w_k c_k/m_k
 * (1/kg), c_i = vertex i's share of all pairs this substep (1 per pair as
 * the point, w per pair as a corner). With it the Jacobi matrix is
 * diagonally dominant: an iteration never overshoots, however many pairs
 * share a vertex (a point over an edge, a corner under many points).
 * Target normal velocity: -d/dt when d > 0 (close the gap, never more: no
 * tunnelling at any speed, restitution 0), min(beta (-d)/dt, v_out) inside
 * the band (a gentle push out: beta = 0.1, v_out = 0.1 m/s).
 * Each iteration, per pair: accumulated normal impulse
 *   J_n <- max(0, J_n + m_eff (target - vn))                 (N s)
 * accumulated friction impulse (Coulomb, mu = 0.6)
 *   J_t <- clamp(J_t - m_eff v_t, |J_t| <= mu J_n)           (N s)
 * (v_t the tangential relative velocity), and the force of the iteration
 * F = (dJ_n u + dJ_t) / dt (N) on P, -w_k F on corner k. Forces sum to
 * zero (to round-off: sum w = 1); the normal force has no torque (it is
 * parallel to P - q); friction acts at the lever |P - q| <= h. */
#ifndef DINGHY_CONTACT_PAIR_LAW_H
#define DINGHY_CONTACT_PAIR_LAW_H

#include "physics/contact/contact_internal.h"

#include <math.h>
#include <string.h>

/* Closest point of triangle abc to p as barycentric weights w; 1 when it
 * lies inside the triangle (not on an edge or a corner). */
static inline int closest_point(const double p[3], const double a[3], const double b[3],
                                const double cc[3], double w[3])
{
    double ab[3], ac[3], ap[3], bp[3], cp[3];
    for (int j = 0; j < 3; j++) {
        ab[j] = b[j] - a[j], ac[j] = cc[j] - a[j];
        ap[j] = p[j] - a[j], bp[j] = p[j] - b[j], cp[j] = p[j] - cc[j];
    }
    double d1 = DOT(ab, ap), d2 = DOT(ac, ap);
    if (d1 <= 0 && d2 <= 0) {
        w[0] = 1, w[1] = 0, w[2] = 0;
        return 0;
    }
    double d3 = DOT(ab, bp), d4 = DOT(ac, bp);
    if (d3 >= 0 && d4 <= d3) {
        w[0] = 0, w[1] = 1, w[2] = 0;
        return 0;
    }
    double vc = d1 * d4 - d3 * d2;
    if (vc <= 0 && d1 >= 0 && d3 <= 0) {
        double t = d1 / (d1 - d3);
        w[0] = 1 - t, w[1] = t, w[2] = 0;
        return 0;
    }
    double d5 = DOT(ab, cp), d6 = DOT(ac, cp);
    if (d6 >= 0 && d5 <= d6) {
        w[0] = 0, w[1] = 0, w[2] = 1;
        return 0;
    }
    double vb = d5 * d2 - d1 * d6;
    if (vb <= 0 && d2 >= 0 && d6 <= 0) {
        double t = d2 / (d2 - d6);
        w[0] = 1 - t, w[1] = 0, w[2] = t;
        return 0;
    }
    double va = d3 * d6 - d5 * d4;
    if (va <= 0 && d4 - d3 >= 0 && d5 - d6 >= 0) {
        double t = (d4 - d3) / ((d4 - d3) + (d5 - d6));
        w[0] = 0, w[1] = 1 - t, w[2] = t;
        return 0;
    }
    double inv = 1.0 / (va + vb + vc);
    w[1] = vb * inv, w[2] = vc * inv, w[0] = 1.0 - w[1] - w[2];
    return 1;
}

typedef struct {
    int v[3];      /* the triangle's corners */
    double w[3];   /* barycentric weights of the closest point */
    double u[3];   /* direction of the force on the point */
    double d;      /* gap s - h, m */
    double s;      /* signed distance from the face, m */
    double vn;     /* relative normal velocity, m/s (< 0 closing) */
    double vt[3];  /* relative tangential velocity, m/s */
} pair_geo;

/* The geometry of point i against triangle t from the state; 0 when the
 * pair cannot touch (degenerate triangle, or the point beyond an edge on
 * the inner side). The one function both sides of a pair call. */
static inline int pair_geometry(const contact_kernel *c, int i, int t, pair_geo *g)
{
    const contact_state *s = c->s;
    tri_corners(c, t, g->v);
    double p[3] = {s->x[i], s->y[i], s->z[i]}, x[3][3];
    for (int j = 0; j < 3; j++)
        x[j][0] = s->x[g->v[j]], x[j][1] = s->y[g->v[j]], x[j][2] = s->z[g->v[j]];
    double e1[3], e2[3], nrm[3];
    for (int j = 0; j < 3; j++)
        e1[j] = x[1][j] - x[0][j], e2[j] = x[2][j] - x[0][j];
    cross3(e1, e2, nrm);
    double nn = sqrt(DOT(nrm, nrm));
    if (!(nn > 0.0))
        return 0;
    int inside = closest_point(p, x[0], x[1], x[2], g->w);
    double dp[3];
    for (int j = 0; j < 3; j++)
        dp[j] = p[j] - (g->w[0] * x[0][j] + g->w[1] * x[1][j] + g->w[2] * x[2][j]);
    double side = DOT(dp, nrm) / nn;
    /* A ring's own skin is two-sided: inside a tube that folds flat its
     * walls meet from behind (the inner side), and are kept on that side;
     * another ring's skin is met from outside only (a point behind it is
     * pushed out through the band). */
    const int own = i / c->MN == g->v[0] / c->MN;
    const double flip = own && side < 0.0 ? -1.0 : 1.0;
    if (inside) {
        for (int j = 0; j < 3; j++)
            g->u[j] = flip * nrm[j] / nn;
        g->s = flip * side;
    } else {
        double dist = sqrt(DOT(dp, dp));
        if (!(flip * side > 0.0) || !(dist > 0.0))
            return 0;
        for (int j = 0; j < 3; j++)
            g->u[j] = dp[j] / dist;
        g->s = dist;
    }
    g->d = g->s - c->k->h;
    const int *v = g->v;
    double vr[3] = {
        s->vx[i] - (g->w[0] * s->vx[v[0]] + g->w[1] * s->vx[v[1]] + g->w[2] * s->vx[v[2]]),
        s->vy[i] - (g->w[0] * s->vy[v[0]] + g->w[1] * s->vy[v[1]] + g->w[2] * s->vy[v[2]]),
        s->vz[i] - (g->w[0] * s->vz[v[0]] + g->w[1] * s->vz[v[1]] + g->w[2] * s->vz[v[2]]),
    };
    g->vn = DOT(vr, g->u);
    for (int j = 0; j < 3; j++)
        g->vt[j] = vr[j] - g->vn * g->u[j];
    return 1;
}

/* Whether a pair of either kind, of signed distance s, gap d (m) and
 * normal velocity vn (m/s), makes a contact this substep: s not deeper
 * than h behind the face, and d in the band or reached within the
 * substep closing. */
static inline int pair_within(const contact_params *k, double s, double d, double vn)
{
    double reach = vn < 0 ? -vn * k->dt : 0.0;
    return s >= -k->h && d <= reach;
}

/* Whether a pair's geometry makes a contact this substep (pair_within). */
static inline int pair_active(const contact_kernel *c, const pair_geo *g)
{
    return pair_within(c->k, g->s, g->d, g->vn);
}

/* Vertex v's squared speed, m^2/s^2 (in double). */
static inline double speed2(const contact_state *s, int v)
{
    return (double)s->vx[v] * s->vx[v] + (double)s->vy[v] * s->vy[v]
         + (double)s->vz[v] * s->vz[v];
}

/* Whether the search keeps a pair of either kind of signed distance s and
 * gap d (m) whose sides close at most at V (m/s, the sum of each side's
 * fastest vertex's speed, any direction): not deeper than h behind, and
 * within V ahead + margin of the band. *wake: how long after the search
 * it may first be active (pair_within: in the band or closing into it
 * within a substep, at no more than V + dv, dv the speed a vertex may
 * gain before a new search, 2 margin / ahead), s, rounded early. */
static inline int pair_keep(const contact_params *k, double s, double d, double V, float *wake)
{
    if (!(s >= -k->h && d <= V * k->ahead + k->margin))
        return 0;
    /* active at time t needs d - V t - margin <= (V + dv) dt */
    const double dv = k->ahead > 0.0f ? 2.0 * k->margin / k->ahead : 0.0;
    const double gap = d - k->margin - (V + dv) * k->dt;
    const double t = gap <= 0.0 ? 0.0 : V > 0.0 ? gap / V : INFINITY;
    *wake = (float)(t - 1e-6); /* rounded early, never late */
    return 1;
}

/* Whether the search keeps a pair: in the band, or near enough to reach
 * it within the search's look-ahead at the pair's closing bound: the
 * point's speed plus its triangle's fastest corner's (any direction, as a
 * ring hit or bounced within the look-ahead may turn), with the margin for
 * the speeds' change. *wake: how long after the search the pair may first
 * be active (pair_active: in the band or closing into it within a
 * substep), s; link measures it only from then on (a pair found once a
 * step is then fixed by pair_active each substep). */
static inline int pair_candidate(const contact_kernel *c, int i, const pair_geo *g, float *wake)
{
    const contact_state *s = c->s;
    double vc2 = 0.0;
    for (int j = 0; j < 3; j++)
        vc2 = fmax(vc2, speed2(s, g->v[j]));
    return pair_keep(c->k, g->s, g->d, sqrt(speed2(s, i)) + sqrt(vc2), wake);
}

/* Whether the search keeps point i against triangle t of another ring
 * when pair_geometry makes no pair now (the point beyond an edge of the
 * triangle and behind its plane): the point may come round that edge
 * within the look-ahead (a ring turning at a ridge), so it is kept when
 * its distance from the triangle is within reach, at the same closing
 * bound as pair_candidate; *d its gap (that distance less h). Link makes
 * it only when pair_geometry does. */
static inline int pair_near(const contact_kernel *c, int i, int t, double *d, float *wake)
{
    const contact_state *s = c->s;
    int v[3];
    tri_corners(c, t, v);
    double p[3] = {s->x[i], s->y[i], s->z[i]}, x[3][3], w[3];
    for (int j = 0; j < 3; j++)
        x[j][0] = s->x[v[j]], x[j][1] = s->y[v[j]], x[j][2] = s->z[v[j]];
    closest_point(p, x[0], x[1], x[2], w);
    double dp[3];
    for (int j = 0; j < 3; j++)
        dp[j] = p[j] - (w[0] * x[0][j] + w[1] * x[1][j] + w[2] * x[2][j]);
    const double dist = sqrt(DOT(dp, dp));
    double vc2 = 0.0;
    for (int j = 0; j < 3; j++)
        vc2 = fmax(vc2, speed2(s, v[j]));
    *d = dist - c->k->h;
    return dist > 0.0 && pair_keep(c->k, dist, *d, sqrt(speed2(s, i)) + sqrt(vc2), wake);
}

/* The target normal velocity (m/s) of a pair of gap d (m): close the gap
 * and no more when d > 0, a gentle push out (beta, at most v_out) in the
 * band. */
static inline double pair_target(const contact_params *k, double d)
{
    if (d > 0)
        return -d / k->dt;
    double target = k->beta * -d / k->dt;
    return target > k->v_out ? k->v_out : target;
}

/* One iteration of a pair's law, whatever its kind (vertex-triangle or
 * edge-edge): from its fixed split mass meff (kg), target (m/s) and
 * direction u, the relative velocity vr (m/s) and the accumulated
 * impulses of the last iteration old[4] (N s), the force F (N) on the
 * first side; the new accumulators into save (when not NULL). */
static inline void pair_impulse(const contact_params *k, const float *old, float *save,
                                double meff, double target, const double u[3],
                                const double vr[3], double F[3])
{
    double vn = DOT(vr, u), vt[3];
    for (int j = 0; j < 3; j++)
        vt[j] = vr[j] - vn * u[j];
    /* Accumulated normal impulse stays >= 0; accumulated friction within
     * mu times it (sequential impulses, Jacobi order). */
    double jn_old = old[0], jn = jn_old + meff * (target - vn);
    if (!(jn > 0.0))
        jn = 0.0;
    double jt[3], lim = k->mu * jn;
    for (int j = 0; j < 3; j++)
        jt[j] = old[1 + j] - meff * vt[j];
    double jtl = sqrt(DOT(jt, jt));
    if (jtl > lim) {
        double sc = lim / jtl;
        jt[0] *= sc, jt[1] *= sc, jt[2] *= sc;
    }
    /* The new accumulators rounded to float, as they are stored: both
     * sides use the rounded values (C11 requires the conversion; with
     * -ffp-contract=off and no fast-math every operation here is one IEEE
     * rounding, so every inlined copy gives the same bits from the same
     * fixed record, velocities and accumulators). */
    const float nj[4] = {(float)jn, (float)jt[0], (float)jt[1], (float)jt[2]};
    if (save)
        memcpy(save, nj, sizeof nj);
    for (int j = 0; j < 3; j++)
        F[j] = (((double)nj[0] - jn_old) * u[j] + ((double)nj[1 + j] - old[1 + j])) / k->dt;
}

/* The force (N) of one iteration on the point of pair `pair`, F[3] (the
 * corners get -w F); the pair's new accumulated impulses into save[4]
 * when not NULL (the gather stores them for the next iteration: only the
 * point's owner). Reads the accumulators of iteration `iter` and the
 * velocities. Both sides of a pair call it with the same pair id and read
 * the same stored inputs. */
static inline void pair_force(const contact_kernel *c, int iter, int pair, float *save,
                              double F[3], double w[3])
{
    const pair_fixed *g = &c->fixed[pair];
    F[0] = F[1] = F[2] = 0.0;
    w[0] = w[1] = w[2] = 0.0;
    if (!g->ok)
        return;
    memcpy(w, g->w, sizeof g->w);
    const contact_state *s = c->s;
    const int *v = g->v, i = g->i;
    double vr[3] = {
        s->vx[i] - (g->w[0] * s->vx[v[0]] + g->w[1] * s->vx[v[1]] + g->w[2] * s->vx[v[2]]),
        s->vy[i] - (g->w[0] * s->vy[v[0]] + g->w[1] * s->vy[v[1]] + g->w[2] * s->vy[v[2]]),
        s->vz[i] - (g->w[0] * s->vz[v[0]] + g->w[1] * s->vz[v[1]] + g->w[2] * s->vz[v[2]]),
    };
    pair_impulse(c->k, c->acc[iter & 1] + 4 * (size_t)pair, save, g->meff, g->target, g->u, vr,
                 F);
}


#endif
