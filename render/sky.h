/* The sky: a full-screen gradient from a hazy horizon to a deep blue
 * zenith, with the sun's disc and glow. Drawn after the opaque meshes, at the far
 * plane, on the pixels they left. */
#ifndef DINGHY_SKY_H
#define DINGHY_SKY_H

#include <stddef.h>

typedef struct sky sky;

/* Needs a current GL context. NULL with the shader log in err on failure. */
sky *sky_create(char *err, size_t err_len);
/* Fills the viewport; reads the Frame block (camera rays, sun). */
void sky_draw(const sky *s);
void sky_destroy(sky *s);

#endif
