/* Rings through each other: where a ring may be placed without starting
 * inside another, and which vertices lie inside another ring's closed
 * skin (docs/physics.md section 9, "Overlaps"). The step pushes such
 * vertices out by itself; these calls are for the scenes, the tests and
 * a health check. */
#ifndef DINGHY_OVERLAP_H
#define DINGHY_OVERLAP_H

#include "dinghy/sim.h"

/* The step's push-out (skin contact): two rings with vertices inside each
 * other stop closing and are moved apart as wholes, by their deepest
 * vertex's depth but at most SIM_PUSH_OUT_SPEED times the step (as
 * Box2D's contact push speed; a move, not a velocity), while each vertex
 * inside goes out onto the other skin (physics/contact/push_out.h). */
#define SIM_PUSH_OUT_SPEED 2.0 /* m/s */

/* 1 when a ring of the simulation's shape placed whole at `pose` keeps
 * its skin more than `margin` (m) from every ring there now, else 0.
 * The new ring is a rigid torus (its centre-line circle, radius R, tube
 * r); each ring there is taken as the circle fitted to its vertices and
 * the tube round it that holds them all (for a ring at rest shape, its
 * own circle and r). Clear means the two circles are more than r + r_q +
 * margin apart, a distance bounded from below by a Lipschitz branch and
 * bound, so the answer errs only towards "not clear". */
int sim_pose_clear(const dinghy_sim *sim, const sim_ring_pose *pose, double margin);

/* The first vertex found inside another ring's skin, in ring order. */
typedef struct {
    int ring;      /* the ring the vertex belongs to (dense index), -1: none */
    int vertex;    /* its index within the ring */
    int other;     /* the ring whose closed skin holds it */
    double winding;/* the other skin's winding number about the vertex (about 1) */
} sim_overlap_info;

/* Counts the vertices of every ring that lie inside the closed skin of
 * another ring (winding number of that skin's mesh above 0.5) in the
 * current state, and describes the first in `first` (may be NULL). Ring
 * boxes, then the skin's segments' boxes, keep it cheap where rings only
 * touch; exact (every candidate's winding number in double). Parallel over
 * rings on the simulation's threads; the result does not depend on them. */
int sim_overlap_count(const dinghy_sim *sim, sim_overlap_info *first);

#endif
