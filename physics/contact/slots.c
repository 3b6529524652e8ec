/* The triangle slots: each patch that is on takes a slot holding its 32
 * triangles' boxes, grown by h plus the fastest corner's |v| dt, as arrays
 * of each bound (structure of arrays, one lane per triangle), and their
 * union, the slot's box; with the edge pairs on, its 48 edges' boxes and
 * ends too (the edge search's filters). The search (search.c,
 * edge_pairs.c) tests many such boxes at a time, from a list of the slots
 * near a patch made here (contact_list_slots). contact_plan runs the
 * broad phase and gives out the slots (serial); contact_grid fills them
 * (parallel over rings). */
#include "physics/contact/contact_internal.h"

#include <math.h>

/* Plain comparisons (fminf and fmaxf are library calls here). */
static inline float min3f(float a, float b, float c)
{
    float m = a < b ? a : b;
    return m < c ? m : c;
}

static inline float max3f(float a, float b, float c)
{
    float m = a > b ? a : b;
    return m > c ? m : c;
}

size_t contact_grid_scratch_bytes(int M, int N)
{
    /* None: a patch's corners are gathered on the stack. One float, so that
     * a buffer of this size is a pointer. */
    (void)M, (void)N;
    return sizeof(float);
}

/* Triangle h of each quad of a patch (lanes h PATCH^2 ..): its box from
 * the patch's gathered corners px .. sp ((PATCH + 1)^2 each, row by row),
 * grown by h + its fastest corner's |v| dt, into the slot's arrays bx.
 * Corners as tri_corners gives them: (m,n) (m+1,n) (m+1,n+1), or (m,n)
 * (m+1,n+1) (m,n+1). Called with h constant, the loop over a row is plain
 * vector code. */
static inline void lane_boxes(const contact_params *k, const float *px, const float *py,
                              const float *pz, const float *sp, int h,
                              float *restrict bx)
{
    enum { W = PATCH + 1 };
    for (int dm = 0; dm < PATCH; dm++)
        for (int dn = 0; dn < PATCH; dn++) {
            const int j = h * PATCH * PATCH + dm * PATCH + dn;
            const int c0 = dm * W + dn, c1 = h ? (dm + 1) * W + dn + 1 : (dm + 1) * W + dn;
            const int c2 = h ? dm * W + dn + 1 : (dm + 1) * W + dn + 1;
            float vmax = 0.0f;
            vmax = sp[c0] > vmax ? sp[c0] : vmax;
            vmax = sp[c1] > vmax ? sp[c1] : vmax;
            vmax = sp[c2] > vmax ? sp[c2] : vmax;
            const float grow = k->h + k->margin + vmax * k->ahead;
            bx[0 * LANES + j] = min3f(px[c0], px[c1], px[c2]) - grow;
            bx[1 * LANES + j] = min3f(py[c0], py[c1], py[c2]) - grow;
            bx[2 * LANES + j] = min3f(pz[c0], pz[c1], pz[c2]) - grow;
            bx[3 * LANES + j] = max3f(px[c0], px[c1], px[c2]) + grow;
            bx[4 * LANES + j] = max3f(py[c0], py[c1], py[c2]) + grow;
            bx[5 * LANES + j] = max3f(pz[c0], pz[c1], pz[c2]) + grow;
        }
}

/* The patch's edges of type `type` (0 to (m+1, n), 1 to (m, n+1), 2 to
 * (m+1, n+1)), lane dm PATCH + dn each: their boxes from the gathered
 * corners, grown as the triangles' (h + margin + the faster end's |v|
 * ahead) and by the allowance (edge_lo, edge_hi), into bx (EDGE_LANES
 * each bound). The edge search's filter after the triangles' lanes. */
static inline void edge_lane_boxes(const contact_params *k, const float *px, const float *py,
                                   const float *pz, const float *sp, int type,
                                   float *restrict bx)
{
    enum { W = PATCH + 1 };
    const int step = type == 0 ? W : type == 1 ? 1 : W + 1; /* corner 1 from corner 0 */
    for (int dm = 0; dm < PATCH; dm++)
        for (int dn = 0; dn < PATCH; dn++) {
            const int j = dm * PATCH + dn, c0 = dm * W + dn, c1 = c0 + step;
            float vmax = 0.0f;
            vmax = sp[c0] > vmax ? sp[c0] : vmax;
            vmax = sp[c1] > vmax ? sp[c1] : vmax;
            const float grow = k->h + k->margin + vmax * k->ahead;
            bx[0 * EDGE_LANES + j] = edge_lo(px[c0] < px[c1] ? px[c0] : px[c1], grow);
            bx[1 * EDGE_LANES + j] = edge_lo(py[c0] < py[c1] ? py[c0] : py[c1], grow);
            bx[2 * EDGE_LANES + j] = edge_lo(pz[c0] < pz[c1] ? pz[c0] : pz[c1], grow);
            bx[3 * EDGE_LANES + j] = edge_hi(px[c0] > px[c1] ? px[c0] : px[c1], grow);
            bx[4 * EDGE_LANES + j] = edge_hi(py[c0] > py[c1] ? py[c0] : py[c1], grow);
            bx[5 * EDGE_LANES + j] = edge_hi(pz[c0] > pz[c1] ? pz[c0] : pz[c1], grow);
        }
}

