/* Snapshots: a copy of what readers see of a simulation (its rings, their
 * ids, positions, velocities and published state, the last step's events,
 * the time, the wave layer's heights), taken by the thread that steps it and shown by another on a
 * simulation of its own that is never stepped (a view), interpolated
 * between two consecutive copies. The demo's physics thread hands its
 * states to the renderer this way (app/handoff.h); nothing here locks:
 * the caller keeps a snapshot from being written while it is read. */
#ifndef DINGHY_SNAPSHOT_H
#define DINGHY_SNAPSHOT_H

#include "dinghy/events.h"
#include "dinghy/sim.h"

typedef struct sim_snapshot sim_snapshot;

/* Room for a copy of sim (its ring capacity; about 30 B a vertex of that
 * capacity, the event list, and 4 B a cell of its wave layer). NULL when
 * out of memory. */
sim_snapshot *sim_snapshot_new(const dinghy_sim *sim);
void sim_snapshot_free(sim_snapshot *s);

/* Copies sim as it stands into s, with the events of sim's last sim_step
 * call. Allocates nothing, unless sim's wave layer was put on or made
 * again at another size since s was made (then room for its heights; out
 * of memory, s has none and a view shows the water flat). Returns 0, or
 * -1 (s unchanged) when s was made for a simulation of another capacity
 * or ring mesh. */
int sim_snapshot_take(const dinghy_sim *sim, sim_snapshot *s);

/* Puts the events of `earlier` (an older snapshot of the same simulation
 * that was never shown) before s's, so that none is lost; what does not
 * fit in SIM_EVENT_CAPACITY is counted as dropped. */
void sim_snapshot_carry_events(sim_snapshot *s, const sim_snapshot *earlier);

/* The simulated time (s) and step count of the copy. */
double sim_snapshot_time(const sim_snapshot *s);
long sim_snapshot_steps(const sim_snapshot *s);

/* Makes view (a simulation made from the same definition and capacity,
 * never stepped) show the state a fraction f (0..1) of the way from a to
 * b: b's rings, ids, velocities, gas and published state, its definition's
 * live fields, and positions, ring centres and heights lerped (1-f) a + f b
 * for every ring that is in both under the same id and was not dropped in
 * again between them (b's for the others); the time and the wave layer's
 * heights lerped too (the view's layer flat when b has none of its size).
 * a may be NULL: b as it is. with_events: the view's events (sim_events)
 * are b's, else none. Allocates nothing, unless b's definition puts the
 * wave layer on or takes it away (sim_set_live). Returns 0, or -1 (view
 * unchanged) when a snapshot was made for another capacity or mesh. */
int sim_snapshot_show(dinghy_sim *view, const sim_snapshot *a, const sim_snapshot *b, double f,
                      int with_events);

#endif
