/* The law for one edge-edge pair: edge a0 a1 of ring p against edge b0 b1
 * of another ring q (physics.md section 9), inlined into the search (which
 * pairs are made), link (their fixed inputs) and the gather (their
 * forces). The same law as the vertex-triangle pair (pair_law.h), on other
 * geometry; edge_pairs.c finds and links the pairs.
 *
 * Why: a mesh's edges (about 15 cm on a 32 x 16 ring) are far longer than
 * the contact thickness h (1 cm), so two skins can pass edge through edge
 * with no vertex near a face: at the crossing of two such edges the
 * nearest vertex is about 2 cm from the other skin's faces, and the
 * vertex-triangle pairs act only once the edges have crossed by about 1 cm.
 *
 * Geometry: the closest points pa = (1 - s) a0 + s a1, pb = (1 - t) b0 +
 * t b1 of the two lines. A pair is made only with both strictly inside
 * their edges (0 < s, t < 1: at an edge's end the vertex-triangle pairs
 * see it) and the edges not parallel (then the closest points are not
 * unique, and one may be taken at an end), and each edge on the outer
 * side of the other's face: (pa - pb).n_b >= 0 and (pa - pb).n_a <= 0
 * (n_a, n_b the outward unit normals of the edges' owner triangles). The
 * direction u = (pa - pb) / |pa - pb|, the distance s_ab = |pa - pb| and
 * the gap d = s_ab - h. Why no pair for edges that look crossed: held
 * two-sided, two rings placed 25 cm through each other took 0.35 s to be
 * pushed apart at 1/60 s steps (0.08 s when such edges make no pair),
 * their crossed edges held crossed; flipped to push them back out (as
 * the vertex-triangle pair does a point behind another ring's face), skins tore
 * (three 16 x 8 rings piled with the constant inflation): where two
 * faces point nearly the same way, at a fold or a coarse mesh's ridge,
 * the normals' verdict is noise, and a wrong flip pushes the edges
 * through each other. A crossing is the vertex-triangle pairs' and the
 * overlaps' push-out's to undo. When |pa - pb| is below 1 um (the edges
 * meet) its direction is noise: then u = (a1 - a0) x (b1 - b0),
 * normalised, signed by u.(n_b - n_a) >= 0, s_ab = (pa - pb).u.
 * Kept by the search when d <= V ahead + margin, V the closing bound (each
 * edge's faster end's |v|, summed: any direction), and active when d <=
 * max(0, -vn) dt (the band, or closing fast enough to reach it:
 * speculative), as the vertex-triangle pair (pair_keep, pair_within).
 * Relative velocity vr = sum_k w_k v_k with the signed weights w = (1 - s,
 * s, -(1 - t), -t) on (a0, a1, b0, b1); vn = vr.u.
 * Split effective mass (Gershgorin): 1/m_eff = sum_k |w_k| c_k / m_k, c_k
 * the vertex's share of all pairs (|w| per pair, both kinds). Target,
 * accumulated normal impulse (>= 0) and Coulomb friction (mu) as
 * pair_law.h; the force F of an iteration acts as w_k F on vertex k: the
 * forces sum to zero to round-off (sum w = 0), and the normal force has no
 * torque (parallel to pa - pb, applied at pa and pb). */
#ifndef DINGHY_CONTACT_EDGE_LAW_H
#define DINGHY_CONTACT_EDGE_LAW_H

#include "physics/contact/pair_law.h"

/* Below this distance (m) of the closest points their difference gives
 * no direction. */
#define EDGE_MEET 1e-6

typedef struct {
    int v[4];      /* a0, a1, b0, b1 */
    double w[4];   /* signed weights (1 - s, s, -(1 - t), -t) */
    double u[3];   /* direction of the force on edge a */
    double s;      /* signed distance, m (negative crossed) */
    double d;      /* gap s - h, m */
    double vn;     /* relative normal velocity, m/s (< 0 closing) */
    double V;      /* closing bound, m/s: each edge's faster end's |v|, summed */
} edge_geo;

