/* Skin contact between ring meshes; the law and the phases are in skin_contact.h. */
#include "physics/contact/skin_contact.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define K SKIN_CONTACT_PER_POINT
/* Patches of the broad phase: blocks of PATCH x PATCH quads (and their points). */
#define PATCH 4
/* A patch's triangles, one lane each (lane h PATCH^2 + dm PATCH + dn: triangle
 * h of quad (dm, dn) in the patch), tested at once: one bit each in a uint32_t. */
#define LANES (2 * PATCH * PATCH)
/* A patch's triangle boxes: lo x, lo y, lo z, hi x, hi y, hi z, LANES each. */
#define SLOT_FLOATS (6 * LANES)
/* Bits in a search mask: the boxes tested at once. */
#define MASK_BITS 32
_Static_assert(LANES == MASK_BITS, "a patch's lanes are a mask");
/* skin_contact_bound's marks: the ring's bounds, its patch boxes */
#define FRESH_BOUNDS 1
#define FRESH_PATCHES 2

typedef struct {
    int p, q;
    float speed;
} ring_touch;

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
    int P, nv;

    /* prepare: which rings can touch (the broad phase) */
    float *ref;          /* 3 per vertex: each ring's reference shape, about its centroid, m
                            (ring p's x of every vertex, then y, then z, at 3 p MN) */
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

    /* prepare: the triangles' boxes, patch by patch (the grid) */
    int *eoff;           /* [P_cap + 1]: the triangles of patches that are on before
                            ring p (find's measure of work) */
    int *nbr_start, *nbr; /* [P_cap + 1], [nbr_cap]: the rings each ring may touch
                             (itself first when it may touch itself, then by index) */
    size_t nbr_cap;
    int *pslot;          /* [P_cap + 1]: ring p's first slot (its patches that are
                            on, in order, take slots pslot[p] .. pslot[p + 1] - 1) */
    int *slot_patch;     /* [nslot]: each slot's patch in its ring */
    int *patch_slot;     /* [P_cap x np]: each patch's slot this substep (where on) */
    size_t nslot;        /* slots there is room for: grown (plan) to the patches that
                            are on, so the slots and the points' pairs below, the
                            bulk of the kernel's memory, grow with the contact */
    float *tbox;         /* [nslot] x SLOT_FLOATS: each slot's triangle boxes grown by
                            h + the fastest corner's |v| dt, m (64-byte aligned) */
    float *ubox;         /* 6 x [ustride]: each slot's box, the union of its triangles'
                            (lo x of every slot, then lo y, ...), m */
    size_t ustride;      /* nslot + MASK_BITS: a test of MASK_BITS slots from any
                            slot reads only ubox */
    uint32_t *lane_on;   /* [np]: a patch's lanes that are triangles of the mesh */

    /* find: each point's pairs */
    unsigned char *npt;  /* pairs of point i */
    int *pt_tri;         /* K per point of a slot's patch (point_place): triangle, ascending */
    float *pt_speed;     /* the same places: approach speed, m/s */

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

/* Bytes of what does not grow: per ring, patch and vertex (find's pair
 * counts, the shares, the reference shapes). */
static size_t fixed_bytes(int P, int M, int N)
{
    size_t nv = (size_t)P * M * N, np = (size_t)((M + PATCH - 1) / PATCH) * ((N + PATCH - 1) / PATCH);
    return np * sizeof(uint32_t)
         + (size_t)P * 3 * sizeof(int)
         + (size_t)P * np * sizeof(int) /* each patch's slot */
         + nv * (1 + sizeof(float)) /* find's pair counts, the shares */
         + (size_t)P * sizeof(int)
         + nv * 3 * sizeof(float) + (size_t)P * (sizeof(double) * 21 + sizeof(int) + 3)
         + (size_t)P * (sizeof(sweep_key) + sizeof(int))
         + (size_t)P * np * (12 * sizeof(double) + 1);
}

/* Bytes of n slots: their triangle and union boxes, patches, and the pairs
 * of their points. */
static size_t slot_bytes(size_t n)
{
    return n * (SLOT_FLOATS * sizeof(float) + sizeof(int)
                + PATCH * PATCH * K * (sizeof(int) + sizeof(float)))
         + 6 * (n + MASK_BITS) * sizeof(float);
}

static size_t first_slots(int P, int np);

size_t skin_contact_bytes(int P, int M, int N)
{
    const int np = ((M + PATCH - 1) / PATCH) * ((N + PATCH - 1) / PATCH);
    return fixed_bytes(P, M, N) + slot_bytes(first_slots(P, np))
         + (size_t)P * (4 * RING_PAIRS_PER_RING + 1) * sizeof(int); /* pairs, neighbours */
}

