/* Self-contact's reference shape: whether a ring may touch itself this
 * substep, so that a ring that cannot skips the search against its own
 * triangles.
 *
 * Neighbours. A point ignores its own ring's triangles whose quad has a
 * corner within self_steps grid steps in both m and n (periodic,
 * self_excluded); the rest mesh then has no contacts when a grid step
 * exceeds h. One step: a fold three quads wide (a U with one quad at its
 * tip) is held open by contact; with two, its sides passed through each
 * other in a burst ring. A fold at a single edge is not held: its two
 * triangles pass through each other edge through edge (contact.h, "Not
 * yet").
 *
 * The reference. Each ring keeps a reference shape (its shape at its first
 * substep, about its centroid) and g, the least distance there of a point
 * from a triangle it does not ignore (exact, once: about 0.9 ms for
 * 32 x 16).
 *
 * The test (conservative). Let y be the reference shape, g its ref_gap,
 * and R, t any isometry with every vertex within delta of R y_i + t now. A
 * point of the triangle, sum w_k x_k, is within delta of R (sum w_k y_k) +
 * t, so a point and a triangle it does not ignore are at least g - 2 delta
 * apart now. Two vertices of one ring close at most 2 vmax (about any
 * velocity), so a self pair active within the search's look-ahead needs
 * them within h + margin + 2 vmax ahead (ahead and margin: contact.h).
 * So when g - 2 delta exceeds that the ring has no
 * self pair until the next search. R and t come from the previous substep's fit (any
 * isometry keeps the test sound; a poor one only turns the search on): R
 * the rotation that fitted best then (the polar factor of sum (x - c) y^T,
 * contact_polar_rotation), t its centroid moved on by its mean velocity for
 * dt; ring_bounds (bounds.c) measures delta and fits the next substep's in
 * its one pass over the vertices. At rest (32 x 16, R 0.8, r 0.25 m) the
 * self search stays off while every vertex is within about 13 cm of the
 * fitted reference with self_steps 2; one step leaves a smaller gap. */
#include "physics/contact/pair_law.h"

static double dist3(const double a[3], const double b[3])
{
    double d[3] = {a[0] - b[0], a[1] - b[1], a[2] - b[2]};
    return sqrt(DOT(d, d));
}

/* Ring p's reference: its present shape about its centroid (stored in
 * float, as used), and ref_gap, the least distance of a point from a
 * triangle it does not ignore in that shape (exact closest points; a pair
 * is skipped when the bound |P - a| - (longest edge) already exceeds the
 * least so far). Once per ring and self_steps: about 3 ns per point-triangle. */
void contact_capture_reference(contact_kernel *c, const contact_params *k,
                               const contact_state *s, int p)
{
    int M = c->M, N = c->N, MN = c->MN, base = p * MN;
    double cen[3] = {0, 0, 0};
    for (int i = base; i < base + MN; i++)
        cen[0] += s->x[i], cen[1] += s->y[i], cen[2] += s->z[i];
    for (int j = 0; j < 3; j++)
        cen[j] /= MN;
    float *y = c->ref + 3 * (size_t)base;
    double extent = 0.0;
    for (int i = 0; i < MN; i++) {
        y[i] = (float)(s->x[base + i] - cen[0]);
        y[MN + i] = (float)(s->y[base + i] - cen[1]);
        y[2 * MN + i] = (float)(s->z[base + i] - cen[2]);
        const double r = sqrt((double)y[i] * y[i] + (double)y[MN + i] * y[MN + i]
                              + (double)y[2 * MN + i] * y[2 * MN + i]);
        extent = r > extent ? r : extent;
    }
    c->ref_extent[p] = extent;
#define REF(i, v) double v[3] = {y[i], y[MN + (i)], y[2 * MN + (i)]}
    double edge = 0.0; /* the longest triangle edge */
    for (int m = 0; m < M; m++)
        for (int n = 0; n < N; n++) {
            int m1 = m + 1 == M ? 0 : m + 1, n1 = n + 1 == N ? 0 : n + 1;
            REF(m * N + n, a); REF(m1 * N + n, b); REF(m1 * N + n1, cc); REF(m * N + n1, d);
            edge = fmax(edge, fmax(fmax(dist3(a, b), dist3(b, cc)), dist3(a, cc)));
            edge = fmax(edge, fmax(dist3(cc, d), dist3(a, d)));
        }
    double best = INFINITY;
    for (int pm = 0; pm < M; pm++)
        for (int pn = 0; pn < N; pn++) {
            REF(pm * N + pn, P);
            for (int m = 0; m < M; m++)
                for (int n = 0; n < N; n++) {
                    if (self_excluded(c, k->self_steps, pm, pn, m, n))
                        continue;
                    int m1 = m + 1 == M ? 0 : m + 1, n1 = n + 1 == N ? 0 : n + 1;
                    REF(m * N + n, a);
                    if (dist3(P, a) - edge >= best)
                        continue;
                    REF(m1 * N + n, b); REF(m1 * N + n1, cc); REF(m * N + n1, d);
                    const double *tri[2][3] = {{a, b, cc}, {a, cc, d}};
                    for (int o = 0; o < 2; o++) {
                        double w[3], q[3];
                        closest_point(P, tri[o][0], tri[o][1], tri[o][2], w);
                        for (int j = 0; j < 3; j++)
                            q[j] = w[0] * tri[o][0][j] + w[1] * tri[o][1][j] + w[2] * tri[o][2][j];
                        best = fmin(best, dist3(P, q));
                    }
                }
        }
#undef REF
    c->ref_gap[p] = best;
    c->ref_steps[p] = k->self_steps;
    /* This substep's isometry: none (the shape is the reference). */
    double *fit = c->fit + 13 * (size_t)p;
    memset(fit, 0, sizeof *fit * 13);
    fit[0] = fit[4] = fit[8] = 1.0;
    memcpy(fit + 9, cen, sizeof cen);
    fit[12] = 1.0;
}

