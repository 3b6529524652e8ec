/* What happened during a step, for sound and effects: contact starts,
 * splashes and hits on rocks, banks and bed. */
#ifndef DINGHY_EVENTS_H
#define DINGHY_EVENTS_H

#include <stddef.h>

#include "dinghy/sim.h"

/* Events for sound and effects, found inside the tick without locks:
 * each ring records its own, and after the step they are merged in
 * ring order into a buffer of fixed capacity (SIM_EVENT_CAPACITY); what
 * does not fit is dropped and counted. Rings are named by index and id. */
typedef enum {
    SIM_EVENT_CONTACT, /* two rings start touching (tube gap under contact_range) */
    SIM_EVENT_SPLASH,  /* a ring's vertices cross the water surface downward fast */
    SIM_EVENT_OBSTACLE,/* a ring starts hitting a rock, bank or bed (river) faster than
                          SIM_HIT_SPEED; speed: the fastest vertex speed into it */
} sim_event_kind;

typedef struct {
    sim_event_kind kind;
    int ring;           /* the ring's dense index (for a contact, the lower one) */
    int other;          /* contact: the other ring's index; else -1 */
    long step;          /* step during which it happened, 1-based */
    float speed;        /* contact: relative speed of the two centres; splash:
                           fastest downward vertex speed through the surface, m/s */
    float position[3];  /* where: contact midpoint or the ring's centre, m */
    int count;          /* splash: vertices that entered the water; contact: 1 */
    sim_ring_id ring_id, other_id; /* the ids of ring and other (SIM_RING_NONE for -1) */
} sim_event;

#define SIM_EVENT_CAPACITY 4096
/* Smallest speed into a rock, bank or bed that makes an obstacle event, m/s. */
#define SIM_HIT_SPEED 0.3
/* Smallest downward speed through the surface that makes a splash, m/s. */
#define SIM_SPLASH_SPEED 0.5

/* The events of the last sim_step call, oldest step first, ring order
 * within a step: valid until the next sim_step call (which starts a new
 * list) or until a ring is taken out or the rings are cleared. A caller
 * that steps several times per frame and wants all of the frame's events
 * reads them after each call. *dropped (if not NULL) gets how many of
 * that call's did not fit. */
const sim_event *sim_events(const dinghy_sim *sim, size_t *count, long *dropped);

#endif
