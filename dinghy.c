/* dinghy: wires the command line, the configuration and the run modes. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "app/audio_run.h"
#include "app/bench.h"
#include "app/capture.h"
#include "app/demo.h"
#include "app/headless.h"
#include "app/headless_watch.h"
#include "app/report.h"
#include "config/build.h"
#include "config/settings.h"
#include "config/cli.h"
#include "config/config.h"
#include "config/find.h"
#include "config/watch.h"
#include "dinghy/defs.h"

#define DINGHY_VERSION "0.1.0"

/* The layers of the effective settings: the config file the lookup finds
 * (config_find_file), then --set, then --threads, which acts as one more
 * --set so that it also holds across hot reloads; --width and --height
 * likewise. note says which file is used. sets has room for o->nsets + 3
 * entries, flag_sets holds the text of the flags' assignments. */
static void config_layers(const cli_options *o, config_source *src, const char **sets,
                          char flag_sets[3][40], char *path, size_t path_len, char *note,
                          size_t note_len)
{
    config_file_kind kind = config_find_file(o->config, path, path_len, note, note_len);
    int n = 0;
    for (int i = 0; i < o->nsets; i++)
        sets[n++] = o->sets[i];
    /* flags that stand for keys act as the last --set, so they hold across reloads */
    if (o->threads >= 0) {
        snprintf(flag_sets[0], sizeof flag_sets[0], "sim.threads=%d", o->threads);
        sets[n++] = flag_sets[0];
    }
    if (o->width > 0) {
        snprintf(flag_sets[1], sizeof flag_sets[1], "render.width=%d", o->width);
        sets[n++] = flag_sets[1];
    }
    if (o->height > 0) {
        snprintf(flag_sets[2], sizeof flag_sets[2], "render.height=%d", o->height);
        sets[n++] = flag_sets[2];
    }
    src->path = kind == CONFIG_FILE_NONE ? NULL : path;
    src->sets = sets;
    src->nsets = n;
}

static void warn_stability(const sim_def *p)
{
    char advice[512];
    if (config_stability_advice(p, advice, sizeof advice))
        fprintf(stderr, "dinghy: %s\n", advice);
}

/* Whether the settings choose a scene: a --set of a scene.* key, or a
 * scene.* key of the config file off its default. The bench then times
 * that scene alone. */
static int chooses_scene(const cli_options *o, const dinghy_settings *s)
{
    for (int i = 0; i < o->nsets; i++)
        if (strncmp(o->sets[i], "scene.", 6) == 0)
            return 1;
    dinghy_settings other = *s; /* the same but for the default scene */
    other.scene = settings_default().scene;
    return config_diff(&other, s, NULL, 0, NULL) != 0;
}

/* The bench's settings line: the config file read (the lookup's note),
 * every --set as given, and every key that differs from the defaults. */
static void bench_settings_line(const cli_options *o, const char *note,
                                const dinghy_settings *s, char *line, size_t len)
{
    char differs[1024];
    dinghy_settings defaults = settings_default();
    defaults.sim.solver.threads = s->sim.solver.threads; /* each row has its own count */
    int n = config_diff(&defaults, s, differs, sizeof differs, NULL);
    size_t used = (size_t)snprintf(line, len, "%s", note);
    for (int i = 0; i < o->nsets && used < len; i++)
        used += (size_t)snprintf(line + used, len - used, "%s--set %s", i ? ", " : "; ",
                                 o->sets[i]);
    if (used < len)
        snprintf(line + used, len - used, n ? "; differs from the defaults in %s"
                 : "; every key at its default", differs);
}

/* --profile: the demo times each pass of its frames (app/demo.h). */
static int profile;

/* Takes --profile out of argv (into `profile`) before the other flags are
 * parsed; argv itself stays whole for the re-execution. Fills args (room
 * for argc + 1) and returns their count. */
static int take_demo_flags(int argc, char **argv, char **args)
{
    int n = 0;
    for (int i = 0; i < argc; i++) {
        if (i > 0 && strcmp(argv[i], "--profile") == 0)
            profile = 1;
        else
            args[n++] = argv[i];
    }
    args[n] = NULL;
    return n;
}

/* Reads the config file src names, says which file it uses (note, when not
 * NULL: only once the file could be read, so that a missing one is one line)
 * and builds the settings; as config_build. */
