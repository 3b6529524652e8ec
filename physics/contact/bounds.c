/* The broad phase: which rings and which of their patches may touch this
 * substep. Each ring's box and each patch's box, grown by h + the fastest
 * vertex's |v| dt, then the ring pairs whose boxes overlap by a sort and
 * sweep along x, then the same between the patches of those ring pairs.
 *
 * Why it drops nothing. A pair needs its point within h + |v_rel| dt <=
 * h + (|v_P| + max |v_corner|) dt of its triangle, so the point's ring
 * (patch) box and the triangle's ring (patch) box, each grown by h + its
 * fastest vertex's |v| dt, overlap. Whether a ring may touch itself is
 * self_reference.c's test, measured here in the same pass as the box. */
#include "physics/contact/contact_internal.h"

#include <math.h>
#include <string.h>

/* Ring p's box, fastest vertex and whether it may touch itself, in one
 * pass over its vertices (about 2 ns per vertex); the same pass measures
 * how far the vertices are from the reference shape under this substep's
 * isometry and fits the next substep's (self_reference.c). */
static void ring_bounds(contact_kernel *c, const contact_params *k, const contact_state *s, int p)
{
    int MN = c->MN, base = p * MN;
    if (c->ref_steps[p] != k->self_steps)
        contact_capture_reference(c, k, s, p);
    const float *y = c->ref + 3 * (size_t)base;
    double *fit = c->fit + 13 * (size_t)p; /* R (9), t (3), valid */
    const double *R = fit, *tr = fit + 9;
    /* One pass in float, BL lanes each with its own accumulators, so that
     * the loop vectorises without reassociating a sum; the lanes are then
     * combined in a fixed order (in double). The positions are taken
     * relative to o = the previous fit's translation rounded to float, so
     * the sums stay small (a ring far down the river is 100 m out). Sound
     * however it rounds: the bounds are float minima and maxima of float
     * positions (exact); the fastest speed and the largest deviation from
     * the fit are grown by margins above float's rounding (below); the fit
     * only has to be some isometry, which rounding keeps it. 8 lanes: one
     * vector register per accumulator (16 spill them). */
    enum { BL = 8 };
    float llo[3][BL], lhi[3][BL], lsx[3][BL], lsy[3][BL], lsv[3][BL], lA[9][BL];
    float lv2[BL], ld2[BL], lu2[BL];
    /* the velocity the self test measures speeds about */
    const float vc[3] = {s->vmean ? (float)s->vmean[3 * p] : 0.0f,
                         s->vmean ? (float)s->vmean[3 * p + 1] : 0.0f,
                         s->vmean ? (float)s->vmean[3 * p + 2] : 0.0f};
    for (int j = 0; j < BL; j++) {
        for (int a = 0; a < 3; a++)
            llo[a][j] = INFINITY, lhi[a][j] = -INFINITY, lsx[a][j] = lsy[a][j] = lsv[a][j] = 0.0f;
        for (int a = 0; a < 9; a++)
            lA[a][j] = 0.0f;
        lv2[j] = ld2[j] = lu2[j] = 0.0f;
    }
    const float o[3] = {(float)tr[0], (float)tr[1], (float)tr[2]};
    /* the fit's translation from o, and its rotation, in float */
    const float dt0 = (float)(tr[0] - o[0]), dt1 = (float)(tr[1] - o[1]), dt2 = (float)(tr[2] - o[2]);
    float Rf[9];
    for (int a = 0; a < 9; a++)
        Rf[a] = (float)R[a];
    const float *px = s->x + base, *py = s->y + base, *pz = s->z + base;
    const float *qx = s->vx + base, *qy = s->vy + base, *qz = s->vz + base;
    for (int i0 = 0; i0 < MN; i0 += BL) {
        const int nl = MN - i0 < BL ? MN - i0 : BL;
        for (int j = 0; j < nl; j++) {
            const int i = i0 + j;
            const float x0 = px[i], x1 = py[i], x2 = pz[i];
            const float r0 = x0 - o[0], r1 = x1 - o[1], r2 = x2 - o[2];
            const float y0 = y[i], y1 = y[MN + i], y2 = y[2 * MN + i];
            const float vv = qx[i] * qx[i] + qy[i] * qy[i] + qz[i] * qz[i];
            lv2[j] = vv > lv2[j] ? vv : lv2[j];
            const float w0 = qx[i] - vc[0], w1 = qy[i] - vc[1], w2 = qz[i] - vc[2];
            const float uu = w0 * w0 + w1 * w1 + w2 * w2;
            lu2[j] = uu > lu2[j] ? uu : lu2[j];
            llo[0][j] = x0 < llo[0][j] ? x0 : llo[0][j];
            llo[1][j] = x1 < llo[1][j] ? x1 : llo[1][j];
            llo[2][j] = x2 < llo[2][j] ? x2 : llo[2][j];
            lhi[0][j] = x0 > lhi[0][j] ? x0 : lhi[0][j];
            lhi[1][j] = x1 > lhi[1][j] ? x1 : lhi[1][j];
            lhi[2][j] = x2 > lhi[2][j] ? x2 : lhi[2][j];
            lsx[0][j] += r0, lsx[1][j] += r1, lsx[2][j] += r2;
            lsy[0][j] += y0, lsy[1][j] += y1, lsy[2][j] += y2;
            lsv[0][j] += qx[i], lsv[1][j] += qy[i], lsv[2][j] += qz[i];
            lA[0][j] += r0 * y0, lA[1][j] += r0 * y1, lA[2][j] += r0 * y2;
            lA[3][j] += r1 * y0, lA[4][j] += r1 * y1, lA[5][j] += r1 * y2;
            lA[6][j] += r2 * y0, lA[7][j] += r2 * y1, lA[8][j] += r2 * y2;
            const float e0 = (r0 - dt0) - ((Rf[0] * y0 + Rf[1] * y1) + Rf[2] * y2);
            const float e1 = (r1 - dt1) - ((Rf[3] * y0 + Rf[4] * y1) + Rf[5] * y2);
            const float e2 = (r2 - dt2) - ((Rf[6] * y0 + Rf[7] * y1) + Rf[8] * y2);
            const float d2 = e0 * e0 + e1 * e1 + e2 * e2;
            ld2[j] = d2 > ld2[j] ? d2 : ld2[j];
        }
    }
    double lo[3] = {INFINITY, INFINITY, INFINITY}, hi[3] = {-INFINITY, -INFINITY, -INFINITY};
    double sx[3] = {0, 0, 0}, sy[3] = {0, 0, 0}, sv[3] = {0, 0, 0}, A[9] = {0}, v2 = 0.0;
    double d2 = 0.0, u2max = 0.0;
    for (int j = 0; j < BL; j++) {
        u2max = lu2[j] > u2max ? lu2[j] : u2max;
        for (int a = 0; a < 3; a++) {
            lo[a] = llo[a][j] < lo[a] ? llo[a][j] : lo[a];
            hi[a] = lhi[a][j] > hi[a] ? lhi[a][j] : hi[a];
            sx[a] += lsx[a][j], sy[a] += lsy[a][j], sv[a] += lsv[a][j];
        }
        for (int a = 0; a < 9; a++)
            A[a] += lA[a][j];
        v2 = lv2[j] > v2 ? lv2[j] : v2;
        d2 = ld2[j] > d2 ? ld2[j] : d2;
    }
    /* float's sum of three squares is within 4 roundings (5e-7) of the true
     * one: the 1e-6 grows it past that */
    double cen[3], vmax = sqrt(v2) * (1.0 + 1e-6);
    for (int a = 0; a < 3; a++)
        cen[a] = sx[a] / MN; /* from o */
    for (int a = 0; a < 3; a++)
        for (int b = 0; b < 3; b++)
            A[3 * a + b] -= cen[a] * sy[b];
    for (int a = 0; a < 3; a++)
        cen[a] += o[a];
    double grow = k->h + k->margin + vmax * k->ahead + 1e-6;
    double *rb = c->rbox + 6 * (size_t)p;
    for (int a = 0; a < 3; a++)
        rb[a] = lo[a] - grow, rb[3 + a] = hi[a] + grow;
    /* Two vertices of one ring close at most twice the fastest one's speed
     * about any one velocity (the ring's mean one, when the state gives
     * it): the self test's speed (a ring drifting with the river does not
     * search itself for its drift); float's rounding as vmax's */
    const double vdev = sqrt(u2max) * (1.0 + 1e-6);
    c->self_on[p] = (unsigned char)contact_self_may_touch(c, k, p, d2, vdev);
    /* The next substep's isometry. */
    fit[12] = contact_polar_rotation(A, fit);
    for (int a = 0; a < 3; a++)
        fit[9 + a] = cen[a] + sv[a] / MN * k->ahead;
}

