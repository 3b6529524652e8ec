/* What the sound needs to know about the scene, read through the physics
 * API (physics/sim.h) only: how fast things move, where, and how big. */
#ifndef DINGHY_SCENE_SOUND_H
#define DINGHY_SCENE_SOUND_H

#include "../physics/sim.h"

typedef struct {
    double mean_speed;   /* mean over dinghies of their centre-of-mass speed, m/s */
    double x_min, x_max; /* range of the dinghies' centres along x, m */
    double size;         /* outer radius R + r of a dinghy, m */
    int vertices;        /* vertices per dinghy, M*N */
} audio_scene;

/* One pass over the current state (O(vertices)); call once per frame. */
audio_scene audio_scene_of(const dinghy_sim *sim);

/* Level 0..1 of the rushing-water loop for water moving at water_speed
 * and dinghies at dinghy_speed (m/s): 0.3 when all is still, rising
 * smoothly towards 1 (0.74 at 2 m/s). The physics has no river current
 * yet, so callers pass 0 for the water. */
double audio_ambience_level(double water_speed, double dinghy_speed);

/* Stereo pan -1..1 from a world x (m) when there is no camera (headless
 * runs): the scene's x range spread over 80% of the stereo width. */
double audio_pan_from_x(double x, const audio_scene *s);

#endif
