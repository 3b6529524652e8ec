/* The self-crossing stop; see cross.h. */
#include "physics/skin/cross.h"

#include "physics/skin/membrane.h"

#include <math.h>
#include <stdlib.h>

/* An edge in the sweep: its box's lowest x and its index. */
typedef struct {
    float lo;
    int e;
} sweep_item;

/* Ascending by box, then index: a total order, so qsort's result is one. */
static int by_lo(const void *a, const void *b)
{
    const sweep_item *p = a, *q = b;
    if (p->lo != q->lo)
        return p->lo < q->lo ? -1 : 1;
    return (p->e > q->e) - (p->e < q->e);
}

/* Edge e = 3 (m N + n) + kind of the grid: kind 0 (m,n)-(m+1,n) round the
 * ring, 1 (m,n)-(m,n+1) round the tube, 2 (m,n)-(m+1,n+1) the diagonal
 * both triangles of the quad share. */
static void edge_ends(int M, int N, int e, int v[2])
{
    const int q = e / 3, kind = e - 3 * q, m = q / N, n = q - m * N;
    const int m1 = m + 1 == M ? 0 : m + 1, n1 = n + 1 == N ? 0 : n + 1;
    v[0] = q;
    v[1] = kind == 0 ? m1 * N + n : kind == 1 ? m * N + n1 : m1 * N + n1;
}

/* The skin's two states and velocities, one ring. */
typedef struct {
    const float *x0, *y0, *z0;
    float *x, *y, *z, *vx, *vy, *vz;
    float eta;
} skin_states;

#define DOT3(a, b) ((a)[0] * (b)[0] + (a)[1] * (b)[1] + (a)[2] * (b)[2])

/* Corners k[0..3] with weights w (sum of the point's side minus the other
 * side's: 0), direction n (unit, from the other side to the point's) and
 * the start's gap g0 (m): kept at least min(eta, g0) apart at the end, the
 * same points measured, however deep they went (the sweep found them
 * crossed: a skin falling over a drop passes 4 to 5 cm through itself in
 * one step, and a crossing left stays). Returns 1 when moved. */
static int hold(skin_states *st, const int k[4], const double w[4], const double n[3], double g0)
{
    double gap = 0.0, vn = 0.0, w2 = 0.0;
    for (int c = 0; c < 4; c++) {
        const int i = k[c];
        gap += w[c] * (st->x[i] * n[0] + st->y[i] * n[1] + st->z[i] * n[2]);
        vn += w[c] * (st->vx[i] * n[0] + st->vy[i] * n[1] + st->vz[i] * n[2]);
        w2 += w[c] * w[c];
    }
    const double target = g0 < st->eta ? g0 : st->eta;
    if (!(gap < target) || !(w2 > 0.0))
        return 0;
    /* moved apart to the target, and the closing speed taken out: equal
     * masses, each corner by its weight (momentum kept) */
    const double lambda = (target - gap) / w2, mu = vn < 0.0 ? -vn / w2 : 0.0;
    for (int c = 0; c < 4; c++) {
        const int i = k[c];
        st->x[i] += (float)(w[c] * lambda * n[0]);
        st->y[i] += (float)(w[c] * lambda * n[1]);
        st->z[i] += (float)(w[c] * lambda * n[2]);
        st->vx[i] += (float)(w[c] * mu * n[0]);
        st->vy[i] += (float)(w[c] * mu * n[1]);
        st->vz[i] += (float)(w[c] * mu * n[2]);
    }
    return 1;
}

/* Corner i at tau of the step (0: its start, 1: its end), m. */
static void at_tau(const skin_states *st, int i, double tau, double p[3])
{
    p[0] = st->x0[i] + tau * ((double)st->x[i] - st->x0[i]);
    p[1] = st->y0[i] + tau * ((double)st->y[i] - st->y0[i]);
    p[2] = st->z0[i] + tau * ((double)st->z[i] - st->z0[i]);
}

