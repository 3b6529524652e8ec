/* Event detection state (contact starts, splashes); see sim.h for the
 * public side. Rows and rings write only their own slots inside the
 * parallel tick; events_merge runs on one thread after it. */
#ifndef DINGHY_PHYSICS_EVENTS_H
#define DINGHY_PHYSICS_EVENTS_H

#include <stddef.h>

#include "physics/seed/broadphase.h"
#include "dinghy/events.h"

typedef struct {
    int P, M;
    /* per row, written by integrate */
    int *row_splash_count;
    float *row_splash_speed;
    /* per neighbour slot and segment, written by contacts: touch[k*M + m] */
    unsigned char *touch;
    /* per neighbour slot, written by events_ring */
    unsigned char *touching, *started;
    size_t slot_cap;
    /* per ring, written by events_ring */
    int *splash_count;
    float *splash_speed;
    /* the touching pairs of the previous step: q's of p at prev_q[prev_start[p] ..) */
    int *prev_start, *prev_q;
    size_t prev_cap;
    /* merged output */
    sim_event *out;
    size_t count;
    long dropped;
} event_state;

int events_init(event_state *e, int P, int M);
void events_free(event_state *e);
/* Makes room for the neighbour slots of this step (one thread). -1: out of memory. */
int events_reserve(event_state *e, size_t slots);
/* Per ring p, after the rows are integrated: contact flags and splash sums. */
void events_ring(event_state *e, const broadphase *bp, int p);
/* Appends this step's events in ring order and remembers the touching
 * pairs for the next step (one thread). */
void events_merge(event_state *e, const broadphase *bp, const double *c0, const double *v0,
                  long step);
/* The number of rings grew or shrank to P (at most the P of events_init). */
void events_set_count(event_state *e, int P);
/* Bytes events_init allocates for P rings of M segments, less the
 * neighbour slots, which grow with contacts: slot_cap (M + 2 + sizeof(int)). */
size_t events_bytes(int P, int M);
/* Appends one event (one thread, after the step); counts it as dropped
 * when the buffer is full. */
void events_add(event_state *e, const sim_event *ev);
/* Forgets all contacts (after a reset). */
void events_reset(event_state *e);

#endif
