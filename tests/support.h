/* Helpers shared by the test suites. */
#ifndef DINGHY_TEST_SUPPORT_H
#define DINGHY_TEST_SUPPORT_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "../physics/sim.h"

/* 1 when DINGHY_TEST_QUICK is set (sanitizer builds run shorter scenes). */
int test_quick(void);

/* Creates a simulation or fails the test. */
dinghy_sim *test_sim(const sim_params *p);

/* Parameters for a scene with every external force and damping off. */
sim_params test_isolated(scene_kind scene);

/* Smallest distance between the tube centre-lines of two different
 * dinghies, minus the two tube radii: below 0 the tubes overlap, m. */
double test_min_tube_gap(const dinghy_sim *sim);

/* Largest vertex speed, m/s. */
double test_max_speed(const dinghy_sim *sim);

#endif