static double det3(const double a[3], const double b[3], const double c[3])
{
    return a[0] * (b[1] * c[2] - b[2] * c[1]) - a[1] * (b[0] * c[2] - b[2] * c[0])
         + a[2] * (b[0] * c[1] - b[1] * c[0]);
}

/* The pair's four corners k at tau: the edges k0-k1 and k2-k3 (vertex
 * 0, 1 and 2 for a vertex k3 and a triangle k0 k1 k2) as p[4][3]. */
static void corners_tau(const skin_states *st, const int k[4], double tau, double p[4][3])
{
    for (int c = 0; c < 4; c++)
        at_tau(st, k[c], tau, p[c]);
}

/* The signed volume whose zero is a crossing: for edges, (k2 - k0) .
 * ((k1 - k0) x (k3 - k2)); for a vertex k3 and a triangle, (k3 - k0) .
 * ((k1 - k0) x (k2 - k0)). */
static double volume(double p[4][3], int edges)
{
    double a[3], b[3], c[3];
    for (int j = 0; j < 3; j++) {
        a[j] = p[2][j] - p[0][j];
        b[j] = p[1][j] - p[0][j];
        c[j] = edges ? p[3][j] - p[2][j] : p[3][j] - p[0][j];
    }
    return edges ? det3(a, b, c) : det3(c, b, a);
}

/* Where the pair meets at tau, as weights w (point side positive, other
 * negative, summing to 0) when the two are coplanar there: 1 when the
 * edges' lines meet within both edges, or the vertex lies within the
 * triangle (mode 0) or within its angle at corner j (mode -j - 1). */
static int meets(double p[4][3], int mode, double w[4])
{
    double d1[3], d2[3], r[3];
    if (mode == 1) {
        for (int j = 0; j < 3; j++)
            d1[j] = p[1][j] - p[0][j], d2[j] = p[3][j] - p[2][j], r[j] = p[0][j] - p[2][j];
        const double A = DOT3(d1, d1), E = DOT3(d2, d2), B = DOT3(d1, d2);
        const double C = DOT3(d1, r), F = DOT3(d2, r), den = A * E - B * B;
        if (!(den > 1e-12 * A * E))
            return 0; /* parallel: no single point where they cross */
        const double s = (B * F - C * E) / den, t = (A * F - B * C) / den;
        if (!(s >= 0.0 && s <= 1.0 && t >= 0.0 && t <= 1.0))
            return 0;
        w[0] = 1.0 - s, w[1] = s, w[2] = -(1.0 - t), w[3] = -t;
        return 1;
    }
    for (int j = 0; j < 3; j++)
        d1[j] = p[1][j] - p[0][j], d2[j] = p[2][j] - p[0][j], r[j] = p[3][j] - p[0][j];
    const double d00 = DOT3(d1, d1), d01 = DOT3(d1, d2), d11 = DOT3(d2, d2);
    const double d20 = DOT3(r, d1), d21 = DOT3(r, d2), den = d00 * d11 - d01 * d01;
    if (!(den > 0.0))
        return 0;
    const double v = (d11 * d20 - d01 * d21) / den, u = (d00 * d21 - d01 * d20) / den;
    double l[3] = {1.0 - v - u, v, u};
    if (mode >= 0) {
        if (!(l[0] >= 0.0 && l[1] >= 0.0 && l[2] >= 0.0))
            return 0;
    } else {
        /* the vertex's edge to corner j swept through the triangle: the
         * vertex anywhere within the triangle's angle at j (its own weight
         * there may be negative), the weights then taken on the triangle */
        const int j = -mode - 1, j1 = (j + 1) % 3, j2 = (j + 2) % 3;
        if (!(l[j1] >= 0.0 && l[j2] >= 0.0) || !(l[j1] + l[j2] > 0.0))
            return 0;
        if (l[j] < 0.0) {
            const double sum = l[j1] + l[j2];
            l[j] = 0.0, l[j1] /= sum, l[j2] /= sum;
        }
    }
    w[0] = -l[0], w[1] = -l[1], w[2] = -l[2], w[3] = 1.0;
    return 1;
}

