/* The definition of a river world (include/dinghy/river.h builds one from
 * it): its fields, defaults and check, and what the water is at a point.
 * The core's definitions (defs.h) hold a river_def and ask the water
 * through dinghy_water_point; they need nothing of the river's world API. */
#ifndef DINGHY_RIVER_DEF_H
#define DINGHY_RIVER_DEF_H

#include <stdint.h>

#include "dinghy/problem.h"

typedef struct {
    /* live: river_set_live changes these without a rebuild */
    double speed;       /* surface speed mid-channel in the straight reaches, m/s */
    double waves;       /* standing-wave amplitude below drops, m; rock waves and
                           chop scale with it; 0 = a smooth surface */
    /* rebuild: river_create again to change these */
    double width;       /* channel width at the water line in the straight reaches, m */
    double depth;       /* water depth mid-channel in the straight reaches, m */
    double length;      /* course length from the upstream start to the end, m */
    double bend;        /* bend radius of the centre line, in widths */
    double drop_height; /* fall of the surface over each drop, m */
    double drop_length; /* length scale of each drop: the surface falls as
                           tanh((s - s_drop) / drop_length), m */
    double bank_height; /* height of the bank tops above the water, m */
    double chop;        /* travelling-chop amplitude as a fraction of waves */
    int rocks;          /* number of rocks (boulders standing out of the water) */
    int drops;          /* number of drops */
    uint64_t seed;      /* random seed of the layout: bend turns, rocks, chop */
} river_def;

/* What the water is at one point and time: the one question physics,
 * renderer, sound and dump ask of the water (docs/physics.md section 6). */
typedef struct {
    double height;      /* surface height eta above the point (x, y), m */
    double normal[3];   /* unit upward normal of the surface there */
    double velocity[3]; /* flow velocity of the water at the asked point, m/s */
} dinghy_water_point;

/* A built river (river.h), opaque; declared here so that the core's public
 * header can name it without the river's API. */
typedef struct river_world river_world;

/* The built-in defaults: 2.5 m/s, 12 m wide, 1.5 m deep, 100 m long, bends
 * of 2.5 widths radius, 3 drops of 0.4 m, 6 rocks, 0.15 m waves. */
river_def river_def_default(void);

/* Checks every field against its allowed range. Writes at most max
 * problems into out (may be NULL when max is 0), each with the field's
 * offset in river_def (part 0); returns how many there are in all (0 when
 * valid). */
int river_def_check(const river_def *d, dinghy_problem *out, int max);

#endif
