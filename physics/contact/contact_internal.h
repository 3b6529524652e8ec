/* What the contact's files share privately: the kernel's state (struct
 * contact_kernel), its constants and record types, the mesh helpers the
 * hot loops inline, and the functions one file calls in another. Only the
 * files in physics/contact/ include it; everyone else uses contact.h. */
#ifndef DINGHY_CONTACT_INTERNAL_H
#define DINGHY_CONTACT_INTERNAL_H

#include "physics/contact/contact.h"

#include <stdint.h>
#include <stdlib.h>

#define DOT(u, v) ((u)[0] * (v)[0] + (u)[1] * (v)[1] + (u)[2] * (v)[2])

/* Pairs kept per point. */
#define K CONTACT_PER_POINT
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
/* contact_bound's marks: the ring's bounds, its patch boxes */
#define FRESH_BOUNDS 1
#define FRESH_PATCHES 2

/* A ring pair in contact this substep: rings p < q, the fastest approach
 * speed among their pairs, m/s. */
typedef struct {
    int p, q;
    float speed;
} ring_touch;

/* What a pair keeps through the substep's iterations (set by link: the
 * positions and the shares do not change within a substep). */
typedef struct {
    int i, ok;     /* the point; 0 when the pair cannot touch (no force) */
    int t;         /* the triangle */
    float speed;   /* approach speed, m/s (>= 0) */
    double d;      /* gap s - h, m */
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

/* A ring's place in the sweep: its box's low x, then its index. */
typedef struct {
    double x;
    int p;
} sweep_key;

struct contact_kernel {
    int P_cap, M, N, MN;
    const contact_params *k;
    const contact_state *s;
    int P, nv;

    /* which rings can touch (bounds.c; the reference shapes: self_reference.c) */
    float *ref;          /* 3 per vertex: each ring's reference shape, about its centroid, m
                            (ring p's x of every vertex, then y, then z, at 3 p MN) */
    double *ref_extent;  /* [P_cap]: largest distance of a vertex of the reference from
                            its centroid, m (sets the self test's rounding margin) */
    double *ref_gap;     /* [P_cap]: least distance of a point from a triangle it may
                            touch (not a neighbour) in the reference shape, m */
    int *ref_steps;      /* [P_cap]: self_steps ref_gap is for; -1: no reference yet */
    unsigned char *fresh; /* [P_cap]: what contact_bound did for ring p this
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

    /* the rings each ring may touch (bounds.c) and the triangles' boxes,
     * patch by patch (slots.c) */
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

    /* each point's pairs (search.c) */
    unsigned char *npt;  /* pairs of point i */
    int *pt_tri;         /* K per point of a slot's patch (point_place): triangle, ascending */
    float *pt_wake;      /* the same places: how long after the search the pair may first
                            be active, s (pair_candidate) */

    /* the points with pairs found by the last search, ascending (link.c
     * lists them on its first substep after a search, then reads only them) */
    int *cand;
    size_t cand_cap, ncand_pairs;
    int ncand, cand_stale; /* cand_stale: a search ran since the list was made (plan) */

    /* the substep's pairs, fixed (link.c), and their impulses (solve.c) */
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
    int *pcount;         /* per vertex in act: its pairs as a point (0 if none) */
    int *pair_count;     /* per point in pts: its pairs (the active ones, from pair_base) */
    float *acc[2];       /* 4 per pair: accumulated normal impulse, friction impulse xyz, N s */
    size_t acc_cap;
    int *ring_pairs;     /* [P_cap] */
    ring_touch *touch, *touch_prev;
    int ntouch, ntouch_prev;
    size_t touch_cap, touch_prev_cap;
};

/* ---- the mesh (inlined where the search and the law need them) ---- */

/* The corners of triangle t (global vertex indices). */
static inline void tri_corners(const contact_kernel *c, int t, int v[3])
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

/* Grid steps between places a and b of a periodic row of n. */
static inline int periodic_steps(int a, int b, int n)
{
    int d = abs(a - b);
    return d < n - d ? d : n - d;
}

/* Whether a point at grid place (pm, pn) ignores its own ring's triangles
 * of quad (m, n): a corner within self_steps steps both ways (periodic). */
static inline int self_excluded(const contact_kernel *c, int s, int pm, int pn, int m, int n)
{
    int m1 = m + 1 == c->M ? 0 : m + 1, n1 = n + 1 == c->N ? 0 : n + 1;
    int dm = periodic_steps(pm, m, c->M), dm1 = periodic_steps(pm, m1, c->M);
    int dn = periodic_steps(pn, n, c->N), dn1 = periodic_steps(pn, n1, c->N);
    return (dm < dm1 ? dm : dm1) <= s && (dn < dn1 ? dn : dn1) <= s;
}

/* Where point i's pairs are kept: its patch's slot's PATCH x PATCH
 * points, K places each (only points of patches that are on have pairs). */
static inline size_t point_place(const contact_kernel *c, int i)
{
    const int p = i / c->MN, r = i - p * c->MN, m = r / c->N, n = r - m * c->N;
    const int s = c->patch_slot[(size_t)p * c->np + (m / PATCH) * c->pn + n / PATCH];
    return ((size_t)s * PATCH * PATCH + (size_t)(m % PATCH) * PATCH + (size_t)(n % PATCH)) * K;
}

/* ---- calls between the files ---- */

/* memory.c: *arr grown to hold at least need items of size bytes (at
 * least twice that, so that a growing scene reallocates rarely); 0, or -1
 * when out of memory (then *arr is as it was). */
int contact_grow(void **arr, size_t *cap, size_t need, size_t size);
/* memory.c: room for n slots (their triangle and union boxes, patches and
 * the pairs of their points); 0, or -1 when out of memory. */
int contact_reserve_slots(contact_kernel *c, size_t n);

/* self_reference.c: ring p's reference shape (its shape in s about its
 * centroid) and its least self gap for k's self_steps. */
void contact_capture_reference(contact_kernel *c, const contact_params *k,
                               const contact_state *s, int p);
/* self_reference.c: whether ring p may touch itself this substep, from d2,
 * the largest squared distance (m^2) of a vertex from the fitted reference
 * shape, and vmax (m/s), its fastest vertex's speed about the ring's
 * mean velocity (a bound on half any two vertices' closing speed). */
int contact_self_may_touch(const contact_kernel *c, const contact_params *k, int p, double d2,
                           double vmax);
/* self_reference.c: the rotation nearest A (3 x 3, row-major) into R; 0
 * when there is none to trust. */
int contact_polar_rotation(const double A[9], double R[9]);

/* bounds.c: which rings and patches may touch this substep, and each
 * ring's neighbour list; 0, or -1 when out of memory. Serial. */
int contact_broad_phase(contact_kernel *c);

/* pair_law.c: pair `pair` (its geometry measured by link) fixed for the
 * substep, after the shares: split mass and target. */
void contact_pair_fix(contact_kernel *c, int pair);

#endif
