/* The spray system's insides, shared by its files. Not part of the API.
 * The files call each other one way only: spray_store.c (the generator
 * and the particle store) and spray_def.c (defaults and check) at the
 * bottom; spray_rings.c (ring tubes and the push-out) and spray_sources.c
 * (what throws droplets) on the store; spray.c (life cycle, motion and
 * views) on top. */
#ifndef DINGHY_SPRAY_INTERNAL_H
#define DINGHY_SPRAY_INTERNAL_H

#include "dinghy/river.h"
#include "dinghy/spray.h"

#include "dinghy/events.h"
#include "dinghy/health.h"
#include "dinghy/sim.h"

/* The ring tubes of the current state, rebuilt every step: per row (one
 * segment of one ring) its centre, tube radius and mean velocity; per ring
 * a bounding sphere of its rows' tubes. */
typedef struct {
    float *row;      /* 4 per row: centre x, y, z (m), tube radius (m) */
    float *row_max;  /* per row: the farthest of its vertices from its centre, m */
    float *row_v;    /* 3 per row: mean vertex velocity, m/s */
    float *bound;    /* 4 per ring: centre x, y, z (m), reach (m) */
    int rings, M, N; /* rings held now, rows per ring, vertices per row */
    sim_state_view skin; /* the vertices the tubes were made from (valid until the next step) */
    int ignored;     /* rings of the simulation beyond max_rows */
} spray_tubes;

/* The places the river breaks: spot centres and their emission carry-over. */
typedef struct {
    double *xy;               /* 2 per spot, m */
    double *carry;            /* fractional particles owed per spot */
    int count;
    const river_world *of;    /* the river they were found in (NULL: none yet) */
} spray_spots;

struct spray_system {
    spray_def def;
    uint64_t random_seed, rng;
    size_t count;
    long dropped;
    float *x, *y, *z, *vx, *vy, *vz; /* m, m/s */
    float *age, *ttl, *life;         /* s, s, fraction of ttl left */
    unsigned char *dead;             /* set by the motion loop, cleared by the sweep */
    spray_tubes tubes;
    spray_spots spots;
};

/* A uniform number in [lo, hi) from the system's generator (serial use only). */
double spray_uniform(spray_system *sp, double lo, double hi);

/* Appends one particle with life time ttl (s); 0 when the budget is full
 * (counted as dropped). */
int spray_add(spray_system *sp, const double pos[3], const double vel[3], double ttl);

/* Writes particle i's position (m) and velocity (m/s). */
void spray_store(spray_system *sp, size_t i, const double p[3], const double v[3]);

/* Tubes: rebuilds the rows and bounds from sim's state (OpenMP, threads). */
void spray_tubes_update(spray_tubes *t, const dinghy_sim *sim, int max_rows, int threads);
/* Pushes a point (m) with velocity v (m/s) out of every tube it is in and
 * then out of every ring skin it is still inside (the closed mesh itself,
 * where a squashed or pressed skin leaves the round tube), applying
 * restitution and friction; returns 1 when it touched one, SPRAY_TRAPPED
 * when it is still inside a skin after every pass. */
#define SPRAY_TRAPPED 2
int spray_tubes_push(const spray_tubes *t, double p[3], double v[3], double restitution,
                     double friction);

/* Sources: the frame's events, then the river's break spots (serial). */
void spray_emit_events(spray_system *sp, const dinghy_sim *sim);
void spray_emit_river(spray_system *sp, const dinghy_sim *sim, double dt);

#endif
