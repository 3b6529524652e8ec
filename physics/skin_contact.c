/* Skin contact between ring meshes; the law and the phases are in skin_contact.h. */
#include "skin_contact.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define K SKIN_CONTACT_PER_POINT
/* A point whose box spans more cells than this per axis (a runaway
 * vertex) checks every triangle instead of its cells. */
#define SPAN_LIMIT 8
/* Cells are counted from -CELL_LIMIT to CELL_LIMIT per axis. */
#define CELL_LIMIT 1048576
/* Patches of the broad phase: blocks of PATCH x PATCH quads (and their points). */
#define PATCH 4
/* skin_contact_bound's marks: the ring's bounds, its patch boxes */
#define FRESH_BOUNDS 1
#define FRESH_PATCHES 2

typedef struct {
    int p, q;
    float speed;
} ring_touch;

/* A triangle in the grid: its box grown by h + vmax dt (m), index, ring. */
typedef struct {
    float lo[3], hi[3];
    int t, ring;
} tri_entry;

/* What a pair keeps through the substep's iterations (set by link: the
 * positions and the shares do not change within a substep). */
typedef struct {
    int i, ok;     /* the point; 0 when the pair cannot touch (no force) */
    int v[3];      /* the triangle's corners */
    double w[3];   /* barycentric weights of the closest point */
    double u[3];   /* direction of the force on the point */
    double meff;   /* split effective mass, kg */
    double target; /* target normal velocity, m/s */
} pair_fixed;

/* Vertex's part in a pair as a corner: the pair, which of its six
 * triangles (the gather's order) and which corner of it. */
typedef struct {
    int pair;
    unsigned char k, corner;
} corner_rec;

/* Ring pairs per ring the pair and neighbour lists have room for from the
 * start (more grow them, rarely). */
#define RING_PAIRS_PER_RING 8

/* A ring's place in the sweep: its box's low x, then its index. */
typedef struct {
    double x;
    int p;
} sweep_key;

struct skin_contact {
    int P_cap, M, N, MN;
    const skin_contact_params *k;
    const skin_contact_state *s;
    int P, nv, nt;

    /* prepare: which rings can touch (the broad phase) */
    float *ref;          /* 3 per vertex: each ring's reference shape, about its centroid, m */
    double *ref_extent;  /* [P_cap]: largest distance of a vertex of the reference from
                            its centroid, m (sets ring_bounds' rounding margin) */
    double *ref_gap;     /* [P_cap]: least distance of a point from a triangle it may
                            touch (not a neighbour) in the reference shape, m */
    int *ref_steps;      /* [P_cap]: self_steps ref_gap is for; -1: no reference yet */
    unsigned char *fresh; /* [P_cap]: what skin_contact_bound did for ring p this
                             substep: FRESH_BOUNDS, FRESH_PATCHES */
    double *fit;         /* [P_cap] x 13: rotation (row-major), translation (m) and
                            validity of the isometry the self test uses next */
    double *rbox;        /* [P_cap] x 6: each ring's vertex box grown by h + vmax dt, m */
    unsigned char *self_on; /* [P_cap]: the ring may touch itself this substep */
    unsigned char *ring_on; /* [P_cap]: the ring may touch anything this substep */
    sweep_key *sweep;       /* [P_cap]: the rings by their box's low x (the sweep),
                               kept from substep to substep: nearly sorted already */
    int nsweep;             /* rings in it (a new count starts it afresh) */
    int *fill;              /* [P_cap]: where each neighbour list is filled to */
    int *ring_pair;         /* [2 x ring_pair_cap]: ring pairs p < q whose boxes meet */
    size_t nring_pair, ring_pair_cap;
    int any_on;             /* some ring may touch something this substep */
    int pm, pn, np;         /* patches per ring along m, along n, in all */
    double *pbox;           /* [P_cap x np] x 6: each patch's box grown by h + vmax dt, m */
    unsigned char *patch_on; /* [P_cap x np]: the patch's points and triangles may touch */
    double *preach;         /* [P_cap x np] x 6: where another ring's patches may meet the
                               patch (the union of its overlaps with them), m */

    /* prepare: the grid */
    void *grid_scratch;  /* one ring's skin_contact_grid_scratch_bytes, for prepare */
    double *inv_cell;    /* [P_cap]: 1 / ring p's cell size, 1/m */
    size_t table;        /* a power of two >= nt */
    int *toff;           /* [P_cap]: first slot of ring p's part of bucket_start */
    unsigned *tmask;     /* [P_cap]: its buckets - 1 (a power of two - 1) */
    int *eoff;           /* [P_cap + 1]: first entry of ring p (its triangles in the
                            grid by bucket, then its large ones) */
    int *nlarge_r;       /* [P_cap]: ring p's large triangles, the last of its entries */
    int *nbr_start, *nbr; /* [P_cap + 1], [nbr_cap]: the rings each ring may touch
                             (itself first when it may touch itself, then by index) */
    size_t nbr_cap;
    int *bucket_start;   /* each ring's part: its buckets + 1, entry offsets in the ring */
    tri_entry *entry;    /* [nt]: the triangles in the grid, ring by ring */

    /* find: each point's pairs */
    unsigned char *npt;  /* pairs of point i */
    int *pt_tri;         /* K per point: triangle, ascending */
    float *pt_speed;     /* K per point: approach speed, m/s */

    /* link */
    float *share;        /* each vertex's weight in this substep's pairs: 1 per pair
                            as the point, w per pair as a corner */
    uint64_t *by_tri;    /* (triangle << 32 | pair id), sorted: by triangle, then point */
    size_t by_tri_cap;
    pair_fixed *fixed;   /* each pair's substep-long inputs */
    size_t fixed_cap;
    int *pts;            /* the points with a pair this substep, ascending */
    size_t pts_cap, pair_base_cap;
    uint64_t *ckey;      /* 3 per pair: each corner's (vertex, which of its six
                            triangles, place in by_tri), sorted: the gather's order */
    size_t ckey_cap;
    int *act;            /* the vertices in a pair this substep, ascending */
    int *cbeg, *cend;    /* per vertex in act: its corner records in crec */
    int nact;
    size_t act_cap;
    corner_rec *crec;    /* 3 per pair: the pairs of each vertex as a corner, in the
                            gather's order (its six triangles in turn, each by point) */
    size_t crec_cap;
    int npairs;
    int *pair_base;      /* per point in pts: its first pair id */
    int *pbase;          /* per vertex in act: its first pair id as a point (0 if none) */
    float *acc[2];       /* 4 per pair: accumulated normal impulse, friction impulse xyz, N s */
    size_t acc_cap;
    int *ring_pairs;     /* [P_cap] */
    ring_touch *touch, *touch_prev;
    int ntouch, ntouch_prev;
    size_t touch_cap, touch_prev_cap;
};

skin_contact_params skin_contact_params_default(double dt)
{
    skin_contact_params k = {.h = 0.01f, .mu = 0.6f, .beta = 0.1f, .v_out = 0.1f,
                             .dt = (float)dt, .self_steps = 1};
    return k;
}

double skin_contact_stiffness(const skin_contact_params *k, double m, double dt)
{
    return k->beta * m / (dt * dt);
}

double skin_contact_dt_factor(const skin_contact_params *k)
{
    return sqrt(1.0 - 0.5 * k->beta);
}

static size_t pow2_at_least(size_t n)
{
    size_t t = 1;
    while (t < n)
        t *= 2;
    return t;
}

