/* dinghy: wires the command line, the configuration and the run modes. */
#include <stdio.h>
#include <string.h>

#include "app/bench.h"
#include "app/headless.h"
#include "config/cli.h"
#include "config/config.h"
#include "physics/params.h"

#define DINGHY_VERSION "0.1.0"

/* Builds the effective parameters: defaults, then --config, then --set. */
static int load_settings(const cli_options *o, dinghy_settings *p, diag_list *d)
{
    *p = settings_default();
    if (o->config)
        config_load_file(p, o->config, d);
    for (int i = 0; i < o->nsets; i++)
        config_set_assignment(p, o->sets[i], d);
    if (o->threads >= 0)
        p->sim.threads = o->threads;
    if (d->count == 0)
        config_check(p, o->config ? o->config : "parameters", d);
    return d->count ? -1 : 0;
}

static void warn_stability(const sim_params *p)
{
    double bound = sim_params_stable_dt(p);
    if (p->dt > bound)
        fprintf(stderr, "dinghy: warning: sim.dt = %g s is above the explicit stability bound "
                "%.3g s (sqrt(2 m / (B^2 k)) with vertex mass %.3g kg, band %d, stiffness %g N/m); "
                "the largest safe sim.dt is about %.3g s\n", p->dt, bound,
                sim_params_vertex_mass(p), p->band, p->stiffness, 0.9 * bound);
}

/* Whether any --set names a scene.* key: the bench then times that scene. */
static int sets_scene(const cli_options *o)
{
    for (int i = 0; i < o->nsets; i++)
        if (strncmp(o->sets[i], "scene.", 6) == 0)
            return 1;
    return 0;
}

int main(int argc, char **argv)
{
    cli_options opt;
    diag_list d = {0};
    if (cli_parse(argc, argv, &opt, &d) != 0) {
        diag_print(&d, stderr);
        diag_free(&d);
        cli_free(&opt);
        return 2;
    }
    if (opt.mode == MODE_BENCH && !opt.help)
        bench_place_threads(argv);
    if (opt.help || opt.version) {
        if (opt.help)
            cli_print_help(argv[0]);
        else
            printf("dinghy %s\n", DINGHY_VERSION);
        cli_free(&opt);
        return 0;
    }
    dinghy_settings settings;
    if (load_settings(&opt, &settings, &d) != 0) {
        for (int i = 0; i < d.stored; i++)
            fprintf(stderr, "dinghy: %s\n", d.lines[i]);
        diag_free(&d);
        cli_free(&opt);
        return 2;
    }
    int rc = 0;
    if (opt.print_config) {
        config_write_ini(&settings, stdout);
    } else {
        warn_stability(&settings.sim);
        if (opt.mode == MODE_BENCH) {
            bench_options b = {
                .threads = opt.nthread_counts ? opt.thread_counts : NULL,
                .nthreads = opt.nthread_counts,
                .steps = opt.steps,
                .repeat = opt.repeat > 0 ? opt.repeat : 5,
                .custom_scene = opt.config != NULL || sets_scene(&opt),
                .reference = opt.reference_kernel,
                .csv = opt.csv,
                .json = opt.json,
            };
            rc = bench_run(&settings.sim, &b);
        } else if (opt.mode == MODE_HEADLESS) {
            rc = headless_run(&settings.sim, opt.steps >= 0 ? opt.steps : 1000, opt.dump);
        } else {
            fprintf(stderr, "dinghy: the on-screen demo is not built yet; run "
                    "'dinghy --headless --steps 2000' instead\n");
            rc = 4;
        }
    }
    diag_free(&d);
    cli_free(&opt);
    return rc;
}
