/* The river world: course, banks, bed, rocks and the moving water of the
 * rapids, as one read-only object that physics, renderer, sound and dump
 * all ask (docs/physics.md section 6). Coordinates: z up, x/y horizontal, SI.
 * The water surface starts at z = 0 (the still-water level) at the upstream
 * end and steps down over the drops.
 *
 * Channel coordinates of a point: s, arc length along the smooth centre line
 * from the upstream start (m; negative before it, above length past the
 * downstream end), and n, signed offset from the centre line (m, positive to
 * the left looking downstream).
 *
 * The horizontal flow comes from a stream function psi(x, y), so the
 * depth-integrated flow has zero divergence and never crosses a bank or a
 * rock; with the vertical velocity of sigma (terrain-following) layers the
 * 3-D flow below the mean surface is divergence-free as well and runs along
 * the bed. Every query is deterministic and thread-safe (read-only); only
 * river_set_live writes, and it must not run during queries. */
#ifndef DINGHY_RIVER_H
#define DINGHY_RIVER_H

#include <stddef.h>
#include <stdint.h>

#include "dinghy/river_def.h"

/* Read-only view of the course for renderer and dump; points into the
 * world, valid until river_destroy. */
typedef struct {
    int count;             /* number of course points, upstream first */
    const double *point;   /* 3 per point: centre line at the mean surface
                              [x, y, z], m; at most 1 m apart along s */
    const double *s;       /* arc length of each point, m (0 .. length) */
    const double *width;   /* water-line width at each point, m */
    const double *depth;   /* water depth mid-channel at each point, m */
    int rock_count;        /* rocks actually placed (can be fewer than asked
                              when they do not fit) */
    const double *rock;    /* 4 per rock: centre [x, y, z] at the mean surface
                              (m) and radius (m); a rock is a vertical capsule:
                              a cylinder of that radius from the bed up to the
                              surface, with a hemispherical top */
    int drop_count;        /* number of drops */
    const double *drop_s;  /* arc length of the middle of each drop, m */
    double length;         /* course length, m */
    double bank_height;    /* bank tops above the water, m */
    double speed;          /* current live speed, m/s */
    double waves;          /* current live wave amplitude, m */
} river_course;

/* Builds the course tables, rocks and lookup grid (a few ms). Returns NULL
 * when d is invalid or memory runs out. */
river_world *river_create(const river_def *d);
void river_destroy(river_world *w);

/* Changes the live fields: speed (m/s, 0 .. 8) scales every velocity
 * (the bed shape of the chutes stays as built); waves (m, 0 .. 1) scales
 * standing waves and chop. Returns 0, or -1 (nothing changed) when out of
 * range. Not thread-safe against concurrent queries. */
int river_set_live(river_world *w, double speed, double waves);

/* The water at (x, y, z) (m) and time t (s): surface height eta (m) above
 * (x, y), its unit upward normal, and the flow velocity (m/s) at depth
 * eta_mean - z; above the mean surface the surface velocity, below the
 * bed the bed velocity, inside a rock or outside the channel zero. Over the
 * land beyond the banks the height is the water level of the nearest
 * course point. */
void river_sample(const river_world *w, double x, double y, double z, double t,
                  dinghy_water_point *out);

/* river_sample, and river_solid_distance (without its gradient) into
 * *solid (m), at the same point: the same values, the channel frame
 * found once (the tick samples both at each row's centre). */
void river_sample_solid(const river_world *w, double x, double y, double z, double t,
                        dinghy_water_point *out, double *solid);

/* Channel coordinates of (x, y): s (m) and n (m), see above. Returns 1 when
 * the point lies in the mapped band round the course (|n| up to well beyond
 * the bank tops), 0 when farther (s, n are then a rough estimate). */
int river_station(const river_world *w, double x, double y, double *s, double *n);

/* The point (x, y) (m) at channel coordinates (s, n) (m): the inverse of
 * river_station inside the mapped band. */
void river_point(const river_world *w, double s, double n, double xy[2]);

/* Height of the ground (bed, banks and the land beyond) at (x, y), m; grad
 * (may be NULL) gets its horizontal gradient (dimensionless). */
double river_ground(const river_world *w, double x, double y, double grad[2]);

/* Signed distance (m) from (x, y, z) to the nearest solid: rocks, banks and
 * bed; negative inside. grad (may be NULL) gets the unit outward direction
 * (away from that solid). For ground it is the height-field estimate
 * (z - ground) / sqrt(1 + |grad ground|^2). */
double river_solid_distance(const river_world *w, double x, double y, double z,
                            double grad[3]);

/* A random spawn place above the water near the upstream end (within the
 * first 20 m, straight reach, no rocks), `clearance` m (>= 0) above the
 * mean surface and at least that far from the banks at the water line.
 * Advances *rng. out = [x, y, z], m. */
void river_spawn_point(const river_world *w, uint64_t *rng, double clearance,
                       double out[3]);

/* Arc length of the downstream end, m: a ring whose s exceeds it is past
 * the end (and is re-dropped upstream by the caller). */
double river_end_s(const river_world *w);

/* The course for renderer and dump. */
const river_course *river_course_view(const river_world *w);

#endif
