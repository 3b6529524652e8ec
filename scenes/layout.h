/* Helpers the scene builders share: a random generator, rotations and a
 * square grid of places. */
#ifndef DINGHY_SCENE_LAYOUT_H
#define DINGHY_SCENE_LAYOUT_H

#include <stdint.h>

#include "dinghy/overlap.h"
#include "dinghy/scene.h"

#define SCENE_PI 3.14159265358979323846

/* splitmix64: a tiny, well-mixed generator; layouts depend only on the random seed. */
uint64_t layout_next_u64(uint64_t *state);
/* Uniform in [lo, hi). */
double layout_uniform(uint64_t *state, double lo, double hi);

/* A pose at rest at `centre` with no rotation. */
sim_ring_pose layout_pose_at(double x, double y, double z);

/* Rotation by `tilt` (rad) about the horizontal axis at angle `yaw` (rad) from x. */
void layout_tilt(double rot[9], double yaw, double tilt);

/* Place i of a square grid of n places `spacing` apart (m), centred on the origin. */
void layout_grid_place(int i, int n, double spacing, double *x, double *y);

/* The ring count of scenes that take scene.count. */
int layout_count(const scene_def *layout);

/* Outer radius of the ring the simulation is made of: R + r, m. */
double layout_ring_reach(const dinghy_sim *sim);

/* The gap a placed ring keeps from every ring already there: the contact
 * thickness (world.ring.contact_thickness), so that no two skins start
 * within contact of each other, let alone through each other, m. */
double layout_margin(const dinghy_sim *sim);

/* Adds a ring at `pose`, raised by steps of the tube radius until it is
 * clear of every ring there (sim_pose_clear with layout_margin): no scene
 * places a ring inside another. A pose that is clear is added as it is.
 * Returns the id (SIM_RING_NONE when the simulation is full). */
sim_ring_id layout_add_clear(dinghy_sim *sim, sim_ring_pose *pose);

#endif
