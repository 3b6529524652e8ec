/* Spray: droplets thrown up where rings splash, where rings hit rocks and
 * where the river breaks over its drops and rocks. An effect beside the
 * simulation, not part of it: it reads the simulation only through the
 * public API (sim.h, river.h) and never acts back on the rings.
 *
 * A particle flies under gravity (the simulation's) and linear air drag,
 * is pushed out of any ring tube it meets (moved along the tube's normal,
 * its velocity relative to the ring reflected with restitution and its
 * tangential part reduced by friction: the usual particle-body coupling),
 * and dies when it falls back under the water surface, hits a rock, bank
 * or bed, or outlives its lifetime.
 *
 * The budget is fixed: every array is allocated in spray_create and
 * spray_step allocates nothing. When the budget is full, new particles are
 * DROPPED (counted by spray_dropped); the live ones keep flying, so none
 * vanishes in mid-air.
 *
 * Deterministic: emission runs serially in a fixed order (the frame's
 * events in their order, then the river's break spots in theirs) with the
 * system's own random generator; motion and collision are one OpenMP
 * parallel loop over particles, each reading only shared read-only data
 * (a gather, no atomics), and the dead are removed in order afterwards.
 * The state is bit-identical for any thread count. Units are SI. */
#ifndef DINGHY_SPRAY_H
#define DINGHY_SPRAY_H

#include <stddef.h>
#include <stdint.h>

#include "dinghy/problem.h"

/* The simulation the spray reads (the core's sim.h). */
typedef struct dinghy_sim dinghy_sim;

/* What a spray system is made of. */
typedef struct {
    int budget;           /* most particles alive at once (>= 1) */
    double drag_rate;     /* linear air drag k, 1/s: dv/dt = g - k v (still air);
                             terminal speed g / k */
    double restitution;   /* e, 0..1: normal speed off a ring / normal speed into it */
    double friction;      /* 0..1: fraction of the tangential speed (relative to
                             the ring) lost in a contact with a ring */
    double lifetime;      /* s: longest life; each particle gets 0.5..1 of it */
    double size;          /* billboard radius of a droplet, m (drawing only) */
    double splash_gain;   /* particles per vertex entering the water per m/s
                             of splash speed (SIM_EVENT_SPLASH) */
    double hit_gain;      /* particles per m/s of hit speed (SIM_EVENT_OBSTACLE) */
    int event_max;        /* most particles one event throws */
    double throw_ratio;   /* launch speed / event speed: splashes and hits
                             throw droplets at 0.5..1 of this ratio */
    double river_rate;    /* particles per second per break spot per m/s of
                             surface flow there */
    double spot_spacing;  /* m: break spots lie this far apart across a drop */
    int max_spots;        /* most break spots kept (drops and rocks) */
    int max_rows;         /* most ring rows (rings x segments) collided with;
                             rings beyond are not (spray_rings_ignored) */
} spray_def;

/* Defaults: 4096 particles, drag 1.5 /s, restitution 0.3, friction 0.2,
 * lifetime 3 s, size 0.05 m, 0.5 per vertex per m/s at splashes, 20 per
 * m/s at hits, at most 200 per event, throw ratio 0.8, 8 per s per m/s at
 * break spots 1 m apart (at most 512), 65536 rows. */
spray_def spray_def_default(void);

/* Checks every field against its allowed range. Writes at most max
 * problems into out (may be NULL when max is 0), each with the field's
 * offset in spray_def (part 0); returns how many there are in all (0 when
 * valid). */
int spray_def_check(const spray_def *def, dinghy_problem *out, int max);

typedef struct spray_system spray_system;

/* Allocates everything the system will use (the budget's particles, the
 * rows and rings of max_rows, the break spots of max_spots). NULL when the
 * definition is invalid or memory runs out. random_seed: the generator's seed. */
spray_system *spray_create(const spray_def *def, uint64_t random_seed);
void spray_destroy(spray_system *sp);

/* Advances the spray by dt (s): the simulated time sim advanced this frame
 * (0 when paused: nothing is emitted, moves or dies). Call once per frame
 * after the frame's sim_step call (its events are valid until the next):
 * it emits from its splash and obstacle events and from the river's break spots (found once
 * per river world), then moves every particle, pushes it out of the rings
 * of sim's current state and removes the dead. threads: OpenMP threads
 * (0 = all cores); the result is the same for every count. */
void spray_step(spray_system *sp, const dinghy_sim *sim, double dt, int threads);

/* Throws up to n particles from pos (m) with velocity vel (m/s), each with
 * the full lifetime (tests, demos). Returns how many fit in the budget. */
int spray_emit(spray_system *sp, const double pos[3], const double vel[3], int n);

/* Kills every particle and forgets the river's break spots (a scene reset). */
void spray_clear(spray_system *sp);

/* Live particles, and the most there can be. */
size_t spray_count(const spray_system *sp);
size_t spray_budget(const spray_system *sp);
/* Particles not emitted because the budget was full, since creation or spray_clear. */
long spray_dropped(const spray_system *sp);
/* Rings the last step did not collide with (beyond max_rows). */
int spray_rings_ignored(const spray_system *sp);
/* Billboard radius of a droplet, m. */
double spray_size(const spray_system *sp);

/* Read-only view of the live particles: positions (m) and the fraction
 * of life left (1 at birth, 0 at death), count floats each. Valid until
 * the next spray_step, spray_emit or spray_clear. */
typedef struct {
    const float *x, *y, *z, *life;
    size_t count;
} spray_view;
spray_view spray_particles(const spray_system *sp);

/* Velocity of live particle i (m/s) (tests). */
void spray_velocity(const spray_system *sp, size_t i, double v[3]);

/* FNV-1a 64 over the IEEE bytes of all positions (x, y, z per particle, in
 * order), then all velocities. */
uint64_t spray_hash(const spray_system *sp);

#endif