/* The unit direction along which the pair's gap is measured at tau: the
 * edges' common normal, or the triangle's, pointing to the point side
 * when sign > 0. 0 when there is none. */
static int direction(double p[4][3], int edges, double sign, double n[3])
{
    double b[3], c[3];
    for (int j = 0; j < 3; j++) {
        b[j] = p[1][j] - p[0][j];
        c[j] = edges ? p[3][j] - p[2][j] : p[2][j] - p[0][j];
    }
    n[0] = b[1] * c[2] - b[2] * c[1];
    n[1] = b[2] * c[0] - b[0] * c[2];
    n[2] = b[0] * c[1] - b[1] * c[0];
    const double len = sqrt(DOT3(n, n));
    if (!(len > 0.0))
        return 0;
    for (int j = 0; j < 3; j++)
        n[j] *= sign / len;
    return 1;
}

/* The volume along the step is a cubic in tau (three corners' moves, each
 * straight): from its values at tau = 0, 1/3, 2/3, 1 in Newton's form in
 * u = 3 tau, split where its slope is zero into pieces on which it is
 * monotone, each piece with a change of sign halved down to CROSS_HALVINGS
 * times: every time the pair is coplanar, in order. */
#define CROSS_HALVINGS 40

/* The cubic at u from its forward differences f0, d1, d2, d3 (step 1). */
static double cubic(const double f[4], double u)
{
    return f[0] + u * (f[1] + (u - 1.0) * (0.5 * f[2] + (u - 2.0) * f[3] / 6.0));
}

/* Pair k (mode 1: edges k0-k1 and k2-k3; else triangle k0 k1 k2 and
 * vertex k3, meets' modes): when, moving straight from the start to the
 * end, they pass through each other, the end is put back on the start's
 * side (hold). Returns 1 when moved. */
static int pair(skin_states *st, const int k[4], int mode)
{
    const int edges = mode == 1;
    double p[4][3], v[4], f[4];
    for (int j = 0; j < 4; j++) {
        corners_tau(st, k, j / 3.0, p);
        v[j] = volume(p, edges);
    }
    f[0] = v[0];
    f[1] = v[1] - v[0];
    f[2] = v[2] - 2.0 * v[1] + v[0];
    f[3] = v[3] - 3.0 * v[2] + 3.0 * v[1] - v[0];
    /* where the slope is zero: A u^2 + B u + C = 0 */
    double cut[4] = {0.0, 3.0, 3.0, 3.0};
    int cuts = 1;
    const double A = 0.5 * f[3], B = f[2] - f[3], C = f[1] - 0.5 * f[2] + f[3] / 3.0;
    if (A != 0.0) {
        const double disc = B * B - 4.0 * A * C;
        if (disc > 0.0) {
            const double r = sqrt(disc), q = -0.5 * (B + (B < 0.0 ? -r : r));
            double u1 = q / A, u2 = q != 0.0 ? C / q : u1;
            if (u1 > u2) {
                const double tmp = u1;
                u1 = u2, u2 = tmp;
            }
            if (u1 > 0.0 && u1 < 3.0)
                cut[cuts++] = u1;
            if (u2 > 0.0 && u2 < 3.0 && u2 != u1)
                cut[cuts++] = u2;
        }
    } else if (B != 0.0) {
        const double u1 = -C / B;
        if (u1 > 0.0 && u1 < 3.0)
            cut[cuts++] = u1;
    }
    cut[cuts++] = 3.0;
    /* the side before the first crossing, and how many: crossed and back
     * is not crossed */
    double w[4], vlo = 0.0;
    int crossings = 0;
    for (int piece = 0; piece + 1 < cuts; piece++) {
        double a = cut[piece], b = cut[piece + 1];
        const double fa = cubic(f, a), fb = cubic(f, b);
        if ((fa > 0.0) == (fb > 0.0))
            continue;
        for (int h = 0; h < CROSS_HALVINGS; h++) {
            const double mid = 0.5 * (a + b);
            if ((cubic(f, mid) > 0.0) == (fa > 0.0))
                a = mid;
            else
                b = mid;
        }
        corners_tau(st, k, b / 3.0, p);
        if (meets(p, mode, w) && crossings++ == 0)
            vlo = fa;
    }
    if (crossings % 2 == 0)
        return 0;
    /* crossed: the point side was on the side sign(vlo) of the
     * direction before (edges: the second edge's side is vlo's) */
    double n[3], n0[3], q[4][3];
    const double sign = edges ? (vlo > 0.0 ? -1.0 : 1.0) : (vlo > 0.0 ? 1.0 : -1.0);
    corners_tau(st, k, 0.0, q);
    if (!direction(q, edges, sign, n0))
        return 0;
    double g0 = 0.0;
    for (int c = 0; c < 4; c++)
        g0 += w[c] * DOT3(q[c], n0);
    /* held at the points where they met, along the end's direction
     * (after an edge crossed an edge it lies over the other's face:
     * the same two points are still the ones to part) */
    corners_tau(st, k, 1.0, q);
    if (!direction(q, edges, sign, n))
        return 0;
    return hold(st, k, w, n, g0 > 0.1 * st->eta ? g0 : 0.1 * st->eta);
}

