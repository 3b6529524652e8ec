/* The --headless --watch loop: real-time frames, a reload poll per frame. */
#include "app/headless_watch.h"

#include <signal.h>
#include <stdio.h>
#include <time.h>

#include "dinghy/scene.h"
#include "dinghy/health.h"
#include "dinghy/sim.h"
#include "app/headless.h"
#include "app/reload.h"
#include "app/report.h"

/* Simulated time per frame, s: the demo's frame. */
#define FRAME_S (1.0 / 60.0)

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static void sleep_s(double s)
{
    struct timespec t;
    t.tv_sec = (time_t)s;
    t.tv_nsec = (long)((s - (double)t.tv_sec) * 1e9);
    nanosleep(&t, NULL); /* a signal cuts it short; the loop then stops */
}

int headless_watch_run(config_watch *w, dinghy_settings *settings, long steps, const char *dump)
{
    char err[256];
    dinghy_sim *sim = scene_create(&settings->sim, &settings->scene, 0, err, sizeof err);
    if (!sim) {
        fprintf(stderr, "dinghy: %s\n", err);
        return 2;
    }
    headless_signals saved;
    headless_catch_signals(&saved);
    fprintf(stderr, "dinghy: watching %s for changes (%s); %s\n", config_watch_path(w),
            config_watch_uses_inotify(w) ? "inotify" : "polling its status",
            steps < 0 ? "runs until interrupted" : "runs until --steps");
    fflush(stderr);

    reload_report r = {0};
    reload_guard guard;
    if (reload_guard_init(&guard, sim, settings) != 0) {
        fprintf(stderr, "dinghy: out of memory\n");
        sim_destroy(sim);
        return 2;
    }
    double start = now_s(), deadline = start, owed = 0.0;
    long done = 0;
    int rc = 0;
    while (!headless_stop_signal() && (steps < 0 || done < steps)) {
        dinghy_settings before = *settings;
        reload_result rr = reload_poll(w, settings, &sim, &r);
        if (rr != RELOAD_NONE)
            reload_report_print(&r, stderr);
        reload_guard_edited(&guard, sim, &before, settings, rr);
        /* Whole steps per frame; the fraction carries over to the next. */
        owed += FRAME_S / settings->sim.solver.dt;
        long n = (long)owed;
        owed -= (double)n;
        if (steps >= 0 && n > steps - done)
            n = steps - done;
        long got = sim_step(sim, n);
        if (sim_blowup(sim).happened) {
            /* After a live edit: back to the state and settings before it,
             * and on. Without one there is nothing to undo: exit 3. */
            char line[2048];
            if (reload_guard_rollback(&guard, &sim, settings, 0, line, sizeof line)
                != GUARD_ROLLED_BACK) {
                rc = report_blowup(sim);
                break;
            }
            fprintf(stderr, "dinghy: %s\n", line);
            fflush(stderr);
            owed = 0.0;
        } else {
            reload_guard_frame(&guard, sim, settings);
        }
        done += got;
        deadline += FRAME_S;
        double t = now_s();
        if (deadline > t)
            sleep_s(deadline - t);
        else if (t - deadline > 0.25)
            deadline = t; /* far behind: no burst of frames to catch up */
    }
    double wall = now_s() - start;
    headless_restore_signals(&saved);
    /* A rebuilt scene starts again from step 0: report the scene that is
     * running, so that the summary, the dump and the time agree. */
    if (rc == 0)
        rc = headless_report(sim, sim_steps_done(sim), wall, dump);
    reload_report_free(&r);
    reload_guard_free(&guard);
    sim_destroy(sim);
    return rc;
}
