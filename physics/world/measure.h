/* Measuring the published per-ring state (sim_rings). Private. */
#ifndef DINGHY_MEASURE_H
#define DINGHY_MEASURE_H

#include "physics/world/sim_internal.h"

/* Measures the published per-ring quantities of the current state: of
 * every ring, or of ring p alone. */
void sim_measure_rings(dinghy_sim *sim);
void sim_measure_ring(dinghy_sim *sim, int p);

#endif
