/* What the river does to the rings after each step: obstacle events and
 * the endless run (docs/physics.md section 6). Private. */
#ifndef DINGHY_ENDLESS_RUN_H
#define DINGHY_ENDLESS_RUN_H

#include "physics/world/sim_internal.h"

/* After each step with a river: an obstacle event for each ring that
 * starts hitting a solid faster than SIM_HIT_SPEED. */
void water_hit_events(dinghy_sim *sim);

/* After each step with a river: rings past the downstream end (or out of
 * the channel) are dropped in again upstream; travelled distances. */
void water_endless_run(dinghy_sim *sim);

#endif
