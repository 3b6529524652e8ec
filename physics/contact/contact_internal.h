/* What the contact's files share privately: the kernel's state (struct
 * contact_kernel), its constants and record types, the mesh helpers the
 * hot loops inline, and the functions one file calls in another. Only the
 * files in physics/contact/ include it; everyone else uses contact.h. */
#ifndef DINGHY_CONTACT_INTERNAL_H
#define DINGHY_CONTACT_INTERNAL_H

#include "physics/contact/contact.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#define DOT(u, v) ((u)[0] * (v)[0] + (u)[1] * (v)[1] + (u)[2] * (v)[2])

/* out = a x b (out apart from a and b). */
static inline void cross3(const double a[3], const double b[3], double out[3])
{
    out[0] = a[1] * b[2] - a[2] * b[1];
    out[1] = a[2] * b[0] - a[0] * b[2];
    out[2] = a[0] * b[1] - a[1] * b[0];
}

/* Pairs kept per point. */
#define K CONTACT_PER_POINT
/* Edge-edge pairs kept per point, for the three edges of its quad (edge
 * id 3 i + type: type 0 to (m+1, n), 1 to (m, n+1), 2 to (m+1, n+1)). */
#define KE CONTACT_EDGE_PER_POINT
/* Patches of the broad phase: blocks of PATCH x PATCH quads (and their points). */
#define PATCH 4
/* A patch's triangles, one lane each (lane h PATCH^2 + dm PATCH + dn: triangle
 * h of quad (dm, dn) in the patch), tested at once: one bit each in a uint32_t. */
#define LANES (2 * PATCH * PATCH)
/* A patch's quads, one edge lane each (lane dm PATCH + dn: the edge of
 * quad (dm, dn) in the patch of one type, 0 to (m+1, n), 1 to (m, n+1),
 * 2 to (m+1, n+1)). */
#define EDGE_LANES (PATCH * PATCH)
/* Where a slot's edge boxes start: after its triangles' boxes; type
 * tb's lo x .. hi z at TRI_FLOATS + 6 EDGE_LANES tb, EDGE_LANES each. */
#define TRI_FLOATS (6 * LANES)
/* Where a slot's edges start (after their boxes): each quad's corner
 * (m, n) x, y, z, then type tb's other end less it, x, y, z, at
 * EDGE_AT + 3 EDGE_LANES (1 + tb), EDGE_LANES each (floats). */
#define EDGE_AT (TRI_FLOATS + 3 * 6 * EDGE_LANES)
/* Where a slot's edge reach is: h + margin + its fastest corner's |v|
 * ahead (one float, then 15 unused: the slots stay aligned). */
#define EDGE_GROW (EDGE_AT + 4 * 3 * EDGE_LANES)
/* A patch's boxes: its triangles' (lo x, lo y, lo z, hi x, hi y, hi z,
 * LANES each), then its edges' boxes, ends and reach (the edge search's
 * filters, edge_pairs.c). */
#define SLOT_FLOATS (EDGE_GROW + 16)
_Static_assert(SLOT_FLOATS % 16 == 0 && TRI_FLOATS % 16 == 0, "slots stay 64-byte aligned");
/* The edge boxes' rounding allowance (slots.c, edge_pairs.c): they are
 * floats, and the closest-point test they stand before is in double, so
 * each bound moves out by this fraction of its magnitude and its growth
 * (many times the float rounding of the bound, of |v| and of the growth):
 * a box then holds every pair that test keeps (the filter drops none). */
#define EDGE_PAD 0x1p-16f

/* A bound lo (hi) of an edge box grown by g, and the allowance. */
static inline float edge_lo(float lo, float g) { return lo - g - (fabsf(lo) + g) * EDGE_PAD; }
static inline float edge_hi(float hi, float g) { return hi + g + (fabsf(hi) + g) * EDGE_PAD; }

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

/* What an edge-edge pair keeps through the substep's iterations (set by
 * link): edge ea of ring p against edge eb of a ring q p searches
 * (edge_searches, edge_law.h). */
typedef struct {
    float speed;   /* approach speed, m/s (>= 0) */
    int v[4];      /* a0, a1, b0, b1 */
    double w[4];   /* signed weights: 1 - s, s, -(1 - t), -t (sum 0) */
    double u[3];   /* direction of the force on edge a */
    double d;      /* gap s - h, m */
    double meff;   /* split effective mass, kg */
    double target; /* target normal velocity, m/s */
} edge_fixed;

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
    unsigned char *nep;  /* edge pairs of point i's quad */
    int *pe_a, *pe_b;    /* KE per point of a slot's patch (edge_place): its edge and the
                            other ring's, by (a, b) ascending */
    float *pe_wake;      /* the same places: how long after the search the pair may first
                            be active, s (edge_candidate) */

    /* the points with pairs found by the last search, ascending (link.c
     * lists them on its first substep after a search, then reads only them) */
    int *cand;
    size_t cand_cap, ncand_pairs;
    int ncand, cand_stale; /* cand_stale: a search ran since the list was made (plan) */
    /* the quads (by corner point) with edge pairs found by the last search,
     * ascending, listed with cand (edge_pairs.c reads only them) */
    int *ecand;
    size_t ecand_cap;
    int necand;

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
    /* the substep's edge-edge pairs (edge_pairs.c) */
    edge_fixed *efix;    /* each edge pair's substep-long inputs, by point, then (a, b) */
    size_t efix_cap;
    int nepairs;
    uint64_t *ekey;      /* 4 per edge pair: (vertex, its role 0..3, pair), sorted: the
                            gather's order (then room for as many: the sort's) */
    size_t ekey_cap;
    int *ebeg, *eend;    /* per vertex in act: its records in ekey */
    float *eacc[2];      /* 4 per edge pair: as acc */
    size_t eacc_cap;
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

