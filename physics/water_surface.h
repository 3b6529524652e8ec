/* What the water is at one point and time: the one question physics,
 * renderer, sound and dump ask of the water (physics.md section 6). */
#ifndef DINGHY_WATER_SURFACE_H
#define DINGHY_WATER_SURFACE_H

typedef struct {
    double height;      /* surface height eta above the point (x, y), m */
    double normal[3];   /* unit upward normal of the surface there */
    double velocity[3]; /* flow velocity of the water at the asked point, m/s */
} water_point;

#endif
