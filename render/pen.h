/* The pen of a still-water scene (sim_enable_pen: pile, packed): four
 * wooden boards standing in the water on the pen's walls, their inner
 * faces on the planes the rings cannot pass. */
#ifndef DINGHY_PEN_H
#define DINGHY_PEN_H

#include <stddef.h>

#include "dinghy/sim.h"

typedef struct pen pen;

/* Builds the boards of sim's pen; NULL with err empty when sim has no pen,
 * NULL with a message in err on failure. Needs a current GL context. */
pen *pen_create(const dinghy_sim *sim, char *err, size_t err_len);
void pen_draw(const pen *p);
void pen_destroy(pen *p);

#endif
