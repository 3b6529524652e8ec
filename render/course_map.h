/* The river's course as the renderer lays meshes along it: channel
 * coordinates (s along the course, n across it, include/dinghy/river.h) mapped to
 * the ground plane, with the course continued straight beyond both ends so
 * the river runs on to the horizon. Pure math over the read-only river
 * world, no GL. */
#ifndef DINGHY_COURSE_MAP_H
#define DINGHY_COURSE_MAP_H

#include "dinghy/river.h"

/* How far past each end the drawn river continues straight, m. */
#define COURSE_MAP_EXTENSION 260.0
/* Margin inside the river world's tables at each end, m: within
 * [-COURSE_MAP_PAD, length + COURSE_MAP_PAD] the world is asked directly. */
#define COURSE_MAP_PAD 18.0

typedef struct {
    const river_world *w;
    const river_course *c;
    double s_lo, s_hi;        /* arc lengths the world is asked at, m */
    double end_xy[2][2];      /* centre line at s_lo and s_hi, m */
    double end_t[2][2];       /* unit downstream tangent there */
    double band;              /* half-width of the drawn ground band, m */
} course_map;

void course_map_init(course_map *m, const river_world *w);

/* Clamps s into [s_lo, s_hi]. */
double course_map_clamp(const course_map *m, double s);

/* The ground point at channel coordinates (s, n), m: river_point inside
 * [s_lo, s_hi], beyond it the end's cross-section moved straight along the
 * end tangent. */
void course_map_point(const course_map *m, double s, double n, double xy[2]);

/* Unit downstream tangent at s (finite difference of the centre line). */
void course_map_tangent(const course_map *m, double s, double t[2]);

/* Water-line width (m) and mean water level (m) at s, interpolated
 * between the course points (the end values beyond the ends). */
double course_map_width(const course_map *m, double s);
double course_map_level(const course_map *m, double s);

#endif
