/* The demo's hands: grab and throw, drop in, take out and puncture rings
 * under the cursor, from the input's actions, in the demo window and in
 * scripted captures alike. */
#ifndef DINGHY_PLAY_H
#define DINGHY_PLAY_H

#include <stddef.h>

#include "../physics/sim.h"
#include "../render/camera.h"
#include "../render/input.h"
#include "../scenes/scene.h"

/* Rings a scene has room for beyond its own: the cap of drop-ins. */
#define PLAY_EXTRA_RINGS 32

/* Diameter of the hole K makes, m. With the default ring (0.99 m^3 of
 * air at 500 Pa gauge) the gauge pressure halves in about 2 s and is gone
 * in about 7 s: fast at first, then ever slower (physics.md 6b). */
#define PLAY_HOLE_DIAMETER 0.01

/* A throw leaves at the hand's velocity averaged over about this long, s
 * (exponentially): a flick, not the last frame's twitch. */
#define PLAY_THROW_TIME 0.05

/* A dropped ring starts this high above the water under the cursor, m. */
#define PLAY_DROP_HEIGHT 0.6

typedef struct {
    int held;             /* the ring in the hand, or -1 */
    float plane_point[3]; /* the drag plane: through the grabbed point, m */
    float plane_normal[3];/* facing the camera, or up (along the water) */
    int along_water;      /* the plane is horizontal */
    double hand[3];       /* where the hand was put at the last frame, m */
    double throw_velocity[3]; /* the hand's velocity over the last PLAY_THROW_TIME, m/s */
    char note[160];       /* what the last action did, for the HUD ("" none) */
} play_state;

void play_init(play_state *pl);

/* Creates the simulation of a scene with room for PLAY_EXTRA_RINGS more
 * rings. NULL with a message in err when out of memory. */
dinghy_sim *play_scene_create(const sim_def *def, const scene_def *layout, char *err,
                              size_t err_len);

/* Takes this frame's actions on sim seen through camera in a w x h
 * viewport; step_time is the simulated time (s) this frame is about to
 * advance (0 while paused): a dragged hand moves smoothly over it. */
void play_frame(play_state *pl, const input_actions *a, dinghy_sim *sim, const orbit_camera *camera,
                int w, int h, double step_time);

/* The cursor's ray meets the water: the point (m). Returns 0, or -1 when
 * it points above the horizon. */
int play_water_under(const dinghy_sim *sim, const orbit_camera *camera, int w, int h,
                     const float cursor[2], double point[3]);

#endif
