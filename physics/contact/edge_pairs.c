/* Edge-edge pairs between different rings (the law: edge_law.h): found in
 * contact_find after each patch's points, linked in contact_link after the
 * vertex-triangle pairs, gathered in the same iterations (solve.c).
 *
 * Search: each quad (m, n) of a patch that is on searches its corner's
 * three edges (to (m+1, n), (m, n+1), (m+1, n+1): every edge of the mesh
 * once) against the edges of the rings it searches (edge_searches: each
 * pair of rings once), through the
 * slots the points' search uses: the quad's box (its four corners grown by
 * their fastest |v| ahead) against the boxes of the slots near its patch
 * (listed once a patch, as the points'), then their lanes; a lane's
 * triangle stands for the edges it owns (triangle 0 of a quad its types 0
 * and 2, triangle 1 type 1), whose boxes lie in its own (grown by h +
 * margin + its corners' fastest |v| ahead): no pair is lost. Then, 16
 * edges of a type at a time with no branch, two filters that only drop
 * pairs the exact test (edge_geometry, in double) would drop: the edges'
 * own boxes (slots.c), and the closest points of the two lines in floats
 * (inside their edges or within the slide the reach allows, and the lines
 * within reach), each with a rounding allowance far above the floats'
 * error. The search looks ahead to the step's end (edge_candidate: the
 * speed bound, the slide, the wake). Kept, up to KE per point, those that
 * need the least of the reach (ties by the edges); stored by the edges,
 * whatever order they were found in: the same pairs, so the same bits,
 * whatever the filters.
 *
 * Link: the quads with pairs listed once a search (link.c), and each kept
 * pair, from its wake on, measured on the state now and kept when active,
 * quad by quad, then by (a, b): the pair ids, so the order of the shares'
 * sums and of every gather is fixed (no dependence on the threads). Each
 * vertex gathers its edge pairs by (vertex, role, pair), after its
 * vertex-triangle pairs (solve.c). */
#include "physics/contact/edge_law.h"

/* The pairs one quad keeps so far: the KE least (rank, key), key = a << 32
 * | b, with the time each may first be active (edge_candidate). */
typedef struct {
    int n;
    uint64_t key[KE];
    double d[KE];
    float wake[KE];
} edge_keep;

static void keep_edge(edge_keep *k, uint64_t key, double d, float wake)
{
    int j = k->n;
    if (j == KE) {
        if (d > k->d[KE - 1] || (d == k->d[KE - 1] && key > k->key[KE - 1]))
            return;
        j = KE - 1;
    } else
        k->n++;
    while (j > 0 && (k->d[j - 1] > d || (k->d[j - 1] == d && k->key[j - 1] > key))) {
        k->d[j] = k->d[j - 1], k->key[j] = k->key[j - 1], k->wake[j] = k->wake[j - 1];
        j--;
    }
    k->d[j] = d, k->key[j] = key, k->wake[j] = wake;
}

/* A quad being searched: its corner i and the other ends of its three
 * edges, their boxes (corners grown by the faster end's |v| ahead) and
 * their union, and the same boxes with the allowance (edge_lo, edge_hi)
 * for the test against the other ring's edge boxes. */
typedef struct {
    int i, corner[4];
    float elo[3][3], ehi[3][3], lo[3], hi[3];
    float plo[3][3], phi[3][3];
    float x0[3], d1[3][3], aa[3]; /* corner i, its edges' directions and their squares */
    float ga[3];                  /* each edge's faster end's |v| ahead */
} edge_query;

