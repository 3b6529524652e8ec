/* Contact between the rings' skins: every vertex against the triangles of
 * other rings and of its own ring beyond its neighbourhood, and every edge
 * against the edges of other rings (physics.md section 9). The module's
 * public header: the tick and the tests use this.
 *
 * Meshes. Ring p is a closed torus grid of M x N vertices, vertex (m, n) at
 * global index p*M*N + m*N + n, both directions periodic, two outward
 * triangles per quad as the membrane has them (physics/skin/membrane.h):
 * triangle 2q + 0 = (m,n) (m+1,n) (m+1,n+1) and 2q + 1 = (m,n) (m+1,n+1)
 * (m,n+1), q = p*M*N + m*N + n.
 *
 * How it enters the step. The contact is a velocity-level correction of
 * the symplectic Euler step: every other force first gives the predicted
 * velocities v* = v + dt F / m (into the next state); the contact reads the
 * current positions x and v*, and a few Jacobi iterations add impulses to
 * v*; then x' = x + dt v'. Acting on v* (gravity, springs, pressure in it),
 * a resting contact holds exactly and static friction does not creep.
 *
 * The module's files, one job each (the phases below in order):
 *   pair_law.h, pair_law.c   the law for one pair: geometry, the impulses,
 *                            the stiffness it adds (the law in full there)
 *   edge_law.h               the same law for an edge-edge pair: geometry
 *                            and the force of an iteration
 *   edge_pairs.c             the edge-edge pairs found (in find), linked
 *                            (in link)
 *   memory.c                 create, free, and what the kernel holds
 *   self_reference.c         each ring's reference shape: whether a ring
 *                            may touch itself this substep
 *   bounds.c                 ring and patch boxes, the sort and sweep
 *                            (the broad phase: why it drops nothing there)
 *   slots.c                  the triangles' and edges' boxes, patch by
 *                            patch (slots), and the slots near a patch
 *   search.c                 each point's pairs among the slots
 *   link.c                   the substep's pairs fixed, shares, ring pairs
 *   solve.c                  the Jacobi gathers and serial drivers
 *   contact_internal.h       what these files share (the kernel's state)
 *   inside.h, inside.c       whether a point is inside a closed ring mesh
 *
 * Phases of one substep (a barrier between each; the parallel ones split
 * any way over their ranges and give the same bits):
 *   contact_bound    optional, parallel over rings: each ring's box (grown
 *       by h + its fastest vertex's |v| dt) and whether it may touch
 *       itself, and the patch boxes of a ring that could touch something
 *       the substep before (off the serial path); what prepare leaves
 *       undone it does itself;
 *   contact_prepare  the broad phase then the slots, either at once
 *       (serial) or as contact_plan (serial: ring pairs whose grown boxes
 *       overlap, by sort and sweep along x, then the same between their
 *       patches of 4 x 4 quads; only the patches in a pair, all of a ring
 *       that may touch itself, go on, a slot each) and contact_grid
 *       (parallel over rings: each slot's 32 triangle boxes and their
 *       union);
 *   contact_find     parallel over points (of patches that are on; the
 *       tick gives each thread a share of equal work by contact_find_share,
 *       not of equal rows): each point against the triangles of the rings
 *       it may touch whose boxes meet its own; the pairs made are kept, up
 *       to CONTACT_PER_POINT per point, the nearest first; then the three
 *       edges of the point's quad (to (m+1, n), (m, n+1), (m+1, n+1):
 *       every edge once) against the edges of the rings it searches (each
 *       pair of rings once: the lower ring when p + q is odd, the higher
 *       when even, so the find's shares stay even)
 *       that the triangles whose boxes meet theirs own, whose own boxes
 *       meet theirs and whose lines' closest points may make a pair
 *       within the look-ahead (float filters, 16 edges a test, that drop
 *       no pair the test in double keeps: within reach at the speed bound,
 *       and inside the edges or within the slide that reach allows), up
 *       to CONTACT_EDGE_PER_POINT per point, those needing the least of
 *       the reach first, each with its wake as a point's pair;
 *   contact_link     serial, O(pairs log pairs) (and a pass over the
 *       points of rings that may touch, once a search, listing the points
 *       and quads with pairs): each pair's geometry, split mass and target
 *       fixed for the substep (the edge pairs' too, their shares summed
 *       after the vertex-triangle pairs'), each vertex's corner and edge
 *       records in the gather's order, the vertices in a pair
 *       (contact_active: only they get a force), per-ring counts and the
 *       ring pairs in contact (for contact-start events);
 *   contact_gather_active  parallel over the vertices in a pair, once per
 *       iteration (8): the force on each vertex as a point, as a corner and
 *       as an end of an edge pair (by its role, then pair), each pair's
 *       force from one call of one function on the pair's fixed inputs, so
 *       every side sees the same bits (once per thread: a memo); the
 *       caller then adds
 *       f dt / m to v* (its own rows) before the next iteration.
 * No float atomics, nothing scattered across threads.
 *
 * Cost (tests/test_contact.c with DINGHY_TEST_BENCH=1, one thread of an
 * AMD EPYC (Zen 5, 2 cores, shared), ns per vertex per substep with 8
 * iterations): 64 rings of 32 x 16 apart 2.2 (bound 2.1, 8 gathers 0.1);
 * one ring alone 2.9; 16 rings piled 75 (bound 4.9, plan 2.3, grid 6.5,
 * find 45, link 6.5, 8 gathers 9.5) with 293 pairs, 142 of them edge-edge
 * (before the edge search's float filters and the gathers' memo, the
 * same build run in turn: 117-121, grid 4.1, find 77, link 8.1-8.8,
 * gathers 22; 34.5 with the 151 vertex-triangle pairs alone: find 11,
 * link 3.2, gathers 9.7). The serial part (plan, link) is below 0.1 ns
 * per vertex when nothing touches, about 9 in the pile. A ring's first
 * substep takes its reference shape (about 0.9 ms for 32 x 16, in
 * bound).
 *
 * Not yet: edge-edge proximity within one ring (between rings the edge
 * pairs hold it): a limp skin creased flat at a single hinge (the rims
 * of a burst tube pressed by a crowd or the river) folds that hinge past
 * pi, its two
 * triangles passing through each other while only the two diagonals
 * beside the hinge cross (no vertex crosses a face, so no vertex-face
 * contact sees it, however near); the bending cannot hold it (its
 * energy, periodic in the angle, is largest near pi, and past it pushes
 * the fold on). physics.md section 9, "Not yet", has the measurements. */