/* The patch's quads' corners (m, n) and their edges' directions (the
 * other end less it, each type), lane dm PATCH + dn each, into ex
 * (EDGE_AT's layout): the edge search's closest-point filter. */
static inline void edge_lane_ends(const float *px, const float *py, const float *pz,
                                  float *restrict ex)
{
    enum { W = PATCH + 1 };
    const float *pc[3] = {px, py, pz};
    for (int d = 0; d < 3; d++)
        for (int dm = 0; dm < PATCH; dm++)
            for (int dn = 0; dn < PATCH; dn++) {
                const int j = dm * PATCH + dn, c0 = dm * W + dn;
                ex[d * EDGE_LANES + j] = pc[d][c0];
                for (int type = 0; type < 3; type++) {
                    const int c1 = c0 + (type == 0 ? W : type == 1 ? 1 : W + 1);
                    ex[(3 * (1 + type) + d) * EDGE_LANES + j] = pc[d][c1] - pc[d][c0];
                }
            }
}

/* Patch pi of ring p into slot s: its triangles' boxes, grown by h + the
 * fastest corner's |v| dt (the floats of the search's box test), one lane
 * each, and their union, the slot's box. Lanes that are no triangle are
 * empty (+inf .. -inf: they meet nothing). The patch's (PATCH + 1)^2
 * corners are gathered first (periodic), so that a lane's corners are at
 * fixed places. */
static void patch_grid(contact_kernel *c, int p, int pi, int s)
{
    enum { W = PATCH + 1 };
    const contact_state *st = c->s;
    const int M = c->M, N = c->N, a = pi / c->pn, b = pi - a * c->pn;
    const size_t base = (size_t)p * (size_t)c->MN;
    float px[W * W], py[W * W], pz[W * W], sp[W * W];
    int col[W]; /* the corners' columns (periodic; a mesh narrower than a patch too) */
    for (int dn = 0; dn < W; dn++)
        col[dn] = (b * PATCH + dn) % N;
    for (int dm = 0; dm < W; dm++) {
        const size_t row = base + (size_t)((a * PATCH + dm) % M) * (size_t)N;
        for (int dn = 0; dn < W; dn++) {
            const size_t i = row + (size_t)col[dn];
            const float vx = st->vx[i], vy = st->vy[i], vz = st->vz[i];
            px[dm * W + dn] = st->x[i], py[dm * W + dn] = st->y[i], pz[dm * W + dn] = st->z[i];
            sp[dm * W + dn] = sqrtf(vx * vx + vy * vy + vz * vz);
        }
    }
    float *bx = c->tbox + (size_t)SLOT_FLOATS * (size_t)s;
    lane_boxes(c->k, px, py, pz, sp, 0, bx);
    lane_boxes(c->k, px, py, pz, sp, 1, bx);
    if (c->k->edges) { /* (lanes that are no quad: their triangles' lanes are empty) */
        for (int type = 0; type < 3; type++)
            edge_lane_boxes(c->k, px, py, pz, sp, type, bx + TRI_FLOATS + 6 * EDGE_LANES * type);
        edge_lane_ends(px, py, pz, bx + EDGE_AT);
        float vmax = 0.0f;
        for (int j = 0; j < W * W; j++)
            vmax = sp[j] > vmax ? sp[j] : vmax;
        bx[EDGE_GROW] = c->k->h + c->k->margin + vmax * c->k->ahead;
    }
    const uint32_t on = c->lane_on[pi];
    if (on != ~(uint32_t)0) /* a patch cut by the mesh's edge */
        for (int j = 0; j < LANES; j++)
            if (!(on >> j & 1u))
                for (int d = 0; d < 3; d++)
                    bx[d * LANES + j] = INFINITY, bx[(3 + d) * LANES + j] = -INFINITY;
    /* The slot's box holds every lane's, so a box that misses it misses
     * them all: the least lo and greatest hi of 8 columns of 4 lanes
     * (plain vector code), then of the 8. A lane with a NaN (lo <= hi
     * fails) passes every box test: then the slot's box is everything. */
    enum { COLS = 8 };
    float *u = c->ubox + s;
    int nan = 0;
    for (int d = 0; d < 3; d++) {
        const float *l = bx + d * LANES, *g = bx + (3 + d) * LANES;
        float lo[COLS], hi[COLS];
        int bad[COLS];
        for (int j = 0; j < COLS; j++)
            lo[j] = l[j], hi[j] = g[j], bad[j] = !(l[j] <= g[j]);
        for (int r = COLS; r < LANES; r += COLS)
            for (int j = 0; j < COLS; j++) {
                lo[j] = l[r + j] < lo[j] ? l[r + j] : lo[j];
                hi[j] = g[r + j] > hi[j] ? g[r + j] : hi[j];
                bad[j] |= !(l[r + j] <= g[r + j]);
            }
        float ulo = lo[0], uhi = hi[0];
        for (int j = 1; j < COLS; j++)
            ulo = lo[j] < ulo ? lo[j] : ulo, uhi = hi[j] > uhi ? hi[j] : uhi;
        for (int j = 0; j < COLS; j++)
            nan |= bad[j];
        u[d * c->ustride] = ulo, u[(3 + d) * c->ustride] = uhi;
    }
    if (nan)
        for (int d = 0; d < 3; d++)
            u[d * c->ustride] = -INFINITY, u[(3 + d) * c->ustride] = INFINITY;
}

