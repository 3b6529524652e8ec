/* The river's rocks: each a boulder on the capsule the physics uses
 * (river_course.rock: a cylinder of the rock's radius from the bed up to
 * the mean surface, a hemispherical top), its outline roughened a little
 * inward. One static mesh for all of them. */
#ifndef DINGHY_ROCKS_H
#define DINGHY_ROCKS_H

#include <stddef.h>

#include "dinghy/river.h"

typedef struct rocks rocks;

/* NULL with a message in err on failure; a course without rocks gives an
 * object that draws nothing. Needs a current GL context. */
rocks *rocks_create(const river_world *w, char *err, size_t err_len);
void rocks_draw(const rocks *r);
void rocks_destroy(rocks *r);

/* Base colour of the stone (linear 0..1 RGB), for tests. */
void rocks_colour(float rgb[3]);

#endif