#ifndef DINGHY_CONTACT_H
#define DINGHY_CONTACT_H

#include <stddef.h>

/* Pairs kept per point (the nearest when more are found): 8, so that a
 * search a step ahead keeps every pair a search on each substep would (4
 * lost some in a packed pen: tests/test_parallel.c). */
#define CONTACT_PER_POINT 8
/* Edge-edge pairs kept per point (its quad's three edges; those that
 * need the least of the look-ahead first, edge_candidate): 48, as a quad
 * in a contact patch is within a step's reach of tens of the other
 * ring's edges, and a search a step ahead must keep every pair a search
 * on each substep would (32 lost one in a crash at 20 m/s:
 * tests/test_parallel.c). */
#define CONTACT_EDGE_PER_POINT 48

typedef struct {
    float h;        /* contact thickness, m (a few mm to 1 cm) */
    float mu;       /* Coulomb friction coefficient, 1 */
    float beta;     /* push-out per substep, fraction of the depth in the band, 1 (0.1) */
    float v_out;    /* largest push-out speed, m/s (0.1) */
    float dt;       /* the substep, s */
    int self_steps; /* self-contact neighbourhood, grid steps (1) */
    /* The search looks this far ahead, s: boxes grow by h + margin + |v|
     * ahead, and a pair is kept when its gap d <= (|v point| + |v fastest
     * corner|) ahead + margin (any direction: pair_candidate; an edge
     * pair's, the faster end's |v| of each edge: edge_candidate). Found once a
     * step (ahead = the step, margin = h/4: the tick), a pair is then
     * measured and resolved every substep at dt; dt and 0 (the default)
     * find every substep. */
    float ahead;    /* s */
    float margin;   /* m */
    /* Time from the search to this substep's start, s (0 on the search's
     * own substep): a pair found, of either kind, is measured only from
     * the time it may first be active (its closing bound, pair_keep). */
    float since;
    /* 1: edge-edge pairs between different rings too (the kernel's
     * default; a simulation's is dinghy.edge_contact, off by default); 0:
     * vertex-triangle pairs only */
    int edges;
} contact_params;

