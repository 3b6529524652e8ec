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
    size_t coarse_first, coarse_count; /* its triangles at coarse detail (count 0: none) */
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
/* Gives chunk i the indices [first, end) as its coarse detail: the same
 * surface with fewer triangles and the same edges where it meets its
 * neighbours (no cracks whichever detail they are drawn at). */
void mesh_chunks_set_coarse(mesh_chunks *c, int i, size_t first, size_t end);
/* Adds a grid of rows x cols vertices (row r, column j: vertex r cols + j
 * of verts, `stride` floats each, its position first) as chunks of
 * chunk_rows rows (even), their triangles into idx from *k, then each
 * chunk's coarse detail after them: every other row, the chunk's first
 * and last rows kept whole, so no crack opens where details meet. Far off
 * a row is a pixel or less, and a CPU rasteriser pays for each small
 * triangle. idx needs room for 12 (rows - 1) (cols - 1) more indices.
 * Returns 0, or -1 when out of memory. */
int mesh_chunks_grid(mesh_chunks *c, uint32_t *idx, size_t *k, const float *verts, int stride,
                     int rows, int cols, int chunk_rows);
/* Draws g's chunks that may be in view of view_proj (column-major) and
 * whose nearest point is from `from` to `reach` (m) from eye; with coarse
 * 1, at coarse detail those that have it. */
void mesh_chunks_draw(mesh_chunks *c, const gpu_mesh *g, const float view_proj[16],
                      const float eye[3], float from, float reach, int coarse);
void mesh_chunks_free(mesh_chunks *c);

#endif
