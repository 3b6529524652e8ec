/* Headless runs: the physics alone, a summary line and an optional dump. */
#include "headless.h"

#include <inttypes.h>
#include <omp.h>
#include <stdio.h>

#include "../physics/sim.h"
#include "report.h"

int headless_run(const sim_def *def, const scene_def *layout, long steps, const char *dump)
{
    return headless_run_hooked(def, layout, steps, dump, NULL);
}

/* Steps frame by frame, calling the hook after each; stops at a blow-up. */
static long step_frames(dinghy_sim *sim, long steps, const headless_hooks *h)
{
    long done = 0, per = h->frame_steps > 0 ? h->frame_steps : 1;
    while (done < steps) {
        long want = steps - done < per ? steps - done : per;
        long got = sim_step(sim, want);
        done += got;
        h->frame(sim, h->ctx);
        if (got < want)
            break;
    }
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
    double t0 = omp_get_wtime();
    long done = hooks ? step_frames(sim, steps, hooks) : sim_step(sim, steps);
    double wall = omp_get_wtime() - t0;
    if (report_blowup(sim) != 0) { /* sim_step stops short only then */
        sim_destroy(sim);
        return 3;
    }
    int rc = headless_report(sim, done, wall, dump);
    sim_destroy(sim);
    return rc;
}

int headless_report(dinghy_sim *sim, long done, double wall, const char *dump)
{
    /* The summary goes to stderr when the dump takes stdout. */
    FILE *out = (dump && dump[0] == '-' && dump[1] == '\0') ? stderr : stdout;
    fprintf(out, "steps %ld  simulated %.3f s  wall %.3f s  %.0f steps/s  threads %d  "
            "dinghies %d  vertices %zu  hash %016" PRIx64 "\n",
            done, sim_time(sim), wall, wall > 0.0 ? done / wall : 0.0, sim_threads(sim),
            sim_ring_count(sim), sim_vertex_count(sim), sim_hash(sim));
    if (dump && report_dump(sim, dump) != 0)
        return 2;
    return 0;
}
