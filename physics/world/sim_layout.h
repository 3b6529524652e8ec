/* Sizes of a simulation and the one table of its per-ring arrays: what
 * sim_create allocates, sim_destroy frees, ring removal shifts, a
 * checkpoint keeps and sim_memory_estimate counts, said once. Private. */
#ifndef DINGHY_SIM_LAYOUT_H
#define DINGHY_SIM_LAYOUT_H

#include <stddef.h>

#include "physics/world/sim_internal.h"

/* What one element of an array belongs to: a ring's count of them is
 * `count` (per ring), `count` M (per row) or `count` M N (per vertex). */
typedef enum { LAYOUT_PER_RING, LAYOUT_PER_ROW, LAYOUT_PER_VERTEX } layout_unit;

/* Where the array's pointer lives. */
typedef enum {
    LAYOUT_IN_SIM,    /* a field of dinghy_sim (the state) */
    LAYOUT_IN_BUFFER, /* a field of sim_buffer: one array in each of the two buffers */
    LAYOUT_IN_TICK,   /* a field of tick_context (the step's scratch) */
} layout_home;

typedef struct {
    const char *name;
    layout_home home;
    size_t offset;      /* offsetof(the home struct, the pointer field) */
    size_t size;        /* bytes of one element */
    int count;          /* elements per unit */
    layout_unit unit;
    int saved;          /* 1: a checkpoint keeps it (the current buffer's, for a buffer) */
    int shifts;         /* 1: ordered by dense ring index (taking a ring out moves the
                           later down; a checkpoint keeps the rings there are);
                           0: indexed by slot (all of the room is kept) */
} layout_array;

extern const layout_array layout_arrays[];
extern const int layout_array_count;

/* Bytes one ring takes in array a, for rings of M segments and V vertices. */
size_t layout_ring_bytes(const layout_array *a, int M, size_t V);

/* The pointer field of array a in sim (buffer: which of the two, for a
 * LAYOUT_IN_BUFFER array; ignored for the others). */
void **layout_field(dinghy_sim *sim, const layout_array *a, int buffer);

/* How many copies of array a a simulation holds (2 for the buffers). */
int layout_copies(const layout_array *a);

/* Where a thread's scratch keeps what (floats from its start). */
typedef struct {
    size_t face_loads;    /* the face loads (water and gas) kernel's scratch */
    size_t force_floats;  /* membrane: floats of each of the three force arrays at 0 */
    size_t membrane;      /* membrane: the membrane kernel's scratch */
} layout_scratch;

/* Floats of one thread's scratch for rings of the definition r: the
 * spring kernel's (springs) or the block forces and the membrane kernel's
 * (membrane), then the face loads'; where each starts in *at when not NULL. */
size_t layout_scratch_floats(const sim_ring_def *r, layout_scratch *at);

#endif