size_t skin_contact_bytes(int P, int M, int N)
{
    size_t nv = (size_t)P * M * N, nt = 2 * nv;
    return skin_contact_grid_scratch_bytes(M, N)
         + (2 * pow2_at_least(nt) + 2 * (size_t)P) * sizeof(int)
         + (size_t)P * (5 * sizeof(int) + sizeof(double) + sizeof(unsigned))
         + nt * sizeof(tri_entry) /* grid entries, then large triangles */
         + nv * (1 + K * (sizeof(int) + sizeof(float)) + sizeof(float)) /* find's, share */
         + (size_t)P * sizeof(int)
         + nv * 3 * sizeof(float) + (size_t)P * (sizeof(double) * 21 + sizeof(int) + 3)
         + (size_t)P * (sizeof(sweep_key) + sizeof(int))
         + (size_t)P * (4 * RING_PAIRS_PER_RING + 1) * sizeof(int) /* pairs, neighbours */
         + (size_t)P * ((M + 3) / 4) * ((N + 3) / 4) * (12 * sizeof(double) + 1);
}

skin_contact *skin_contact_create(int P, int M, int N)
{
    skin_contact *c = calloc(1, sizeof *c);
    if (!c)
        return NULL;
    c->P_cap = P, c->M = M, c->N = N, c->MN = M * N;
    size_t nv = (size_t)P * M * N, nt = 2 * nv;
    c->table = pow2_at_least(nt);
    c->grid_scratch = malloc(skin_contact_grid_scratch_bytes(M, N));
    c->bucket_start = malloc(sizeof *c->bucket_start * (2 * c->table + 2 * (size_t)P));
    c->inv_cell = malloc(sizeof *c->inv_cell * (size_t)P);
    c->eoff = calloc((size_t)P + 1, sizeof *c->eoff);
    c->nlarge_r = calloc((size_t)P, sizeof *c->nlarge_r);
    c->toff = malloc(sizeof *c->toff * (size_t)P);
    c->tmask = malloc(sizeof *c->tmask * (size_t)P);
    c->nbr_start = malloc(sizeof *c->nbr_start * ((size_t)P + 1));
    c->entry = malloc(sizeof *c->entry * nt);
    c->npt = calloc(nv, 1);
    c->pt_tri = malloc(sizeof *c->pt_tri * K * nv);
    c->pt_speed = malloc(sizeof *c->pt_speed * K * nv);
    c->share = calloc(nv, sizeof *c->share);
    c->ring_pairs = calloc((size_t)P, sizeof *c->ring_pairs);
    c->ref = malloc(sizeof *c->ref * 3 * nv);
    c->ref_gap = calloc((size_t)P, sizeof *c->ref_gap);
    c->ref_extent = calloc((size_t)P, sizeof *c->ref_extent);
    c->ref_steps = malloc(sizeof *c->ref_steps * (size_t)P);
    c->fit = calloc(13 * (size_t)P, sizeof *c->fit);
    c->fresh = calloc((size_t)P, 1);
    c->rbox = malloc(sizeof *c->rbox * 6 * (size_t)P);
    c->self_on = calloc((size_t)P, 1);
    c->ring_on = calloc((size_t)P, 1);
    c->sweep = malloc(sizeof *c->sweep * (size_t)(P > 0 ? P : 1));
    /* room for 8 ring pairs per ring, so that frames do not allocate */
    c->ring_pair_cap = 2 * RING_PAIRS_PER_RING * (size_t)(P > 0 ? P : 1);
    c->ring_pair = malloc(sizeof *c->ring_pair * c->ring_pair_cap);
    c->nbr_cap = (2 * RING_PAIRS_PER_RING + 1) * (size_t)(P > 0 ? P : 1);
    c->nbr = malloc(sizeof *c->nbr * c->nbr_cap);
    c->fill = malloc(sizeof *c->fill * (size_t)(P > 0 ? P : 1));
    c->pm = (M + PATCH - 1) / PATCH, c->pn = (N + PATCH - 1) / PATCH, c->np = c->pm * c->pn;
    c->pbox = malloc(sizeof *c->pbox * 6 * (size_t)P * c->np);
    c->patch_on = calloc((size_t)P * c->np, 1);
    c->preach = malloc(sizeof *c->preach * 6 * (size_t)P * c->np);
    if (!c->ref || !c->ref_gap || !c->ref_extent || !c->ref_steps || !c->fit || !c->fresh || !c->rbox
        || !c->self_on || !c->ring_on || !c->sweep || !c->fill || !c->ring_pair || !c->nbr || !c->pbox || !c->patch_on || !c->preach) {
        skin_contact_free(c);
        return NULL;
    }
    for (int p = 0; p < P; p++)
        c->ref_steps[p] = -1;
    if (!c->grid_scratch || !c->bucket_start || !c->inv_cell || !c->eoff || !c->nlarge_r || !c->toff || !c->tmask || !c->nbr_start
        || !c->entry || !c->npt || !c->pt_tri || !c->pt_speed
        || !c->share || !c->ring_pairs) {
        skin_contact_free(c);
        return NULL;
    }
    return c;
}

void skin_contact_free(skin_contact *c)
{
    if (!c)
        return;
    free(c->grid_scratch); free(c->bucket_start); free(c->inv_cell); free(c->eoff); free(c->nlarge_r); free(c->toff); free(c->tmask); free(c->nbr_start);
    free(c->nbr); free(c->entry);
    free(c->npt); free(c->pt_tri); free(c->pt_speed); free(c->share); free(c->pair_base); free(c->pbase);
    free(c->acc[0]); free(c->acc[1]); free(c->by_tri); free(c->fixed); free(c->crec);
    free(c->pts); free(c->ckey); free(c->act); free(c->cbeg); free(c->cend);
    free(c->ring_pairs); free(c->touch); free(c->touch_prev);
    free(c->ref); free(c->ref_gap); free(c->ref_extent); free(c->fit); free(c->fresh); free(c->ref_steps);
    free(c->rbox); free(c->self_on);
    free(c->ring_on); free(c->sweep); free(c->fill); free(c->ring_pair); free(c->pbox); free(c->patch_on); free(c->preach);
    free(c);
}

/* ---- mesh topology ---- */

/* The corners of triangle t (global vertex indices). */
static void tri_corners(const skin_contact *c, int t, int v[3])
{
    int q = t >> 1, p = q / c->MN, r = q - p * c->MN, m = r / c->N, n = r - m * c->N;
    int base = p * c->MN, m1 = m + 1 == c->M ? 0 : m + 1, n1 = n + 1 == c->N ? 0 : n + 1;
    v[0] = base + m * c->N + n;
    if (t & 1) {
        v[1] = base + m1 * c->N + n1;
        v[2] = base + m * c->N + n1;
    } else {
        v[1] = base + m1 * c->N + n;
        v[2] = base + m1 * c->N + n1;
    }
}

static int periodic_steps(int a, int b, int n)
{
    int d = abs(a - b);
    return d < n - d ? d : n - d;
}

/* ---- the pair ---- */

/* Closest point of triangle abc to p as barycentric weights w; 1 when it
 * lies inside the triangle (not on an edge or a corner). */
