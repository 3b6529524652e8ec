/* Link: the substep's pairs made ready for the iterations (serial,
 * O(pairs log pairs) after one pass over find's pair counts of the rings
 * that may touch; run every substep on the pairs the last search found,
 * which may have looked a whole step ahead): each found pair measured on
 * the state now and kept when it is active this substep, the points with
 * pairs, the shares, pair ids, each pair's geometry, split mass and target
 * fixed for the substep
 * (contact_pair_fix), each vertex's corner records in the gather's order
 * (sorted by vertex, which of its six triangles, then by triangle), the
 * vertices in a pair (contact_active: only they get a force), per-ring
 * counts and the ring pairs in contact (for contact-start events). */
#include "physics/contact/pair_law.h"

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

static int cmp_touch(const void *a, const void *b)
{
    const ring_touch *x = a, *y = b;
    if (x->p != y->p)
        return (x->p > y->p) - (x->p < y->p);
    return (x->q > y->q) - (x->q < y->q);
}

/* Which of a vertex's six triangles (the gather's order k) a corner j of
 * triangle type o (T1, T2) is, and back. */
static const unsigned char K_OF[2][3] = {{0, 2, 3}, {1, 4, 5}};
static const unsigned char CORNER_OF_K[6] = {0, 0, 1, 2, 1, 2};

/* The vertices in a pair (the points, ascending, the corners of the
 * sorted records and the vertices of the edge pairs' sorted records),
 * merged ascending and once each, those with a share (a corner of weight
 * 0 has none), with each one's corner and edge records and its pairs as a
 * point. */
static int link_active(contact_kernel *c, int npts, size_t nrec, size_t nerec)
{
    const size_t need = (size_t)npts + nrec + nerec;
    if (need > c->act_cap) { /* act, cbeg, cend, ebeg, eend, pbase and pcount grow together */
        const size_t cap = need * 2 > 64 ? need * 2 : 64;
        int **arr[7] = {&c->act, &c->cbeg, &c->cend, &c->ebeg, &c->eend, &c->pbase, &c->pcount};
        for (int j = 0; j < 7; j++) {
            int *q = realloc(*arr[j], sizeof *q * cap);
            if (!q)
                return -1;
            *arr[j] = q;
        }
        c->act_cap = cap;
    }
    int n = 0;
    size_t e = 0, g = 0;
    for (int j = 0; j < npts || e < nrec || g < nerec;) {
        const int vp = j < npts ? c->pts[j] : INT32_MAX;
        const int vc = e < nrec ? (int)(c->ckey[e] >> 35) : INT32_MAX;
        const int ve = g < nerec ? (int)(c->ekey[g] >> 35) : INT32_MAX;
        const int v = vp < vc ? (vp < ve ? vp : ve) : (vc < ve ? vc : ve);
        const size_t b = e, bg = g;
        while (e < nrec && (int)(c->ckey[e] >> 35) == v)
            e++;
        while (g < nerec && (int)(c->ekey[g] >> 35) == v)
            g++;
        const int base = vp == v ? c->pair_base[j] : 0, count = vp == v ? c->pair_count[j] : 0;
        j += vp == v;
        if (c->share[v] > 0.0f) {
            c->act[n] = v, c->cbeg[n] = (int)b, c->cend[n] = (int)e, c->pbase[n] = base;
            c->ebeg[n] = (int)bg, c->eend[n] = (int)g;
            c->pcount[n] = count;
            n++;
        }
    }
    c->nact = n;
    return 0;
}

/* The points with vertex-triangle pairs and the quads (by corner) with
 * edge pairs that the last search found, ascending (and the points'
 * pairs: the room link_measure takes), listed once a search in one pass
 * over the vertices of the rings that may touch; each substep then reads
 * only them. 0, or -1 when out of memory. */
