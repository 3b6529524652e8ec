/* The point search: each point's pairs, parallel over points (of patches
 * that are on). Each point's box (grown by its own |v| dt), unless it
 * misses its patch's reach (the union of the patch box's overlaps with the
 * patch boxes of other rings it meets: no pair is lost, as the point's box
 * lies in its patch's box and a triangle's in its patch's), against the
 * triangles of the rings it may touch and whose box holds it. Patch by
 * patch: the slots whose box meets the union of the patch's point boxes
 * (of rings whose box meets it too) are listed once; each point tests that
 * list's boxes, then the lanes of the slots it meets, many boxes a test
 * (no branch per box; gcc makes the compares vector ones); the pairs made
 * are kept, up to K per point, the nearest first (whatever order the
 * triangles come in). */
#include "physics/contact/pair_law.h"

/* Inserts (t, d, wake) into point i's list kept by ascending d (ties by
 * triangle), dropping the farthest beyond K. The list is the K least
 * (d, t) whatever the order the triangles come in. */
static void keep_pair(int *tri, float *wk, double *dist, int *n, int t, double d, float wake)
{
    int j = *n;
    if (j == K) {
        if (d > dist[K - 1] || (d == dist[K - 1] && t > tri[K - 1]))
            return;
        j = K - 1;
    } else
        (*n)++;
    while (j > 0 && (dist[j - 1] > d || (dist[j - 1] == d && tri[j - 1] > t))) {
        dist[j] = dist[j - 1], tri[j] = tri[j - 1], wk[j] = wk[j - 1];
        j--;
    }
    dist[j] = d, tri[j] = t, wk[j] = wake;
}

/* The point being searched: its index and grid place, its box, and the
 * pairs it keeps so far (keep_pair's list). */
typedef struct {
    int i, p, m, n;
    float lo[3], hi[3]; /* its box, m */
    int tri[K], npair;
    float wake[K];
    double dist[K];
} point_query;

/* Point pq against triangle h of quad (m, n) of ring q, whose box meets
 * the point's: self-contact not against a triangle whose quad has a corner
 * within self_steps grid steps of the point, both ways (periodic), then
 * the pair itself. */
static void consider(const contact_kernel *c, point_query *pq, int q, int m, int n, int h)
{
    if (q == pq->p && self_excluded(c, c->k->self_steps, pq->m, pq->n, m, n))
        return;
    const int t = 2 * (q * c->MN + m * c->N + n) + h;
    pair_geo g;
    float wake;
    double d;
    if (pair_geometry(c, pq->i, t, &g)) {
        if (pair_candidate(c, pq->i, &g, &wake))
            keep_pair(pq->tri, pq->wake, pq->dist, &pq->npair, t, g.d, wake);
    } else if (q != pq->p && pair_near(c, pq->i, t, &d, &wake))
        keep_pair(pq->tri, pq->wake, pq->dist, &pq->npair, t, d, wake);
}

/* Point pq against the lanes of slot s (ring q) whose box meets the point's. */
static void search_slot(const contact_kernel *c, point_query *pq, int q, int s)
{
    const int pi = c->slot_patch[s], a = pi / c->pn, b = pi - a * c->pn;
    uint32_t lanes = boxes_meeting(c->tbox + (size_t)SLOT_FLOATS * (size_t)s, LANES, LANES, LANES,
                                   pq->lo, pq->hi)
                   & c->lane_on[pi];
    while (lanes) {
        const int j = lowest_bit(lanes);
        lanes &= lanes - 1;
        consider(c, pq, q, a * PATCH + j / PATCH % PATCH, b * PATCH + j % PATCH,
                 j / (PATCH * PATCH));
    }
}

/* Whether the point's box meets ring q's (the broad phase's filter). */
static int meets_ring(const contact_kernel *c, const point_query *pq, int q)
{
    return box_meets_ring(c, pq->lo, pq->hi, q);
}

/* Point pq against every ring it may touch and whose box meets its own:
 * the slots of the ring whose box meets the point's, then their lanes.
 * That is every triangle of a patch that is on whose box meets the
 * point's, each once (a box lies in its slot's). */
static void search_rings(const contact_kernel *c, point_query *pq)
{
    for (int r = c->nbr_start[pq->p]; r < c->nbr_start[pq->p + 1]; r++) {
        const int q = c->nbr[r], s0 = c->pslot[q], s1 = c->pslot[q + 1];
        if (!meets_ring(c, pq, q))
            continue;
        for (int sb = s0; sb < s1; sb += MASK_BITS) {
            const int ns = s1 - sb < MASK_BITS ? s1 - sb : MASK_BITS;
            uint32_t slots = boxes_meeting(c->ubox + sb, c->ustride, MASK_BITS, ns, pq->lo, pq->hi);
            while (slots) {
                const int s = sb + lowest_bit(slots);
                slots &= slots - 1;
                search_slot(c, pq, q, s);
            }
        }
    }
}

/* The point's pairs into its lists, by triangle index: the gather's order. */
static void store_pairs(contact_kernel *c, point_query *pq)
{
    int *tri = pq->tri, np = pq->npair, i = pq->i;
    float *wk = pq->wake;
    for (int j = 1; j < np; j++)
        for (int r = j; r > 0 && tri[r - 1] > tri[r]; r--) {
            int tt = tri[r]; tri[r] = tri[r - 1]; tri[r - 1] = tt;
            float ww = wk[r]; wk[r] = wk[r - 1]; wk[r - 1] = ww;
        }
    c->npt[i] = (unsigned char)np;
    if (np) {
        const size_t at = point_place(c, i);
        memcpy(c->pt_tri + at, tri, sizeof *tri * (size_t)np);
        memcpy(c->pt_wake + at, wk, sizeof *wk * (size_t)np);
    }
}