static int closest_point(const double p[3], const double a[3], const double b[3],
                         const double cc[3], double w[3])
{
    double ab[3], ac[3], ap[3], bp[3], cp[3];
    for (int j = 0; j < 3; j++) {
        ab[j] = b[j] - a[j], ac[j] = cc[j] - a[j];
        ap[j] = p[j] - a[j], bp[j] = p[j] - b[j], cp[j] = p[j] - cc[j];
    }
#define DOT(u, v) ((u)[0] * (v)[0] + (u)[1] * (v)[1] + (u)[2] * (v)[2])
    double d1 = DOT(ab, ap), d2 = DOT(ac, ap);
    if (d1 <= 0 && d2 <= 0) {
        w[0] = 1, w[1] = 0, w[2] = 0;
        return 0;
    }
    double d3 = DOT(ab, bp), d4 = DOT(ac, bp);
    if (d3 >= 0 && d4 <= d3) {
        w[0] = 0, w[1] = 1, w[2] = 0;
        return 0;
    }
    double vc = d1 * d4 - d3 * d2;
    if (vc <= 0 && d1 >= 0 && d3 <= 0) {
        double t = d1 / (d1 - d3);
        w[0] = 1 - t, w[1] = t, w[2] = 0;
        return 0;
    }
    double d5 = DOT(ab, cp), d6 = DOT(ac, cp);
    if (d6 >= 0 && d5 <= d6) {
        w[0] = 0, w[1] = 0, w[2] = 1;
        return 0;
    }
    double vb = d5 * d2 - d1 * d6;
    if (vb <= 0 && d2 >= 0 && d6 <= 0) {
        double t = d2 / (d2 - d6);
        w[0] = 1 - t, w[1] = 0, w[2] = t;
        return 0;
    }
    double va = d3 * d6 - d5 * d4;
    if (va <= 0 && d4 - d3 >= 0 && d5 - d6 >= 0) {
        double t = (d4 - d3) / ((d4 - d3) + (d5 - d6));
        w[0] = 0, w[1] = 1 - t, w[2] = t;
        return 0;
    }
    double inv = 1.0 / (va + vb + vc);
    w[1] = vb * inv, w[2] = vc * inv, w[0] = 1.0 - w[1] - w[2];
    return 1;
}

typedef struct {
    int v[3];      /* the triangle's corners */
    double w[3];   /* barycentric weights of the closest point */
    double u[3];   /* direction of the force on the point */
    double d;      /* gap s - h, m */
    double s;      /* signed distance from the face, m */
    double vn;     /* relative normal velocity, m/s (< 0 closing) */
    double vt[3];  /* relative tangential velocity, m/s */
} pair_geo;

/* The geometry of point i against triangle t from the state; 0 when the
 * pair cannot touch (degenerate triangle, or the point beyond an edge on
 * the inner side). The one function both sides of a pair call. */
static int pair_geometry(const skin_contact *c, int i, int t, pair_geo *g)
{
    const skin_contact_state *s = c->s;
    tri_corners(c, t, g->v);
    double p[3] = {s->x[i], s->y[i], s->z[i]}, x[3][3];
    for (int j = 0; j < 3; j++)
        x[j][0] = s->x[g->v[j]], x[j][1] = s->y[g->v[j]], x[j][2] = s->z[g->v[j]];
    double e1[3], e2[3], nrm[3];
    for (int j = 0; j < 3; j++)
        e1[j] = x[1][j] - x[0][j], e2[j] = x[2][j] - x[0][j];
    nrm[0] = e1[1] * e2[2] - e1[2] * e2[1];
    nrm[1] = e1[2] * e2[0] - e1[0] * e2[2];
    nrm[2] = e1[0] * e2[1] - e1[1] * e2[0];
    double nn = sqrt(DOT(nrm, nrm));
    if (!(nn > 0.0))
        return 0;
    int inside = closest_point(p, x[0], x[1], x[2], g->w);
    double dp[3];
    for (int j = 0; j < 3; j++)
        dp[j] = p[j] - (g->w[0] * x[0][j] + g->w[1] * x[1][j] + g->w[2] * x[2][j]);
    double side = DOT(dp, nrm) / nn;
    /* A ring's own skin is two-sided: inside a tube that folds flat its
     * walls meet from behind (the inner side), and are kept on that side;
     * another ring's skin is met from outside only (a point behind it is
     * pushed out through the band). */
    const int own = i / c->MN == g->v[0] / c->MN;
    const double flip = own && side < 0.0 ? -1.0 : 1.0;
    if (inside) {
        for (int j = 0; j < 3; j++)
            g->u[j] = flip * nrm[j] / nn;
        g->s = flip * side;
    } else {
        double dist = sqrt(DOT(dp, dp));
        if (!(flip * side > 0.0) || !(dist > 0.0))
            return 0;
        for (int j = 0; j < 3; j++)
            g->u[j] = dp[j] / dist;
        g->s = dist;
    }
    g->d = g->s - c->k->h;
    const int *v = g->v;
    double vr[3] = {
        s->vx[i] - (g->w[0] * s->vx[v[0]] + g->w[1] * s->vx[v[1]] + g->w[2] * s->vx[v[2]]),
        s->vy[i] - (g->w[0] * s->vy[v[0]] + g->w[1] * s->vy[v[1]] + g->w[2] * s->vy[v[2]]),
        s->vz[i] - (g->w[0] * s->vz[v[0]] + g->w[1] * s->vz[v[1]] + g->w[2] * s->vz[v[2]]),
    };
    g->vn = DOT(vr, g->u);
    for (int j = 0; j < 3; j++)
        g->vt[j] = vr[j] - g->vn * g->u[j];
    return 1;
}

/* Whether a pair's geometry makes a contact this substep: in the band (and
 * not deeper than h behind the face), or closing fast enough to reach it. */
static int pair_active(const skin_contact *c, const pair_geo *g)
{
    double reach = g->vn < 0 ? -g->vn * c->k->dt : 0.0;
    return g->s >= -c->k->h && g->d <= reach;
}

/* The force (N) of one iteration on the point of pair `pair`, F[3] (the
 * corners get -w F); with `save`, the pair's new accumulated impulses are
 * written for the next iteration (only the point's owner saves). Reads the
 * accumulators of iteration `iter` and the velocities. Both sides of a pair
 * call it with the same pair id and read the same stored inputs. */
static void pair_force(const skin_contact *c, int iter, int pair, int save, double F[3],
                       double w[3])
{
    const pair_fixed *g = &c->fixed[pair];
    F[0] = F[1] = F[2] = 0.0;
    w[0] = w[1] = w[2] = 0.0;
    if (!g->ok)
        return;
    memcpy(w, g->w, sizeof g->w);
    const skin_contact_state *s = c->s;
    const skin_contact_params *k = c->k;
    const int *v = g->v, i = g->i;
    double vr[3] = {
        s->vx[i] - (g->w[0] * s->vx[v[0]] + g->w[1] * s->vx[v[1]] + g->w[2] * s->vx[v[2]]),
        s->vy[i] - (g->w[0] * s->vy[v[0]] + g->w[1] * s->vy[v[1]] + g->w[2] * s->vy[v[2]]),
        s->vz[i] - (g->w[0] * s->vz[v[0]] + g->w[1] * s->vz[v[1]] + g->w[2] * s->vz[v[2]]),
    };
    double vn = DOT(vr, g->u), vt[3];
    for (int j = 0; j < 3; j++)
        vt[j] = vr[j] - vn * g->u[j];
    double meff = g->meff, dt = k->dt;
    const float *old = c->acc[iter & 1] + 4 * (size_t)pair;
    /* Accumulated normal impulse stays >= 0; accumulated friction within
     * mu times it (sequential impulses, Jacobi order). */
    double jn_old = old[0], jn = jn_old + meff * (g->target - vn);
    if (!(jn > 0.0))
        jn = 0.0;
    double jt[3], lim = k->mu * jn;
    for (int j = 0; j < 3; j++)
        jt[j] = old[1 + j] - meff * vt[j];
    double jtl = sqrt(DOT(jt, jt));
    if (jtl > lim) {
        double sc = lim / jtl;
        jt[0] *= sc, jt[1] *= sc, jt[2] *= sc;
    }
    /* The new accumulators rounded to float, as they are stored: both
     * sides use the rounded values (C11 requires the conversion; with
     * -ffp-contract=off and no fast-math every operation here is one IEEE
     * rounding, so every inlined copy gives the same bits from the same
     * pair_fixed record, velocities and accumulators). */
    const float nj[4] = {(float)jn, (float)jt[0], (float)jt[1], (float)jt[2]};
    if (save)
        memcpy(c->acc[(iter + 1) & 1] + 4 * (size_t)pair, nj, sizeof nj);
    for (int j = 0; j < 3; j++)
        F[j] = (((double)nj[0] - jn_old) * g->u[j] + ((double)nj[1 + j] - old[1 + j])) / dt;
}