size_t skin_contact_heap_bytes(const skin_contact *c)
{
    return fixed_bytes(c->P_cap, c->M, c->N) + slot_bytes(c->nslot)
         + (c->ring_pair_cap + c->nbr_cap) * sizeof(int)
         + c->by_tri_cap * sizeof(uint64_t) + c->fixed_cap * sizeof(pair_fixed)
         + (c->pts_cap + c->pair_base_cap) * sizeof(int) + c->ckey_cap * sizeof(uint64_t)
         + c->act_cap * 4 * sizeof(int) + c->crec_cap * sizeof(corner_rec)
         + c->acc_cap * 2 * 4 * sizeof(float)
         + (c->touch_cap + c->touch_prev_cap) * sizeof(ring_touch);
}

/* Each patch's lanes that are triangles of the mesh: all but where M or N
 * is not a multiple of PATCH (the last row or column of patches). */
static void lanes_of_patches(skin_contact *c)
{
    for (int a = 0; a < c->pm; a++)
        for (int b = 0; b < c->pn; b++) {
            uint32_t on = 0;
            for (int j = 0; j < LANES; j++) {
                const int dm = j / PATCH % PATCH, dn = j % PATCH;
                if (a * PATCH + dm < c->M && b * PATCH + dn < c->N)
                    on |= (uint32_t)1 << j;
            }
            c->lane_on[a * c->pn + b] = on;
        }
}

/* The slots there is room for at first: an eighth of the patches (more
 * grow them, doubling up to one per patch). */
static size_t first_slots(int P, int np)
{
    const size_t n = (size_t)P * (size_t)np / 8;
    return n > 64 ? n : 64;
}

/* Room for n slots: their triangle boxes, union boxes, patches and the
 * pairs of their points (contents rebuilt every substep, not kept). */
static int reserve_slots(skin_contact *c, size_t n)
{
    if (n <= c->nslot && c->tbox)
        return 0;
    /* n at first, then doubling, but never past one slot per patch (every
     * patch on) */
    const size_t all = (size_t)c->P_cap * (size_t)c->np > 64 ? (size_t)c->P_cap * (size_t)c->np : 64;
    size_t cap = !c->tbox ? n : n > c->nslot ? n * 2 : c->nslot;
    cap = cap < all ? cap : all;
    const size_t places = cap * PATCH * PATCH * K;
    float *tbox = aligned_alloc(64, sizeof *tbox * SLOT_FLOATS * cap);
    float *ubox = calloc(6 * (cap + MASK_BITS), sizeof *ubox); /* zeros past the slots */
    int *slot_patch = malloc(sizeof *slot_patch * cap), *tri = malloc(sizeof *tri * places);
    float *speed = malloc(sizeof *speed * places);
    if (!tbox || !ubox || !slot_patch || !tri || !speed) {
        free(tbox), free(ubox), free(slot_patch), free(tri), free(speed);
        return -1;
    }
    free(c->tbox), free(c->ubox), free(c->slot_patch), free(c->pt_tri), free(c->pt_speed);
    c->tbox = tbox, c->ubox = ubox, c->slot_patch = slot_patch, c->pt_tri = tri, c->pt_speed = speed;
    c->nslot = cap, c->ustride = cap + MASK_BITS;
    return 0;
}

skin_contact *skin_contact_create(int P, int M, int N)
{
    skin_contact *c = calloc(1, sizeof *c);
    if (!c)
        return NULL;
    c->P_cap = P, c->M = M, c->N = N, c->MN = M * N;
    size_t nv = (size_t)P * M * N;
    c->eoff = calloc((size_t)P + 1, sizeof *c->eoff);
    c->nbr_start = malloc(sizeof *c->nbr_start * ((size_t)P + 1));
    c->npt = calloc(nv, 1);
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
    c->pslot = calloc((size_t)P + 1, sizeof *c->pslot);
    c->patch_slot = malloc(sizeof *c->patch_slot * ((size_t)P * c->np > 0 ? (size_t)P * c->np : 1));
    c->lane_on = malloc(sizeof *c->lane_on * (size_t)(c->np > 0 ? c->np : 1));
    if (!c->ref || !c->ref_gap || !c->ref_extent || !c->ref_steps || !c->fit || !c->fresh || !c->rbox
        || !c->self_on || !c->ring_on || !c->sweep || !c->fill || !c->ring_pair || !c->nbr || !c->pbox || !c->patch_on || !c->preach
        || !c->pslot || !c->patch_slot || !c->lane_on || reserve_slots(c, first_slots(P, c->np))) {
        skin_contact_free(c);
        return NULL;
    }
    for (int p = 0; p < P; p++)
        c->ref_steps[p] = -1;
    lanes_of_patches(c);
    if (!c->eoff || !c->nbr_start || !c->npt || !c->share || !c->ring_pairs) {
        skin_contact_free(c);
        return NULL;
    }
    return c;
}