/* Quad (m, n) of ring p: its corners and boxes. */
static void quad_query(const contact_kernel *c, int p, int m, int n, edge_query *eq)
{
    const contact_state *s = c->s;
    /* (the ends as edge_end gives them, without its divisions) */
    const int base = p * c->MN, m1 = m + 1 == c->M ? 0 : m + 1, n1 = n + 1 == c->N ? 0 : n + 1;
    const int i = base + m * c->N + n;
    eq->i = i;
    eq->corner[0] = i, eq->corner[1] = base + m1 * c->N + n;
    eq->corner[2] = base + m * c->N + n1, eq->corner[3] = base + m1 * c->N + n1;
    float x[4][3], sp[4];
    for (int k = 0; k < 4; k++) {
        const int v = eq->corner[k];
        x[k][0] = s->x[v], x[k][1] = s->y[v], x[k][2] = s->z[v];
        sp[k] = sqrtf(s->vx[v] * s->vx[v] + s->vy[v] * s->vy[v] + s->vz[v] * s->vz[v])
              * c->k->ahead;
    }
    for (int j = 0; j < 3; j++)
        eq->x0[j] = x[0][j];
    for (int type = 0; type < 3; type++) {
        for (int j = 0; j < 3; j++)
            eq->d1[type][j] = x[type + 1][j] - x[0][j];
        eq->aa[type] = DOT(eq->d1[type], eq->d1[type]);
    }
    /* edge type's box: corners 0 and type + 1, grown by the faster's reach */
    for (int j = 0; j < 3; j++)
        eq->lo[j] = INFINITY, eq->hi[j] = -INFINITY;
    for (int type = 0; type < 3; type++) {
        const int k = type + 1;
        const float g = sp[0] > sp[k] ? sp[0] : sp[k];
        eq->ga[type] = g;
        for (int j = 0; j < 3; j++) {
            const float lo = x[0][j] < x[k][j] ? x[0][j] : x[k][j];
            const float hi = x[0][j] > x[k][j] ? x[0][j] : x[k][j];
            eq->elo[type][j] = lo - g, eq->ehi[type][j] = hi + g;
            eq->plo[type][j] = edge_lo(lo, g), eq->phi[type][j] = edge_hi(hi, g);
            eq->lo[j] = eq->elo[type][j] < eq->lo[j] ? eq->elo[type][j] : eq->lo[j];
            eq->hi[j] = eq->ehi[type][j] > eq->hi[j] ? eq->ehi[type][j] : eq->hi[j];
        }
    }
}

/* The float closest-point filter's allowance: a fraction of each
 * quantity's scale (by Cauchy-Schwarz a bound on its terms), far above
 * the float rounding of the ends, the directions and the products (a few
 * tens of float epsilons). */
#define EDGE_TOL 0x1p-10f

/* Bit j set unless lane j's edge (corner ex[j], direction, EDGE_AT's
 * layout, type tb) surely has a closest point of the two lines outside it
 * or outside edge ta of eq by more than the slide a move by g allows
 * (edge_candidate's test in double: sn in (-g sqrt(e den), den + g
 * sqrt(e den)), tn alike; most candidates fail there), or the lines are
 * surely farther apart than reach g (>= h + margin + V ahead: the
 * segments' distance is at least the lines', |r.(d1 x d2)| / sqrt(den)). In
 * floats with the allowance EDGE_TOL, so it keeps every pair the test
 * keeps; no branch (gcc makes the loop vector code). A NaN keeps the
 * lane. */
static inline uint32_t lanes_inside(const edge_query *eq, int ta, const float *ex, int tb,
                                    float g)
{
    const float g2 = g * g * (1.0f + EDGE_TOL), gs = g * (1.0f + EDGE_TOL);
    const float *bx = ex, *by = ex + EDGE_LANES, *bz = ex + 2 * EDGE_LANES;
    const float *dx = ex + 3 * (1 + tb) * EDGE_LANES, *dy = dx + EDGE_LANES,
                *dz = dx + 2 * EDGE_LANES;
    const float ax = eq->x0[0], ay = eq->x0[1], az = eq->x0[2];
    const float ux = eq->d1[ta][0], uy = eq->d1[ta][1], uz = eq->d1[ta][2], a = eq->aa[ta];
    uint32_t mask = 0;
    for (int j = 0; j < EDGE_LANES; j++) {
        const float rx = ax - bx[j], ry = ay - by[j], rz = az - bz[j];
        const float e = dx[j] * dx[j] + dy[j] * dy[j] + dz[j] * dz[j];
        const float b = ux * dx[j] + uy * dy[j] + uz * dz[j];
        const float cc = ux * rx + uy * ry + uz * rz, f = dx[j] * rx + dy[j] * ry + dz[j] * rz;
        const float rr = rx * rx + ry * ry + rz * rz;
        const float den = a * e - b * b, sn = b * f - cc * e, tn = a * f - b * cc;
        const float td = EDGE_TOL * a * e, ts = EDGE_TOL * e * sqrtf(a * rr),
                    tt = EDGE_TOL * a * sqrtf(e * rr);
        const float nx = uy * dz[j] - uz * dy[j], ny = uz * dx[j] - ux * dz[j],
                    nz = ux * dy[j] - uy * dx[j];
        const float rn = fabsf(rx * nx + ry * ny + rz * nz) - EDGE_TOL * sqrtf(a * e * rr);
        /* the slide a move within reach may give the closest points
         * (edge_candidate) */
        const float ws = gs * sqrtf(e * (den + td)), wt = gs * sqrtf(a * (den + td));
        const int out = (sn < -ts - ws) | (sn - den > ts + td + ws) | (tn < -tt - wt)
                      | (tn - den > tt + td + wt) | ((rn > 0.0f) & (rn * rn > g2 * (den + td)));
        mask |= (uint32_t)!out << j;
    }
    return mask;
}

