/* The river's water surface, drawn from the one water function: a mesh
 * laid along the course (rows every half metre, columns across the
 * channel and a little over the banks) whose heights, normals and flow
 * come from sim_water_at. Rows near the camera's focus are asked every
 * frame, the others in turn every fourth frame, so a frame asks a few
 * thousand points; past the ends the end rows carry on straight. The
 * shader moves flow-aligned ripples and foam with the current and turns
 * the water white where it runs fast, over the drops (steep surface) and
 * round the rocks. Everything is allocated at creation. */
#ifndef DINGHY_RIVER_WATER_H
#define DINGHY_RIVER_WATER_H

#include <stddef.h>

#include "dinghy/sim.h"
#include "render/course_map.h"
#include "render/wave_texture.h"

typedef struct river_water river_water;

/* Builds the mesh for the course m and asks the water of sim at every
 * sampled point once. NULL with a message in err on failure. */
river_water *river_water_create(const course_map *m, const dinghy_sim *sim, char *err, size_t err_len);

/* Asks the water again (rows within RIVER_WATER_NEAR of arc length
 * focus_s every call, the rest in turn) and uploads the mesh. */
void river_water_update(river_water *rw, const dinghy_sim *sim, double focus_s);
#define RIVER_WATER_NEAR 32.0

/* Draws the chunks of rows that may be in view of view_proj (column-major)
 * and nearer than reach (m) to eye, with blending, depth-tested, not
 * depth-writing; time_s (s, the simulated time) moves the foam; the wave
 * layer's texture lifts the surface, tilts its light and whitens where
 * the waves break. */
void river_water_draw(river_water *rw, const float view_proj[16], const float eye[3], float reach,
                      double time_s, const wave_texture *waves);
void river_water_destroy(river_water *rw);

/* Points asked by the last update (for tests and the budget). */
int river_water_samples(const river_water *rw);

/* White-water amount 0..1 of the vertex nearest (x, y) as last computed
 * (before the shader's streaks), for tests; -1 when off the mesh. */
float river_water_white_at(const river_water *rw, double x, double y);

#endif
