/* Scene builders: where each dinghy starts. Shared by the demo, the
 * benchmark and the tests, so all of them run the same scenes. */
#ifndef DINGHY_SCENE_H
#define DINGHY_SCENE_H

#include "params.h"

/* Initial rigid placement of one dinghy. */
typedef struct {
    double centre[3];   /* m */
    double rot[9];      /* row-major rotation applied to the canonical torus (axis z) */
    double velocity[3]; /* m/s, the same for every vertex */
} dinghy_pose;

/* Number of dinghies the scene named in p creates. */
int scene_dinghy_count(const sim_params *p);

/* Fills poses[0 .. scene_dinghy_count(p)) for the scene named in p. */
void scene_build(const sim_params *p, dinghy_pose *poses);

/* Centre-to-centre distance of the packed scene, m: tubes closer than
 * contact_range, so every dinghy presses on its neighbours. */
double scene_packed_spacing(const sim_params *p);

#endif