static int read_settings(const config_source *src, const char *note, dinghy_settings *out,
                         diag_list *d)
{
    char *text = NULL;
    size_t len = 0;
    if (src->path && config_read_file(src->path, &text, &len, d) != 0)
        return -1;
    if (note)
        fprintf(stderr, "dinghy: %s\n", note);
    /* an empty file still counts as a file: text must not be NULL then */
    int rc = config_build_text(src, src->path ? (text ? text : "") : NULL, len, out, d);
    free(text);
    return rc;
}

/* Reads the settings and runs what the flags ask for; returns the exit code. */
static int run(const cli_options *opt, const config_source *src, const char *config_note)
{
    int pictures = opt->screenshot || opt->record || opt->video;
    /* the demo always follows the config file; headless runs with --watch */
    int demo = opt->mode == MODE_DEMO && !pictures && !opt->print_config;
    int watching = !opt->print_config && ((opt->watch && opt->mode == MODE_HEADLESS)
                                          || (demo && src->path));
    /* The demo says which file it uses once its window is up, so that no
     * display stays a one-line message. */
    if (profile && !demo) { /* as config/cli.c refuses the other flags that would do nothing */
        fprintf(stderr, "dinghy: --profile does nothing here: only the demo window times its "
                "frames\n");
        return 2;
    }
    if (watching && !src->path) {
        if (!demo)
            fprintf(stderr, "dinghy: %s\n", config_note);
        fprintf(stderr, "dinghy: --watch needs a config file to watch; give one with --config "
                "FILE (or run from a directory with a dinghy.ini)\n");
        return 2;
    }
    /* Opened before the first read, so that no save is missed. */
    config_watch *watch = watching ? config_watch_open(src) : NULL;
    if (watching && !watch) {
        fprintf(stderr, "dinghy: out of memory\n");
        return 2;
    }
    dinghy_settings settings;
    diag_list d = {0};
    int rc = 0;
    /* Every output is checked before any work, without creating or
     * truncating it (an earlier file stays as it is until replaced whole). */
    if (report_check_output("--dump", opt->dump) || report_check_output("--obj", opt->obj)
        || report_check_output("--csv", opt->csv)
        || report_check_output("--json", opt->json)
        || report_check_output("--screenshot", opt->screenshot)
        || report_check_output("--video", opt->video)
        || report_check_output_dir("--record", opt->record)) {
        rc = 2;
    } else if (read_settings(src, demo ? NULL : config_note, &settings, &d) != 0) {
        diag_print_prefixed(&d, "dinghy: ", stderr);
        rc = 2;
    } else if (opt->print_config) {
        diag_print_prefixed(&d, "dinghy: ", stderr); /* warnings: keys that do nothing */
        config_write_ini(&settings, stdout);
    } else {
        diag_print_prefixed(&d, "dinghy: ", stderr);
        warn_stability(&settings.sim);
        if (watch && opt->mode == MODE_HEADLESS) {
            rc = headless_watch_run(watch, &settings, opt->steps, opt->dump);
        } else if (opt->mode == MODE_BENCH) {
            char line[6000];
            bench_settings_line(opt, config_note, &settings, line, sizeof line);
            bench_options b = {
                .threads = opt->nthread_counts ? opt->thread_counts : NULL,
                .nthreads = opt->nthread_counts,
                .steps = opt->steps,
                .repeat = opt->repeat > 0 ? opt->repeat : 5,
                .custom_scene = chooses_scene(opt, &settings),
                .reference = opt->reference_kernel,
                .csv = opt->csv,
                .json = opt->json,
                .settings = line,
            };
            rc = bench_run(&settings.sim, &settings.scene, &b);
        } else if (opt->mode == MODE_HEADLESS) {
            long steps = opt->steps >= 0 ? opt->steps
                                         : lround(scene_of(&settings.scene)->seconds / settings.sim.solver.dt);
            headless_set_obj(opt->obj);
            if (opt->audio && settings.audio.enabled)
                rc = audio_headless_run(&settings, steps, opt->dump, opt->mute);
            else
                rc = headless_run(&settings.sim, &settings.scene, steps, opt->dump, opt->obj);
        } else if (pictures) {
            capture_request req = {opt->screenshot, opt->record, opt->video,
                                   opt->frames > 0 ? opt->frames : CAPTURE_DEFAULT_FRAMES,
                                   opt->steps > 0 ? opt->steps : 0, opt->obj, opt->input};
            rc = capture_run(&settings, &req);
        } else {
            demo_options demo_opt = {opt->frames, opt->mute, config_note, opt->input, src,
                                     profile};
            rc = demo_run(&settings, watch, &demo_opt);
        }
    }
    config_watch_close(watch);
    diag_free(&d);
    return rc;
}

