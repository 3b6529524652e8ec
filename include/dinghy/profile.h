/* The tick's phase timers (the benchmark's profile). */
#ifndef DINGHY_PROFILE_H
#define DINGHY_PROFILE_H

#include <stddef.h>

#include "dinghy/sim.h"

/* Wall time spent in each phase of the tick since the last reset of the
 * timers, seconds, as seen by thread 0. */
typedef enum {
    SIM_PHASE_CENTRES,    /* segment and ring centres */
    SIM_PHASE_BROADPHASE, /* overlapping bounding spheres */
    SIM_PHASE_CONTACTS,   /* repulsion between tube centre-lines */
    SIM_PHASE_SPRINGS,    /* every spring once */
    SIM_PHASE_INTEGRATE,  /* pressure, gravity, buoyancy, damping, symplectic Euler */
    SIM_PHASE_EVENTS,     /* contact starts and splashes */
    SIM_PHASE_SKIN_CONTACT, /* skin contact: prepare, find, link, the Jacobi gathers, positions */
    SIM_PHASE_COUNT
} sim_phase;
const char *sim_phase_name(sim_phase phase);
void sim_phase_times(const dinghy_sim *sim, double seconds[SIM_PHASE_COUNT]);
void sim_reset_phase_times(dinghy_sim *sim);

#endif