/* Quad eq against the edges of slot sl (ring q) whose owner triangles'
 * boxes meet its edges' boxes (a lane's triangle owns the edges of its
 * quad: triangle 0 types 0 and 2, triangle 1 type 1), and whose own boxes
 * meet them too (with the allowance on both sides, the closest points of
 * a kept pair lie in them: the filter only drops pairs the test would).
 * Each pair of edges once: own type ta against the slot's type tb. */
static void quad_slot(const contact_kernel *c, const edge_query *eq, int q, int sl,
                      edge_keep *kept)
{
    const float *tb = c->tbox + (size_t)SLOT_FLOATS * (size_t)sl;
    const int pi = c->slot_patch[sl], qa = pi / c->pn, qb = pi - qa * c->pn;
    const uint32_t on = c->lane_on[pi];
    const int base = q * c->MN;
    for (int ta = 0; ta < 3; ta++) {
        const uint32_t hit = boxes_meeting(tb, LANES, LANES, LANES, eq->elo[ta], eq->ehi[ta]) & on;
        if (!hit)
            continue;
        const int ea = 3 * eq->i + ta;
        for (int type = 0; type < 3; type++) {
            const uint32_t tri = type == 1 ? hit >> EDGE_LANES : hit & ((1u << EDGE_LANES) - 1);
            if (!tri)
                continue;
            uint32_t lanes = tri
                           & boxes_meeting(tb + TRI_FLOATS + 6 * EDGE_LANES * type, EDGE_LANES,
                                           EDGE_LANES, EDGE_LANES, eq->plo[ta], eq->phi[ta]);
            if (lanes)
                lanes &= lanes_inside(eq, ta, tb + EDGE_AT, type, eq->ga[ta] + tb[EDGE_GROW]);
            while (lanes) {
                const int j = lowest_bit(lanes);
                lanes &= lanes - 1;
                /* the other edge's ends, found without a division (the hot path) */
                const int m = qa * PATCH + j / PATCH, n = qb * PATCH + j % PATCH;
                const int m1 = type != 1 ? (m + 1 == c->M ? 0 : m + 1) : m;
                const int n1 = type != 0 ? (n + 1 == c->N ? 0 : n + 1) : n;
                const int vq = base + m * c->N + n, eb = 3 * vq + type;
                const int v[4] = {eq->i, eq->corner[ta + 1], vq, base + m1 * c->N + n1};
                double rank;
                float wake;
                if (edge_candidate(c, ea, eb, v, &rank, &wake))
                    keep_edge(kept, (uint64_t)ea << 32 | (uint32_t)eb, rank, wake);
            }
        }
    }
}

/* Quad eq against every ring it searches and may touch whose box meets its own:
 * the slots whose box meets the quad's (when its patch's list overflows). */
static void quad_rings(const contact_kernel *c, int p, const edge_query *eq, edge_keep *kept)
{
    for (int r = c->nbr_start[p]; r < c->nbr_start[p + 1]; r++) {
        const int q = c->nbr[r], s1 = c->pslot[q + 1];
        if (edge_searches(p, q) && box_meets_ring(c, eq->lo, eq->hi, q))
            for (int sb = c->pslot[q]; sb < s1; sb += MASK_BITS) /* MASK_BITS slots a test */
                for (uint32_t m = boxes_meeting(c->ubox + sb, c->ustride, MASK_BITS,
                                                s1 - sb < MASK_BITS ? s1 - sb : MASK_BITS,
                                                eq->lo, eq->hi);
                     m; m &= m - 1)
                    quad_slot(c, eq, q, sb + lowest_bit(m), kept);
    }
}