/* The OpenMP runtime (libgomp) reads its environment once, when it loads,
 * before main, so the program sets its defaults and re-executes itself once
 * (setenv alone would come too late). Waiting threads never spin libgomp's
 * 300,000 turns at each of the tick's barriers: with another process busy
 * on a core, a spinning thread holds its core while the thread it waits for
 * is not running. With a set thread count (--threads N, the bench) they
 * sleep at once (OMP_WAIT_POLICY=passive). With the team (the default,
 * sim.threads = 0, which drops to one thread when a core is busy) they spin
 * TEAM_SPINCOUNT turns first (about 15 us), about as long as a barrier's
 * other thread takes on an idle machine: waking a sleeping thread costs
 * 6-18 us a barrier on these virtual machines, 10% of the rapids' time on
 * 2 threads. The bench
 * also places its threads one a core (OMP_PROC_BIND=close, OMP_PLACES=cores).
 * A variable the user set wins: the wait policy is left alone if either
 * OMP_WAIT_POLICY or GOMP_SPINCOUNT is set, the placing if either of its two
 * is. Returns only when it does not re-execute. */
#define TEAM_SPINCOUNT "1000"

static void openmp_defaults(const cli_options *o, char **argv)
{
    const char *set[3];
    int n = 0;
    if (!getenv("OMP_WAIT_POLICY") && !getenv("GOMP_SPINCOUNT")) {
        if (o->mode != MODE_BENCH && o->threads <= 0) {
            /* the team (sim.threads = 0) answers a busy core with one thread */
            setenv("GOMP_SPINCOUNT", TEAM_SPINCOUNT, 1);
            set[n++] = "GOMP_SPINCOUNT";
        } else {
            setenv("OMP_WAIT_POLICY", "passive", 1);
            set[n++] = "OMP_WAIT_POLICY";
        }
    }
    if (o->mode == MODE_BENCH && !getenv("OMP_PROC_BIND") && !getenv("OMP_PLACES")) {
        setenv("OMP_PROC_BIND", "close", 1);
        setenv("OMP_PLACES", "cores", 1);
        set[n++] = "OMP_PROC_BIND";
        set[n++] = "OMP_PLACES";
    }
    if (n == 0)
        return;
    execv("/proc/self/exe", argv);
    /* could not re-execute: run with the runtime's defaults, the bench's
     * header says which */
    for (int i = 0; i < n; i++)
        unsetenv(set[i]);
}

int main(int argc, char **argv)
{
    cli_options opt;
    diag_list d = {0};
    char **args = malloc(sizeof *args * (size_t)(argc + 1));
    if (!args) {
        fprintf(stderr, "dinghy: out of memory\n");
        return 2;
    }
    int nargs = take_demo_flags(argc, argv, args);
    int parsed = cli_parse(nargs, args, &opt, &d);
    free(args);
    if (parsed != 0) {
        diag_print_prefixed(&d, "dinghy: ", stderr);
        diag_free(&d);
        cli_free(&opt);
        return 2;
    }
    if (!opt.help && !opt.version)
        openmp_defaults(&opt, argv);
    if (opt.help || opt.version) {
        if (opt.help)
            cli_print_help(argv[0]);
        else
            printf("dinghy %s\n", DINGHY_VERSION);
        cli_free(&opt);
        return 0;
    }
    int rc = 2;
    const char **sets = malloc(sizeof *sets * (size_t)(opt.nsets + 3));
    if (sets) {
        config_source src;
        char flag_sets[3][40], path[4096], note[4400];
        config_layers(&opt, &src, sets, flag_sets, path, sizeof path, note, sizeof note);
        rc = run(&opt, &src, note);
    } else {
        fprintf(stderr, "dinghy: out of memory\n");
    }
    free(sets);
    cli_free(&opt);
    return rc;
}
