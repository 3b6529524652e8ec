/* The scenes of issue 46's "no skin through a skin" list, for the
 * crossing scenarios (tests/crossing_scenarios.c, make check-contact) and
 * their short versions in make test (tests/test_no_crossing.c). Each is
 * built through the public API only (dinghy/scene.h's registry,
 * dinghy/sim.h, dinghy/hands.h) with the program's defaults: membrane
 * skin, gas, skin contact, the 1/60 s step. Nothing of physics/. */
#ifndef DINGHY_TESTS_CROSSING_CASES_H
#define DINGHY_TESTS_CROSSING_CASES_H

#include <stddef.h>

#include "dinghy/sim.h"
#include "tests/check_mesh.h"

typedef enum {
    CROSSING_SCENE, /* a registry scene as it is (count, seed, hole) */
    CROSSING_PAIR,  /* the pair scene 0.3 m above the water, 0.2 m between the skins,
                       ring 0 flying flat at ring 1 (at rest) at `speed` */
    CROSSING_THROW, /* the pile scene settled for half the time, then one more ring
                       thrown into it from above at `speed` */
    CROSSING_DRAG,  /* the pair scene at rest on the water; after 0.5 s (a fifth of
                       the time at most) ring 0 is grabbed at its vertex nearest ring 1
                       and the hand moved in a straight line at `speed` through ring
                       1's tube, as the demo's pointer does, to the end */
} crossing_kind;

typedef struct {
    const char *name;
    crossing_kind kind;
    const char *scene;    /* the registry's scene (CROSSING_SCENE, CROSSING_THROW) */
    int count;            /* scene.count */
    unsigned seed;        /* sim.seed */
    double hole;          /* dinghy.hole_diameter: every ring starts burst, m (0: whole) */
    double speed;         /* closing (pair), throw or hand speed, m/s */
    double seconds;       /* simulated time of the full run, s */
} crossing_case;

/* The list, in the order make check-contact runs it. */
extern const crossing_case crossing_cases[];
extern const int crossing_case_count;

/* The case called name, or NULL. */
const crossing_case *crossing_find(const char *name);

/* A case being run. */
typedef struct {
    const crossing_case *c;
    dinghy_sim *sim;
    double seconds;   /* simulated time this run goes to, s */
    double event_at;  /* the throw or the grab, simulated s; < 0: none */
    int event_done;
    sim_ring_id held; /* the dragged ring */
    double hand0[3];  /* where the hand was at the grab, m */
    double hand_v[3]; /* the hand's velocity, m/s */
} crossing_run;

/* Starts case c for `seconds` of simulated time (<= 0: its own) on
 * `threads` threads (0: all cores). Returns 0, or -1 with a message in
 * err (len bytes). */
int crossing_start(crossing_run *run, const crossing_case *c, double seconds, int threads,
                   char *err, size_t len);

/* Does the case's throw or hand move due now, then one sim_step of one
 * step; returns what sim_step did (0: the state blew up). */
long crossing_step(crossing_run *run);

/* Steps in `seconds` of simulated time at the run's step (at least 1). */
long crossing_steps(const crossing_run *run, double seconds);

void crossing_finish(crossing_run *run);

/* One line saying what the run does (its scene, rings, hole, speeds and
 * when the throw or the grab comes) into buf (len bytes). */
void crossing_describe(const crossing_run *run, char *buf, size_t len);

/* The simulation's current state as the skin checker reads it (valid
 * until the next step). */
skin_mesh crossing_mesh(const dinghy_sim *sim);

#endif
