/* Skin contact: every vertex against the triangles of other rings and of
 * its own ring beyond its neighbourhood (physics.md section 9).
 *
 * Meshes. Ring p is a closed torus grid of M x N vertices, vertex (m, n) at
 * global index p*M*N + m*N + n, both directions periodic, two outward
 * triangles per quad as in skin.c: triangle 2q + 0 = (m,n) (m+1,n) (m+1,n+1)
 * and 2q + 1 = (m,n) (m+1,n+1) (m,n+1), q = p*M*N + m*N + n.
 *
 * How it enters the step. The contact is a velocity-level correction of
 * the symplectic Euler step: every other force first gives the predicted
 * velocities v* = v + dt F / m (into the next state); the contact reads the
 * current positions x and v*, and a few Jacobi iterations add impulses to
 * v*; then x' = x + dt v'. Acting on v* (gravity, springs, pressure in it),
 * a resting contact holds exactly and static friction does not creep.
 *
 * The law (one pair: point P of mass m_P, triangle T with corners a, b, c).
 *   Geometry: q = w_a x_a + w_b x_b + w_c x_c, the closest point of T to P
 *   (barycentric w >= 0, sum 1). If q is inside T, the direction u is T's
 *   outward unit normal and s = (P - q).u (m, negative behind the face);
 *   if q is on an edge or a corner, the pair counts only with P on the
 *   outer side of T's plane, u = (P - q)/|P - q| and s = |P - q|. A
 *   ring's own skin is two-sided: with P behind its own triangle (inside
 *   the tube, where the walls of a tube folding flat meet) the inner side
 *   counts as the outer one, u = -n and s = -(P - q).n, and P is held on
 *   it. (One-sided, the walls of a burst ring were pushed through each
 *   other; the ring then turned inside out and sank.) The gap
 *   is d = s - h (m): h is the skin's contact thickness (0.01 m).
 *   A pair is made when s >= -h and d <= max(0, -vn) dt: in the band, or
 *   closing fast enough to reach it within the substep (speculative).
 *   Relative normal velocity vn = (v_P - sum w_k v_k).u (m/s, < 0 closing).
 *   Effective mass, split (Gershgorin): 1/m_eff = c_P/m_P + sum w_k c_k/m_k
 *   (1/kg), c_i = vertex i's share of all pairs this substep (1 per pair as
 *   the point, w per pair as a corner). With it the Jacobi matrix is
 *   diagonally dominant: an iteration never overshoots, however many pairs
 *   share a vertex (a point over an edge, a corner under many points).
 *   Target normal velocity: -d/dt when d > 0 (close the gap, never more:
 *   no tunnelling at any speed, restitution 0), min(beta (-d)/dt, v_out)
 *   inside the band (a gentle push out: beta = 0.1, v_out = 0.1 m/s).
 *   Each iteration, per pair: accumulated normal impulse
 *     J_n <- max(0, J_n + m_eff (target - vn))                 (N s)
 *   accumulated friction impulse (Coulomb, mu = 0.6)
 *     J_t <- clamp(J_t - m_eff v_t, |J_t| <= mu J_n)           (N s)
 *   (v_t the tangential relative velocity), and the force of the iteration
 *   F = (dJ_n u + dJ_t) / dt (N) on P, -w_k F on corner k. Forces sum to
 *   zero (to round-off: sum w = 1); the normal force has no torque (it is
 *   parallel to P - q); friction acts at the lever |P - q| <= h.
 *
 * Stiffness and the substep bound (physics.md section 2). Applied to v*,
 * the velocity part is a projection (it removes approach velocity and adds
 * none), stable at any dt; only the push-out behaves as a spring, of at
 * most k = beta m / dt^2 per vertex. skin_contact_stiffness() returns that
 * (N/m): added to sum k in dt < sqrt(2 m / sum k), it takes a share beta/2
 * of the budget (skin_contact_dt_factor() = sqrt(1 - beta/2) = 0.97 on the
 * springs-only bound). Measured: a ring dropped 2 cm onto another rests
 * 1.00 h above it, centre still to 0.2 mm, rms speed 3 mm/s.
 *
 * Phases of one substep (a barrier between each; the parallel ones split
 * any way over their ranges and give the same bits):
 *   skin_contact_bound    optional, parallel over rings: each ring's box
 *       (grown by h + its fastest vertex's |v| dt) and whether it may touch
 *       itself (below), and the patch boxes of a ring that could touch
 *       something the substep before (in the pile, taking them off the
 *       serial path took the 2-thread speedup from 1.59 to 1.63); what
 *       prepare leaves undone it does itself;
 *   skin_contact_prepare  the broad phase then the grid, either at once
 *       (serial) or as skin_contact_plan (serial: ring pairs whose grown
 *       boxes overlap, by sort and sweep along x (last substep's order
 *       insertion-sorted: O(P + moves + pairs)), then the same between
 *       their patches of 4 x 4 quads; only the patches in a pair, all of a ring that may
 *       touch itself, go on) and skin_contact_grid (parallel over rings:
 *       each patch that is on takes a slot: its 32 triangles' boxes, grown
 *       by h plus the fastest corner's |v| dt, as arrays of each bound
 *       (structure of arrays, one lane per triangle), and their union, the
 *       slot's box);
 *   skin_contact_find     parallel over points (of patches that are on; the
 *       tick gives each thread a share of equal work by
 *       skin_contact_find_share, not of equal rows: in the rapids it took
 *       the 2-thread speedup from 1.63 to 1.75):
 *       each point's box (grown by its own |v| dt), unless it misses its
 *       patch's reach (the union of the patch box's overlaps with the
 *       patch boxes of other rings it meets; plan keeps it: no pair is
 *       lost, as the point's box lies in its patch's box and a triangle's
 *       in its patch's), against the triangles of the rings it may touch
 *       and whose box holds it. Patch by patch: the slots whose box meets
 *       the union of the patch's point boxes (of rings whose box meets it
 *       too) are listed once; each point tests that list's boxes, then the
 *       lanes of the slots it meets, many boxes a test (no branch per box;
 *       gcc makes the compares vector ones); the pairs made are kept, up
 *       to SKIN_CONTACT_PER_POINT per point, the nearest first (whatever
 *       order the triangles come in);
 *   skin_contact_link     serial, O(pairs log pairs) after one pass over
 *       find's pair counts of the rings that may touch: the points with
 *       pairs, shares, pair ids, each pair's geometry, split mass and
 *       target fixed for the substep, each vertex's corner records in the
 *       gather's order (sorted by vertex, which of its six triangles, then
 *       by triangle), the vertices in a pair (skin_contact_active: only
 *       they get a force), per-ring counts and the ring pairs in contact
 *       (for contact-start events);
 *   skin_contact_gather_active  parallel over the vertices in a pair (by
 *       their places in link's list), once per iteration (8): the
 *       force on each vertex as a point (its pairs, by triangle) and as a
 *       corner of its six triangles (their pairs, by point), each pair's
 *       force from one call of one function on the pair's fixed inputs and
 *       the velocities (the point's owner alone stores the pair's new
 *       accumulated impulses, double-buffered), so both sides see the same
 *       bits; the caller then adds f dt / m to v* (its own rows) before the
 *       next iteration.
 * No float atomics, nothing scattered across threads.
 *
 * Broad phase, why it drops nothing. A pair needs its point within
 * h + |v_rel| dt <= h + (|v_P| + max |v_corner|) dt of its triangle, so
 * the point's ring (patch) box and the triangle's ring (patch) box, each
 * grown by h + its fastest vertex's |v| dt, overlap. Self-contact: each
 * ring keeps a reference shape (its shape at its first substep, about its
 * centroid) and g, the least distance there of a point from a triangle it
 * does not ignore (exact, once: about 1.3 ms for 32 x 16). Each substep an
 * isometry (the previous substep's best-fit rotation, the centroid moved on
 * by the mean velocity) maps the reference to within delta of every vertex;
 * a point and a triangle are then at least g - 2 delta apart, and when that
 * exceeds h + 2 vmax dt the ring cannot touch itself this substep. Any
 * isometry keeps this sound; a poor one only turns the search on.
 *
 * Cost (tests/test_contact.c with DINGHY_TEST_BENCH=1, one thread, ns per
 * vertex per substep with 8 iterations; bound, plan, grid, find, link, 8
 * gathers): 64 rings of 32 x 16 apart 7.7, 0.2, 0, 0, 0, 1.4 = 9.3; one
 * ring alone 8.7; 16 rings piled (151 pairs) 7.7, 6.7, 26, 63, 7.5, 13.5 =
 * 124 (was 400 to 480 before the broad phase); since the slots (arrays of
 * boxes, tested many at a time, patch by patch) grid and find take 0.17
 * to 0.22 and 0.32 to 0.36 of that (the old and new code alternating in
 * one process on the same state): about 5 and 22, total about 77. The
 * serial part (plan, link) is 0.2 ns per vertex when nothing touches, 14
 * in the pile. The first substep of each ring takes its reference (about 1.3 ms for 32 x 16,
 * in bound; the self search is off while every vertex stays within about
 * 13 cm of the fitted reference at rest, 32 x 16, R 0.8, r 0.25 m, measured
 * with self_steps 2; one step leaves a smaller reference gap).
 * Memory (skin_contact_heap_bytes): what does not grow is about 20 B per
 * vertex: the reference shape 12, the shares 4, the pair counts 1, the
 * patches' boxes 6. The slots grow with the patches that are on (an
 * eighth of them at first, doubling, at most one per patch): 1.3 kB each,
 * 82 B per vertex of those patches (the triangle boxes 48, 6 floats a
 * triangle, no index: a lane's place gives it; each point's pairs 32).
 * The link's lists grow with the pairs. (A hashed grid, one cell per
 * triangle, took 80 B per vertex of the scene: 32 B entries and a bucket
 * table; the points' pairs 33 and the link's per-vertex records 16 more.)
 *
 * Self-contact: a point ignores its own ring's triangles whose quad has a
 * corner within self_steps grid steps in both m and n (periodic); the rest
 * mesh then has no contacts when a grid step exceeds h. One step: a fold
 * three quads wide (a U with one quad at its tip) is held open by contact;
 * with two, its sides passed through each other in a burst ring. Only a
 * fold at a single edge is left to the bending.
 *
 * Iterations: 8 per substep hold every test (4 let a vertex through at
 * 20 m/s without friction); each is one gather, about 1.7 ns per vertex
 * in the pile, 0.2 where nothing touches.
 *
 * Not yet: edge-edge proximity (two coarse edges crossing with no vertex
 * near a face). On a 32 x 16 mesh with soft edge springs, at 20 m/s, a
 * vertex was seen to end inside the other ring after 62 ms of hard
 * pressing, crossing no face (through an edge). */
