/* The health of a simulation: when its state counts as blown up (a
 * runaway or non-finite vertex, a ring that is not whole) and what
 * sim_step reports then. */
#ifndef DINGHY_HEALTH_H
#define DINGHY_HEALTH_H

#include <stddef.h>

#include "dinghy/sim.h"

/* Speed above which a vertex counts as runaway (a blow-up), m/s. */
#define SIM_RUNAWAY_SPEED 1000.0

/* A ring is whole when every vertex is within SIM_WORLD_SIZE of the origin
 * and no grid edge of its skin is longer than SIM_MAX_STRETCH times its
 * rest length (not torn); and
 *  - springs skin: its enclosed volume is between SIM_MIN_VOLUME and
 *    SIM_MAX_VOLUME times its rest volume (not turned inside out, crushed
 *    or blown up like a balloon);
 *  - membrane skin: no triangle is turned inside out: its normal points
 *    against the normals of all three triangles sharing an edge with it at
 *    every check for SIM_INVERTED_TIME, and its outward side faces the
 *    inside of its own closed skin (the winding number of the skin about
 *    the point SIM_FOLD_PROBE off its centre along its normal is above 1/2,
 *    or about the point as far behind it below 1/2). A contact's load (the
 *    seed's centre-line repulsion pushes a whole row at once, a rock's
 *    contact projects vertices onto its surface) may crumple the skin for
 *    a moment, and it springs back (measured on the rapids scene: within
 *    0.2 s); a limp skin folds flat in creases a cell wide, which turn
 *    triangles against all their neighbours in folds that are whole (each
 *    triangle's outward side still outside). There is no volume bound: a
 *    deflated, flat or folded ring is whole.
 * Non-finite values are caught in the tick. sim_step checks every ring at
 * the end of each call and reports a ring that is not as a blow-up. */
#define SIM_MIN_VOLUME 0.25
#define SIM_MAX_VOLUME 4.0
#define SIM_MAX_STRETCH 3.0
#define SIM_WORLD_SIZE 1.0e5 /* m */
#define SIM_INVERTED_TIME 0.5 /* s */
#define SIM_FOLD_PROBE 1.0e-3 /* m: below the skins' contact thickness (1 cm); brought in
                                 where a crease is shut tighter (fold_faces_inward) */
typedef enum {
    SIM_RING_WHOLE = 0,
    SIM_RING_INSIDE_OUT, /* volume below SIM_MIN_VOLUME of rest (or negative) */
    SIM_RING_BALLOONED,  /* volume above SIM_MAX_VOLUME of rest */
    SIM_RING_TORN,       /* an edge stretched beyond SIM_MAX_STRETCH */
    SIM_RING_ESCAPED,    /* a vertex beyond SIM_WORLD_SIZE */
    SIM_RING_INVERTED,   /* membrane: a triangle turned against all its neighbours
                            and facing its skin's inside */
} sim_ring_fault;

/* What went wrong when the state blew up. */
typedef struct {
    int happened;      /* 0 while the state is healthy */
    long step;         /* 1-based number of the step that blew up */
    double time;       /* simulated time at its end, s */
    int ring;          /* lowest index of a ring with a bad vertex */
    sim_ring_id ring_id; /* its id */
    int vertex;        /* its first bad vertex, index within the ring */
    int non_finite;    /* 1: NaN or infinity; 0: speed above SIM_RUNAWAY_SPEED */
    double speed;      /* that vertex's speed, m/s (NaN when non-finite) */
    sim_ring_fault fault; /* SIM_RING_WHOLE: a speed or non-finite blow-up */
    double measure;    /* the fault's figure: volume / rest volume, stretch, distance, or
                          the index of the inverted triangle (2 (m N + n) + 0 or 1) */
} sim_blowup_info;
sim_blowup_info sim_blowup(const dinghy_sim *sim);

/* Writes a one-line explanation of a blow-up with its likely cause (dt
 * against the stability bound of docs/physics.md section 2) into buf, in
 * physical quantities. */
void sim_blowup_message(const dinghy_sim *sim, char *buf, size_t len);

#endif