static int list_candidates(contact_kernel *c)
{
    int ncand = 0, necand = 0;
    size_t nc = 0;
    for (int p = 0; p < c->P; p++)
        if (c->ring_on[p]) /* the others have no pairs (the broad phase) */
            for (int i = p * c->MN; i < (p + 1) * c->MN; i++) {
                ncand += c->npt[i] != 0, necand += c->nep[i] != 0;
                nc += c->npt[i];
            }
    if (contact_grow((void **)&c->cand, &c->cand_cap, (size_t)ncand, sizeof *c->cand)
        || contact_grow((void **)&c->ecand, &c->ecand_cap, (size_t)necand, sizeof *c->ecand))
        return -1;
    int n = 0, ne = 0;
    if (ncand + necand > 0)
        for (int p = 0; p < c->P; p++)
            if (c->ring_on[p])
                for (int i = p * c->MN; i < (p + 1) * c->MN; i++) {
                    if (c->npt[i])
                        c->cand[n++] = i;
                    if (c->nep[i])
                        c->ecand[ne++] = i;
                }
    c->ncand = n, c->ncand_pairs = nc, c->necand = ne;
    c->cand_stale = 0;
    return 0;
}

/* The search's pairs (npt, pt_tri: kept from the last search, which may
 * have looked a whole step ahead) measured on the state now: each one's
 * geometry, and whether it is active this substep (pair_active); the
 * active ones packed in order into `fixed`, their points into pts with
 * pair_base and pair_count. Returns the active pairs, or -1 when out of
 * memory. */
static long link_measure(contact_kernel *c, int *npts_out)
{
    if (c->cand_stale && list_candidates(c))
        return -1;
    const int ncand = c->ncand;
    const size_t nc = c->ncand_pairs;
    if (contact_grow((void **)&c->pts, &c->pts_cap, (size_t)ncand, sizeof *c->pts)
        || contact_grow((void **)&c->fixed, &c->fixed_cap, nc, sizeof *c->fixed))
        return -1;
    if (c->pts_cap > c->pair_base_cap) { /* pair_base and pair_count grow with pts */
        int *q = realloc(c->pair_base, sizeof *q * c->pts_cap);
        if (q)
            c->pair_base = q;
        int *r = q ? realloc(c->pair_count, sizeof *r * c->pts_cap) : NULL;
        if (!r)
            return -1;
        c->pair_count = r, c->pair_base_cap = c->pts_cap;
    }
    int npts = 0;
    size_t e = 0;
    for (int j = 0; j < ncand; j++) {
        const int i = c->cand[j];
        const size_t at = point_place(c, i);
        const int *tri = c->pt_tri + at;
        const float *wake = c->pt_wake + at;
        const size_t first = e;
        for (int u = 0; u < c->npt[i]; u++) {
            pair_geo g;
            if (wake[u] > c->k->since) /* cannot be active yet */
                continue;
            if (!pair_geometry(c, i, tri[u], &g) || !pair_active(c, &g))
                continue;
            pair_fixed *f = &c->fixed[e++]; /* e <= the candidates so far */
            f->i = i, f->ok = 1, f->t = tri[u], f->d = g.d;
            f->speed = g.vn < 0 ? (float)-g.vn : 0.0f;
            memcpy(f->v, g.v, sizeof g.v), memcpy(f->w, g.w, sizeof g.w);
            memcpy(f->u, g.u, sizeof g.u);
        }
        if (e > first) {
            c->pts[npts] = i, c->pair_base[npts] = (int)first;
            c->pair_count[npts++] = (int)(e - first);
        }
    }
    *npts_out = npts;
    return (long)e;
}