#ifndef DINGHY_SKIN_CONTACT_H
#define DINGHY_SKIN_CONTACT_H

#include <stddef.h>

/* Pairs kept per point (the nearest when more are found). */
#define SKIN_CONTACT_PER_POINT 4

typedef struct {
    float h;        /* contact thickness, m (a few mm to 1 cm) */
    float mu;       /* Coulomb friction coefficient, 1 */
    float beta;     /* push-out per substep, fraction of the depth in the band, 1 (0.1) */
    float v_out;    /* largest push-out speed, m/s (0.1) */
    float dt;       /* the substep, s */
    int self_steps; /* self-contact neighbourhood, grid steps (1) */
} skin_contact_params;

/* h = 0.01 m, mu = 0.6, beta = 0.1, v_out = 0.1 m/s, self_steps = 1, for substep dt (s). */
skin_contact_params skin_contact_params_default(double dt);

/* The state of one substep, read only: all rings' vertices (P M N of them),
 * positions in m and velocities in m/s, and each ring's vertex mass in kg. */
typedef struct {
    int P;
    const float *x, *y, *z, *vx, *vy, *vz;
    const float *mass; /* [P]: mass of one vertex of ring p, kg */
} skin_contact_state;

/* A ring pair that started touching this substep: rings p < q, and the
 * fastest approach speed among their pairs, m/s (>= 0). */
