/* JSON summary of a simulation's state. */
#include "report.h"

#include <errno.h>
#include <inttypes.h>
#include <string.h>

static void vec(FILE *out, const double v[3])
{
    fprintf(out, "[%.9g, %.9g, %.9g]", v[0], v[1], v[2]);
}

void report_write_json(dinghy_sim *sim, FILE *out)
{
    double momentum[3], ke;
    sim_totals(sim, momentum, &ke);
    const sim_def *p = sim_get_def(sim);
    const sim_ring_state *rings = sim_rings(sim);
    fprintf(out, "{\n  \"steps\": %ld,\n  \"time\": %.9g,\n  \"dt\": %.9g,\n  \"threads\": %d,\n"
            "  \"vertices\": %zu,\n  \"hash\": \"%016" PRIx64 "\",\n  \"momentum\": ",
            sim_steps_done(sim), sim_time(sim), p->solver.dt, sim_threads(sim), sim_vertex_count(sim),
            sim_hash(sim));
    vec(out, momentum);
    fprintf(out, ",\n  \"kinetic_energy\": %.9g,\n  \"dinghies\": [", ke);
    for (int i = 0; i < sim_ring_count(sim); i++) {
        const sim_ring_state *s = &rings[i];
        fprintf(out, "%s\n    {\"com\": ", i ? "," : "");
        vec(out, s->centre);
        fprintf(out, ", \"velocity\": ");
        vec(out, s->velocity);
        fprintf(out, ", \"volume\": %.9g, \"mean_depth\": %.9g, \"min_z\": %.9g, \"max_z\": %.9g}",
                s->volume, s->mean_depth, s->min_z, s->max_z);
    }
    fprintf(out, "\n  ]\n}\n");
}

int report_blowup(const dinghy_sim *sim)
{
    if (!sim_blowup(sim).happened)
        return 0;
    char msg[1024];
    sim_blowup_message(sim, msg, sizeof msg);
    fprintf(stderr, "dinghy: %s\n", msg);
    return 3;
}

int report_dump(dinghy_sim *sim, const char *path)
{
    if (strcmp(path, "-") == 0) {
        report_write_json(sim, stdout);
        fflush(stdout);
        return 0;
    }
    FILE *f = fopen(path, "w");
    if (!f) {
        fprintf(stderr, "dinghy: cannot write dump file %s: %s\n", path, strerror(errno));
        return -1;
    }
    report_write_json(sim, f);
    if (fclose(f) != 0) {
        fprintf(stderr, "dinghy: error writing dump file %s: %s\n", path, strerror(errno));
        return -1;
    }
    return 0;
}