/* The outward unit normal of the triangle that owns edge e (the search's
 * lane: triangle 0 of the quad owns types 0 and 2, triangle 1 type 1);
 * 0 when degenerate. */
static inline int edge_owner_normal(const contact_kernel *c, const contact_state *st, int e,
                                    double n[3])
{
    int v[3];
    tri_corners(c, 2 * (e / 3) + (e % 3 == 1), v);
    double e1[3] = {st->x[v[1]] - st->x[v[0]], st->y[v[1]] - st->y[v[0]],
                    st->z[v[1]] - st->z[v[0]]};
    double e2[3] = {st->x[v[2]] - st->x[v[0]], st->y[v[2]] - st->y[v[0]],
                    st->z[v[2]] - st->z[v[0]]};
    cross3(e1, e2, n);
    double nn = sqrt(DOT(n, n));
    if (!(nn > 0.0))
        return 0;
    n[0] /= nn, n[1] /= nn, n[2] /= nn;
    return 1;
}

/* The geometry of edge ea (ring p) against edge eb (ring q != p) from the
 * state, their ends v = a0, a1, b0, b1 given (the search knows them
 * without a division; edge_end gives them); 0 when the pair cannot
 * touch: a closest point at an end, parallel or degenerate edges, or
 * farther apart than h + margin + V ahead (V the closing bound, each
 * edge's faster end's |v| summed: no look-ahead reaches it; a cheap early
 * out, the same for the search and link), or an edge behind the other's
 * face. The one function the search and link call; with `now` (link), 0
 * as well when the pair cannot be active this substep, found before the
 * normals (most of link's pairs end there): |vn| <= |vr|, so a gap d >
 * |vr| dt fails pair_within (with a factor 1.001 for the rounding), and
 * g->V is not computed (that test implies the reach's). */
static inline int edge_geometry(const contact_kernel *c, int ea, int eb, const int v[4],
                                edge_geo *g, int now)
{
    const contact_state *st = c->s;
    g->v[0] = v[0], g->v[1] = v[1], g->v[2] = v[2], g->v[3] = v[3];
    double x[4][3];
    for (int k = 0; k < 4; k++)
        x[k][0] = st->x[g->v[k]], x[k][1] = st->y[g->v[k]], x[k][2] = st->z[g->v[k]];
    double d1[3], d2[3], r[3];
    for (int j = 0; j < 3; j++)
        d1[j] = x[1][j] - x[0][j], d2[j] = x[3][j] - x[2][j], r[j] = x[0][j] - x[2][j];
    const double a = DOT(d1, d1), e = DOT(d2, d2), b = DOT(d1, d2);
    const double cc = DOT(d1, r), f = DOT(d2, r), den = a * e - b * b;
    /* parallel within about 1e-3 rad, or degenerate: no unique pair */
    if (!(den > 1e-6 * a * e))
        return 0;
    /* The lines' closest points; inside both edges only (else an end is
     * nearest, and the vertex-triangle pairs see it). */
    const double sn = b * f - cc * e, tn = a * f - b * cc;
    if (!(sn > 0.0 && sn < den && tn > 0.0 && tn < den)) /* (no division: most fail here) */
        return 0;
    const double s = sn / den, t = tn / den;
    if (!(s < 1.0 && t < 1.0)) /* (rounded up to 1) */
        return 0;
    g->w[0] = 1.0 - s, g->w[1] = s, g->w[2] = -(1.0 - t), g->w[3] = -t;
    double dp[3], vr[3] = {0, 0, 0};
    for (int j = 0; j < 3; j++)
        dp[j] = (g->w[0] * x[0][j] + g->w[1] * x[1][j]) + (g->w[2] * x[2][j] + g->w[3] * x[3][j]);
    const float *vel[3] = {st->vx, st->vy, st->vz};
    for (int j = 0; j < 3; j++)
        vr[j] = (g->w[0] * vel[j][g->v[0]] + g->w[1] * vel[j][g->v[1]])
              + (g->w[2] * vel[j][g->v[2]] + g->w[3] * vel[j][g->v[3]]);
    const contact_params *k = c->k;
    const double dist = sqrt(DOT(dp, dp));
    if (now) {
        if (dist - k->h > 1.001 * sqrt(DOT(vr, vr)) * k->dt)
            return 0;
        g->V = 0.0;
    } else {
        g->V = sqrt(fmax(speed2(st, g->v[0]), speed2(st, g->v[1])))
             + sqrt(fmax(speed2(st, g->v[2]), speed2(st, g->v[3])));
        if (dist > k->h + k->margin + g->V * k->ahead)
            return 0;
    }
    /* each edge on the outer side of the other's face (see above) */
    double na[3], nb[3];
    if (!edge_owner_normal(c, st, ea, na) || !edge_owner_normal(c, st, eb, nb)
        || DOT(dp, nb) < 0.0 || DOT(dp, na) > 0.0)
        return 0;
    if (dist > EDGE_MEET) {
        for (int j = 0; j < 3; j++)
            g->u[j] = dp[j] / dist;
        g->s = dist;
    } else { /* the edges meet: their common normal, out of q's skin */
        double n[3];
        const double out[3] = {nb[0] - na[0], nb[1] - na[1], nb[2] - na[2]};
        cross3(d1, d2, n);
        const double nn = sqrt(DOT(n, n)), sg = DOT(n, out) >= 0.0 ? 1.0 : -1.0;
        for (int j = 0; j < 3; j++)
            g->u[j] = sg * n[j] / nn;
        g->s = DOT(dp, g->u);
    }
    g->d = g->s - k->h;
    g->vn = DOT(vr, g->u);
    return 1;
}

