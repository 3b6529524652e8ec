/* A view: a simulation that is never stepped, made to show the states
 * another simulation hands off (dinghy/snapshot.h), so that the renderer,
 * the spray and the sound read it through the same calls as the one that
 * steps. */
#ifndef DINGHY_VIEW_SIM_H
#define DINGHY_VIEW_SIM_H

#include <stddef.h>

#include "dinghy/sim.h"
#include "app/display_clock.h"
#include "app/handoff.h"

/* A view of sim: its definition in force, its capacity, its river or pen,
 * showing sim's state now. NULL with a message in err when out of memory
 * or the river cannot be built. */
dinghy_sim *view_sim_create(const dinghy_sim *sim, char *err, size_t err_len);

/* Shows on view the newest handed-off states at the time the display
 * clock c reaches after `elapsed` wall seconds at `speed` (dt: the time
 * step, s), interpolated between the two newest. Returns 1 when the newest
 * state was not shown before (its events are the view's, sim_events), 0
 * when it was (the view has no events) or nothing was handed off yet (the
 * view as it was). */
int view_sim_show(dinghy_sim *view, handoff *off, display_clock *c, double elapsed, double speed,
                  double dt);

#endif