void contact_list_slots(const contact_kernel *c, int p, int edges, const float lo[3],
                        const float hi[3], slot_list *l)
{
    l->nlist = 0, l->over = 0;
    for (int r = c->nbr_start[p]; r < c->nbr_start[p + 1]; r++) {
        const int q = c->nbr[r], s0 = c->pslot[q], s1 = c->pslot[q + 1];
        if ((edges && !edge_searches(p, q)) || !box_meets_ring(c, lo, hi, q))
            continue;
        for (int sb = s0; sb < s1; sb += MASK_BITS) {
            const int ns = s1 - sb < MASK_BITS ? s1 - sb : MASK_BITS;
            uint32_t slots = boxes_meeting(c->ubox + sb, c->ustride, MASK_BITS, ns, lo, hi);
            while (slots) {
                const int s = sb + lowest_bit(slots), k = l->nlist;
                slots &= slots - 1;
                if (k == LIST_CAP) {
                    l->over = 1;
                    return;
                }
                l->slot[k] = s, l->ring[k] = q, l->nlist++;
                for (int d = 0; d < 6; d++)
                    l->box[d * LIST_CAP + k] = c->ubox[d * c->ustride + s];
            }
        }
    }
    /* the last test's LIST_WIDTH read past the list: empty boxes there */
    for (int k = l->nlist; k % LIST_WIDTH; k++)
        for (int d = 0; d < 3; d++)
            l->box[d * LIST_CAP + k] = INFINITY, l->box[(3 + d) * LIST_CAP + k] = -INFINITY;
}

int contact_plan(contact_kernel *c, const contact_params *k, const contact_state *s)
{
    c->k = k, c->s = s;
    c->P = s->P, c->nv = s->P * c->MN;
    c->cand_stale = 1;
    if (contact_broad_phase(c))
        return -1;
    /* Each ring's patches that are on, a slot each, and its triangles in
     * them (find's measure of work). */
    int e = 0, slot = 0;
    for (int p = 0; p < c->P; p++)
        if (c->ring_on[p])
            for (int pi = 0; pi < c->np; pi++)
                slot += c->patch_on[(size_t)p * c->np + pi];
    if (contact_reserve_slots(c, (size_t)slot))
        return -1;
    slot = 0;
    for (int p = 0; p < c->P; p++) {
        c->eoff[p] = e, c->pslot[p] = slot;
        if (c->ring_on[p])
            for (int a = 0; a < c->pm; a++)
                for (int b = 0; b < c->pn; b++)
                    if (c->patch_on[(size_t)p * c->np + a * c->pn + b]) {
                        int dm = (a + 1) * PATCH < c->M ? PATCH : c->M - a * PATCH;
                        int dn = (b + 1) * PATCH < c->N ? PATCH : c->N - b * PATCH;
                        e += 2 * dm * dn;
                        c->patch_slot[(size_t)p * c->np + a * c->pn + b] = slot;
                        c->slot_patch[slot++] = a * c->pn + b;
                    }
    }
    c->eoff[c->P] = e, c->pslot[c->P] = slot;
    return 0;
}

/* Ring p's slots (patch by patch; rings are independent: any split over
 * rings, the same bits). */
void contact_grid(contact_kernel *c, int p0, int p1, void *scratch)
{
    (void)scratch;
    for (int p = p0; p < p1; p++)
        if (c->ring_on[p])
            for (int s = c->pslot[p]; s < c->pslot[p + 1]; s++)
                patch_grid(c, p, c->slot_patch[s], s);
}

int contact_prepare(contact_kernel *c, const contact_params *k, const contact_state *s)
{
    if (contact_plan(c, k, s))
        return -1;
    contact_grid(c, 0, c->P, NULL);
    return 0;
}