/* Pair `pair` (point i, triangle t) fixed for the substep, after the shares:
 * the geometry, the split effective mass and the target normal velocity. */
static void pair_fix(skin_contact *c, int pair, int i, int t)
{
    pair_fixed *f = &c->fixed[pair];
    pair_geo g;
    f->i = i;
    f->ok = pair_geometry(c, i, t, &g);
    memcpy(f->v, g.v, sizeof g.v);
    if (!f->ok)
        return;
    memcpy(f->w, g.w, sizeof g.w), memcpy(f->u, g.u, sizeof g.u);
    const skin_contact_state *s = c->s;
    const skin_contact_params *k = c->k;
    int MN = c->MN;
    double mp = s->mass[i / MN], mt = s->mass[g.v[0] / MN];
    /* Diagonally dominant (Gershgorin) split of the masses: one Jacobi
     * iteration never overshoots, whatever the pairs around. */
    double inv = c->share[i] / mp;
    for (int j = 0; j < 3; j++)
        inv += g.w[j] * c->share[g.v[j]] / mt;
    double meff = 1.0 / inv, dt = k->dt, target;
    if (g.d > 0)
        target = -g.d / dt;
    else {
        target = k->beta * -g.d / dt;
        if (target > k->v_out)
            target = k->v_out;
    }
    f->meff = meff, f->target = target;
}

/* ---- phase 1a: the broad phase, which rings can touch ---- */

/* Whether a point at grid place (pm, pn) ignores its own ring's triangles
 * of quad (m, n): a corner within self_steps steps both ways (periodic). */
static int self_excluded(const skin_contact *c, int s, int pm, int pn, int m, int n)
{
    int m1 = m + 1 == c->M ? 0 : m + 1, n1 = n + 1 == c->N ? 0 : n + 1;
    int dm = periodic_steps(pm, m, c->M), dm1 = periodic_steps(pm, m1, c->M);
    int dn = periodic_steps(pn, n, c->N), dn1 = periodic_steps(pn, n1, c->N);
    return (dm < dm1 ? dm : dm1) <= s && (dn < dn1 ? dn : dn1) <= s;
}

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
static void capture_reference(skin_contact *c, const skin_contact_params *k,
                              const skin_contact_state *s, int p)
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
        y[3 * i + 0] = (float)(s->x[base + i] - cen[0]);
        y[3 * i + 1] = (float)(s->y[base + i] - cen[1]);
        y[3 * i + 2] = (float)(s->z[base + i] - cen[2]);
        const double r = sqrt((double)y[3 * i] * y[3 * i] + (double)y[3 * i + 1] * y[3 * i + 1]
                              + (double)y[3 * i + 2] * y[3 * i + 2]);
        extent = r > extent ? r : extent;
    }
    c->ref_extent[p] = extent;
#define REF(i, v) double v[3] = {y[3 * (i)], y[3 * (i) + 1], y[3 * (i) + 2]}
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
static int polar_rotation(const double A[9], double R[9])
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

/* Ring p's box, fastest vertex and whether it may touch itself, in one
 * pass over its vertices (about 3 ns per vertex).
 *
 * Self-contact test (conservative). Let y be the reference shape, g its
 * ref_gap, and R, t any isometry with every vertex within delta of
 * R y_i + t now. A point of the triangle, sum w_k x_k, is within delta of
 * R (sum w_k y_k) + t, so a point and a triangle it does not ignore are at
 * least g - 2 delta apart now. A pair needs them within h + |v_rel| dt <=
 * h + 2 vmax dt (pair_active). So when g - 2 delta > h + 2 vmax dt the ring
 * has no self pair this substep. R and t come from the previous substep's
 * fit (any isometry keeps the test sound): R the rotation that fitted best
 * then (the polar factor of sum (x - c) y^T), t its centroid moved on by its
 * mean velocity for dt; the same pass fits the next substep's. */