/* Whether an edge pair's geometry makes a contact this substep (as
 * pair_active). */
static inline int edge_active(const contact_kernel *c, const edge_geo *g)
{
    return pair_within(c->k, g->s, g->d, g->vn);
}

/* The distance (m) of the closest points of the segments a0 a1 and b0 b1
 * (x, the ends), each clamped to its segment: parallel or not. */
static inline double segment_distance(double x[4][3])
{
    double d1[3], d2[3], r[3];
    for (int j = 0; j < 3; j++)
        d1[j] = x[1][j] - x[0][j], d2[j] = x[3][j] - x[2][j], r[j] = x[0][j] - x[2][j];
    const double a = DOT(d1, d1), e = DOT(d2, d2), b = DOT(d1, d2);
    const double cc = DOT(d1, r), f = DOT(d2, r), den = a * e - b * b;
    if (!(a > 0.0 && e > 0.0)) /* a degenerate edge: its first end */
        return sqrt(DOT(r, r));
    double s = den > 0.0 ? fmin(fmax((b * f - cc * e) / den, 0.0), 1.0) : 0.0;
    double t = (b * s + f) / e;
    if (t < 0.0)
        t = 0.0, s = fmin(fmax(-cc / a, 0.0), 1.0);
    else if (t > 1.0)
        t = 1.0, s = fmin(fmax((b - cc) / a, 0.0), 1.0);
    double dp[3];
    for (int j = 0; j < 3; j++)
        dp[j] = r[j] + s * d1[j] - t * d2[j];
    return sqrt(DOT(dp, dp));
}