/* Ring p's patch boxes: each patch's vertices and the next row and column
 * (its triangles' corners), grown by h + the patch's vmax dt. */
static void patch_bounds(contact_kernel *c, const contact_params *k, const contact_state *s,
                         int p)
{
    int M = c->M, N = c->N, base = p * c->MN;
    for (int a = 0; a < c->pm; a++)
        for (int b = 0; b < c->pn; b++) {
            /* in float, as ring_bounds: exact bounds, the speed's rounding
             * (below 5e-7) inside its 1e-6 */
            float lo[3] = {INFINITY, INFINITY, INFINITY}, v2 = 0.0f;
            float hi[3] = {-INFINITY, -INFINITY, -INFINITY};
            int m1 = (a + 1) * PATCH < M ? (a + 1) * PATCH : M;
            int n1 = (b + 1) * PATCH < N ? (b + 1) * PATCH : N;
            for (int m = a * PATCH; m <= m1; m++)
                for (int n = b * PATCH; n <= n1; n++) {
                    int i = base + (m == M ? 0 : m) * N + (n == N ? 0 : n);
                    float x[3] = {s->x[i], s->y[i], s->z[i]};
                    float vv = s->vx[i] * s->vx[i] + s->vy[i] * s->vy[i] + s->vz[i] * s->vz[i];
                    v2 = vv > v2 ? vv : v2;
                    for (int j = 0; j < 3; j++) {
                        lo[j] = x[j] < lo[j] ? x[j] : lo[j];
                        hi[j] = x[j] > hi[j] ? x[j] : hi[j];
                    }
                }
            double grow = k->h + k->margin + sqrt((double)v2) * (1.0 + 1e-6) * k->ahead + 1e-6;
            double *pb = c->pbox + 6 * ((size_t)p * c->np + a * c->pn + b);
            for (int j = 0; j < 3; j++)
                pb[j] = lo[j] - grow, pb[3 + j] = hi[j] + grow;
        }
}