static void ring_bounds(skin_contact *c, const skin_contact_params *k,
                        const skin_contact_state *s, int p)
{
    int MN = c->MN, base = p * MN;
    if (c->ref_steps[p] != k->self_steps)
        capture_reference(c, k, s, p);
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
     * only has to be some isometry, which rounding keeps it. */
    enum { BL = 16 };
    float llo[3][BL], lhi[3][BL], lsx[3][BL], lsy[3][BL], lsv[3][BL], lA[9][BL];
    float lv2[BL], ld2[BL];
    for (int j = 0; j < BL; j++) {
        for (int a = 0; a < 3; a++)
            llo[a][j] = INFINITY, lhi[a][j] = -INFINITY, lsx[a][j] = lsy[a][j] = lsv[a][j] = 0.0f;
        for (int a = 0; a < 9; a++)
            lA[a][j] = 0.0f;
        lv2[j] = ld2[j] = 0.0f;
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
            const float y0 = y[3 * i], y1 = y[3 * i + 1], y2 = y[3 * i + 2];
            const float vv = qx[i] * qx[i] + qy[i] * qy[i] + qz[i] * qz[i];
            lv2[j] = vv > lv2[j] ? vv : lv2[j];
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
    double d2 = 0.0;
    for (int j = 0; j < BL; j++) {
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
    double grow = k->h + vmax * k->dt + 1e-6;
    double *rb = c->rbox + 6 * (size_t)p;
    for (int a = 0; a < 3; a++)
        rb[a] = lo[a] - grow, rb[3 + a] = hi[a] + grow;
    int on = 1;
    if (c->ref_gap[p] == INFINITY)
        on = 0; /* every triangle is a neighbour */
    else if (fit[12] != 0.0) {
        /* the deviation in float: each component a few roundings of values
         * below 2 |y| + |x - o| (the fit's R is orthogonal to 1e-9 and
         * rounded to float): 1e-5 of that, plus 1e-6 m, bounds the error */
        double delta = sqrt(d2) * (1.0 + 1e-5) + 1e-5 * (c->ref_extent[p] + sqrt(d2)) + 1e-6;
        on = !(c->ref_gap[p] - 2.0 * delta > k->h + 2.0 * vmax * k->dt + 1e-5);
    }
    c->self_on[p] = (unsigned char)on;
    /* The next substep's isometry. */
    fit[12] = polar_rotation(A, fit);
    for (int a = 0; a < 3; a++)
        fit[9 + a] = cen[a] + sv[a] / MN * k->dt;
}

/* Ring p's patch boxes: each patch's vertices and the next row and column
 * (its triangles' corners), grown by h + the patch's vmax dt. */
static void patch_bounds(skin_contact *c, const skin_contact_params *k,
                         const skin_contact_state *s, int p)
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
            double grow = k->h + sqrt((double)v2) * (1.0 + 1e-6) * k->dt + 1e-6;
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

static int grow(void **arr, size_t *cap, size_t need, size_t size);

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
 * pair made 4096 rings 2.7 times the per-vertex cost of 16), then the same
 * between the patches of those ring pairs. ring_on: the rings in any pair
 * or touching themselves; patch_on: every patch of a ring that may touch
 * itself, and the patches in a pair. np^2 patch box tests per ring pair.
 * 0, or -1 when out of memory. Serial. */
static int broad_phase(skin_contact *c)
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
            if (grow((void **)&c->ring_pair, &c->ring_pair_cap, 2 * (c->nring_pair + 1),
                     sizeof *c->ring_pair))
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
    if (grow((void **)&c->nbr, &c->nbr_cap, need > 0 ? need : 1, sizeof *c->nbr))
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

/* Whether the point or quad (m, n) of ring p is in a patch that may touch. */
static int patch_is_on(const skin_contact *c, int p, int m, int n)
{
    return c->patch_on[(size_t)p * c->np + (m / PATCH) * c->pn + n / PATCH];
}

/* ---- phase 1b: the grid of triangles ---- */

/* The cell of coordinate x (m) with inv = 1 / cell: monotone in x, which is
 * all the grid needs (two overlapping boxes share a cell). */
static int cell_of(double x, double inv)
{
    double q = floor(x * inv);
    if (!(q > -CELL_LIMIT))
        return -CELL_LIMIT;
    if (q > CELL_LIMIT)
        return CELL_LIMIT;
    return (int)q;
}

static unsigned bucket_of(const skin_contact *c, int ring, int i, int j, int l)
{
    uint32_t h = (uint32_t)i * 73856093u ^ (uint32_t)j * 19349663u ^ (uint32_t)l * 83492791u;
    h ^= h >> 15;
    h *= 0x2c1b3c6du;
    h ^= h >> 12;
    return h & c->tmask[ring];
}

void skin_contact_bound(skin_contact *c, const skin_contact_params *k,
                        const skin_contact_state *s, int p0, int p1)
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

size_t skin_contact_grid_scratch_bytes(int M, int N)
{
    /* per triangle: its box (6 floats), its index and its bucket; per
     * vertex its speed */
    return (size_t)M * (size_t)N * (13 * sizeof(float) + 4 * sizeof(int));
}

/* Ring p's part of the grid: its listed triangles' boxes, its cell size
 * (the widest box but runaway ones, over 4 mean boxes, which go to its
 * large list), one cell per triangle (its box's low corner), counting-sorted
 * by bucket. The boxes, the list and the buckets live in `scratch` (one
 * ring's), not per triangle of the scene. Rings are independent: any
 * split, the same bits. */
static void ring_grid(skin_contact *c, int p, void *scratch)
{
    const skin_contact_state *s = c->s;
    const skin_contact_params *k = c->k;
    const int M = c->M, N = c->N, MN = c->MN;
    float *box = scratch, *speed = box + 12 * (size_t)MN;
    int *list = (int *)(speed + MN), *tb = list + 2 * (size_t)MN;
    int e0 = c->eoff[p], nl = c->eoff[p + 1] - e0;
    double ext = 0.0, cell = 0.0;
    c->nlarge_r[p] = 0;
    if (!c->ring_on[p] || nl == 0)
        return;
    const size_t base = (size_t)p * (size_t)MN;
    const float *x = s->x + base, *y = s->y + base, *z = s->z + base;
    const float *vx = s->vx + base, *vy = s->vy + base, *vz = s->vz + base;
    /* each vertex's speed once (a vertex has six triangles) */
    for (int i = 0; i < MN; i++)
        speed[i] = sqrtf(vx[i] * vx[i] + vy[i] * vy[i] + vz[i] * vz[i]);
    int j = 0;
    for (int m = 0; m < M; m++) {
        const int r0 = m * N, r1 = (m + 1 == M ? 0 : m + 1) * N;
        for (int n = 0; n < N; n++) {
            if (!patch_is_on(c, p, m, n))
                continue;
            const int n1 = n + 1 == N ? 0 : n + 1;
            /* the quad's two triangles, corners as tri_corners gives them */
            const int corner[2][3] = {{r0 + n, r1 + n, r1 + n1}, {r0 + n, r1 + n1, r0 + n1}};
            for (int h = 0; h < 2; h++, j++) {
                const int *v = corner[h];
                float *bx = box + 6 * (size_t)j, vmax = 0.0f;
                for (int r = 0; r < 3; r++)
                    vmax = speed[v[r]] > vmax ? speed[v[r]] : vmax;
                float grow = k->h + vmax * k->dt;
                bx[0] = min3f(x[v[0]], x[v[1]], x[v[2]]) - grow;
                bx[1] = min3f(y[v[0]], y[v[1]], y[v[2]]) - grow;
                bx[2] = min3f(z[v[0]], z[v[1]], z[v[2]]) - grow;
                bx[3] = max3f(x[v[0]], x[v[1]], x[v[2]]) + grow;
                bx[4] = max3f(y[v[0]], y[v[1]], y[v[2]]) + grow;
                bx[5] = max3f(z[v[0]], z[v[1]], z[v[2]]) + grow;
                list[j] = 2 * (int)(base + (size_t)r0 + (size_t)n) + h;
                double e = max3f(bx[3] - bx[0], bx[4] - bx[1], bx[5] - bx[2]);
                if (e < 1e3) /* a runaway triangle does not set the cell size */
                    ext += e;
            }
        }
    }
    /* Cells as wide as the widest box: a box that meets a point's has its
     * low corner in the point's cells or the ones below. */
    double mean = ext / nl;
    for (j = 0; j < nl; j++) {
        const float *bx = box + 6 * (size_t)j;
        double e = max3f(bx[3] - bx[0], bx[4] - bx[1], bx[5] - bx[2]);
        if (e <= 4.0 * mean)
            cell = e > cell ? e : cell;
    }
    cell = cell * (1.0 + 1e-5) + 1e-9;
    if (!(cell > 4.0 * k->h))
        cell = 4.0 * k->h;
    double inv = c->inv_cell[p] = 1.0 / cell;
    int len = (int)c->tmask[p] + 1, *bs = c->bucket_start + c->toff[p], nlarge = 0;
    memset(bs, 0, sizeof *bs * ((size_t)len + 1));
    for (j = 0; j < nl; j++) {
        int a[3];
        const float *bx = box + 6 * (size_t)j;
        double e = max3f(bx[3] - bx[0], bx[4] - bx[1], bx[5] - bx[2]);
        for (int d = 0; d < 3; d++)
            a[d] = cell_of(bx[d], inv);
        if (!(e <= 4.0 * mean) || a[0] <= -CELL_LIMIT + 1 || a[0] >= CELL_LIMIT
            || a[1] <= -CELL_LIMIT + 1 || a[1] >= CELL_LIMIT || a[2] <= -CELL_LIMIT + 1
            || a[2] >= CELL_LIMIT) {
            nlarge++;
            tb[j] = -1;
        } else {
            unsigned h = bucket_of(c, p, a[0], a[1], a[2]);
            tb[j] = (int)h;
            bs[h + 1]++;
        }
    }
    /* Counting sort: prefix sums, then placing advances each bucket's start
     * to its end; one shift back restores. Triangles ascend in a bucket. */
    for (int h = 0; h < len; h++)
        bs[h + 1] += bs[h];
    int large = bs[len]; /* after the grid's entries */
    for (int h = len; h > 0; h--)
        bs[h] = bs[h - 1];
    bs[0] = 0;
    for (j = 0; j < nl; j++) {
        int t = list[j];
        tri_entry *E = &c->entry[e0 + (tb[j] < 0 ? large++ : bs[tb[j] + 1]++)];
        const float *bx = box + 6 * (size_t)j;
        memcpy(E->lo, bx, sizeof E->lo), memcpy(E->hi, bx + 3, sizeof E->hi);
        E->t = t, E->ring = p;
    }
    c->nlarge_r[p] = nlarge;
}

int skin_contact_plan(skin_contact *c, const skin_contact_params *k, const skin_contact_state *s)
{
    c->k = k, c->s = s;
    c->P = s->P, c->nv = s->P * c->MN, c->nt = 2 * c->nv;
    if (broad_phase(c))
        return -1;
    /* Each ring's entries (its triangles in patches that are on) and its
     * part of the table, about as long as they are. */
    int e = 0, slot = 0;
    for (int p = 0; p < c->P; p++) {
        int n = 0;
        if (c->ring_on[p])
            for (int a = 0; a < c->pm; a++)
                for (int b = 0; b < c->pn; b++)
                    if (c->patch_on[(size_t)p * c->np + a * c->pn + b]) {
                        int dm = (a + 1) * PATCH < c->M ? PATCH : c->M - a * PATCH;
                        int dn = (b + 1) * PATCH < c->N ? PATCH : c->N - b * PATCH;
                        n += 2 * dm * dn;
                    }
        size_t len = pow2_at_least((size_t)(n > 0 ? n : 1));
        c->eoff[p] = e, c->toff[p] = slot, c->tmask[p] = (unsigned)(len - 1);
        e += n, slot += (int)len + 1;
    }
    c->eoff[c->P] = e;
    return 0;
}

void skin_contact_grid(skin_contact *c, int p0, int p1, void *scratch)
{
    for (int p = p0; p < p1; p++)
        ring_grid(c, p, scratch ? scratch : c->grid_scratch);
}

int skin_contact_prepare(skin_contact *c, const skin_contact_params *k, const skin_contact_state *s)
{
    if (skin_contact_plan(c, k, s))
        return -1;
    skin_contact_grid(c, 0, c->P, NULL);
    return 0;
}

/* ---- phase 2: each point's pairs ---- */

/* Inserts (t, d, speed) into point i's list kept by ascending d (ties by
 * triangle), dropping the farthest beyond K. */
static void keep_pair(int *tri, float *spd, double *dist, int *n, int t, double d, float speed)
{
    int j = *n;
    if (j == K) {
        if (d > dist[K - 1] || (d == dist[K - 1] && t > tri[K - 1]))
            return;
        j = K - 1;
    } else
        (*n)++;
    while (j > 0 && (dist[j - 1] > d || (dist[j - 1] == d && tri[j - 1] > t))) {
        dist[j] = dist[j - 1], tri[j] = tri[j - 1], spd[j] = spd[j - 1];
        j--;
    }
    dist[j] = d, tri[j] = t, spd[j] = speed;
}

/* The point being searched: its index and grid place. */
typedef struct {
    int i, p, m, n;
    float lo[3], hi[3]; /* its box, m */
} point_query;

/* Point pq against grid entry E: the rings' filter first (the broad phase),
 * then the boxes, then self-contact not against a triangle whose quad has
 * a corner within self_steps grid steps of the point, both ways
 * (periodic), then the pair itself. */
static inline void consider(const skin_contact *c, const point_query *pq, const tri_entry *E,
                            int *tri, float *spd, double *dist, int *n)
{
    /* E is of a ring in pq's neighbour list, so near it; its own ring only
     * when it may touch itself */
    if (E->ring == pq->p && !c->self_on[E->ring])
        return;
    /* one branch, not six: most entries miss, unpredictably which way */
    if ((pq->lo[0] > E->hi[0]) | (pq->hi[0] < E->lo[0]) | (pq->lo[1] > E->hi[1])
        | (pq->hi[1] < E->lo[1]) | (pq->lo[2] > E->hi[2]) | (pq->hi[2] < E->lo[2]))
        return;
    int t = E->t;
    if (E->ring == pq->p) {
        int r = (t >> 1) - E->ring * c->MN, m = r / c->N;
        if (self_excluded(c, c->k->self_steps, pq->m, pq->n, m, r - m * c->N))
            return;
    }
    pair_geo g;
    if (!pair_geometry(c, pq->i, t, &g) || !pair_active(c, &g))
        return;
    keep_pair(tri, spd, dist, n, t, g.d, g.vn < 0 ? (float)-g.vn : 0.0f);
}

/* Work up to ring p in half points: two entries per point to search (a
 * point in a patch that is on, the triangles of its quad) and two per ring
 * for passing it by. */
static long long find_work(const skin_contact *c, int p) { return c->eoff[p] + 2LL * p; }

void skin_contact_find_share(const skin_contact *c, int share, int shares, int *v0, int *v1)
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

void skin_contact_find(skin_contact *c, int v0, int v1)
{
    const skin_contact_state *s = c->s;
    float dt = c->k->dt;
    for (int i = v0; i < v1; i++) {
        int p = i / c->MN, end = (p + 1) * c->MN < v1 ? (p + 1) * c->MN : v1;
        if (!c->ring_on[p]) { /* the whole ring (of this range) has no pairs */
            memset(c->npt + i, 0, (size_t)(end - i));
            i = end - 1;
            continue;
        }
        int tri[K], n = 0;
        float spd[K];
        double dist[K];
        float sp = sqrtf(s->vx[i] * s->vx[i] + s->vy[i] * s->vy[i] + s->vz[i] * s->vz[i]) * dt;
        point_query pq = {i, p, 0, 0, {s->x[i] - sp, s->y[i] - sp, s->z[i] - sp},
                          {s->x[i] + sp, s->y[i] + sp, s->z[i] + sp}};
        pq.m = (i - p * c->MN) / c->N, pq.n = i - p * c->MN - pq.m * c->N;
        if (!patch_is_on(c, p, pq.m, pq.n)) {
            c->npt[i] = 0;
            continue;
        }
        if (!c->self_on[p]) {
            /* Its box lies in its patch's box, and a triangle's in its
             * patch's: a pair needs the point's box to meet the overlap of
             * the two patch boxes. Most points of a patch in a pile do not
             * (measured: 74% were near no other ring). */
            const double *r = c->preach + 6 * ((size_t)p * c->np + (pq.m / PATCH) * c->pn
                                               + pq.n / PATCH);
            if ((pq.lo[0] > r[3]) | (pq.hi[0] < r[0]) | (pq.lo[1] > r[4]) | (pq.hi[1] < r[1])
                | (pq.lo[2] > r[5]) | (pq.hi[2] < r[2])) {
                c->npt[i] = 0;
                continue;
            }
        }
        for (int r = c->nbr_start[p]; r < c->nbr_start[p + 1]; r++) {
            int q = c->nbr[r];
            const double *rb = c->rbox + 6 * (size_t)q;
            if (pq.lo[0] > rb[3] || pq.hi[0] < rb[0] || pq.lo[1] > rb[4] || pq.hi[1] < rb[1]
                || pq.lo[2] > rb[5] || pq.hi[2] < rb[2])
                continue; /* the point is not near ring q */
            int e0 = c->eoff[q], nq = c->eoff[q + 1] - e0;
            if (nq == 0)
                continue;
            /* A box that meets the point's has its low corner at most a
             * cell below the point's box: cells a .. b of ring q. */
            int a[3], b[3], far = 0;
            for (int d = 0; d < 3; d++) {
                a[d] = cell_of(pq.lo[d], c->inv_cell[q]) - 1;
                b[d] = cell_of(pq.hi[d], c->inv_cell[q]);
                far |= b[d] - a[d] >= SPAN_LIMIT;
            }
            if (far) { /* ring q's cells are small for this point: all of q */
                for (int e = e0; e < e0 + nq; e++)
                    consider(c, &pq, &c->entry[e], tri, spd, dist, &n);
                continue;
            }
            const int *bs = c->bucket_start + c->toff[q];
            unsigned seen[SPAN_LIMIT * SPAN_LIMIT * SPAN_LIMIT];
            int ns = 0;
            for (int x = a[0]; x <= b[0]; x++)
                for (int y = a[1]; y <= b[1]; y++)
                    for (int z = a[2]; z <= b[2]; z++) {
                        /* Each bucket once (two cells may share one). */
                        unsigned h = bucket_of(c, q, x, y, z);
                        int dup = 0;
                        for (int u = 0; u < ns && !dup; u++)
                            dup = seen[u] == h;
                        if (dup)
                            continue;
                        seen[ns++] = h;
                        for (int e = e0 + bs[h]; e < e0 + bs[h + 1]; e++)
                            consider(c, &pq, &c->entry[e], tri, spd, dist, &n);
                    }
            /* and its large triangles */
            for (int e = e0 + nq - c->nlarge_r[q]; e < e0 + nq; e++)
                consider(c, &pq, &c->entry[e], tri, spd, dist, &n);
        }
        /* Stored by triangle index: the gather's order. */
        for (int j = 1; j < n; j++)
            for (int r = j; r > 0 && tri[r - 1] > tri[r]; r--) {
                int tt = tri[r]; tri[r] = tri[r - 1]; tri[r - 1] = tt;
                float ss = spd[r]; spd[r] = spd[r - 1]; spd[r - 1] = ss;
            }
        c->npt[i] = (unsigned char)n;
        memcpy(c->pt_tri + (size_t)K * i, tri, sizeof *tri * (size_t)n);
        memcpy(c->pt_speed + (size_t)K * i, spd, sizeof *spd * (size_t)n);
    }
}

/* ---- phase 3: counts, pairs by triangle, ring pairs ---- */

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

static int grow(void **arr, size_t *cap, size_t need, size_t size)
{
    /* amortised: at least twice the need, so a growing scene reallocates rarely */
    if (need <= *cap)
        return 0;
    size_t n = need * 2 > 64 ? need * 2 : 64;
    void *q = realloc(*arr, n * size);
    if (!q)
        return -1;
    *arr = q, *cap = n;
    return 0;
}

/* Which of a vertex's six triangles (the gather's order k) a corner j of
 * triangle type o (T1, T2) is, and back. */
static const unsigned char K_OF[2][3] = {{0, 2, 3}, {1, 4, 5}};
static const unsigned char CORNER_OF_K[6] = {0, 0, 1, 2, 1, 2};

/* The vertices in a pair (the points, ascending, and the corners of the
 * sorted records), merged ascending and once each, those with a share
 * (a corner of weight 0 has none), with each one's corner records. */
static int link_active(skin_contact *c, int npts, size_t nrec)
{
    const size_t need = (size_t)npts + nrec;
    if (need > c->act_cap) { /* act, cbeg, cend and pbase grow together */
        const size_t cap = need * 2 > 64 ? need * 2 : 64;
        int **arr[4] = {&c->act, &c->cbeg, &c->cend, &c->pbase};
        for (int j = 0; j < 4; j++) {
            int *q = realloc(*arr[j], sizeof *q * cap);
            if (!q)
                return -1;
            *arr[j] = q;
        }
        c->act_cap = cap;
    }
    int n = 0;
    size_t e = 0;
    for (int j = 0; j < npts || e < nrec;) {
        const int vp = j < npts ? c->pts[j] : INT32_MAX;
        const int vc = e < nrec ? (int)(c->ckey[e] >> 35) : INT32_MAX;
        const int v = vp < vc ? vp : vc;
        const size_t b = e;
        while (e < nrec && (int)(c->ckey[e] >> 35) == v)
            e++;
        const int base = vp == v ? c->pair_base[j] : 0;
        j += vp == v;
        if (c->share[v] > 0.0f) {
            c->act[n] = v, c->cbeg[n] = (int)b, c->cend[n] = (int)e, c->pbase[n] = base;
            n++;
        }
    }
    c->nact = n;
    return 0;
}

int skin_contact_link(skin_contact *c)
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
    size_t np = 0;
    for (int p = 0; p < c->P; p++) {
        if (!c->ring_on[p]) /* no pairs (the broad phase) */
            continue;
        if (grow((void **)&c->pts, &c->pts_cap, (size_t)npts + (size_t)c->MN, sizeof *c->pts))
            return -1;
        if (c->pts_cap > c->pair_base_cap) { /* pair_base grows with pts */
            int *q = realloc(c->pair_base, sizeof *q * c->pts_cap);
            if (!q)
                return -1;
            c->pair_base = q, c->pair_base_cap = c->pts_cap;
        }
        for (int i = p * c->MN; i < (p + 1) * c->MN; i++)
            if (c->npt[i]) {
                c->pts[npts++] = i;
                np += c->npt[i];
            }
    }
    if (grow((void **)&c->by_tri, &c->by_tri_cap, np, sizeof *c->by_tri)
        || grow((void **)&c->fixed, &c->fixed_cap, np, sizeof *c->fixed)
        || grow((void **)&c->ckey, &c->ckey_cap, 3 * np, sizeof *c->ckey)
        || grow((void **)&c->crec, &c->crec_cap, 3 * np, sizeof *c->crec))
        return -1;
    if (np > c->acc_cap) {
        for (int b = 0; b < 2; b++) {
            float *q = realloc(c->acc[b], sizeof *q * 4 * np * 2);
            if (!q)
                return -1;
            c->acc[b] = q;
        }
        c->acc_cap = np * 2;
    }
    if (np > 0)
        memset(c->acc[0], 0, sizeof(float) * 4 * np);
    /* Each pair's corners (the geometry once; pair_fix does it again with
     * the shares); the shares of the vertices in a pair start at 0. */
    size_t e = 0;
    for (int j = 0; j < npts; j++) {
        const int i = c->pts[j];
        c->pair_base[j] = (int)e;
        c->share[i] = 0.0f;
        for (int u = 0; u < c->npt[i]; u++, e++) {
            pair_geo g;
            if (!pair_geometry(c, i, c->pt_tri[(size_t)K * i + u], &g)) /* cannot happen: find saw it */
                g.w[0] = g.w[1] = g.w[2] = 0.0;
            pair_fixed *f = &c->fixed[e];
            memcpy(f->v, g.v, sizeof g.v), memcpy(f->w, g.w, sizeof g.w);
            for (int k = 0; k < 3; k++)
                c->share[g.v[k]] = 0.0f;
        }
    }
    /* The shares, in the order points and pairs come (the sums' rounding is
     * part of the result); the pairs by triangle; the ring pairs touching. */
    e = 0;
    for (int j = 0; j < npts; j++) {
        const int i = c->pts[j], pi = i / c->MN;
        for (int u = 0; u < c->npt[i]; u++, e++) {
            const int t = c->pt_tri[(size_t)K * i + u];
            const pair_fixed *f = &c->fixed[e];
            c->share[i] += 1.0f;
            for (int k = 0; k < 3; k++)
                c->share[f->v[k]] += (float)f->w[k];
            c->by_tri[e] = (uint64_t)t << 32 | (uint32_t)e;
            int pt = f->v[0] / c->MN;
            c->ring_pairs[pi]++;
            if (pt != pi) {
                c->ring_pairs[pt]++;
                if (grow((void **)&c->touch, &c->touch_cap, (size_t)c->ntouch + 1,
                         sizeof *c->touch))
                    return -1;
                ring_touch r = {pi < pt ? pi : pt, pi < pt ? pt : pi,
                                c->pt_speed[(size_t)K * i + u]};
                c->touch[c->ntouch++] = r;
            }
        }
    }
    c->npairs = (int)np;
    e = 0;
    for (int j = 0; j < npts; j++) {
        const int i = c->pts[j];
        for (int u = 0; u < c->npt[i]; u++, e++)
            pair_fix(c, (int)e, i, c->pt_tri[(size_t)K * i + u]);
    }
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
    if (link_active(c, npts, 3 * np))
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

int skin_contact_ring_pairs(const skin_contact *c, int p) { return c->ring_pairs[p]; }
int skin_contact_pairs(const skin_contact *c) { return c->npairs; }
int skin_contact_any(const skin_contact *c) { return c->any_on; }

int skin_contact_starts(const skin_contact *c, skin_contact_start *out, int cap)
{
    int n = 0, j = 0;
    for (int i = 0; i < c->ntouch; i++) {
        const ring_touch *r = &c->touch[i];
        while (j < c->ntouch_prev && cmp_touch(&c->touch_prev[j], r) < 0)
            j++;
        if (j < c->ntouch_prev && cmp_touch(&c->touch_prev[j], r) == 0)
            continue;
        if (n < cap) {
            skin_contact_start st = {r->p, r->q, r->speed};
            out[n] = st;
        }
        n++;
    }
    return n;
}

/* ---- phase 4: the gather ---- */

/* The force of iteration iter on the vertex at place a of link's list: as
 * a point, its pairs by triangle index; then as a corner of its six
 * triangles, in a fixed order, each triangle's pairs by point index (the
 * records' order). One call of pair_force for both roles: the same code
 * computes the pair for the point and for its corners. */
static void gather_vertex(skin_contact *c, int iter, size_t a, float out[3])
{
    const int i = c->act[a], cs = c->cbeg[a], nc = c->cend[a] - cs, np = c->npt[i];
    double f[3] = {0, 0, 0}, F[3], w[3];
    for (int j = 0; j < np + nc; j++) {
        int point = j < np;
        const corner_rec *r = point ? NULL : &c->crec[cs + j - np];
        pair_force(c, iter, point ? c->pbase[a] + j : r->pair, point, F, w);
        if (point)
            f[0] += F[0], f[1] += F[1], f[2] += F[2];
        else {
            double wk = w[r->corner];
            f[0] -= wk * F[0], f[1] -= wk * F[1], f[2] -= wk * F[2];
        }
    }
    out[0] = (float)f[0], out[1] = (float)f[1], out[2] = (float)f[2];
}

void skin_contact_gather(skin_contact *c, int iter, int v0, int v1, float *fx, float *fy,
                         float *fz)
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
    const int na = skin_contact_active(c, v0, v1, &first);
    for (int a = first; a < first + na; a++) {
        float f[3];
        gather_vertex(c, iter, (size_t)a, f);
        const int i = c->act[a];
        fx[i] = f[0], fy[i] = f[1], fz[i] = f[2];
    }
}

