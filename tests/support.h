/* Helpers shared by the test suites. */
#ifndef DINGHY_TEST_SUPPORT_H
#define DINGHY_TEST_SUPPORT_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "dinghy/events.h"
#include "dinghy/hands.h"
#include "dinghy/health.h"
#include "dinghy/profile.h"
#include "dinghy/sim.h"
#include "dinghy/scene.h"

/* 1 when DINGHY_TEST_QUICK is set (sanitizer builds run shorter scenes). */
int test_quick(void);

/* What a test simulation is made of: the core's definition and a scene. */
typedef struct {
    sim_def def;
    scene_def scene;
} test_params;

/* The seed physics of the published tick, as it was before the physical
 * models (seed buoyancy, constant inflation, stiffness 400 N/m, water
 * drag 8 /s), in the rapids scene: what the older tests check. */
test_params test_defaults(void);

/* The program's defaults (exact buoyancy, gas, drag), rapids scene. */
test_params test_physical(void);

/* sim_def_default() with the step the tests count in: 1 ms (the program's
 * step before it became a 60 Hz frame), or DINGHY_TEST_DT seconds (the
 * step counts then stand for other times: a check of the physics at that
 * step, not of the tests' timings); and without the wave layer (the
 * prescribed water the older tests check). */
sim_def test_sim_def(void);

/* p at the program's own default step (sim_def_default's 1/60 s), for
 * the checks that must hold there; and the steps of p's step in `seconds`
 * of simulated time (at least 1). */
void test_default_step(test_params *p);
long test_steps(const test_params *p, double seconds);

/* Creates the scene's simulation or fails the test. */
dinghy_sim *test_sim(const test_params *p);

/* An empty simulation of definition d with room for cap rings (fails the
 * test when it cannot be made). */
dinghy_sim *test_sim_empty(const sim_def *d, int cap);

/* The named scene, seed physics, with every external force and damping off. */
test_params test_isolated(const char *scene);

/* Smallest distance between the tube centre-lines of two different
 * dinghies, minus the two tube radii: below 0 the tubes overlap, m. */
double test_min_tube_gap(const dinghy_sim *sim);

/* Largest vertex speed, m/s. */
double test_max_speed(const dinghy_sim *sim);

/* Writes text to path (replacing it) or fails the test. */
void test_write_file(const char *path, const char *text);

/* |a - b| <= tol, or the test fails with both values printed. */
#define assert_close(a, b, tol)                                                             \
    do {                                                                                    \
        const double a_ = (a), b_ = (b), t_ = (tol);                                        \
        if (!(fabs(a_ - b_) <= t_)) {                                                       \
            print_error("%s = %.17g, %s = %.17g, |diff| %.3g > %.3g\n", #a, a_, #b, b_,     \
                        fabs(a_ - b_), t_);                                                 \
            fail();                                                                         \
        }                                                                                   \
    } while (0)

/* A seeded xorshift generator for test inputs: uniform in [0, 1); the
 * same sequence every run (test_seed sets its state). */
double test_uniform(void);
void test_seed(uint64_t seed);

#endif
