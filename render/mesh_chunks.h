/* A static mesh's triangles in chunks with bounding boxes, so that a frame
 * draws only the chunks in view and within reach (one glMultiDrawElements
 * call): a CPU rasteriser pays for every vertex and triangle it is given,
 * seen or not. */
#ifndef DINGHY_MESH_CHUNKS_H
#define DINGHY_MESH_CHUNKS_H

#include <stddef.h>
#include <stdint.h>

#include "render/gpu_mesh.h"

typedef struct {
    size_t first, count; /* indices */
    float lo[3], hi[3];  /* bounding box, m */
} mesh_chunk;

typedef struct {
    mesh_chunk *chunk;
    int n, room;
    int *counts;         /* per chunk drawn, for glMultiDrawElements */
    const void **offsets;
    int drawn;           /* chunks the last draw drew */
} mesh_chunks;

/* Adds the indices [first, end) of idx as one chunk (nothing when empty),
 * its box from the positions (the first 3 of each `stride` floats of
 * verts). Returns 0, or -1 when out of memory. */
int mesh_chunks_add(mesh_chunks *c, const uint32_t *idx, size_t first, size_t end,
                    const float *verts, int stride);
/* Draws g's chunks that may be in view of view_proj (column-major) and
 * whose nearest point is from `from` to `reach` (m) from eye. */
void mesh_chunks_draw(mesh_chunks *c, const gpu_mesh *g, const float view_proj[16],
                      const float eye[3], float from, float reach);
void mesh_chunks_free(mesh_chunks *c);

#endif
