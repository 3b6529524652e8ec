/* The gather and the serial drivers. Once per iteration, parallel over
 * the vertices in a pair (by their places in link's list): the force on
 * each vertex as a point (its pairs, by triangle) and as a corner of its
 * six triangles (their pairs, by point), each pair's force from one call
 * of pair_force on the pair's fixed inputs and the velocities (the point's
 * owner alone stores the pair's new accumulated impulses,
 * double-buffered), so both sides see the same bits; a thread computes a
 * pair once for the vertices of its range (a memo on its stack: a pair's
 * corners are neighbours), not once per vertex, which halved the pile's
 * gathers. The caller then adds f dt / m to v* before the next iteration.
 * contact_forces and
 * contact_solve run every phase on the calling thread (the tests, serial
 * helpers).
 *
 * Iterations: 8 per substep hold every test (4 let a vertex through at
 * 20 m/s without friction); each is one gather, about 1.2 ns per vertex in
 * the pile, below 0.1 where nothing touches. */
#include "physics/contact/edge_law.h"

/* A gather's memo of the pair forces it has computed this iteration. A
 * pair's four vertices (the point and a triangle's corners, or two edges'
 * ends) are mostly in one thread's range and near each other in it (a
 * triangle's or an edge's corners are neighbours in the mesh), so each
 * pair's force is computed about twice, not four times. The same bits:
 * the same call on the same inputs (the velocities and the accumulators
 * read do not change within an iteration). Direct-mapped by key (the
 * vertex-triangle pair, or npairs + the edge pair), on the calling
 * thread's stack: nothing shared between threads. */
#define MEMO 512
typedef struct {
    int key[MEMO];
    unsigned char ok[MEMO]; /* nj holds the pair's new accumulators */
    double F[MEMO][3];
    float nj[MEMO][4];
} force_memo;

static void memo_clear(force_memo *m)
{
    for (int h = 0; h < MEMO; h++)
        m->key[h] = -1;
}

/* The force of vertex-triangle pair `pair` (pair_force's F) from the memo,
 * computed when not there; with `save` (the point's owner), its new
 * accumulators stored for the next iteration. */
static const double *memo_pair(contact_kernel *c, force_memo *m, int iter, int pair, int save)
{
    const int h = pair & (MEMO - 1);
    if (m->key[h] != pair) {
        double w[3];
        m->key[h] = pair;
        m->ok[h] = (unsigned char)(c->fixed[pair].ok != 0);
        pair_force(c, iter, pair, m->nj[h], m->F[h], w);
    }
    if (save && m->ok[h])
        memcpy(c->acc[(iter + 1) & 1] + 4 * (size_t)pair, m->nj[h], sizeof m->nj[h]);
    return m->F[h];
}

/* The same for edge pair e (edge_force's F; `save`: a0's gather). */
static const double *memo_edge(contact_kernel *c, force_memo *m, int iter, int e, int save)
{
    const int key = c->npairs + e, h = key & (MEMO - 1);
    if (m->key[h] != key) {
        m->key[h] = key;
        edge_force(c, iter, e, m->nj[h], m->F[h]);
    }
    if (save)
        memcpy(c->eacc[(iter + 1) & 1] + 4 * (size_t)e, m->nj[h], sizeof m->nj[h]);
    return m->F[h];
}

/* The force of iteration iter on the vertex at place a of link's list: as
 * a point, its pairs by triangle index; then as a corner of its six
 * triangles, in a fixed order, each triangle's pairs by point index (the
 * records' order). One function (pair_force) gives each pair's force for
 * the point and for its corners. */
static void gather_vertex(contact_kernel *c, force_memo *m, int iter, size_t a, float out[3])
{
    const int cs = c->cbeg[a], nc = c->cend[a] - cs, np = c->pcount[a];
    double f[3] = {0, 0, 0};
    for (int j = 0; j < np + nc; j++) {
        int point = j < np;
        const corner_rec *r = point ? NULL : &c->crec[cs + j - np];
        const int pair = point ? c->pbase[a] + j : r->pair;
        const double *F = memo_pair(c, m, iter, pair, point);
        if (point)
            f[0] += F[0], f[1] += F[1], f[2] += F[2];
        else {
            /* (pair_force's w: 0 for a pair that cannot touch) */
            const pair_fixed *g = &c->fixed[pair];
            double wk = g->ok ? g->w[r->corner] : 0.0;
            f[0] -= wk * F[0], f[1] -= wk * F[1], f[2] -= wk * F[2];
        }
    }
    /* then its edge pairs, by role, then pair (ekey's order): w_k F */
    for (int r = c->ebeg[a]; r < c->eend[a]; r++) {
        const uint64_t key = c->ekey[r];
        const int e = (int)(uint32_t)key, role = (int)((key >> 32) & 7);
        const double *F = memo_edge(c, m, iter, e, role == 0);
        const double wk = c->efix[e].w[role];
        f[0] += wk * F[0], f[1] += wk * F[1], f[2] += wk * F[2];
    }
    out[0] = (float)f[0], out[1] = (float)f[1], out[2] = (float)f[2];
}

