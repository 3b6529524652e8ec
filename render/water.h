/* The water surface: a translucent sheet at the physics water level with
 * softly moving ripples, sky reflections (Fresnel) and sun glints. Drawn
 * after everything opaque, so the rings show through it below the
 * waterline. */
#ifndef DINGHY_WATER_H
#define DINGHY_WATER_H

#include <stddef.h>

typedef struct water water;

/* A square sheet `half_size` metres either side of centre (x, y). Needs a
 * current GL context; NULL with the shader log in err on failure. */
water *water_create(const float centre[2], float half_size, char *err, size_t err_len);
/* Draws with blending, depth-tested but not depth-writing. The height is
 * the Frame block's water level. */
void water_draw(const water *w);
void water_destroy(water *w);

#endif
