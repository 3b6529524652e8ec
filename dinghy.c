/* dinghy: wires the command line, the configuration and the run modes. */
#include <stdio.h>
#include <string.h>

#include "app/capture.h"
#include "app/demo.h"
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
    if (o->width > 0)
        p->render.width = o->width;
    if (o->height > 0)
        p->render.height = o->height;
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
        if (opt.mode == MODE_HEADLESS) {
            rc = headless_run(&settings.sim, opt.steps >= 0 ? opt.steps : 1000, opt.dump);
        } else if (opt.screenshot || opt.record || opt.video) {
            capture_request req = {opt.screenshot, opt.record, opt.video,
                                   opt.frames > 0 ? opt.frames : CAPTURE_DEFAULT_FRAMES,
                                   opt.steps > 0 ? opt.steps : 0};
            rc = capture_run(&settings, &req);
        } else {
            rc = demo_run(&settings, opt.frames);
        }
    }
    diag_free(&d);
    cli_free(&opt);
    return rc;
}
