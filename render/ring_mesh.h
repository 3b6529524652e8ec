/* The rings as smooth-lit triangle meshes, all of them in one draw.
 *
 * Positions and the tick's per-vertex normals go to the GPU once per frame
 * in one interleaved buffer, staged in memory allocated at creation; the
 * index buffer (two triangles per grid quad, wrapping round both ways) is
 * built once, for one ring at full detail and at a coarse one (every
 * other vertex each way): a ring far enough away to cover few pixels is
 * drawn coarse, a quarter of the triangles (a CPU renderer pays for each).
 * Each ring gets its palette colour (palette.h) in the shader from its
 * vertex index, so no colour data is uploaded. */
#ifndef DINGHY_RING_MESH_H
#define DINGHY_RING_MESH_H

#include <stddef.h>

#include "dinghy/sim.h"

typedef struct ring_mesh ring_mesh;

/* Sized for the rings sim has room for (sim_ring_capacity), its segments
 * and sides (fixed for a simulation's life); draws the rings there are.
 * Needs a current GL context; NULL with a message in err. */
ring_mesh *ring_mesh_create(const dinghy_sim *sim, char *err, size_t err_len);
/* Uploads the current positions and normals (sim_normals computes them on
 * first use after a step, hence the non-const sim). */
void ring_mesh_upload(ring_mesh *m, const dinghy_sim *sim);
/* Draws the rings, those farther than coarse_beyond (m) from the eye
 * (m, world) at coarse detail (all at full detail: INFINITY). */
void ring_mesh_draw(ring_mesh *m, const float eye[3], float coarse_beyond);
/* Rings the last draw drew at coarse detail. */
int ring_mesh_drawn_coarse(const ring_mesh *m);
void ring_mesh_destroy(ring_mesh *m);

#endif