typedef struct {
    int p, q;
    float speed;
} skin_contact_start;

typedef struct skin_contact skin_contact;

/* Room for up to P rings of M x N vertices; NULL when out of memory. */
skin_contact *skin_contact_create(int P, int M, int N);
void skin_contact_free(skin_contact *c);
/* Bytes skin_contact_create allocates (the slots, the pair lists and the
 * link's lists then grow with the contact, at most doubling each time). */
size_t skin_contact_bytes(int P, int M, int N);
/* Bytes the kernel holds now, what has grown included. */
size_t skin_contact_heap_bytes(const skin_contact *c);

/* The stiffness (N/m) the contact's push-out adds for a vertex of mass m
 * (kg) at substep dt (s): beta m / dt^2, to add to sum k in
 * dt < sqrt(2 m / sum k). */
double skin_contact_stiffness(const skin_contact_params *k, double m, double dt);
/* The factor on a springs-only substep bound that leaves room for the contact. */
double skin_contact_dt_factor(const skin_contact_params *k);

/* Per substep, after every other force is in v*: skin_contact_bound over
 * ring ranges (all threads), skin_contact_plan (one thread),
 * skin_contact_grid over ring ranges (all threads), skin_contact_find over
 * vertex ranges (all threads), skin_contact_link (one thread), then 8
 * times: skin_contact_gather_active over the places skin_contact_active
 * gives a vertex range and v* += f dt / m on the same vertices (all
 * threads, a barrier after each); then x' = x + dt v*.
 * skin_contact_starts gives the contact-start events. */