static int boxes_overlap(const double *a, const double *b)
{
    return !(a[0] > b[3] || b[0] > a[3] || a[1] > b[4] || b[1] > a[4] || a[2] > b[5]
             || b[2] > a[5]);
}

/* The sweep's order: by the box's low x, then by index (a total order, so
 * the sorted list is the same from any start). */
static int sweep_before(const sweep_key *a, const sweep_key *b)
{
    return a->x < b->x || (a->x == b->x && a->p < b->p);
}

/* Every ring's bounds, then the ring pairs whose grown boxes overlap (a
 * point and a triangle within h + (|v_P| + |v_T|) dt lie in them) by a
 * sweep along x (last substep's order insertion-sorted, then swept: O(P +
 * moves + pairs) as rings move little in a substep, where testing every
 * pair grows as P^2), then the same between the patches of those ring
 * pairs. ring_on: the rings in any pair
 * or touching themselves; patch_on: every patch of a ring that may touch
 * itself, and the patches in a pair. np^2 patch box tests per ring pair.
 * 0, or -1 when out of memory. Serial. */
int contact_broad_phase(contact_kernel *c)
{
    int P = c->P, np = c->np;
    for (int p = 0; p < P; p++)
        if (!(c->fresh[p] & FRESH_BOUNDS))
            ring_bounds(c, c->k, c->s, p);
    for (int p = 0; p < P; p++)
        c->ring_on[p] = 0;
    /* last substep's order with this substep's keys, by insertion: rings
     * move little in a substep, so it is nearly sorted (a new ring count
     * starts from the index order) */
    if (c->nsweep != P)
        for (int p = 0; p < P; p++)
            c->sweep[p].p = p;
    c->nsweep = P;
    for (int i = 0; i < P; i++) {
        sweep_key key = {c->rbox[6 * (size_t)c->sweep[i].p], c->sweep[i].p};
        int j = i;
        for (; j > 0 && sweep_before(&key, &c->sweep[j - 1]); j--)
            c->sweep[j] = c->sweep[j - 1];
        c->sweep[j] = key;
    }
    c->nring_pair = 0;
    for (int i = 0; i < P; i++) {
        int p = c->sweep[i].p;
        const double *a = c->rbox + 6 * (size_t)p;
        for (int j = i + 1; j < P; j++) {
            int q = c->sweep[j].p;
            const double *b = c->rbox + 6 * (size_t)q;
            if (b[0] > a[3])
                break; /* this and every later box start beyond p's */
            if (!boxes_overlap(a, b))
                continue;
            if (contact_grow((void **)&c->ring_pair, &c->ring_pair_cap,
                             2 * (c->nring_pair + 1), sizeof *c->ring_pair))
                return -1;
            c->ring_pair[2 * c->nring_pair] = p < q ? p : q;
            c->ring_pair[2 * c->nring_pair + 1] = p < q ? q : p;
            c->nring_pair++;
            c->ring_on[p] = c->ring_on[q] = 1;
        }
    }
    c->any_on = 0;
    for (int p = 0; p < P; p++) {
        memset(c->patch_on + (size_t)p * np, c->self_on[p], (size_t)np);
        if (c->ring_on[p] && !(c->fresh[p] & FRESH_PATCHES))
            patch_bounds(c, c->k, c->s, p);
        c->fresh[p] = 0;
        if (c->ring_on[p] && !c->self_on[p]) /* empty until a pair meets it */
            for (int a = 0; a < np; a++) {
                double *r = c->preach + 6 * ((size_t)p * np + a);
                r[0] = r[1] = r[2] = INFINITY, r[3] = r[4] = r[5] = -INFINITY;
            }
        c->ring_on[p] |= c->self_on[p];
        c->any_on |= c->ring_on[p];
    }
    for (size_t k = 0; k < c->nring_pair; k++) {
        int p = c->ring_pair[2 * k], q = c->ring_pair[2 * k + 1];
        unsigned char *onp = c->patch_on + (size_t)p * np, *onq = c->patch_on + (size_t)q * np;
        for (int a = 0; a < np; a++) {
            const double *pa = c->pbox + 6 * ((size_t)p * np + a);
            if (!boxes_overlap(pa, c->rbox + 6 * (size_t)q))
                continue;
            for (int b = 0; b < np; b++) {
                const double *pb = c->pbox + 6 * ((size_t)q * np + b);
                if (!boxes_overlap(pa, pb))
                    continue;
                onp[a] = onq[b] = 1;
                /* both patches' reach grows by the overlap */
                double *ra = c->preach + 6 * ((size_t)p * np + a);
                double *rb = c->preach + 6 * ((size_t)q * np + b);
                for (int d = 0; d < 3; d++) {
                    const double lo = pa[d] > pb[d] ? pa[d] : pb[d];
                    const double hi = pa[3 + d] < pb[3 + d] ? pa[3 + d] : pb[3 + d];
                    ra[d] = lo < ra[d] ? lo : ra[d], ra[3 + d] = hi > ra[3 + d] ? hi : ra[3 + d];
                    rb[d] = lo < rb[d] ? lo : rb[d], rb[3 + d] = hi > rb[3 + d] ? hi : rb[3 + d];
                }
            }
        }
    }
    /* The neighbour lists: itself first when it may touch itself, then
     * the others by index (the gather's fixed order). Counted, filled,
     * then each list sorted (they are short). */
    size_t need = 2 * c->nring_pair + (size_t)P;
    if (contact_grow((void **)&c->nbr, &c->nbr_cap, need > 0 ? need : 1, sizeof *c->nbr))
        return -1;
    for (int p = 0; p <= P; p++)
        c->nbr_start[p] = 0;
    for (int p = 0; p < P; p++)
        c->nbr_start[p + 1] = c->self_on[p];
    for (size_t k = 0; k < c->nring_pair; k++)
        c->nbr_start[c->ring_pair[2 * k] + 1]++, c->nbr_start[c->ring_pair[2 * k + 1] + 1]++;
    for (int p = 0; p < P; p++)
        c->nbr_start[p + 1] += c->nbr_start[p];
    int *fill = c->fill;
    for (int p = 0; p < P; p++) {
        fill[p] = c->nbr_start[p];
        if (c->self_on[p])
            c->nbr[fill[p]++] = p;
    }
    for (size_t k = 0; k < c->nring_pair; k++) {
        int p = c->ring_pair[2 * k], q = c->ring_pair[2 * k + 1];
        c->nbr[fill[p]++] = q;
        c->nbr[fill[q]++] = p;
    }
    for (int p = 0; p < P; p++) {
        int *l = c->nbr + c->nbr_start[p] + c->self_on[p];
        int len = c->nbr_start[p + 1] - c->nbr_start[p] - c->self_on[p];
        for (int j = 1; j < len; j++)
            for (int r = j; r > 0 && l[r - 1] > l[r]; r--) {
                int t = l[r];
                l[r] = l[r - 1], l[r - 1] = t;
            }
    }
    return 0;
}

void contact_bound(contact_kernel *c, const contact_params *k, const contact_state *s, int p0,
                   int p1)
{
    for (int p = p0; p < p1; p++) {
        ring_bounds(c, k, s, p);
        c->fresh[p] = FRESH_BOUNDS;
        /* A ring that could touch something last substep likely can now:
         * its patch boxes here, in parallel, not in plan's serial part
         * (the same bits either way; plan does any this missed). */
        if (c->ring_on[p]) {
            patch_bounds(c, k, s, p);
            c->fresh[p] |= FRESH_PATCHES;
        }
    }
}

int contact_any(const contact_kernel *c) { return c->any_on; }
