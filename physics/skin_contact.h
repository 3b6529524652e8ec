/* Skin contact: every vertex against the triangles of other rings and of
 * its own ring beyond its neighbourhood (physics.md section 9).
 *
 * Meshes. Ring p is a closed torus grid of M x N vertices, vertex (m, n) at
 * global index p*M*N + m*N + n, both directions periodic, two outward
 * triangles per quad as in skin.c: triangle 2q + 0 = (m,n) (m+1,n) (m+1,n+1)
 * and 2q + 1 = (m,n) (m+1,n+1) (m,n+1), q = p*M*N + m*N + n.
 *
 * The law (one pair: point P of mass m_P, triangle T with corners a, b, c).
 *   Geometry: q = w_a x_a + w_b x_b + w_c x_c, the closest point of T to P
 *   (barycentric w >= 0, sum 1). If q is inside T, the direction u is T's
 *   outward unit normal and s = (P - q).u (m, negative behind the face);
 *   if q is on an edge or corner, the pair counts only with P on the outer
 *   side of T's plane, u = (P - q)/|P - q| and s = |P - q|. The gap is
 *   d = s - h (m): h is the skin's contact thickness.
 *   Relative normal velocity vn = (v_P - sum w_k v_k).u (m/s, < 0 closing).
 *   Effective mass with mass splitting: 1/m_eff = c_P/m_P + sum w_k^2 c_k/m_k
 *   (kg^-1), where c_i is the number of contact pairs vertex i takes part
 *   in this substep (as a point or a corner): each vertex's mass is shared
 *   among its contacts, so a vertex in several contacts (a point over an
 *   edge, a corner under several points) is not pushed several times over.
 *   Normal impulse over the substep dt (N s, >= 0):
 *     d > 0 (not touching yet, speculative):  j_n = m_eff max(0, -d/dt - vn)
 *         - the pair may close the gap d within this substep but not more,
 *           whatever the speed: no tunnelling, and a fast impact stops at
 *           the edge of the band instead of bouncing (restitution 0);
 *     d <= 0 (inside the band):  j_n = m_eff max(0, min(beta (-d)/dt, v_out) - vn)
 *         - kills the approach and pushes out at a speed of at most
 *           beta (-d)/dt (and v_out): a stiff spring k = beta m_eff / dt^2
 *           (N/m) with the critical damper m_eff/dt, so a resting pile sits
 *           still, g dt^2 / beta inside the band.
 *   Coulomb friction: the tangential relative velocity v_t is reduced by at
 *   most mu j_n / m_eff in the substep, never reversed:
 *     j_t = min(mu j_n, m_eff |v_t|) against v_t.
 *   The force on P is F = (j_n u - j_t v_t/|v_t|) / dt (N); each corner k
 *   gets -w_k F. Forces sum to zero (to round-off: sum w = 1), and the
 *   normal force has no torque (it is parallel to P - q); friction acts at
 *   the lever |P - q| <= h, a couple of at most h |F_t|.
 *   A static push below mu N creeps at about F_t dt / m (the law sees the
 *   velocity one substep late); above mu N the point slides.
 *
 * Stiffness and the substep bound (physics.md section 2). The law scales
 * with 1/dt^2, so on its own it is stable at any dt; what it takes is a
 * fixed share of the explicit step's budget. For symplectic Euler with a
 * spring b = k dt^2/m and a damper a = c dt/m the step is stable while
 * b + 2a <= 4; the contact has a <= 1 and b <= beta (mass splitting keeps
 * each vertex's shares summing to at most one), which is the same as a
 * stiffness skin_contact_stiffness() = (1 + beta/2) m / dt^2 (N/m) added to
 * the springs' sum k in dt < sqrt(2 m / sum k). Solved for dt, the spring
 * bound shrinks by sqrt(1/2 - beta/4) (0.69 at beta = 0.1): see
 * skin_contact_dt_factor(). (The contact acts along the skin normal, where
 * the lattice is soft, and friction only while it holds, so this is
 * conservative.)
 *
 * Phases of one substep (a barrier between each; the parallel ones split
 * any way over vertex ranges and give the same bits):
 *   skin_contact_prepare  serial: triangle boxes (grown by h plus the
 *       fastest corner's |v| dt) binned into a hashed uniform grid,
 *       counting-sorted by bucket (triangles ascending within a bucket);
 *   skin_contact_find     parallel over points: each point's box (grown by
 *       its own |v| dt) against the triangles of its cells; the pairs that
 *       are in the band or can reach it within the substep are kept, up to
 *       SKIN_CONTACT_PER_POINT per point, the nearest first;
 *   skin_contact_link     serial, O(pairs log pairs): per-vertex counts (the
 *       mass splitting), pairs sorted by triangle for the corners, per-ring
 *       counts and the ring pairs in contact;
 *   skin_contact_gather   parallel over vertices: the force on each vertex
 *       as a point (its pairs, in order) and as a corner of its six
 *       triangles (their pairs, by point index), each pair's force from one
 *       function of the pair's inputs, so both sides see the same bits.
 * No float atomics, nothing scattered across threads.
 *
 * Cost: prepare O(triangles x cells each, about 3); find about 15-30 box
 * tests per point; gather O(pairs). Measured figures: tests/test_contact.c
 * prints them.
 *
 * Self-contact: a point ignores its own ring's triangles with a corner
 * within self_steps grid steps in both m and n (periodic); the rest mesh
 * then has no contacts when the grid steps exceed h. */
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
    int self_steps; /* self-contact neighbourhood, grid steps (2) */
} skin_contact_params;