void skin_contact_free(skin_contact *c)
{
    if (!c)
        return;
    free(c->eoff); free(c->nbr_start); free(c->nbr);
    free(c->pslot); free(c->slot_patch); free(c->patch_slot); free(c->tbox); free(c->ubox);
    free(c->lane_on);
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
     * only has to be some isometry, which rounding keeps it. 8 lanes: one
     * vector register per accumulator (16 spilled them: 25% slower). */
    enum { BL = 8 };
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
            const float y0 = y[i], y1 = y[MN + i], y2 = y[2 * MN + i];
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

/* ---- phase 1b: the triangles' boxes, patch by patch ---- */

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
static inline void lane_boxes(const skin_contact_params *k, const float *px, const float *py,
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
            const float grow = k->h + vmax * k->dt;
            bx[0 * LANES + j] = min3f(px[c0], px[c1], px[c2]) - grow;
            bx[1 * LANES + j] = min3f(py[c0], py[c1], py[c2]) - grow;
            bx[2 * LANES + j] = min3f(pz[c0], pz[c1], pz[c2]) - grow;
            bx[3 * LANES + j] = max3f(px[c0], px[c1], px[c2]) + grow;
            bx[4 * LANES + j] = max3f(py[c0], py[c1], py[c2]) + grow;
            bx[5 * LANES + j] = max3f(pz[c0], pz[c1], pz[c2]) + grow;
        }
}

/* Patch pi of ring p into slot s: its triangles' boxes, grown by h + the
 * fastest corner's |v| dt (the floats of the search's box test), one lane
 * each, and their union, the slot's box. Lanes that are no triangle are
 * empty (+inf .. -inf: they meet nothing). The patch's (PATCH + 1)^2
 * corners are gathered first (periodic), so that a lane's corners are at
 * fixed places. */