/* Whether vertices a and b are joined by a grid edge (round the ring,
 * round the tube or a quad's diagonal, edge_ends' kinds). */
static int grid_edge(int M, int N, int a, int b)
{
    const int am = a / N, an = a - am * N, bm = b / N, bn = b - bm * N;
    int dm = bm - am, dn = bn - an;
    dm = dm > 1 ? dm - M : dm < -1 ? dm + M : dm;
    dn = dn > 1 ? dn - N : dn < -1 ? dn + N : dn;
    return (dm == 0 && (dn == 1 || dn == -1)) || (dn == 0 && (dm == 1 || dm == -1))
        || (dm == 1 && dn == 1) || (dm == -1 && dn == -1);
}

/* The box of corners v[0..n-1] over the step (start and end), grown by
 * eta, into b (lowest x, y, z, then highest). */
static void swept_box(const skin_states *st, const int *v, int n, float b[6])
{
    b[0] = b[3] = st->x0[v[0]], b[1] = b[4] = st->y0[v[0]], b[2] = b[5] = st->z0[v[0]];
    for (int c = 0; c < n; c++) {
        const float px[2] = {st->x0[v[c]], st->x[v[c]]}, py[2] = {st->y0[v[c]], st->y[v[c]]};
        const float pz[2] = {st->z0[v[c]], st->z[v[c]]};
        for (int j = 0; j < 2; j++) {
            b[0] = fminf(b[0], px[j]), b[3] = fmaxf(b[3], px[j]);
            b[1] = fminf(b[1], py[j]), b[4] = fmaxf(b[4], py[j]);
            b[2] = fminf(b[2], pz[j]), b[5] = fmaxf(b[5], pz[j]);
        }
    }
    for (int j = 0; j < 3; j++)
        b[j] -= st->eta, b[3 + j] += st->eta;
}

/* Whether the quad at (m, n) is in the neighbourhood of vertex (pm, pn)
 * one_pass checks first (a quad corner within one grid step both ways). */
static int near_quad(int M, int N, int pm, int pn, int m, int n)
{
    const int dm = ((m - pm) % M + M) % M, dn = ((n - pn) % N + N) % N;
    return (dm <= 1 || dm >= M - 2) && (dn <= 1 || dn >= N - 2);
}

