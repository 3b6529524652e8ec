/* Headless runs: the physics alone, a summary line and an optional dump. */
#include "app/headless.h"

#include <inttypes.h>
#include <omp.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "dinghy/sim.h"
#include "app/obj_export.h"
#include "app/progress.h"
#include "app/report.h"

static volatile sig_atomic_t stop_signal;

static void on_signal(int sig)
{
    stop_signal = sig;
}

void headless_catch_signals(headless_signals *saved)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = 0; /* no SA_RESTART: a sleep is cut short, the loop then stops */
    stop_signal = 0;
    sigaction(SIGINT, &sa, &saved->old_int);
    sigaction(SIGTERM, &sa, &saved->old_term);
}

void headless_restore_signals(const headless_signals *saved)
{
    sigaction(SIGINT, &saved->old_int, NULL);
    sigaction(SIGTERM, &saved->old_term, NULL);
}

int headless_stop_signal(void)
{
    return stop_signal;
}

static const char *obj_path;

void headless_set_obj(const char *obj) { obj_path = obj; }

int headless_run(const sim_def *def, const scene_def *layout, long steps, const char *dump,
                 const char *obj)
{
    headless_set_obj(obj);
    return headless_run_hooked(def, layout, steps, dump, NULL);
}

/* Steps in chunks (a frame of the hook, if any, else at most CHUNK_STEPS
 * and about CHUNK_SECONDS of work at most, so that the progress line and a
 * signal are answered), calling the hook after each frame and after a last,
 * shorter one; stops at a blow-up or, after the chunk under way, at
 * SIGINT/SIGTERM. Chunks, not single steps: the core measures the rings at
 * the end of every sim_step call; how the steps are cut changes no bit.
 * A long run on a terminal shows its progress on stderr (progress.h). */
#define CHUNK_STEPS 64
#define CHUNK_SECONDS 0.25
static long step_frames(dinghy_sim *sim, long steps, double dt, const headless_hooks *h)
{
    progress line;
    progress_begin(&line, isatty(STDERR_FILENO) ? stderr : NULL, (double)steps * dt,
                   omp_get_wtime());
    long done = 0, per = h && h->frame_steps > 0 ? h->frame_steps : CHUNK_STEPS;
    while (done < steps && !stop_signal) {
        long want = steps - done < per ? steps - done : per;
        double t0 = omp_get_wtime();
        long got = sim_step(sim, want);
        double now = omp_get_wtime();
        done += got;
        if (h)
            h->frame(sim, h->ctx);
        if (got < want)
            break;
        if (!h) { /* as many steps as fit CHUNK_SECONDS at this pace */
            double fit = (double)want * CHUNK_SECONDS / (now - t0 > 1e-9 ? now - t0 : 1e-9);
            per = fit < 1.0 ? 1 : fit > CHUNK_STEPS ? CHUNK_STEPS : (long)fit;
        }
        progress_update(&line, (double)done * dt, now);
    }
    progress_end(&line);
    return done;
}

int headless_run_hooked(const sim_def *def, const scene_def *layout, long steps, const char *dump,
                        const headless_hooks *hooks)
{
    char err[256];
    dinghy_sim *sim = scene_create(def, layout, 0, err, sizeof err);
    if (!sim) {
        fprintf(stderr, "dinghy: %s\n", err);
        return 2;
    }
    headless_signals saved;
    headless_catch_signals(&saved);
    double t0 = omp_get_wtime();
    long done = step_frames(sim, steps, def->solver.dt, hooks);
    double wall = omp_get_wtime() - t0;
    headless_restore_signals(&saved);
    if (report_blowup(sim) != 0) { /* sim_step stops short only then */
        sim_destroy(sim);
        return 3;
    }
    int rc = headless_report(sim, done, wall, dump);
    if (rc == 0 && obj_path && obj_export(sim, obj_path) != 0)
        rc = 2;
    int sig = headless_stop_signal();
    if (sig) {
        fprintf(stderr, "dinghy: interrupted by %s after step %ld of %ld; the summary%s of the "
                "state reached\n", sig == SIGINT ? "SIGINT" : "SIGTERM", done, steps,
                dump ? " and the dump are" : " is");
        if (rc == 0)
            rc = 128 + sig;
    }
    sim_destroy(sim);
    return rc;
}

int headless_report(dinghy_sim *sim, long done, double wall, const char *dump)
{
    /* The summary goes to stderr when the dump takes stdout. */
    FILE *out = (dump && dump[0] == '-' && dump[1] == '\0') ? stderr : stdout;
    fprintf(out, "steps %ld  simulated %.3f s  wall %.3f s  %.0f steps/s  substeps %d  "
            "threads %d  rings %d  vertices %zu  hash %016" PRIx64 "\n",
            done, sim_time(sim), wall, wall > 0.0 ? done / wall : 0.0, sim_substeps(sim),
            sim_threads(sim), sim_ring_count(sim), sim_vertex_count(sim), sim_hash(sim));
    if (dump && report_dump(sim, dump) != 0)
        return 2;
    return 0;
}