/* The quad's kept pairs into its lists, by key (the pairs' order in link). */
static void store_edges(contact_kernel *c, int i, edge_keep *kept)
{
    for (int j = 1; j < kept->n; j++)
        for (int r = j; r > 0 && kept->key[r - 1] > kept->key[r]; r--) {
            uint64_t t = kept->key[r];
            kept->key[r] = kept->key[r - 1], kept->key[r - 1] = t;
            float w = kept->wake[r];
            kept->wake[r] = kept->wake[r - 1], kept->wake[r - 1] = w;
        }
    c->nep[i] = (unsigned char)kept->n;
    const size_t at = edge_place(c, i);
    for (int j = 0; j < kept->n && j < KE; j++) {
        const uint64_t key = kept->key[j];
        c->pe_a[at + j] = (int)(key >> 32), c->pe_b[at + j] = (int)(uint32_t)key;
        c->pe_wake[at + j] = kept->wake[j];
    }
}

void contact_edge_find_patch(contact_kernel *c, int p, int a, int b, int r0, int r1)
{
    if (!c->k->edges)
        return;
    int any = 0; /* any ring to search? */
    for (int r = c->nbr_start[p]; r < c->nbr_start[p + 1] && !any; r++)
        any = edge_searches(p, c->nbr[r]);
    if (!any)
        return;
    /* The patch's quads whose box meets the patch's reach (the quad's box
     * lies in its patch's: a pair needs it to, as a point's, search.c),
     * and their union: the slots near it are listed once, as the points'. */
    edge_query qd[PATCH * PATCH];
    float lo[3] = {INFINITY, INFINITY, INFINITY}, hi[3] = {-INFINITY, -INFINITY, -INFINITY};
    int nq = 0;
    for (int m = a * PATCH; m < (a + 1) * PATCH && m < c->M; m++)
        for (int n = b * PATCH; n < (b + 1) * PATCH && n < c->N; n++) {
            const int r = m * c->N + n;
            if (r < r0 || r >= r1)
                continue;
            edge_query *eq = &qd[nq];
            quad_query(c, p, m, n, eq);
            if (!c->self_on[p] && misses_reach(c, p, a, b, eq->lo, eq->hi))
                continue;
            for (int d = 0; d < 3; d++) {
                lo[d] = eq->lo[d] < lo[d] ? eq->lo[d] : lo[d];
                hi[d] = eq->hi[d] > hi[d] ? eq->hi[d] : hi[d];
            }
            nq++;
        }
    if (nq == 0)
        return;
    slot_list l;
    contact_list_slots(c, p, 1, lo, hi, &l);
    for (int u = 0; u < nq; u++) {
        const edge_query *eq = &qd[u];
        edge_keep kept;
        kept.n = 0; /* (not the arrays: a quad keeps few, most none) */
        if (l.over)
            quad_rings(c, p, eq, &kept);
        else
            for (int lb = 0; lb < l.nlist; lb += LIST_WIDTH) {
                uint32_t near
                    = boxes_meeting(l.box + lb, LIST_CAP, LIST_WIDTH, LIST_WIDTH, eq->lo, eq->hi);
                while (near) {
                    const int k = lb + lowest_bit(near), q = l.ring[k];
                    near &= near - 1;
                    /* the rings' filter too (in the broad phase's double
                     * precision, as the points') */
                    if (box_meets_ring(c, eq->lo, eq->hi, q))
                        quad_slot(c, eq, q, l.slot[k], &kept);
                }
            }
        store_edges(c, eq->i, &kept);
    }
}