/* A patch's points to search and the slots near any of them (a point
 * then tests only these: a triangle whose box meets the point's lies in a
 * slot whose box meets the union of the points' boxes). */
typedef struct {
    int n;                        /* points */
    point_query pt[PATCH * PATCH];
    float lo[3], hi[3];           /* the union of their boxes, m */
    slot_list near;
} patch_search;

/* The points of patch (a, b) of ring p with index in the ring in [r0, r1)
 * whose box meets the patch's reach (when the ring cannot touch itself:
 * its box lies in its patch's box, and a triangle's in its patch's, so a
 * pair needs the point's box to meet the overlap of the two patch boxes;
 * in a pile 74% of the points did not), and their union. */
static void patch_points(const contact_kernel *c, int p, int a, int b, int r0, int r1,
                         patch_search *ps)
{
    const contact_state *s = c->s;
    const float dt = c->k->ahead;
    ps->n = 0;
    for (int d = 0; d < 3; d++)
        ps->lo[d] = INFINITY, ps->hi[d] = -INFINITY;
    for (int m = a * PATCH; m < (a + 1) * PATCH && m < c->M; m++)
        for (int n = b * PATCH; n < (b + 1) * PATCH && n < c->N; n++) {
            const int r = m * c->N + n, i = p * c->MN + r;
            if (r < r0 || r >= r1)
                continue;
            const float sp
                = sqrtf(s->vx[i] * s->vx[i] + s->vy[i] * s->vy[i] + s->vz[i] * s->vz[i]) * dt;
            point_query *pq = &ps->pt[ps->n];
            pq->i = i, pq->p = p, pq->m = m, pq->n = n, pq->npair = 0;
            pq->lo[0] = s->x[i] - sp, pq->lo[1] = s->y[i] - sp, pq->lo[2] = s->z[i] - sp;
            pq->hi[0] = s->x[i] + sp, pq->hi[1] = s->y[i] + sp, pq->hi[2] = s->z[i] + sp;
            if (!c->self_on[p] && misses_reach(c, p, a, b, pq->lo, pq->hi))
                continue;
            for (int d = 0; d < 3; d++) {
                ps->lo[d] = pq->lo[d] < ps->lo[d] ? pq->lo[d] : ps->lo[d];
                ps->hi[d] = pq->hi[d] > ps->hi[d] ? pq->hi[d] : ps->hi[d];
            }
            ps->n++;
        }
}

/* The pairs of the points of patch (a, b) of ring p in [r0, r1) of the ring. */
static void find_patch(contact_kernel *c, int p, int a, int b, int r0, int r1)
{
    patch_search ps;
    patch_points(c, p, a, b, r0, r1, &ps);
    if (ps.n == 0)
        return;
    contact_list_slots(c, p, 0, ps.lo, ps.hi, &ps.near);
    const slot_list *l = &ps.near;
    for (int j = 0; j < ps.n; j++) {
        point_query *pq = &ps.pt[j];
        if (l->over)
            search_rings(c, pq);
        else
            for (int lb = 0; lb < l->nlist; lb += LIST_WIDTH) {
                uint32_t near
                    = boxes_meeting(l->box + lb, LIST_CAP, LIST_WIDTH, LIST_WIDTH, pq->lo, pq->hi);
                while (near) {
                    const int k = lb + lowest_bit(near), q = l->ring[k];
                    near &= near - 1;
                    /* the rings' filter too (it is in the broad phase's
                     * double precision: a lane may meet the point where
                     * the ring's box, by a rounding, does not) */
                    if (meets_ring(c, pq, q))
                        search_slot(c, pq, q, l->slot[k]);
                }
            }
        store_pairs(c, pq);
    }
}

/* Work up to ring p in half points: two entries per point to search (a
 * point in a patch that is on, the triangles of its quad) and two per ring
 * for passing it by. */
static long long find_work(const contact_kernel *c, int p) { return c->eoff[p] + 2LL * p; }

void contact_find_share(const contact_kernel *c, int share, int shares, int *v0, int *v1)
{
    const long long total = find_work(c, c->P);
    for (int end = 0; end < 2; end++) {
        const long long w = total * (share + end) / shares;
        int lo = 0, hi = c->P; /* the last ring p with find_work(p) <= w */
        while (hi - lo > 1) {
            int mid = (lo + hi) / 2;
            if (find_work(c, mid) <= w)
                lo = mid;
            else
                hi = mid;
        }
        const long long span = find_work(c, lo + 1) - find_work(c, lo);
        long long into = span > 0 ? (w - find_work(c, lo)) * c->MN / span : 0;
        if (into > c->MN)
            into = c->MN;
        *(end ? v1 : v0) = lo * c->MN + (int)into;
    }
    if (share + 1 == shares)
        *v1 = c->nv;
}

void contact_find(contact_kernel *c, int v0, int v1)
{
    const int MN = c->MN, N = c->N;
    for (int i = v0; i < v1;) {
        const int p = i / MN, end = (p + 1) * MN < v1 ? (p + 1) * MN : v1;
        /* a point not searched has no pairs */
        memset(c->npt + i, 0, (size_t)(end - i));
        memset(c->nep + i, 0, (size_t)(end - i));
        if (c->ring_on[p]) { /* its patches that are on, in the range's rows */
            const int r0 = i - p * MN, r1 = end - p * MN;
            for (int a = r0 / N / PATCH; a <= (r1 - 1) / N / PATCH; a++)
                for (int b = 0; b < c->pn; b++)
                    if (c->patch_on[(size_t)p * c->np + a * c->pn + b]) {
                        find_patch(c, p, a, b, r0, r1);
                        contact_edge_find_patch(c, p, a, b, r0, r1);
                    }
        }
        i = end;
    }
}
