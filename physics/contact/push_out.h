/* Vertices inside another ring's closed skin, found and pushed out however
 * deep (docs/physics.md section 9, "Overlaps"). The skin contact acts only
 * within its thickness h of a skin, so a vertex that got deeper (a ring
 * dropped through another, a fold pressed through) stays there; this finds
 * it by the winding number and puts it back outside, once per step.
 *
 * Meshes as in contact.h: ring p is a closed M x N torus grid, vertex
 * (m, n) at p*M*N + m*N + n, triangles (m,n) (m+1,n) (m+1,n+1) and (m,n)
 * (m+1,n+1) (m,n+1), outward.
 *
 * Finding (push_out_find, parallel over rings, exact). Ring boxes, swept
 * along x, give the pairs of rings that may overlap. A vertex P of ring p
 * inside ring q's box is inside q's closed skin when the winding number of
 * q's mesh about P exceeds 0.5. That number is a sum over q's M segments,
 * each closed by two caps (fans from its end rows' centres, which cancel
 * between neighbours); a closed segment's winding number is exactly 0
 * outside the convex hull of its two rows, so only the segments whose
 * hull may hold P count: those whose box and whose cylinder (the axis
 * through the two row centres, radius and length holding all 2N vertices)
 * hold it. A vertex touching another skin from outside is seldom in such a
 * cylinder; one that is costs the solid angles of 4N triangles per
 * segment, in double. No approximation: the sum is the whole mesh's.
 *
 * Pushing out (push_out_apply, serial, O(vertices found), in ring and
 * vertex order). For each vertex found, with Q the nearest point of q's
 * skin (every triangle of q searched) and u = (Q - P) / |Q - P| the way
 * out: the pair's relative velocity into q along u is removed by an
 * impulse J on P and -w_k J on the corners of Q's triangle (barycentric
 * w_k; equal and opposite along the line through P and Q: momentum and
 * angular momentum kept; each vertex's mass split among the records it is
 * in, so the impulses of one step, all from the velocities before it,
 * never reverse a relative velocity: restitution 0, kinetic energy never
 * grows); and P is put at Q + h u when it is at most max_move deep (a
 * quarter of the shortest rest edge: two neighbours moved apart stretch
 * their edge by at most half), a deeper one waiting for its ring to come
 * out. A vertex at most the contact thickness h inside is put out too,
 * though the contact's band reaches it: between a flattened tube's two
 * walls both push it, out of neither (a pile of burst rings kept about 60
 * such vertices inside). Each pair of rings with vertices deeper than h
 * stops closing along n (the hits' depth-weighted ways out plus, with
 * their total depth, the line between the centres: an impulse on every
 * vertex of both, equal and opposite, restitution 0) and is moved apart
 * rigidly along n by the deepest depth, at most max_speed dt (half each).
 * Why it is stable: every velocity change is a projection that adds no
 * approach and no energy, every move is bounded per step. */
#ifndef DINGHY_PUSH_OUT_H
#define DINGHY_PUSH_OUT_H

#include <stddef.h>

/* The rings' meshes, read-only while finding. */
typedef struct {
    int P, M, N;            /* rings, segments round a ring, vertices round the tube */
    const float *x, *y, *z; /* positions, P*M*N each, m */
} push_out_mesh;

/* One vertex inside another ring's closed skin, and the way out. */
typedef struct {
    int ring, vertex, other; /* ring p, vertex index within it, ring q holding it */
    int tri;                 /* q's triangle nearest the vertex: 2 (m N + n) + 0 or 1 */
    double winding;          /* q's winding number about the vertex (about 1) */
    double w[3];             /* barycentric weights of Q on that triangle */
    double p[3];             /* the vertex, m */
    double q[3];             /* Q: the nearest point of q's skin, m */
    double u[3];             /* unit direction from the vertex to Q: out of q */
    double depth;            /* |Q - P|, m */
} push_out_hit;

typedef struct push_out_work push_out_work;

/* Scratch that grows with the rings and the hits (NULL when out of memory):
 * push_out_new sizes itself at its first find; push_out_create has room
 * for `rings` rings of M x N from the start (a simulation's, so that a
 * step allocates nothing until rings meet), push_out_reserve_bytes (B). */
push_out_work *push_out_new(void);
push_out_work *push_out_create(int rings, int M, int N);
size_t push_out_reserve_bytes(int rings, int M, int N);
void push_out_free(push_out_work *w);
/* Bytes the scratch holds now. */
size_t push_out_bytes(const push_out_work *w);

/* Finds every vertex inside another ring's closed skin (for a vertex
 * inside several, the lowest other ring), on `threads` threads (call it
 * outside a parallel region). Returns how many, -1 when memory ran out.
 * The result does not depend on the thread count. */
long push_out_find(push_out_work *w, const push_out_mesh *mesh, int threads);
/* The hits of the last find, ordered by ring, then vertex. */
const push_out_hit *push_out_hits(const push_out_work *w, long *count);

/* What a push-out changes. */
typedef struct {
    float *x, *y, *z;    /* positions, m (the mesh found in) */
    float *vx, *vy, *vz; /* velocities, m/s */
    double mass;         /* of every vertex, kg */
    double thickness;    /* h: how far outside the other skin a vertex is put, m */
    double max_move;     /* the deepest a vertex is put onto the other skin at once;
                            a deeper one moves this far out a step, m */
    double max_speed;    /* rings through each other are moved apart at most this fast, m/s */
    double dt;           /* the step the push-out ends, s */
} push_out_state;

/* Pushes out the hits of the last find (see the top of this header).
 * Returns -1 when memory ran out (nothing changed), else 0. */
int push_out_apply(push_out_work *w, const push_out_mesh *mesh, const push_out_state *st);

#endif