/* Each vertex against the triangles beyond its neighbourhood, by sort and
 * sweep of their boxes over the step along x (items 0 .. 2MN - 1 the
 * triangles, 2MN + i vertex i): the contact holds such a pair apart
 * within the substeps, but the crease stop's and this stop's own moves
 * come after it, and a crease opened on a flattened tube moves its edge's
 * corners into the facing wall. */
static int far_points(skin_states *st, int M, int N, float *scratch)
{
    const int T = 2 * M * N, items = T + M * N;
    float *box = scratch;
    sweep_item *order = (sweep_item *)(scratch + 6 * (size_t)items);
    for (int it = 0; it < items; it++) {
        int c[3], n = 1;
        if (it < T)
            membrane_triangle_corners(M, N, it / 2 / N, it / 2 % N, it % 2, c), n = 3;
        else
            c[0] = it - T;
        float *b = box + 6 * (size_t)it;
        swept_box(st, c, n, b);
        order[it].lo = b[0];
        order[it].e = it;
    }
    qsort(order, (size_t)items, sizeof *order, by_lo);
    int moved = 0;
    for (int a = 0; a < items; a++) {
        const float *ba = box + 6 * (size_t)order[a].e;
        for (int b = a + 1; b < items && order[b].lo <= ba[3]; b++) {
            const float *bb = box + 6 * (size_t)order[b].e;
            if (bb[1] > ba[4] || bb[4] < ba[1] || bb[2] > ba[5] || bb[5] < ba[2])
                continue;
            const int ea = order[a].e, eb = order[b].e;
            if ((ea < T) == (eb < T))
                continue; /* two triangles or two vertices */
            const int tri = ea < T ? ea : eb, i = (ea < T ? eb : ea) - T;
            const int q = tri / 2, m = q / N, n = q - m * N;
            if (near_quad(M, N, i / N, i % N, m, n))
                continue; /* one_pass's first loop has it */
            int c[3];
            membrane_triangle_corners(M, N, m, n, tri % 2, c);
            const int k[4] = {c[0], c[1], c[2], i};
            moved += pair(st, k, 0);
        }
    }
    return moved;
}

/* One pass over the ring's pairs in a fixed order: the vertices against
 * the triangles near them, then the edges by sort and sweep along x. */
