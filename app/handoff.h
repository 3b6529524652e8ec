/* The hand-off of finished physics states from the thread that steps the
 * simulation (the writer) to the thread that draws them (the reader),
 * without either waiting for the other: a few snapshot slots
 * (dinghy/snapshot.h) whose owners are indices under a mutex. The writer
 * fills a slot nobody else holds and publishes it as the newest; the
 * reader takes the two newest (consecutive) states to interpolate between
 * and holds them while it reads. The mutex guards the indices only, never
 * a copy of a state, so neither thread blocks for longer than a few
 * assignments. */
#ifndef DINGHY_HANDOFF_H
#define DINGHY_HANDOFF_H

#include <pthread.h>

#include "dinghy/snapshot.h"

/* One being written, the two published, the two the reader may still hold. */
#define HANDOFF_SLOTS 5

typedef struct {
    pthread_mutex_t lock;
    sim_snapshot *slot[HANDOFF_SLOTS];
    int newest, prev;       /* published: the last two finished states (-1: none yet) */
    int writing;            /* the writer's slot (-1: none) */
    int read_a, read_b;     /* held by the reader (-1: none) */
    int unseen;             /* the newest has not been taken by the reader yet */
    long published;         /* states published so far */
} handoff;

/* Slots for snapshots of sim. Returns 0, or -1 when out of memory. */
int handoff_init(handoff *h, const dinghy_sim *sim);
void handoff_free(handoff *h);

/* Writer: the slot to fill next (held by neither the reader nor the
 * published pair), to fill with sim_snapshot_take and then publish. */
sim_snapshot *handoff_begin_write(handoff *h);
/* Writer: the filled slot becomes the newest state, the newest before it
 * the previous one. When the reader never took that newest, its events
 * are carried into this one (none is lost to the sound). */
void handoff_publish(handoff *h);
/* Writer: the next publish starts a new run of states (after a reset or a
 * rollback): the previous state is dropped, the reader does not
 * interpolate across the jump. */
void handoff_restart(handoff *h);

/* Reader: the newest finished state into *b and the one before it into
 * *a (NULL when there is none, or after a restart), held until
 * handoff_end_read. *fresh: 1 when b was not taken before (its events are
 * new). Returns 0, or -1 (nothing held) before the first publish. */
int handoff_begin_read(handoff *h, const sim_snapshot **a, const sim_snapshot **b, int *fresh);
void handoff_end_read(handoff *h);

#endif
