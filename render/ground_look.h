/* The ground's look baked when the scene is built: the light of the fixed
 * sun, the tint under the water and the broad mottle worked out per vertex
 * on the CPU, the fine grain and the pebbles in a tiling texture (its two
 * channels), so a CPU rasteriser pays a texture fetch and a few mixes a
 * pixel instead of a dozen sines. Sand, pebbles and grass still blend by
 * the height over the water per pixel (a bank's sand strip is narrower
 * than its triangles). The distance haze is per vertex. Used by the river's ground (terrain.c)
 * and the still water's bed (riverbed.c). */
#ifndef DINGHY_GROUND_LOOK_H
#define DINGHY_GROUND_LOOK_H

#include <stddef.h>

#include "render/gpu_mesh.h"
#include "render/mesh_chunks.h"

/* Floats of a source vertex: position, normal, the water level there. */
#define GROUND_SOURCE_FLOATS 7
/* Floats of a drawn vertex: position; height over the water, broad grain
 * and two spare; light; deep water's colour over it. */
#define GROUND_LOOK_FLOATS 13
/* The texture repeats every this many metres. */
#define GROUND_LOOK_TILE 16.0
/* Chunks nearer than this (m) are drawn with the grain, farther ones with
 * the whole colour per vertex (the grain fades out before it). */
#define GROUND_LOOK_NEAR 60.0

/* A ground: its mesh in chunks, the two programs and the texture. */
typedef struct {
    gpu_mesh near;        /* the mesh, with the near program */
    unsigned far_program;
    mesh_chunks chunks;
    unsigned texture;
} ground_look;

/* The kinds of ground. */
typedef enum {
    GROUND_RIVER, /* the river's: pebbles under the water, sand, grass above */
    GROUND_STILL  /* the still water's bed: sand under, grass above */
} ground_kind;

/* Turns `count` source vertices (GROUND_SOURCE_FLOATS each) into drawn
 * ones (GROUND_LOOK_FLOATS each) in dst. */
void ground_look_bake(const float *src, size_t count, float *dst);

/* Makes the programs of the kind of ground and the detail texture into g
 * (zeroed); the caller then makes g->near's buffers and g->chunks.
 * Returns the texture, or 0 with a message in err. */
unsigned ground_look_create(ground_look *g, ground_kind kind, const char *name, char *err,
                            size_t err_len);
/* Describes the drawn vertices to the bound vertex array. */
void ground_look_layout(void);
/* Draws the chunks that may be in view of view_proj and nearer than
 * reach (m) to the eye. */
void ground_look_draw(ground_look *g, const float view_proj[16], const float eye[3], float reach);
/* Frees what g holds (a zeroed g too). */
void ground_look_destroy(ground_look *g);

#endif