/* h = 0.01 m, mu = 0.6, beta = 0.1, v_out = 0.1 m/s, self_steps = 2, for substep dt (s). */
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
/* Bytes skin_contact_create allocates (the hash and pair lists grow with use). */
size_t skin_contact_bytes(int P, int M, int N);

/* The stiffness (N/m) the contact adds for a vertex of mass m (kg) at
 * substep dt (s), to add to sum k in dt < sqrt(2 m / sum k). */
double skin_contact_stiffness(const skin_contact_params *k, double m, double dt);
/* The factor on a springs-only substep bound that leaves room for the contact. */
double skin_contact_dt_factor(const skin_contact_params *k);

/* Phase 1, serial. Keeps pointers to k and s (both must live until the
 * substep's gather is done). 0, or -1 when out of memory. */
int skin_contact_prepare(skin_contact *c, const skin_contact_params *k,
                         const skin_contact_state *s);
/* Phase 2, any split: pairs of points v0 .. v1-1 (global indices). */
void skin_contact_find(skin_contact *c, int v0, int v1);
/* Phase 3, serial. 0, or -1 when out of memory. */
int skin_contact_link(skin_contact *c);
/* Phase 4, iteration iter (0, 1, ...), any split: the contact force of
 * this iteration on vertices v0 .. v1-1, N, written (not added) to fx[v],
 * fy[v], fz[v] (global indices). Between iterations (barriers both sides)
 * the caller adds f dt / m to the state's velocities; the force of the
 * substep is the sum over the iterations. */
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
/* After link: the ring pairs that touch now and did not at the previous
 * link, ordered by (p, q): up to cap of them into out; returns how many
 * there are (may exceed cap). */
int skin_contact_starts(const skin_contact *c, skin_contact_start *out, int cap);
/* Sum of |F| (N) over ring p's vertices, in index order, from gathered forces. */
double skin_contact_ring_force(const skin_contact *c, int p, const float *fx, const float *fy,
                               const float *fz);

/* Winding number of the closed ring mesh (M x N vertices at x, y, z, m)
 * about the point pt (m): 1 inside, 0 outside (the sum of the triangles'
 * signed solid angles over 4 pi, in double). */
double mesh_winding_number(int M, int N, const float *x, const float *y, const float *z,
                           const double pt[3]);

#endif