/* Whether the search keeps edge ea (ring p) against edge eb (ring q), the
 * ends v as edge_geometry; *rank orders the kept pairs (the least first:
 * the part of the reach the pair needs to become active) and *wake is
 * when it may first be active (s after the search), as pair_candidate: at
 * the closing bound V, each edge's faster end's |v| summed, whatever the
 * directions. A pair makes a contact only with its closest points inside
 * both edges (edge_geometry), but they slide along the edges as the rings
 * move, so a pair not made now may be made within the look-ahead: it is
 * kept too when the segments' distance (their closest points clamped to
 * them, which closes at most at V too) is within reach, and its lines'
 * closest points are within the slide a relative move by R = V ahead +
 * margin gives them: s in (-R / (|a| sin), 1 + R / (|a| sin)), t alike (a
 * move by u shifts s by u.(b d2 - e d1) / den, at most |u| / (|a| sin),
 * sin of the edges' angle). Its rank: the largest of its gap less the
 * margin and the move that brings its closest points inside their edges,
 * each over the reach. Link makes it only when edge_geometry does. */
static inline int edge_candidate(const contact_kernel *c, int ea, int eb, const int v[4],
                                 double *rank, float *wake)
{
    const contact_params *k = c->k;
    edge_geo g;
    if (edge_geometry(c, ea, eb, v, &g, 0)) {
        *rank = (g.d - k->margin) / (g.V * k->ahead + k->margin);
        return pair_keep(k, g.s, g.d, g.V, wake);
    }
    const contact_state *st = c->s;
    double x[4][3];
    for (int j = 0; j < 4; j++)
        x[j][0] = st->x[v[j]], x[j][1] = st->y[v[j]], x[j][2] = st->z[v[j]];
    const double V = sqrt(fmax(speed2(st, v[0]), speed2(st, v[1])))
                   + sqrt(fmax(speed2(st, v[2]), speed2(st, v[3])));
    const double R = V * k->ahead + k->margin, dist = segment_distance(x);
    if (!(dist <= k->h + R))
        return 0;
    double d1[3], d2[3], r[3];
    for (int j = 0; j < 3; j++)
        d1[j] = x[1][j] - x[0][j], d2[j] = x[3][j] - x[2][j], r[j] = x[0][j] - x[2][j];
    const double a = DOT(d1, d1), e = DOT(d2, d2), b = DOT(d1, d2);
    const double cc = DOT(d1, r), f = DOT(d2, r), den = a * e - b * b;
    *rank = (dist - k->h - k->margin) / R;
    double slide = 0.0; /* the least move that brings both closest points inside, m */
    if (den > 1e-6 * a * e) { /* (near parallel: the closest points may go anywhere) */
        const double sn = b * f - cc * e, tn = a * f - b * cc;
        const double ws = sqrt(e * den), wt = sqrt(a * den);
        slide = fmax(fmax(-sn, sn - den) / ws, fmax(-tn, tn - den) / wt);
        if (!(slide < R))
            return 0;
        *rank = fmax(*rank, slide / R);
    }
    /* (its wake is the gap's alone: the slide bound is a translation's,
     * and a turning ring slides its edges' closest points faster) */
    return pair_keep(k, dist, dist - k->h, V, wake);
}

/* The force (N) of one iteration of edge pair `pair` on edge a's side,
 * F[3]: vertex k of the pair gets w_k F. The pair's new accumulated
 * impulses into save[4] when not NULL (the gather stores them for the
 * next iteration: only a0's). Every vertex of the pair calls it with the
 * same pair id and reads the same stored inputs: the same bits. */
static inline void edge_force(const contact_kernel *c, int iter, int pair, float *save,
                              double F[3])
{
    const edge_fixed *g = &c->efix[pair];
    const contact_state *s = c->s;
    const int *v = g->v;
    const float *vel[3] = {s->vx, s->vy, s->vz};
    double vr[3];
    for (int j = 0; j < 3; j++)
        vr[j] = (g->w[0] * vel[j][v[0]] + g->w[1] * vel[j][v[1]])
              + (g->w[2] * vel[j][v[2]] + g->w[3] * vel[j][v[3]]);
    pair_impulse(c->k, c->eacc[iter & 1] + 4 * (size_t)pair, save, g->meff, g->target, g->u, vr,
                 F);
}

#endif
