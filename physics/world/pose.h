/* Writing a ring into the state whole and undeformed. Private. */
#ifndef DINGHY_POSE_H
#define DINGHY_POSE_H

#include "physics/world/sim_internal.h"

/* Writes ring p (an index of a ring there is), undeformed, in the pose
 * into the current buffer, whole (full of gas, the definition's hole
 * only: a re-dropped burst ring comes back as new), with its volumes, its rows' centres and the
 * water they sit in, its centre and river station. Does not measure the
 * published ring state (see sim_measure_ring). */
void ring_write_pose(dinghy_sim *sim, int p, const sim_ring_pose *pose);

#endif