/* The state of one substep, read only: all rings' vertices (P M N of them),
 * positions in m and velocities in m/s, and each ring's vertex mass in kg. */
typedef struct {
    int P;
    const float *x, *y, *z, *vx, *vy, *vz;
    const float *mass; /* [P]: mass of one vertex of ring p, kg */
    /* [3 P] or NULL (then 0): a velocity of each ring (its mean one, m/s)
     * the self test measures its vertices' speeds about: any one is sound */
    const double *vmean;
} contact_state;

/* A ring pair that started touching this substep: rings p < q, and the
 * fastest approach speed among their pairs, m/s (>= 0). */
typedef struct {
    int p, q;
    float speed;
} contact_start;

/* The kernel: its broad phase, slots and pair lists (contact_internal.h). */
typedef struct contact_kernel contact_kernel;

/* ---- the law's constants and the substep bound (pair_law.c) ---- */

/* h = 0.01 m, mu = 0.6, beta = 0.1, v_out = 0.1 m/s, self_steps = 1, for
 * substep dt (s), found every substep (ahead = dt, margin = 0). */
contact_params contact_params_default(double dt);
/* The stiffness (N/m) the contact's push-out adds for a vertex of mass m
 * (kg) at substep dt (s): beta m / dt^2, to add to sum k in
 * dt < sqrt(2 m / sum k). */
double contact_stiffness(const contact_params *k, double m, double dt);
/* The factor (1) on a springs-only substep bound that leaves room for the
 * contact: sqrt(1 - beta / 2). */
double contact_dt_factor(const contact_params *k);

/* ---- memory (memory.c) ---- */

/* Room for up to P rings of M x N vertices; NULL when out of memory. */
contact_kernel *contact_create(int P, int M, int N);
/* Frees the kernel and all it holds; NULL is nothing to free. */
void contact_free(contact_kernel *c);
/* Bytes contact_create allocates for P rings of M x N vertices (the slots,
 * the pair lists and the link's lists then grow with the contact, at most
 * doubling each time). */
size_t contact_create_bytes(int P, int M, int N);
/* Bytes the kernel holds now, what has grown included. */
size_t contact_heap_bytes(const contact_kernel *c);

/* ---- one substep ----
 * After every other force is in v*: contact_bound over ring ranges (all
 * threads), contact_plan (one thread), contact_grid over ring ranges (all
 * threads), contact_find over vertex ranges (all threads), contact_link
 * (one thread), then 8 times: contact_gather_active over the places
 * contact_active gives a vertex range and v* += f dt / m on the same
 * vertices (all threads, a barrier after each); then x' = x + dt v*.
 * contact_starts gives the contact-start events. */

/* Phase 0 (bounds.c), optional, any split over rings: the bounds of rings
 * p0 .. p1-1 (box, fastest vertex, whether the ring may touch itself),
 * which prepare then does not redo. Run on all threads before prepare, it
 * takes the part of prepare that grows with the vertices off the serial
 * path (about 2 ns per vertex, 5 where rings touch). The same bits as
 * leaving it to prepare. Give it the k and s that prepare gets next, in
 * the same substep (prepare uses its results once, then forgets them). */
void contact_bound(contact_kernel *c, const contact_params *k, const contact_state *s, int p0,
                   int p1);
/* After plan (bounds.c): whether any ring may touch anything this substep.
 * When none may, grid and find have nothing to do and link only retires
 * the last substep's touches, so the tick calls link at once and skips
 * them (and their barriers). */
int contact_any(const contact_kernel *c);

/* Phase 1 (slots.c), serial. Keeps pointers to k and s (both must live
 * until the substep's gather is done). 0, or -1 when out of memory. The
 * same as contact_plan then contact_grid over all rings. */
int contact_prepare(contact_kernel *c, const contact_params *k, const contact_state *s);
/* Phase 1 in two: the broad phase (serial; ring boxes by sort and sweep,
 * patch boxes per ring pair) and a slot for each patch that is on; 0, or
 * -1 when out of memory. */
