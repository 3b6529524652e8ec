/* The river's ground: bed, banks and the land beyond, from the river
 * world's height field (river_ground) along the course and rolling hills
 * farther out; one static mesh built once. The still-water scenes keep
 * riverbed.h. */
#ifndef DINGHY_TERRAIN_H
#define DINGHY_TERRAIN_H

#include <stddef.h>

#include "render/course_map.h"

typedef struct terrain terrain;

/* Builds the ground for the course m. Needs a current GL context; NULL
 * with a message in err on failure. */
terrain *terrain_create(const course_map *m, char *err, size_t err_len);
/* Draws the parts of the ground that may be in view of view_proj and
 * nearer than reach (m) to the eye. */
void terrain_draw(terrain *t, const float view_proj[16], const float eye[3], float reach);
void terrain_destroy(terrain *t);

/* Arc lengths of the rows laid along the course (shared with the water):
 * every `fine` metres over [s_lo, s_hi], then rows growing apart up to
 * COURSE_MAP_EXTENSION beyond each end. Writes at most max values into
 * rows (may be NULL) and returns how many there are. */
int course_rows(const course_map *m, double fine, double *rows, int max);

#endif
