/* An indexed triangle mesh on the GPU with the program that draws it: the
 * vertex array, vertex buffer, 32-bit index buffer and their clean-up,
 * shared by the rings, the river bed, the water and the HUD. */
#ifndef DINGHY_GPU_MESH_H
#define DINGHY_GPU_MESH_H

#include <stddef.h>
#include <stdint.h>

typedef struct {
    unsigned program;  /* GLSL program drawing it (owned; 0 = none yet) */
    unsigned vao, vbo, ibo;
    int index_count;
} gpu_mesh;

/* Makes the vertex array, a vertex buffer of vertex_bytes (filled from
 * `vertices` unless NULL; stream = 1 for data replaced every frame) and an
 * index buffer of index_count indices. Leaves the vertex array bound for
 * the caller to describe its attributes. Needs a current GL context. */
void gpu_mesh_create(gpu_mesh *m, const void *vertices, size_t vertex_bytes, int stream,
                     const uint32_t *indices, size_t index_count);

/* The layout of interleaved float vertices: attribute i has sizes[i]
 * floats (i = 0 .. count-1), one after the other in each vertex. */
void gpu_mesh_layout_floats(const int *sizes, int count);

/* The layout of position + normal meshes: attribute 0 the position, 1 the
 * normal, 3 floats each, interleaved (24 bytes a vertex). */
void gpu_mesh_layout_position_normal(void);

/* Replaces the first `bytes` of the vertex buffer, orphaning the old
 * storage so the driver need not wait for the last frame's draw. */
void gpu_mesh_stream(const gpu_mesh *m, const void *vertices, size_t bytes, size_t buffer_bytes);

/* Draws the first `count` indices (count < 0: all) with the program. */
void gpu_mesh_draw(const gpu_mesh *m, int count);

/* Deletes what was made; safe on a zeroed mesh. */
void gpu_mesh_destroy(gpu_mesh *m);

#endif