int contact_plan(contact_kernel *c, const contact_params *k, const contact_state *s);
/* Then the slots of rings p0 .. p1-1 (any split over rings, the same bits;
 * what grows with the triangles). */
void contact_grid(contact_kernel *c, int p0, int p1, void *scratch);
/* Bytes of the scratch contact_grid needs, one per thread at once: none
 * now (a patch's corners are gathered on the stack), so `scratch` may be
 * NULL; a float, so that a buffer of this size can be allocated. */
size_t contact_grid_scratch_bytes(int M, int N);

/* Phase 2 (search.c), any split: pairs of points v0 .. v1-1 (global
 * indices). */
void contact_find(contact_kernel *c, int v0, int v1);
/* After plan: the points [v0, v1) of share `share` of `shares` (0 ..
 * shares-1): contiguous, in order, together every point once, each with
 * about as many points to search (points of patches that are on). */
void contact_find_share(const contact_kernel *c, int share, int shares, int *v0, int *v1);

/* Phase 3 (link.c), serial. 0, or -1 when out of memory. */
int contact_link(contact_kernel *c);
/* After link: the contact pairs ring p takes part in (a self-contact
 * counts once), and the number of pairs in all. */
int contact_ring_pairs(const contact_kernel *c, int p);
int contact_pairs(const contact_kernel *c);
/* After link: the ring pairs that touch now and did not at the previous
 * link, ordered by (p, q): up to cap of them into out; returns how many
 * there are (may exceed cap). */
int contact_starts(const contact_kernel *c, contact_start *out, int cap);

/* Phase 4 (solve.c). After link: the vertices in a pair this substep
 * (global indices, ascending), contact_active_count of them: only these
 * have a contact force. Those among v0 .. v1-1 are at places *first ..
 * *first + n - 1 of the list; returns n. */
int contact_active(const contact_kernel *c, int v0, int v1, int *first);
const int *contact_active_list(const contact_kernel *c);
int contact_active_count(const contact_kernel *c);
/* Iteration iter (0, 1, ...), any split: the contact force of this
 * iteration, N, on the vertices at places a0 .. a1-1 of the list above,
 * each written (not added) to fx[a], fy[a], fz[a] (by its place, not its
 * index: arrays as long as the list, not the vertices). Between iterations
 * (barriers both sides) the caller adds f dt / m to the state's
 * velocities; the force of the substep is the sum over the iterations. */
void contact_gather_active(contact_kernel *c, int iter, int a0, int a1, float *fx, float *fy,
                           float *fz);
/* The same for vertices v0 .. v1-1, into arrays by vertex index (fx[v],
 * global indices, N), for a caller that keeps a force for every vertex
 * (the serial helpers below, the tests). Iteration 0 zeroes the range
 * first; the later ones write only the vertices in a pair, so the arrays
 * must be as iteration 0 left them (the same split). */
void contact_gather(contact_kernel *c, int iter, int v0, int v1, float *fx, float *fy, float *fz);
/* After link: sum of |F| (N) over ring p's vertices in a pair, in index
 * order, from forces by their places in contact_active's list (as
 * contact_gather_active writes them; the other vertices have none);
 * *pushed: how many of them have a force that is not 0. */
double contact_ring_force(const contact_kernel *c, int p, const float *fx, const float *fy,
                          const float *fz, int *pushed);

/* ---- all phases on the calling thread (solve.c) ---- */

/* One iteration, velocities untouched: the force (N) of the first
 * iteration into fx, fy, fz by vertex index. 0, or -1 when out of memory. */
int contact_forces(contact_kernel *c, const contact_params *k, const contact_state *s, float *fx,
                   float *fy, float *fz);
/* `iters` iterations, adding each iteration's f dt / m (m/s) to vx, vy, vz
 * (the arrays s reads); the substep's total force (N) into fx, fy, fz. 0,
 * or -1 when out of memory. */
int contact_solve(contact_kernel *c, const contact_params *k, const contact_state *s, int iters,
                  float *vx, float *vy, float *vz, float *fx, float *fy, float *fz);

#endif