void skin_contact_gather_active(skin_contact *c, int iter, int a0, int a1, float *fx, float *fy,
                                float *fz)
{
    for (int a = a0; a < a1; a++) {
        float f[3];
        gather_vertex(c, iter, (size_t)a, f);
        fx[a] = f[0], fy[a] = f[1], fz[a] = f[2];
    }
}

int skin_contact_active(const skin_contact *c, int v0, int v1, int *first)
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

const int *skin_contact_active_list(const skin_contact *c) { return c->act; }
int skin_contact_active_count(const skin_contact *c) { return c->nact; }

int skin_contact_forces(skin_contact *c, const skin_contact_params *k, const skin_contact_state *s,
                        float *fx, float *fy, float *fz)
{
    if (skin_contact_prepare(c, k, s))
        return -1;
    skin_contact_find(c, 0, s->P * c->MN);
    if (skin_contact_link(c))
        return -1;
    skin_contact_gather(c, 0, 0, s->P * c->MN, fx, fy, fz);
    return 0;
}

int skin_contact_solve(skin_contact *c, const skin_contact_params *k, const skin_contact_state *s,
                       int iters, float *vx, float *vy, float *vz, float *fx, float *fy, float *fz)
{
    int nv = s->P * c->MN;
    float *f = malloc(sizeof *f * 3 * (size_t)nv);
    if (!f || skin_contact_prepare(c, k, s)) {
        free(f);
        return -1;
    }
    skin_contact_find(c, 0, nv);
    if (skin_contact_link(c)) {
        free(f);
        return -1;
    }
    memset(fx, 0, sizeof *fx * (size_t)nv), memset(fy, 0, sizeof *fy * (size_t)nv);
    memset(fz, 0, sizeof *fz * (size_t)nv);
    for (int it = 0; it < iters; it++) {
        skin_contact_gather(c, it, 0, nv, f, f + nv, f + 2 * nv);
        for (int i = 0; i < nv; i++) {
            float im = k->dt / s->mass[i / c->MN];
            vx[i] += f[i] * im, vy[i] += f[nv + i] * im, vz[i] += f[2 * nv + i] * im;
            fx[i] += f[i], fy[i] += f[nv + i], fz[i] += f[2 * nv + i];
        }
    }
    free(f);
    return 0;
}