/* The polar factor of A (3x3, row-major) by Newton's iteration
 * X <- (X + X^-T) / 2 into R; 0 when it failed (A singular, no
 * convergence, R not orthogonal to 1e-9). */
int contact_polar_rotation(const double A[9], double R[9])
{
    double X[9], nrm = 0.0;
    for (int j = 0; j < 9; j++)
        nrm += A[j] * A[j];
    if (!(nrm > 0.0) || !(nrm < INFINITY))
        return 0;
    for (int j = 0; j < 9; j++)
        X[j] = A[j] / sqrt(nrm / 3.0);
    for (int it = 0; it < 40; it++) {
        /* X^-T = cofactor(X) / det X */
        double C[9] = {X[4] * X[8] - X[5] * X[7], X[5] * X[6] - X[3] * X[8],
                       X[3] * X[7] - X[4] * X[6], X[2] * X[7] - X[1] * X[8],
                       X[0] * X[8] - X[2] * X[6], X[1] * X[6] - X[0] * X[7],
                       X[1] * X[5] - X[2] * X[4], X[2] * X[3] - X[0] * X[5],
                       X[0] * X[4] - X[1] * X[3]};
        double det = X[0] * C[0] + X[1] * C[1] + X[2] * C[2], change = 0.0;
        if (!(fabs(det) > 1e-300))
            return 0;
        for (int j = 0; j < 9; j++) {
            double nx = 0.5 * (X[j] + C[j] / det);
            change += (nx - X[j]) * (nx - X[j]);
            X[j] = nx;
        }
        if (change < 1e-28)
            break;
    }
    for (int a = 0; a < 3; a++)
        for (int b = 0; b < 3; b++) {
            double d = X[a] * X[b] + X[3 + a] * X[3 + b] + X[6 + a] * X[6 + b];
            if (!(fabs(d - (a == b)) < 1e-9))
                return 0;
        }
    memcpy(R, X, sizeof X);
    return 1;
}

/* The test above: d2 the largest squared distance of a vertex from the
 * fit now (its float rounding grown over), vmax the fastest vertex. */
int contact_self_may_touch(const contact_kernel *c, const contact_params *k, int p, double d2,
                           double vmax)
{
    if (c->ref_gap[p] == INFINITY)
        return 0; /* every triangle is a neighbour */
    if (c->fit[13 * (size_t)p + 12] == 0.0)
        return 1; /* no isometry to measure by */
    /* the deviation in float: each component a few roundings of values
     * below 2 |y| + |x - o| (the fit's R is orthogonal to 1e-9 and
     * rounded to float): 1e-5 of that, plus 1e-6 m, bounds the error */
    double delta = sqrt(d2) * (1.0 + 1e-5) + 1e-5 * (c->ref_extent[p] + sqrt(d2)) + 1e-6;
    return !(c->ref_gap[p] - 2.0 * delta > k->h + k->margin + 2.0 * vmax * k->ahead + 1e-5);
}
