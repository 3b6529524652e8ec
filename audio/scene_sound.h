/* What the sound needs to know about the scene, read through the physics
 * API (dinghy/sim.h) only: how fast things move, where, and how big. */
#ifndef DINGHY_SCENE_SOUND_H
#define DINGHY_SCENE_SOUND_H

#include "dinghy/sim.h"

typedef struct {
    double mean_speed;   /* mean over rings of their centre-of-mass speed, m/s */
    double x_min, x_max; /* range of the rings' centres along x, m */
    double size;         /* outer radius R + r of a ring, m */
    int vertices;        /* vertices per ring, M*N */
    double leak;         /* gas escaping from punctured rings, all together, kg/s */
} audio_scene;

/* One pass over the current state (O(vertices)); call once per frame. */
audio_scene audio_scene_of(const dinghy_sim *sim);

/* Level 0..1 of the rushing-water loop for water moving at water_speed
 * and rings at ring_speed (m/s): 0.3 when all is still, rising
 * smoothly towards 1 (0.74 at 2 m/s). */
double audio_ambience_level(double water_speed, double ring_speed);

/* How hard the water rushes where the listener is: the flow speed of the
 * surface (m/s) averaged over `at` (m; NULL: the mean of the ring
 * centres) and four points 2.5 m round it, raised where the surface is
 * steep (drops, standing waves): up to 3x its speed at a slope of 0.25.
 * Reads sim_water_at only; 0 on still water. */
double audio_water_rush(const dinghy_sim *sim, const double at[3]);

/* Level 0..1 of the water loop for a listener at `at` (m; NULL: the
 * crowd's middle): on a river audio_ambience_level(audio_water_rush, 0),
 * on still water audio_ambience_level(0, mean ring speed). */
double audio_water_level(const dinghy_sim *sim, const double at[3], const audio_scene *sc);

/* Leak (kg/s) at which the puncture hiss is at full level: a 1 cm hole
 * in a ring at 500 Pa gauge lets out 1.6e-3 kg/s (docs/physics.md 6b). */
#define AUDIO_HISS_FULL_LEAK 1.6e-3

/* Level 0..1 of the puncture hiss for a total leak (kg/s): in proportion
 * to the escaping flow (which goes as the square root of the gauge
 * pressure), so it fades as the rings go soft; 0 without punctures. */
double audio_hiss_level(double leak);

/* Stereo pan -1..1 from a world x (m) when there is no camera (headless
 * runs): the scene's x range spread over 80% of the stereo width. */
double audio_pan_from_x(double x, const audio_scene *s);

#endif
