/* The self-crossing stop: a limp skin's two layers may meet but not pass
 * through each other where the vertex-face contact cannot see it
 * (docs/physics.md section 8, "The self-crossing stop").
 *
 * Why: the walls of a flattened tube are held a contact thickness apart
 * vertex by vertex (physics/contact/), but two of their edges can still
 * cross with no vertex near a face: cell-sized wrinkles, a valley of one
 * wall over a ridge of the other (their diagonals in an X), pass through
 * each other; and near a rim a vertex passes through a face within the
 * contact's one-grid-step neighbourhood, which it ignores. Measured in the
 * rapids with 0.3 m holes (ring 58): the first crossing at 1.2 s, an edge
 * through an edge; about 150 pairs of crossed triangles from 2.2 s; the fault
 * (a triangle facing its skin's inside) at 4.45 s. The contact keeps a
 * crossed point on the side it is on, so a crossing stays.
 *
 * So once a step, for a ring's skin moving straight from x0 (the step's
 * start) to x (its end): every pair of edges sharing no corner, every
 * vertex against every triangle not its own (those near it that the
 * contact skips, a quad corner within one grid step both ways, and the
 * rest, which the contact holds apart within the substeps but not
 * against the crease stop's moves, which come after it), and a vertex
 * against a triangle with one corner joined to it by an edge (the vertex
 * within the triangle's angle there: their fans overlapping), is checked
 * for passing through each other (the cubic of their signed volume, its
 * roots where they meet, counted: crossed and back is not crossed). A
 * crossed pair is put back on its first side at the points where it met,
 * min(eta, its start's gap) apart, however deep (the corners' moves split
 * by their weights, equal masses: momentum kept) and its closing speed
 * removed, as a contact does: a constraint, nothing to tune. A pair
 * crossed at the step's start stays so (its first side is the crossed
 * one): so the stop runs last, after the step's every other move of the
 * skin but the push-out of overlaps between rings. */
#ifndef DINGHY_SKIN_CROSS_H
#define DINGHY_SKIN_CROSS_H

#include <stddef.h>

/* Passes over the pairs at most: a pair moved apart may push its
 * neighbour through, so passes run until none moves. With 4 the burst
 * rapids (0.3 m holes) left ring 26 with 7 crossed pairs at 2.9 s (its
 * fourth pass still moved 2 pairs); in 20 s no window of theirs needed
 * more than 14. The burst pile's rings, stacked and some already
 * tangled, needed up to 31 and more: with 32 hundreds of windows were
 * made rigid, and one of them settled in 33 to 40. */
#define CROSS_PASSES 64

/* Floats of cross_stop's scratch for an M x N ring. */
#define CROSS_SCRATCH_FLOATS(M, N) ((size_t)(M) * (size_t)(N) * 3u * 8u)

/* The stop on an M x N ring (grid and triangles as in membrane.h) moved
 * from x0, y0, z0 to x, y, z (m) in a step; x, y, z and the velocities
 * vx, vy, vz (m/s) are changed. eta: the thickness the layers are held
 * apart by at most (m). scratch: CROSS_SCRATCH_FLOATS floats. The pairs
 * in a fixed order: the same result whatever thread runs the ring. Passes
 * until none moves, at most `passes` (CROSS_PASSES); when the last still
 * moved some, the window's motion is made rigid: the ring's shape at the
 * start translated with its centroid, every vertex at the ring's mean
 * velocity (no crossing the start did not have; momentum kept, the
 * window's spin and flex given up). Returns the pairs moved apart, or -1
 * when the window was made rigid. */
int cross_stop(int M, int N, const float *x0, const float *y0, const float *z0, float *x,
               float *y, float *z, float *vx, float *vy, float *vz, float eta, int passes,
               float *scratch);

#endif
