/* The reference tick: a plain serial double-precision implementation of the
 * same physics as sim_step, written for obviousness rather than speed. It
 * is the test oracle for the parallel tick and the "reference" kernel of
 * the benchmark. */
#ifndef DINGHY_REFERENCE_H
#define DINGHY_REFERENCE_H

#include <stddef.h>

#include "dinghy/sim.h"

typedef struct ref_sim ref_sim;

/* A reference copy of sim: its definition and its current state.
 * Returns NULL when out of memory. */
ref_sim *ref_create(const dinghy_sim *sim);
void ref_destroy(ref_sim *ref);

/* Advances by `steps` steps of solver.dt. */
void ref_step(ref_sim *ref, long steps);

size_t ref_vertex_count(const ref_sim *ref);
/* Position (m) and velocity (m/s) of vertex i, global index as in sim.h. */
void ref_vertex(const ref_sim *ref, size_t i, double pos[3], double vel[3]);

#endif