int contact_edge_measure(contact_kernel *c)
{
    c->nepairs = 0;
    size_t e = 0;
    for (int j = 0; j < c->necand; j++) { /* the quads with pairs (link lists them) */
        const int i = c->ecand[j];
        const size_t at = edge_place(c, i);
        for (int u = 0; u < c->nep[i]; u++) {
            if (c->pe_wake[at + u] > c->k->since) /* cannot be active yet */
                continue;
            edge_geo g;
            const int ea = c->pe_a[at + u], eb = c->pe_b[at + u];
            const int v[4] = {ea / 3, edge_end(c, ea / 3, ea % 3), eb / 3,
                              edge_end(c, eb / 3, eb % 3)};
            if (!edge_geometry(c, ea, eb, v, &g, 1) || !edge_active(c, &g))
                continue;
            /* (grown as the active pairs come: most candidates are not) */
            if (contact_grow((void **)&c->efix, &c->efix_cap, e + 1, sizeof *c->efix))
                return -1;
            edge_fixed *f = &c->efix[e++];
            f->d = g.d;
            f->speed = g.vn < 0 ? (float)-g.vn : 0.0f;
            memcpy(f->v, g.v, sizeof g.v), memcpy(f->w, g.w, sizeof g.w);
            memcpy(f->u, g.u, sizeof g.u);
            for (int k = 0; k < 4; k++)
                c->share[g.v[k]] = 0.0f;
        }
    }
    c->nepairs = (int)e;
    return 0;
}

/* The n keys a sorted by their high 32 bits, stably (those equal keep
 * their order): least significant byte first, 8 bits a pass, a pass
 * skipped where every key has the same byte; tmp holds n. Linear: the
 * link sorts its edge records every substep, four times as many as the
 * pairs (qsort took an eighth of a pile's step). */
static void sort_high_stable(uint64_t *a, uint64_t *tmp, size_t n)
{
    uint64_t *src = a, *dst = tmp;
    for (int shift = 32; shift < 64; shift += 8) {
        size_t at[257] = {0};
        for (size_t j = 0; j < n; j++)
            at[((src[j] >> shift) & 255u) + 1]++;
        if (at[((src[0] >> shift) & 255u) + 1] == n)
            continue;
        for (int b = 0; b < 256; b++)
            at[b + 1] += at[b];
        for (size_t j = 0; j < n; j++)
            dst[at[(src[j] >> shift) & 255u]++] = src[j];
        uint64_t *t = src;
        src = dst, dst = t;
    }
    if (src != a)
        memcpy(a, src, sizeof *a * n);
}

/* Edge pair e's split mass and target, after all shares (as
 * contact_pair_fix). */
static void edge_fix(contact_kernel *c, edge_fixed *f)
{
    const contact_state *s = c->s;
    double inv = 0.0;
    for (int k = 0; k < 4; k++)
        inv += fabs(f->w[k]) * c->share[f->v[k]] / s->mass[f->v[k] / c->MN];
    f->meff = 1.0 / inv, f->target = pair_target(c->k, f->d);
}

int contact_edge_link(contact_kernel *c)
{
    const size_t ne = (size_t)c->nepairs;
    if (ne == 0)
        return 0;
    /* (the records, then as many for the sort) */
    if (contact_grow((void **)&c->ekey, &c->ekey_cap, 8 * ne, sizeof *c->ekey)
        || contact_grow_acc(c->eacc, &c->eacc_cap, ne))
        return -1;
    memset(c->eacc[0], 0, sizeof(float) * 4 * ne);
    /* the shares, in the pairs' order, after the vertex-triangle pairs' */
    for (size_t e = 0; e < ne; e++)
        for (int k = 0; k < 4; k++)
            c->share[c->efix[e].v[k]] += (float)fabs(c->efix[e].w[k]);
    for (size_t e = 0; e < ne; e++) {
        edge_fixed *f = &c->efix[e];
        edge_fix(c, f);
        for (int k = 0; k < 4; k++)
            c->ekey[4 * e + k] = (uint64_t)f->v[k] << 35 | (uint64_t)k << 32 | (uint32_t)e;
        const int pa = f->v[0] / c->MN, pb = f->v[2] / c->MN;
        c->ring_pairs[pa]++, c->ring_pairs[pb]++;
        if (contact_grow((void **)&c->touch, &c->touch_cap, (size_t)c->ntouch + 1,
                         sizeof *c->touch))
            return -1;
        ring_touch r = {pa < pb ? pa : pb, pa < pb ? pb : pa, f->speed};
        c->touch[c->ntouch++] = r;
    }
    /* by (vertex, role), then pair: made in pair order, sorted stably */
    sort_high_stable(c->ekey, c->ekey + 4 * ne, 4 * ne);
    return 0;
}