/* Phase 0, optional, any split over rings: the bounds of rings p0 .. p1-1
 * (box, fastest vertex, whether the ring may touch itself), which prepare
 * then does not redo. Run on all threads before prepare, it takes the part
 * of prepare that grows with the vertices off the serial path (about 8 ns
 * per vertex). The same bits as leaving it to prepare. Give it the k and s
 * that prepare gets next, in the same substep (prepare uses its results
 * once, then forgets them). */
void skin_contact_bound(skin_contact *c, const skin_contact_params *k,
                        const skin_contact_state *s, int p0, int p1);
/* Phase 1, serial. Keeps pointers to k and s (both must live until the
 * substep's gather is done). 0, or -1 when out of memory. The same as
 * skin_contact_plan then skin_contact_grid over all rings. */
int skin_contact_prepare(skin_contact *c, const skin_contact_params *k,
                         const skin_contact_state *s);
/* Phase 1 in two: the broad phase (serial; ring boxes by sort and sweep,
 * patch boxes per ring pair),
 * then each ring's part of the grid (any split over rings, the same bits;
 * what grows with the triangles). 0, or -1 when out of memory. */
int skin_contact_plan(skin_contact *c, const skin_contact_params *k,
                      const skin_contact_state *s);
void skin_contact_grid(skin_contact *c, int p0, int p1, void *scratch);
/* Bytes of the scratch skin_contact_grid needs, one per thread at once:
 * none now (a patch's corners are gathered on the stack), so `scratch` may
 * be NULL; a float, so that a buffer of this size can be allocated. */
size_t skin_contact_grid_scratch_bytes(int M, int N);
/* Phase 2, any split: pairs of points v0 .. v1-1 (global indices). */
void skin_contact_find(skin_contact *c, int v0, int v1);
/* After plan: the points [v0, v1) of share `share` of `shares` (0 ..
 * shares-1): contiguous, in order, together every point once, each with
 * about as many points to search (points of patches that are on). */
