/* A never-stepped copy of a simulation's make-up, to show its states on. */
#include "app/view_sim.h"

#include <stdio.h>

#include "dinghy/snapshot.h"

dinghy_sim *view_sim_create(const dinghy_sim *sim, char *err, size_t err_len)
{
    dinghy_sim *view = sim_create(sim_get_def(sim), sim_ring_capacity(sim), err, err_len);
    if (!view)
        return NULL;
    double hx, hy;
    if (sim_river(sim) && sim_enable_river(view) != 0) {
        snprintf(err, err_len, "cannot build the river of the view");
        sim_destroy(view);
        return NULL;
    }
    if (sim_pen(sim, &hx, &hy) && sim_enable_pen(view, hx, hy) != 0) {
        snprintf(err, err_len, "cannot build the pen of the view");
        sim_destroy(view);
        return NULL;
    }
    sim_snapshot *now = sim_snapshot_new(sim);
    if (!now) {
        snprintf(err, err_len, "out of memory");
        sim_destroy(view);
        return NULL;
    }
    sim_snapshot_show(view, NULL, now, 1.0, 0);
    sim_snapshot_free(now);
    return view;
}

int view_sim_show(dinghy_sim *view, handoff *off, display_clock *c, double elapsed, double speed,
                  double dt)
{
    const sim_snapshot *a, *b;
    int fresh;
    if (handoff_begin_read(off, &a, &b, &fresh) != 0)
        return 0;
    double tb = sim_snapshot_time(b), ta = a ? sim_snapshot_time(a) : tb;
    double f = display_clock_advance(c, elapsed, speed, dt, ta, tb);
    sim_snapshot_show(view, a, b, f, fresh);
    handoff_end_read(off);
    return fresh;
}