int contact_link(contact_kernel *c)
{
    /* The previous link's touching ring pairs become the old ones. */
    ring_touch *tp = c->touch_prev;
    size_t tcap = c->touch_prev_cap;
    c->touch_prev = c->touch, c->touch_prev_cap = c->touch_cap, c->ntouch_prev = c->ntouch;
    c->touch = tp, c->touch_cap = tcap, c->ntouch = 0;

    /* Everything after this list is as long as the pairs, not the rings'
     * vertices: the link's serial part grows with the contact. */
    memset(c->ring_pairs, 0, sizeof *c->ring_pairs * (size_t)c->P);
    int npts = 0;
    const long measured = link_measure(c, &npts);
    if (measured < 0 || contact_edge_measure(c))
        return -1;
    const size_t np = (size_t)measured;
    if (contact_grow((void **)&c->by_tri, &c->by_tri_cap, np, sizeof *c->by_tri)
        || contact_grow((void **)&c->ckey, &c->ckey_cap, 3 * np, sizeof *c->ckey)
        || contact_grow((void **)&c->crec, &c->crec_cap, 3 * np, sizeof *c->crec))
        return -1;
    if (contact_grow_acc(c->acc, &c->acc_cap, np))
        return -1;
    if (np > 0)
        memset(c->acc[0], 0, sizeof(float) * 4 * np);
    /* The shares of the vertices in a pair start at 0, then sum in the
     * order points and pairs come (the sums' rounding is part of the
     * result); the pairs by triangle; the ring pairs touching. */
    for (size_t e = 0; e < np; e++) {
        const pair_fixed *f = &c->fixed[e];
        c->share[f->i] = 0.0f;
        for (int k = 0; k < 3; k++)
            c->share[f->v[k]] = 0.0f;
    }
    for (size_t e = 0; e < np; e++) {
        const pair_fixed *f = &c->fixed[e];
        const int pi = f->i / c->MN, pt = f->v[0] / c->MN;
        c->share[f->i] += 1.0f;
        for (int k = 0; k < 3; k++)
            c->share[f->v[k]] += (float)f->w[k];
        c->by_tri[e] = (uint64_t)f->t << 32 | (uint32_t)e;
        c->ring_pairs[pi]++;
        if (pt != pi) {
            c->ring_pairs[pt]++;
            if (contact_grow((void **)&c->touch, &c->touch_cap, (size_t)c->ntouch + 1,
                             sizeof *c->touch))
                return -1;
            ring_touch r = {pi < pt ? pi : pt, pi < pt ? pt : pi, f->speed};
            c->touch[c->ntouch++] = r;
        }
    }
    /* the edge pairs' shares too before any pair's split mass */
    if (contact_edge_link(c))
        return -1;
    c->npairs = (int)np;
    for (size_t e = 0; e < np; e++)
        contact_pair_fix(c, (int)e);
    if (np > 0)
        qsort(c->by_tri, np, sizeof *c->by_tri, cmp_u64);
    /* Each vertex's corner records in the gather's order: by which of its
     * six triangles, then as by_tri has them (by triangle, then point). */
    for (size_t b = 0; b < np; b++) {
        const int pair = (int)(uint32_t)c->by_tri[b], o = (int)((c->by_tri[b] >> 32) & 1);
        for (int j = 0; j < 3; j++)
            c->ckey[3 * b + j] = (uint64_t)c->fixed[pair].v[j] << 35
                               | (uint64_t)K_OF[o][j] << 32 | (uint32_t)b;
    }
    if (np > 0)
        qsort(c->ckey, 3 * np, sizeof *c->ckey, cmp_u64);
    for (size_t r = 0; r < 3 * np; r++) {
        const int b = (int)(uint32_t)c->ckey[r], k = (int)((c->ckey[r] >> 32) & 7);
        corner_rec rec = {(int)(uint32_t)c->by_tri[b], (unsigned char)k, CORNER_OF_K[k]};
        c->crec[r] = rec;
    }
    if (link_active(c, npts, 3 * np, 4 * (size_t)c->nepairs))
        return -1;
    /* Ring pairs: sorted, one each with the fastest approach (max: any order). */
    if (c->ntouch > 0)
        qsort(c->touch, (size_t)c->ntouch, sizeof *c->touch, cmp_touch);
    int u = 0;
    for (int j = 0; j < c->ntouch; j++) {
        if (u > 0 && c->touch[u - 1].p == c->touch[j].p && c->touch[u - 1].q == c->touch[j].q) {
            if (c->touch[j].speed > c->touch[u - 1].speed)
                c->touch[u - 1].speed = c->touch[j].speed;
        } else
            c->touch[u++] = c->touch[j];
    }
    c->ntouch = u;
    return 0;
}

int contact_ring_pairs(const contact_kernel *c, int p) { return c->ring_pairs[p]; }
int contact_pairs(const contact_kernel *c) { return c->npairs + c->nepairs; }

int contact_starts(const contact_kernel *c, contact_start *out, int cap)
{
    int n = 0, j = 0;
    for (int i = 0; i < c->ntouch; i++) {
        const ring_touch *r = &c->touch[i];
        while (j < c->ntouch_prev && cmp_touch(&c->touch_prev[j], r) < 0)
            j++;
        if (j < c->ntouch_prev && cmp_touch(&c->touch_prev[j], r) == 0)
            continue;
        if (n < cap) {
            contact_start st = {r->p, r->q, r->speed};
            out[n] = st;
        }
        n++;
    }
    return n;
}