void contact_gather(contact_kernel *c, int iter, int v0, int v1, float *fx, float *fy, float *fz)
{
    if (v1 <= v0)
        return;
    /* Zero (the first iteration: the others rewrite the same vertices),
     * then the vertices in a pair (link's list, ascending). */
    if (iter == 0) {
        memset(fx + v0, 0, sizeof *fx * (size_t)(v1 - v0));
        memset(fy + v0, 0, sizeof *fy * (size_t)(v1 - v0));
        memset(fz + v0, 0, sizeof *fz * (size_t)(v1 - v0));
    }
    int first;
    const int na = contact_active(c, v0, v1, &first);
    if (na == 0)
        return;
    force_memo m;
    memo_clear(&m);
    for (int a = first; a < first + na; a++) {
        float f[3];
        gather_vertex(c, &m, iter, (size_t)a, f);
        const int i = c->act[a];
        fx[i] = f[0], fy[i] = f[1], fz[i] = f[2];
    }
}

void contact_gather_active(contact_kernel *c, int iter, int a0, int a1, float *fx, float *fy,
                           float *fz)
{
    if (a1 <= a0)
        return;
    force_memo m;
    memo_clear(&m);
    for (int a = a0; a < a1; a++) {
        float f[3];
        gather_vertex(c, &m, iter, (size_t)a, f);
        fx[a] = f[0], fy[a] = f[1], fz[a] = f[2];
    }
}

int contact_active(const contact_kernel *c, int v0, int v1, int *first)
{
    int lo = 0, hi = c->nact;
    while (lo < hi) {
        int mid = lo + (hi - lo) / 2;
        if (c->act[mid] < v0)
            lo = mid + 1;
        else
            hi = mid;
    }
    int end = lo;
    while (end < c->nact && c->act[end] < v1)
        end++;
    *first = lo;
    return end - lo;
}

const int *contact_active_list(const contact_kernel *c) { return c->act; }
int contact_active_count(const contact_kernel *c) { return c->nact; }

int contact_forces(contact_kernel *c, const contact_params *k, const contact_state *s, float *fx,
                   float *fy, float *fz)
{
    if (contact_prepare(c, k, s))
        return -1;
    contact_find(c, 0, s->P * c->MN);
    if (contact_link(c))
        return -1;
    contact_gather(c, 0, 0, s->P * c->MN, fx, fy, fz);
    return 0;
}

int contact_solve(contact_kernel *c, const contact_params *k, const contact_state *s, int iters,
                  float *vx, float *vy, float *vz, float *fx, float *fy, float *fz)
{
    int nv = s->P * c->MN;
    float *f = malloc(sizeof *f * 3 * (size_t)nv);
    if (!f || contact_prepare(c, k, s)) {
        free(f);
        return -1;
    }
    contact_find(c, 0, nv);
    if (contact_link(c)) {
        free(f);
        return -1;
    }
    memset(fx, 0, sizeof *fx * (size_t)nv), memset(fy, 0, sizeof *fy * (size_t)nv);
    memset(fz, 0, sizeof *fz * (size_t)nv);
    for (int it = 0; it < iters; it++) {
        contact_gather(c, it, 0, nv, f, f + nv, f + 2 * nv);
        for (int i = 0; i < nv; i++) {
            float im = k->dt / s->mass[i / c->MN];
            vx[i] += f[i] * im, vy[i] += f[nv + i] * im, vz[i] += f[2 * nv + i] * im;
            fx[i] += f[i], fy[i] += f[nv + i], fz[i] += f[2 * nv + i];
        }
    }
    free(f);
    return 0;
}

double contact_ring_force(const contact_kernel *c, int p, const float *fx, const float *fy,
                          const float *fz, int *pushed)
{
    int first, n = 0;
    const int na = contact_active(c, p * c->MN, (p + 1) * c->MN, &first);
    double sum = 0.0;
    for (int k = first; k < first + na; k++) {
        const double x = fx[k], y = fy[k], z = fz[k];
        n += x != 0.0 || y != 0.0 || z != 0.0;
        sum += sqrt(x * x + y * y + z * z);
    }
    *pushed = n;
    return sum;
}
