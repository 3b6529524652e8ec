/* The water surface: a translucent sheet at the physics water level with
 * softly moving ripples, sky reflections (Fresnel) and sun glints. Drawn
 * after everything opaque, so the rings show through it below the
 * waterline. */
#ifndef DINGHY_WATER_H
#define DINGHY_WATER_H

#include <stddef.h>

#include "render/wave_texture.h"

typedef struct water water;

/* A square sheet `half_size` metres either side of centre (x, y), and a
 * grid over the box of the wave layer whose texture `waves` holds (may be
 * NULL: none), a vertex every other cell. Needs a current GL context; NULL
 * with the shader log in err on failure. */
water *water_create(const float centre[2], float half_size, const wave_texture *waves, char *err,
                    size_t err_len);
/* Draws with blending, depth-tested but not depth-writing. The height is
 * the Frame block's water level, lifted, tilted and whitened by the waves
 * of the texture. */
void water_draw(const water *w, const wave_texture *waves);
void water_destroy(water *w);

#endif