static int one_pass(skin_states *st, int M, int N, float *scratch)
{
    const float *x0 = st->x0, *y0 = st->y0, *z0 = st->z0, *x = st->x, *y = st->y, *z = st->z;
    const float eta = st->eta;
    const int E = 3 * M * N;
    int moved = 0;
    /* each vertex against the triangles the contact skips near it (a quad
     * corner within one grid step both ways, its own six left out) */
    for (int pm = 0; pm < M; pm++)
        for (int pn = 0; pn < N; pn++) {
            const int i = pm * N + pn;
            for (int dm = -2; dm <= 1; dm++)
                for (int dn = -2; dn <= 1; dn++) {
                    const int m = (pm + dm + M) % M, n = (pn + dn + N) % N;
                    for (int t = 0; t < 2; t++) {
                        int c[3];
                        membrane_triangle_corners(M, N, m, n, t, c);
                        if (c[0] == i || c[1] == i || c[2] == i)
                            continue;
                        /* a triangle with one corner j joined to the
                         * vertex by an edge (their fans overlap when that
                         * edge sweeps through it: no other feature
                         * crosses), else the vertex through its face */
                        int joined = 0, j = -1;
                        for (int q = 0; q < 3; q++)
                            if (grid_edge(M, N, i, c[q]))
                                joined++, j = q;
                        const int k[4] = {c[0], c[1], c[2], i};
                        moved += pair(st, k, joined == 1 ? -j - 1 : 0);
                    }
                }
        }
    /* the edges' boxes over the step, grown by eta; sweep along x */
    float *box = scratch;
    sweep_item *order = (sweep_item *)(scratch + 6 * (size_t)E);
    for (int e = 0; e < E; e++) {
        int v[2];
        edge_ends(M, N, e, v);
        float *b = box + 6 * (size_t)e;
        const float px[4] = {x0[v[0]], x0[v[1]], x[v[0]], x[v[1]]};
        const float py[4] = {y0[v[0]], y0[v[1]], y[v[0]], y[v[1]]};
        const float pz[4] = {z0[v[0]], z0[v[1]], z[v[0]], z[v[1]]};
        b[0] = b[3] = px[0], b[1] = b[4] = py[0], b[2] = b[5] = pz[0];
        for (int c = 1; c < 4; c++) {
            b[0] = fminf(b[0], px[c]), b[3] = fmaxf(b[3], px[c]);
            b[1] = fminf(b[1], py[c]), b[4] = fmaxf(b[4], py[c]);
            b[2] = fminf(b[2], pz[c]), b[5] = fmaxf(b[5], pz[c]);
        }
        for (int j = 0; j < 3; j++)
            b[j] -= eta, b[3 + j] += eta;
        order[e].lo = b[0];
        order[e].e = e;
    }
    qsort(order, (size_t)E, sizeof *order, by_lo);
    for (int a = 0; a < E; a++) {
        const float *ba = box + 6 * (size_t)order[a].e;
        int va[2];
        edge_ends(M, N, order[a].e, va);
        for (int b = a + 1; b < E && order[b].lo <= ba[3]; b++) {
            const float *bb = box + 6 * (size_t)order[b].e;
            if (bb[1] > ba[4] || bb[4] < ba[1] || bb[2] > ba[5] || bb[5] < ba[2])
                continue;
            int vb[2];
            edge_ends(M, N, order[b].e, vb);
            if (va[0] == vb[0] || va[0] == vb[1] || va[1] == vb[0] || va[1] == vb[1])
                continue;
            /* the lower index first: one order whatever the sort's ties */
            const int k[4] = {order[a].e < order[b].e ? va[0] : vb[0],
                              order[a].e < order[b].e ? va[1] : vb[1],
                              order[a].e < order[b].e ? vb[0] : va[0],
                              order[a].e < order[b].e ? vb[1] : va[1]};
            moved += pair(st, k, 1);
        }
    }
    return moved + far_points(st, M, N, scratch);
}

/* The window's motion made rigid (cross.h): the start's shape moved with
 * the centroid, every vertex at the mean velocity. Sums in vertex order. */
static void rigid_window(skin_states *st, int V)
{
    double c0[3] = {0.0, 0.0, 0.0}, c[3] = {0.0, 0.0, 0.0}, v[3] = {0.0, 0.0, 0.0};
    for (int i = 0; i < V; i++) {
        c0[0] += st->x0[i], c0[1] += st->y0[i], c0[2] += st->z0[i];
        c[0] += st->x[i], c[1] += st->y[i], c[2] += st->z[i];
        v[0] += st->vx[i], v[1] += st->vy[i], v[2] += st->vz[i];
    }
    double d[3];
    for (int k = 0; k < 3; k++)
        d[k] = (c[k] - c0[k]) / V, v[k] /= V;
    for (int i = 0; i < V; i++) {
        st->x[i] = (float)(st->x0[i] + d[0]);
        st->y[i] = (float)(st->y0[i] + d[1]);
        st->z[i] = (float)(st->z0[i] + d[2]);
        st->vx[i] = (float)v[0], st->vy[i] = (float)v[1], st->vz[i] = (float)v[2];
    }
}

int cross_stop(int M, int N, const float *x0, const float *y0, const float *z0, float *x,
               float *y, float *z, float *vx, float *vy, float *vz, float eta, int passes,
               float *scratch)
{
    if (passes <= 0)
        return 0;
    skin_states st = {x0, y0, z0, x, y, z, vx, vy, vz, eta};
    int moved = 0;
    for (int pass = 0; pass < passes; pass++) {
        const int k = one_pass(&st, M, N, scratch);
        moved += k;
        if (k == 0)
            return moved;
    }
    rigid_window(&st, M * N);
    return -1;
}