double skin_contact_ring_force(const skin_contact *c, int p, const float *fx, const float *fy,
                               const float *fz)
{
    /* the vertices in a pair only: the others' force is 0 (and adds no bit) */
    int first;
    const int n = skin_contact_active(c, p * c->MN, (p + 1) * c->MN, &first);
    double sum = 0.0;
    for (int k = first; k < first + n; k++) {
        const int i = c->act[k];
        sum += sqrt((double)fx[i] * fx[i] + (double)fy[i] * fy[i] + (double)fz[i] * fz[i]);
    }
    return sum;
}

/* ---- the winding number ---- */

/* Signed solid angle of triangle abc seen from the origin (the a, b, c
 * relative to the point), steradians. */
static double solid_angle(const double a[3], const double b[3], const double cc[3])
{
    double la = sqrt(DOT(a, a)), lb = sqrt(DOT(b, b)), lc = sqrt(DOT(cc, cc));
    double bxc[3] = {b[1] * cc[2] - b[2] * cc[1], b[2] * cc[0] - b[0] * cc[2],
                     b[0] * cc[1] - b[1] * cc[0]};
    double num = DOT(a, bxc);
    double den = la * lb * lc + DOT(a, b) * lc + DOT(a, cc) * lb + DOT(b, cc) * la;
    return 2.0 * atan2(num, den);
}

double mesh_winding_number(int M, int N, const float *x, const float *y, const float *z,
                           const double pt[3])
{
    double sum = 0.0;
    for (int m = 0; m < M; m++)
        for (int n = 0; n < N; n++) {
            int m1 = (m + 1) % M, n1 = (n + 1) % N;
            int q[4] = {m * N + n, m1 * N + n, m1 * N + n1, m * N + n1};
            double r[4][3];
            for (int j = 0; j < 4; j++)
                r[j][0] = x[q[j]] - pt[0], r[j][1] = y[q[j]] - pt[1], r[j][2] = z[q[j]] - pt[2];
            sum += solid_angle(r[0], r[1], r[2]) + solid_angle(r[0], r[2], r[3]);
        }
    return sum / (4.0 * 3.14159265358979323846);
}
