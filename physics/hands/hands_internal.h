/* The hands' side of the tick: the one narrow hook the tick calls. Private. */
#ifndef DINGHY_HANDS_INTERNAL_H
#define DINGHY_HANDS_INTERNAL_H

#include "physics/world/sim_internal.h"

/* Adds the hand's spring forces (N) to the held ring's rows [a, a + nb)
 * of ring p, whose forces are f[k][i W + h + n] for row a + i, vertex n. */
void hands_forces(const dinghy_sim *sim, const sim_buffer *in, size_t p, size_t a, size_t nb,
                  float *const f[3], int W, int h);

/* After each step: the hand's target moves on by its velocity times dt (s). */
void hands_advance(dinghy_sim *sim, double dt);

#endif
