/* The parallel tick: one step of the whole simulation. */
#ifndef DINGHY_TICK_H
#define DINGHY_TICK_H

#include "physics/world/sim_internal.h"

/* Advances sim by one step of solver.dt, reading buf[cur] and writing
 * buf[1-cur], then swaps. Flags any blown-up rows in row_bad and returns
 * nonzero when there is one, -1 when out of memory. */
int tick_step(dinghy_sim *sim, double dt, int substep);


#endif