void skin_contact_find_share(const skin_contact *c, int share, int shares, int *v0, int *v1);
/* Phase 3, serial. 0, or -1 when out of memory. */
int skin_contact_link(skin_contact *c);
/* After link: the vertices in a pair this substep (global indices,
 * ascending), skin_contact_active_count of them: only these have a contact
 * force. Those among v0 .. v1-1 are at places *first .. *first + n - 1 of
 * the list; returns n. */
int skin_contact_active(const skin_contact *c, int v0, int v1, int *first);
const int *skin_contact_active_list(const skin_contact *c);
int skin_contact_active_count(const skin_contact *c);

/* Phase 4, iteration iter (0, 1, ...), any split: the contact force of
 * this iteration, N, on the vertices at places a0 .. a1-1 of the list
 * above, each written (not added) to fx[a], fy[a], fz[a] (by its place,
 * not its index: arrays as long as the list, not the vertices). Between
 * iterations (barriers both sides) the caller adds f dt / m to the
 * state's velocities; the force of the substep is the sum over the
 * iterations. */
void skin_contact_gather_active(skin_contact *c, int iter, int a0, int a1, float *fx, float *fy,
                                float *fz);
/* The same for vertices v0 .. v1-1, into arrays by vertex index (fx[v],
 * global indices), for a caller that keeps a force for every vertex (the
 * serial helpers below, the tests). Iteration 0 zeroes the range first;
 * the later ones write only the vertices in a pair, so the arrays must be
 * as iteration 0 left them (the same split). */
void skin_contact_gather(skin_contact *c, int iter, int v0, int v1, float *fx, float *fy,
                         float *fz);

/* All four phases on the calling thread, one iteration, velocities
 * untouched: the force of the first iteration. 0, or -1 when out of memory. */
int skin_contact_forces(skin_contact *c, const skin_contact_params *k,
                        const skin_contact_state *s, float *fx, float *fy, float *fz);
/* All four phases and `iters` iterations on the calling thread, adding each
 * iteration's f dt / m to vx, vy, vz (the arrays s reads); the substep's
 * total force into fx, fy, fz. 0, or -1 when out of memory. */
int skin_contact_solve(skin_contact *c, const skin_contact_params *k, const skin_contact_state *s,
                       int iters, float *vx, float *vy, float *vz, float *fx, float *fy, float *fz);

/* After link: the contact pairs ring p takes part in (a self-contact
 * counts once), and the number of pairs in all. */
int skin_contact_ring_pairs(const skin_contact *c, int p);
int skin_contact_pairs(const skin_contact *c);
/* After plan: whether any ring may touch anything this substep. When none
 * may, grid and find have nothing to do and link only retires the last
 * substep's touches, so the tick calls link at once and skips them (and
 * their barriers). */
int skin_contact_any(const skin_contact *c);
/* After link: the ring pairs that touch now and did not at the previous
 * link, ordered by (p, q): up to cap of them into out; returns how many
 * there are (may exceed cap). */
int skin_contact_starts(const skin_contact *c, skin_contact_start *out, int cap);
/* After link: sum of |F| (N) over ring p's vertices in a pair, in index
 * order, from forces by their places in skin_contact_active's list (as
 * skin_contact_gather_active writes them; the other vertices have none);
 * *pushed: how many of them have a force that is not 0. */
double skin_contact_ring_force(const skin_contact *c, int p, const float *fx, const float *fy,
                               const float *fz, int *pushed);

/* Winding number of the closed ring mesh (M x N vertices at x, y, z, m)
 * about the point pt (m): 1 inside, 0 outside (the sum of the triangles'
 * signed solid angles over 4 pi, in double). */
double mesh_winding_number(int M, int N, const float *x, const float *y, const float *z,
                           const double pt[3]);

#endif
