/* Rings through each other, inside the core (dinghy/overlap.h). Private. */
#ifndef DINGHY_WORLD_OVERLAP_H
#define DINGHY_WORLD_OVERLAP_H

#include "dinghy/overlap.h"
#include "physics/world/sim_internal.h"

/* sim_pose_clear, leaving ring `skip` (a dense index, or -1) out: the
 * river's re-drop of that ring. */
int overlap_pose_clear(const dinghy_sim *sim, const sim_ring_pose *pose, double margin, int skip);

/* After a step's substeps (skin contact only): every vertex inside another
 * ring's closed skin is pushed out (physics/contact/push_out.h), found
 * again and pushed until none is inside, at most PUSH_OUT_PASSES times
 * (overlap.c). Returns 0, or -1 when memory ran out (nothing more was
 * pushed). */
int overlap_push_out(dinghy_sim *sim);

#endif