static void patch_grid(skin_contact *c, int p, int pi, int s)
{
    enum { W = PATCH + 1 };
    const skin_contact_state *st = c->s;
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

int skin_contact_plan(skin_contact *c, const skin_contact_params *k, const skin_contact_state *s)
{
    c->k = k, c->s = s;
    c->P = s->P, c->nv = s->P * c->MN;
    if (broad_phase(c))
        return -1;
    /* Each ring's patches that are on, a slot each, and its triangles in
     * them (find's measure of work). */
    int e = 0, slot = 0;
    for (int p = 0; p < c->P; p++)
        if (c->ring_on[p])
            for (int pi = 0; pi < c->np; pi++)
                slot += c->patch_on[(size_t)p * c->np + pi];
    if (reserve_slots(c, (size_t)slot))
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
void skin_contact_grid(skin_contact *c, int p0, int p1, void *scratch)
{
    (void)scratch;
    for (int p = p0; p < p1; p++)
        if (c->ring_on[p])
            for (int s = c->pslot[p]; s < c->pslot[p + 1]; s++)
                patch_grid(c, p, c->slot_patch[s], s);
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
 * triangle), dropping the farthest beyond K. The list is the K least
 * (d, t) whatever the order the triangles come in. */
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

/* The point being searched: its index and grid place, its box, and the
 * pairs it keeps so far (keep_pair's list). */
typedef struct {
    int i, p, m, n;
    float lo[3], hi[3]; /* its box, m */
    int tri[K], npair;
    float spd[K];
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
static void consider(const skin_contact *c, point_query *pq, int q, int m, int n, int h)
{
    if (q == pq->p && self_excluded(c, c->k->self_steps, pq->m, pq->n, m, n))
        return;
    const int t = 2 * (q * c->MN + m * c->N + n) + h;
    pair_geo g;
    if (!pair_geometry(c, pq->i, t, &g) || !pair_active(c, &g))
        return;
    keep_pair(pq->tri, pq->spd, pq->dist, &pq->npair, t, g.d, g.vn < 0 ? (float)-g.vn : 0.0f);
}

/* Point pq against the lanes of slot s (ring q) whose box meets the point's. */
static void search_slot(const skin_contact *c, point_query *pq, int q, int s)
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
static int meets_ring(const skin_contact *c, const point_query *pq, int q)
{
    const double *rb = c->rbox + 6 * (size_t)q;
    return !(pq->lo[0] > rb[3] || pq->hi[0] < rb[0] || pq->lo[1] > rb[4] || pq->hi[1] < rb[1]
             || pq->lo[2] > rb[5] || pq->hi[2] < rb[2]);
}

/* Point pq against every ring it may touch and whose box meets its own:
 * the slots of the ring whose box meets the point's, then their lanes.
 * That is every triangle of a patch that is on whose box meets the
 * point's, each once (a box lies in its slot's). */
static void search_rings(const skin_contact *c, point_query *pq)
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

/* Where point i's pairs are kept: its patch's slot's PATCH x PATCH
 * points, K places each (only points of patches that are on have pairs). */
static size_t point_place(const skin_contact *c, int i)
{
    const int p = i / c->MN, r = i - p * c->MN, m = r / c->N, n = r - m * c->N;
    const int s = c->patch_slot[(size_t)p * c->np + (m / PATCH) * c->pn + n / PATCH];
    return ((size_t)s * PATCH * PATCH + (size_t)(m % PATCH) * PATCH + (size_t)(n % PATCH)) * K;
}

/* The point's pairs into its lists, by triangle index: the gather's order. */
static void store_pairs(skin_contact *c, point_query *pq)
{
    int *tri = pq->tri, np = pq->npair, i = pq->i;
    float *spd = pq->spd;
    for (int j = 1; j < np; j++)
        for (int r = j; r > 0 && tri[r - 1] > tri[r]; r--) {
            int tt = tri[r]; tri[r] = tri[r - 1]; tri[r - 1] = tt;
            float ss = spd[r]; spd[r] = spd[r - 1]; spd[r - 1] = ss;
        }
    c->npt[i] = (unsigned char)np;
    if (np) {
        const size_t at = point_place(c, i);
        memcpy(c->pt_tri + at, tri, sizeof *tri * (size_t)np);
        memcpy(c->pt_speed + at, spd, sizeof *spd * (size_t)np);
    }
}

/* Slots a patch's list has room for; more (a patch near very many) and
 * its points search every ring instead. */
#define LIST_CAP 128
/* A point tests its patch's list LIST_WIDTH slots at a time: a list is
 * short (4.5 slots in a pile), and 16 is one loop gcc vectorises (8 it
 * unrolled and left scalar: find 10% slower than 32; 16 is 5 to 10%
 * faster). */
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
static void patch_points(const skin_contact *c, int p, int a, int b, int r0, int r1,
                         patch_search *ps)
{
    const skin_contact_state *s = c->s;
    const float dt = c->k->dt;
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
static void patch_slots(const skin_contact *c, int p, patch_search *ps)
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
static void find_patch(skin_contact *c, int p, int a, int b, int r0, int r1)
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
    for (int p = 0; p < c->P; p++)
        if (c->ring_on[p]) /* the others have no pairs (the broad phase) */
            for (int i = p * c->MN; i < (p + 1) * c->MN; i++)
                npts += c->npt[i] != 0;
    if (grow((void **)&c->pts, &c->pts_cap, (size_t)npts, sizeof *c->pts))
        return -1;
    if (c->pts_cap > c->pair_base_cap) { /* pair_base grows with pts */
        int *q = realloc(c->pair_base, sizeof *q * c->pts_cap);
        if (!q)
            return -1;
        c->pair_base = q, c->pair_base_cap = c->pts_cap;
    }
    npts = 0;
    for (int p = 0; p < c->P; p++)
        if (c->ring_on[p])
            for (int i = p * c->MN; i < (p + 1) * c->MN; i++)
                if (c->npt[i]) {
                    c->pts[npts++] = i;
                    np += c->npt[i];
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
        const int *tri = c->pt_tri + point_place(c, i);
        c->pair_base[j] = (int)e;
        c->share[i] = 0.0f;
        for (int u = 0; u < c->npt[i]; u++, e++) {
            pair_geo g;
            if (!pair_geometry(c, i, tri[u], &g)) /* cannot happen: find saw it */
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
        const size_t at = point_place(c, i);
        for (int u = 0; u < c->npt[i]; u++, e++) {
            const int t = c->pt_tri[at + (size_t)u];
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
                ring_touch r = {pi < pt ? pi : pt, pi < pt ? pt : pi, c->pt_speed[at + (size_t)u]};
                c->touch[c->ntouch++] = r;
            }
        }
    }
    c->npairs = (int)np;
    e = 0;
    for (int j = 0; j < npts; j++) {
        const int i = c->pts[j];
        const int *tri = c->pt_tri + point_place(c, i);
        for (int u = 0; u < c->npt[i]; u++, e++)
            pair_fix(c, (int)e, i, tri[u]);
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
                               const float *fz, int *pushed)
{
    int first, n = 0;
    const int na = skin_contact_active(c, p * c->MN, (p + 1) * c->MN, &first);
    double sum = 0.0;
    for (int k = first; k < first + na; k++) {
        const double x = fx[k], y = fy[k], z = fz[k];
        n += x != 0.0 || y != 0.0 || z != 0.0;
        sum += sqrt(x * x + y * y + z * z);
    }
    *pushed = n;
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
