/* Spray droplets (include/dinghy/spray.h) as lit, instanced billboards: one quad
 * per droplet facing the camera, shaded as a small sphere in the scene's
 * sun, white water fading out as its life ends. The instance buffer is
 * sized for the system's budget at creation; drawing allocates nothing. */
#ifndef DINGHY_SPRAY_DRAW_H
#define DINGHY_SPRAY_DRAW_H

#include <stddef.h>

#include "dinghy/spray.h"

typedef struct spray_draw spray_draw;

/* Compiles the program and makes room on the GPU for `budget` droplets.
 * Needs a current GL context; NULL with a one-line message in err. */
spray_draw *spray_draw_create(size_t budget, char *err, size_t err_len);

/* Room for this many droplets, as created. */
size_t spray_draw_budget(const spray_draw *d);

/* Uploads sp's live droplets (at most the budget) and draws them blended,
 * without writing depth, after the opaque meshes. */
void spray_draw_draw(spray_draw *d, const spray_system *sp);

void spray_draw_destroy(spray_draw *d);

#endif