/* Edge `type` (0, 1, 2) of the quad at vertex i: its other end. */
static inline int edge_end(const contact_kernel *c, int i, int type)
{
    const int p = i / c->MN, r = i - p * c->MN, m = r / c->N, n = r - m * c->N;
    const int m1 = type != 1 ? (m + 1 == c->M ? 0 : m + 1) : m;
    const int n1 = type != 0 ? (n + 1 == c->N ? 0 : n + 1) : n;
    return p * c->MN + m1 * c->N + n1;
}

/* Where point i's edge pairs are kept: as point_place, KE places each. */
static inline size_t edge_place(const contact_kernel *c, int i)
{
    return point_place(c, i) / K * KE;
}

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

/* Whether the box lo .. hi meets ring q's (the broad phase's filter). */
static inline int box_meets_ring(const contact_kernel *c, const float lo[3], const float hi[3],
                                 int q)
{
    const double *rb = c->rbox + 6 * (size_t)q;
    return !(lo[0] > rb[3] || hi[0] < rb[0] || lo[1] > rb[4] || hi[1] < rb[1] || lo[2] > rb[5]
             || hi[2] < rb[2]);
}

/* Whether the box lo .. hi misses the reach of patch (a, b) of ring p
 * (where another ring's patches may meet it: bounds.c). Only for a ring
 * that may not touch itself (the reach is then kept). */
static inline int misses_reach(const contact_kernel *c, int p, int a, int b, const float lo[3],
                               const float hi[3])
{
    const double *reach = c->preach + 6 * ((size_t)p * c->np + a * c->pn + b);
    return (lo[0] > reach[3]) | (hi[0] < reach[0]) | (lo[1] > reach[4]) | (hi[1] < reach[1])
         | (lo[2] > reach[5]) | (hi[2] < reach[2]);
}

/* Slots a patch's list has room for; more (a patch near very many) and
 * its points or quads search every ring instead. */
#define LIST_CAP 128
/* A point or quad tests its patch's list LIST_WIDTH slots at a time: a
 * list is short (4.5 slots in a pile): 16 is one loop gcc vectorises (8
 * it unrolls and leaves scalar) and tests fewer empty boxes than 32. */
#define LIST_WIDTH 16

/* The slots near a patch's points or quads (slots.c): of the rings it
 * may touch, those whose box meets the union of their boxes, the slots
 * whose box meets it too, with their boxes for the test of LIST_WIDTH at
 * a time. */
typedef struct {
    int nlist, over;              /* slots listed; 1: more than LIST_CAP */
    int slot[LIST_CAP], ring[LIST_CAP];
    float box[6 * LIST_CAP];      /* the listed slots' boxes, lo x of each, then lo y, ... */
} slot_list;

/* ---- calls between the files ---- */

/* Whether ring p searches ring q's edges (each pair of rings once): the
 * lower ring when p + q is odd, the higher when even, so that each ring
 * searches about half its neighbours and the find's equal shares of
 * points stay equal shares of work (with "the lower", ring 0 searched
 * every neighbour and ring 63 none: the first thread's share took 1.3
 * times the second's in the rapids). */
static inline int edge_searches(int p, int q)
{
    return p != q && (((p + q) & 1) ? p < q : p > q);
}

/* slots.c: the slots of the rings that ring p may touch near the box lo
 * .. hi (a slot_list; the boxes past the list empty up to a multiple of
 * LIST_WIDTH); with `edges`, only those of the rings whose edges p
 * searches (edge_searches). */
void contact_list_slots(const contact_kernel *c, int p, int edges, const float lo[3],
                        const float hi[3], slot_list *l);

/* memory.c: *arr grown to hold at least need items of size bytes (at
 * least twice that, so that a growing scene reallocates rarely); 0, or -1
 * when out of memory (then *arr is as it was). */
int contact_grow(void **arr, size_t *cap, size_t need, size_t size);
/* memory.c: both accumulator buffers acc[0], acc[1] (4 floats a pair)
 * grown to hold at least n pairs (twice that when they grow); 0, or -1
 * when out of memory. */
int contact_grow_acc(float *acc[2], size_t *cap, size_t n);
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

/* edge_pairs.c: the edge pairs of the quads of patch (a, b) of ring p
 * whose corner (m, n) has index in the ring in [r0, r1), against the
 * triangles' edges of the rings it searches (edge_searches; find, after
 * the points' search). */
void contact_edge_find_patch(contact_kernel *c, int p, int a, int b, int r0, int r1);
/* edge_pairs.c (link): the found edge pairs of the quads listed in ecand
 * that may be active by now (pe_wake) measured on the state now, the
 * active ones into efix (nepairs), their vertices' shares zeroed; 0, or
 * -1 when out of memory. */
int contact_edge_measure(contact_kernel *c);
/* edge_pairs.c (link, after the vertex-triangle pairs' shares): the edge
 * pairs' shares added, each pair's split mass and target, the records in
 * the gather's order (ekey), the accumulators zeroed, and ring counts and
 * touches; 0, or -1 when out of memory. */
int contact_edge_link(contact_kernel *c);

#endif
