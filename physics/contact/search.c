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

/* Bit j set when box j of n <= width meets the box lo .. hi: the same
 * test as one box at a time (a miss on any axis rejects). The boxes are
 * SoA, lo x, lo y, lo z, hi x, hi y, hi z, `stride` floats apart, each
 * array readable for `width` (a constant <= MASK_BITS: all are tested, a
 * loop of fixed length with no scalar remainder; the bits from n on are
 * dropped). No branch: plain compares and ors, which gcc makes vector
 * compares into a mask (which way a box goes is unpredictable). */
static inline uint32_t boxes_meeting(const float *b, size_t stride, int width, int n,
                                     const float lo[3], const float hi[3])
{
    const float l0 = lo[0], l1 = lo[1], l2 = lo[2], h0 = hi[0], h1 = hi[1], h2 = hi[2];
    const float *lx = b, *ly = b + stride, *lz = b + 2 * stride;
    const float *hx = b + 3 * stride, *hy = b + 4 * stride, *hz = b + 5 * stride;
    uint32_t mask = 0;
    for (int j = 0; j < width; j++) {
        const int miss = (l0 > hx[j]) | (h0 < lx[j]) | (l1 > hy[j]) | (h1 < ly[j])
                       | (l2 > hz[j]) | (h2 < lz[j]);
        mask |= (uint32_t)!miss << j;
    }
    return n < MASK_BITS ? mask & (((uint32_t)1 << n) - 1) : mask;
}

/* The lowest set bit of m != 0 (a plain loop where there is no builtin). */
static inline int lowest_bit(uint32_t m)
{
#if defined(__GNUC__)
    return __builtin_ctz(m);
#else
    int j = 0;
    while (!(m & 1u))
        m >>= 1, j++;
    return j;
#endif
}

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
    if (!pair_geometry(c, pq->i, t, &g) || !pair_candidate(c, pq->i, &g, &wake))
        return;
    keep_pair(pq->tri, pq->wake, pq->dist, &pq->npair, t, g.d, wake);
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
    const double *rb = c->rbox + 6 * (size_t)q;
    return !(pq->lo[0] > rb[3] || pq->hi[0] < rb[0] || pq->lo[1] > rb[4] || pq->hi[1] < rb[1]
             || pq->lo[2] > rb[5] || pq->hi[2] < rb[2]);
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

/* Slots a patch's list has room for; more (a patch near very many) and
 * its points search every ring instead. */
#define LIST_CAP 128
/* A point tests its patch's list LIST_WIDTH slots at a time: a list is
 * short (4.5 slots in a pile): 16 is one loop gcc vectorises (8 it
 * unrolls and leaves scalar) and tests fewer empty boxes than 32. */
#define LIST_WIDTH 16

/* A patch's points to search and the slots near any of them: of the rings
 * it may touch, those whose box meets the union of the points' boxes, the
 * slots whose box meets it too. A point then tests only these (a triangle
 * whose box meets the point's lies in a slot whose box meets the union). */
typedef struct {
    int n;                        /* points */
    point_query pt[PATCH * PATCH];
    float lo[3], hi[3];           /* the union of their boxes, m */
    int nlist, over;              /* slots listed; 1: more than LIST_CAP */
    int slot[LIST_CAP], ring[LIST_CAP];
    float box[6 * LIST_CAP];      /* the listed slots' boxes, lo x of each, then lo y, ... */
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
    const double *reach = c->preach + 6 * ((size_t)p * c->np + a * c->pn + b);
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
            if (!c->self_on[p]
                && ((pq->lo[0] > reach[3]) | (pq->hi[0] < reach[0]) | (pq->lo[1] > reach[4])
                    | (pq->hi[1] < reach[1]) | (pq->lo[2] > reach[5]) | (pq->hi[2] < reach[2])))
                continue;
            for (int d = 0; d < 3; d++) {
                ps->lo[d] = pq->lo[d] < ps->lo[d] ? pq->lo[d] : ps->lo[d];
                ps->hi[d] = pq->hi[d] > ps->hi[d] ? pq->hi[d] : ps->hi[d];
            }
            ps->n++;
        }
}

/* The slots near the patch's points (see patch_search). */
static void patch_slots(const contact_kernel *c, int p, patch_search *ps)
{
    point_query u; /* the union as a query */
    memcpy(u.lo, ps->lo, sizeof u.lo), memcpy(u.hi, ps->hi, sizeof u.hi);
    ps->nlist = 0, ps->over = 0;
    for (int r = c->nbr_start[p]; r < c->nbr_start[p + 1]; r++) {
        const int q = c->nbr[r], s0 = c->pslot[q], s1 = c->pslot[q + 1];
        if (!meets_ring(c, &u, q))
            continue;
        for (int sb = s0; sb < s1; sb += MASK_BITS) {
            const int ns = s1 - sb < MASK_BITS ? s1 - sb : MASK_BITS;
            uint32_t slots = boxes_meeting(c->ubox + sb, c->ustride, MASK_BITS, ns, u.lo, u.hi);
            while (slots) {
                const int s = sb + lowest_bit(slots), k = ps->nlist;
                slots &= slots - 1;
                if (k == LIST_CAP) {
                    ps->over = 1;
                    return;
                }
                ps->slot[k] = s, ps->ring[k] = q, ps->nlist++;
                for (int d = 0; d < 6; d++)
                    ps->box[d * LIST_CAP + k] = c->ubox[d * c->ustride + s];
            }
        }
    }
    /* the last test's LIST_WIDTH read past the list: empty boxes there */
    for (int k = ps->nlist; k % LIST_WIDTH; k++)
        for (int d = 0; d < 3; d++)
            ps->box[d * LIST_CAP + k] = INFINITY, ps->box[(3 + d) * LIST_CAP + k] = -INFINITY;
}

/* The pairs of the points of patch (a, b) of ring p in [r0, r1) of the ring. */
static void find_patch(contact_kernel *c, int p, int a, int b, int r0, int r1)
{
    patch_search ps;
    patch_points(c, p, a, b, r0, r1, &ps);
    if (ps.n == 0)
        return;
    patch_slots(c, p, &ps);
    for (int j = 0; j < ps.n; j++) {
        point_query *pq = &ps.pt[j];
        if (ps.over)
            search_rings(c, pq);
        else
            for (int lb = 0; lb < ps.nlist; lb += LIST_WIDTH) {
                uint32_t near
                    = boxes_meeting(ps.box + lb, LIST_CAP, LIST_WIDTH, LIST_WIDTH, pq->lo, pq->hi);
                while (near) {
                    const int k = lb + lowest_bit(near), q = ps.ring[k];
                    near &= near - 1;
                    /* the rings' filter too (it is in the broad phase's
                     * double precision: a lane may meet the point where
                     * the ring's box, by a rounding, does not) */
                    if (meets_ring(c, pq, q))
                        search_slot(c, pq, q, ps.slot[k]);
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
        if (c->ring_on[p]) { /* its patches that are on, in the range's rows */
            const int r0 = i - p * MN, r1 = end - p * MN;
            for (int a = r0 / N / PATCH; a <= (r1 - 1) / N / PATCH; a++)
                for (int b = 0; b < c->pn; b++)
                    if (c->patch_on[(size_t)p * c->np + a * c->pn + b])
                        find_patch(c, p, a, b, r0, r1);
        }
        i = end;
    }
}
