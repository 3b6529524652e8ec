/* Command-line parsing. */
#include "cli.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "params_table.h"

static int parse_long(const char *s, long lo, long hi, long *out)
{
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (end == s || *end || errno == ERANGE || v < lo || v > hi)
        return -1;
    *out = v;
    return 0;
}

/* "2" or "1,2,4": whole numbers from 0 to 1024. */
static int parse_thread_list(const char *s, cli_options *o)
{
    o->nthread_counts = 0;
    while (*s) {
        char *end;
        errno = 0;
        long v = strtol(s, &end, 10);
        if (end == s || errno == ERANGE || v < 0 || v > 1024 || (*end && *end != ',')
            || o->nthread_counts == CLI_MAX_THREAD_COUNTS)
            return -1;
        o->thread_counts[o->nthread_counts++] = (int)v;
        s = *end ? end + 1 : end;
        if (*end == ',' && !*s)
            return -1;
    }
    if (o->nthread_counts == 0)
        return -1;
    o->threads = o->thread_counts[0];
    return 0;
}

/* "unknown option", with the likely flag meant: a typo, or --flag=value. */
static void unknown_option(const char *a, diag_list *d)
{
    static const char *const flags[] = {
        "--help", "--version", "--headless", "--print-config", "--steps", "--threads", "--bench",
        "--repeat", "--csv", "--json", "--kernel", "--dump", "--config", "--set", "--watch",
        "--audio", "--mute", "--screenshot", "--record", "--video", "--frames", "--width",
        "--height",
    };
    const char *eq = strchr(a, '=');
    char name[64];
    snprintf(name, sizeof name, "%.*s", eq ? (int)(eq - a) : (int)strlen(a), a);
    const char *best = NULL;
    int best_d = 3; /* at most two edits away */
    for (size_t i = 0; i < sizeof flags / sizeof flags[0]; i++) {
        int dist = param_edit_distance(name, flags[i]);
        if (dist < best_d) {
            best_d = dist;
            best = flags[i];
        }
    }
    if (best && eq)
        diag_add(d, "unknown option '%s'; write '%s %s' (a space, not '=')", a, best, eq + 1);
    else if (best)
        diag_add(d, "unknown option '%s'; did you mean '%s'?", a, best);
    else
        diag_add(d, "unknown option '%s' (see --help)", a);
}

static int has_suffix(const char *s, const char *suffix)
{
    size_t n = strlen(s), k = strlen(suffix);
    return n > k && !strcmp(s + n - k, suffix);
}

int cli_parse(int argc, char **argv, cli_options *o, diag_list *d)
{
    memset(o, 0, sizeof *o);
    o->mode = MODE_DEMO;
    o->steps = -1;
    o->threads = -1;
    o->repeat = -1;
    o->frames = -1;
    o->width = o->height = -1;
    o->sets = calloc((size_t)argc + 1, sizeof *o->sets);
    if (!o->sets) {
        diag_add(d, "out of memory");
        return -1;
    }
    int before = d->count;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *val = i + 1 < argc ? argv[i + 1] : NULL;
#define NEED_VALUE()                                             \
        if (!val) {                                              \
            diag_add(d, "%s needs a value (see --help)", a);     \
            break;                                               \
        }                                                        \
        i++;
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            o->help = 1;
        } else if (!strcmp(a, "--version")) {
            o->version = 1;
        } else if (!strcmp(a, "--headless")) {
            o->mode = MODE_HEADLESS;
        } else if (!strcmp(a, "--print-config")) {
            o->print_config = 1;
        } else if (!strcmp(a, "--watch")) {
            o->watch = 1;
        } else if (!strcmp(a, "--steps")) {
            NEED_VALUE();
            if (parse_long(val, 0, 1000000000L, &o->steps))
                diag_add(d, "--steps '%s': expected a whole number from 0 to 1000000000", val);
        } else if (!strcmp(a, "--threads")) {
            NEED_VALUE();
            if (parse_thread_list(val, o) != 0)
                diag_add(d, "--threads '%s': expected a whole number from 0 (all cores) to 1024, "
                         "or with --bench a list like 1,2,4 (at most %d)", val, CLI_MAX_THREAD_COUNTS);
        } else if (!strcmp(a, "--bench")) {
            o->mode = MODE_BENCH;
        } else if (!strcmp(a, "--repeat")) {
            NEED_VALUE();
            long r;
            if (parse_long(val, 1, 1000, &r))
                diag_add(d, "--repeat '%s': expected a whole number from 1 to 1000", val);
            else
                o->repeat = (int)r;
        } else if (!strcmp(a, "--csv")) {
            NEED_VALUE();
            o->csv = val;
        } else if (!strcmp(a, "--json")) {
            NEED_VALUE();
            o->json = val;
        } else if (!strcmp(a, "--kernel")) {
            NEED_VALUE();
            if (!strcmp(val, "reference"))
                o->reference_kernel = 1;
            else if (strcmp(val, "tick") != 0)
                diag_add(d, "--kernel '%s': expected tick or reference", val);
        } else if (!strcmp(a, "--dump")) {
            NEED_VALUE();
            o->dump = val;
        } else if (!strcmp(a, "--config")) {
            NEED_VALUE();
            o->config = val;
        } else if (!strcmp(a, "--set")) {
            NEED_VALUE();
            o->sets[o->nsets++] = val;
        } else if (!strcmp(a, "--audio")) {
            o->audio = 1;
        } else if (!strcmp(a, "--mute")) {
            o->mute = 1;
        } else if (!strcmp(a, "--screenshot")) {
            NEED_VALUE();
            if (!has_suffix(val, ".png"))
                diag_add(d, "--screenshot '%s': the file name must end in .png", val);
            o->screenshot = val;
        } else if (!strcmp(a, "--record")) {
            NEED_VALUE();
            o->record = val;
        } else if (!strcmp(a, "--video")) {
            NEED_VALUE();
            if (!has_suffix(val, ".mp4"))
                diag_add(d, "--video '%s': the file name must end in .mp4", val);
            o->video = val;
        } else if (!strcmp(a, "--frames")) {
            NEED_VALUE();
            if (parse_long(val, 1, 1000000L, &o->frames))
                diag_add(d, "--frames '%s': expected a whole number from 1 to 1000000", val);
        } else if (!strcmp(a, "--width") || !strcmp(a, "--height")) {
            NEED_VALUE();
            long px;
            if (parse_long(val, 16, 16384, &px))
                diag_add(d, "%s '%s': expected a whole number of pixels from 16 to 16384", a, val);
            else
                *(a[2] == 'w' ? &o->width : &o->height) = (int)px;
        } else {
            unknown_option(a, d);
        }
#undef NEED_VALUE
    }
    if ((o->dump || o->watch || o->audio) && o->mode != MODE_HEADLESS)
        diag_add(d, "--dump, --watch and --audio go with --headless");
    if (o->audio && o->watch)
        diag_add(d, "--audio and --watch do not go together: a --watch run is silent");
    if ((o->width > 0 || o->height > 0) && o->mode != MODE_DEMO)
        diag_add(d, "--width and --height size pictures and the window: not with --%s",
                 o->mode == MODE_BENCH ? "bench" : "headless");
    if (o->nthread_counts > 1 && o->mode != MODE_BENCH)
        diag_add(d, "--threads: a list of thread counts needs --bench; give one number");
    if ((o->csv || o->json || o->repeat >= 0 || o->reference_kernel) && o->mode != MODE_BENCH)
        diag_add(d, "--csv, --json, --repeat and --kernel go with --bench");
    int pictures = o->screenshot || o->record || o->video;
    if (pictures && o->mode != MODE_DEMO)
        diag_add(d, "--%s draws nothing: leave it out to use --screenshot, --record or --video",
                 o->mode == MODE_BENCH ? "bench" : "headless");
    if (o->frames >= 0 && o->mode != MODE_DEMO)
        diag_add(d, "--frames counts pictures: use --steps N with --%s",
                 o->mode == MODE_BENCH ? "bench" : "headless");
    return d->count == before ? 0 : -1;
}

void cli_free(cli_options *o)
{
    free(o->sets);
    o->sets = NULL;
}

void cli_print_help(const char *prog)
{
    printf("dinghy: soft-body inflatable rings tumbling down river rapids\n\n"
           "usage: %s [options]\n\n"
           "  (no mode)            open the rapids demo in a window\n"
           "  --headless           simulate without window (or sound, unless --audio), print a summary\n"
           "  --steps N            steps to simulate (headless default 1000; --watch: until Ctrl-C)\n"
           "  --threads T          threads for the tick, 0 = all cores (overrides sim.threads)\n"
           "  --bench              time the physics tick per thread count (no window, no sound)\n"
           "    --threads 1,2,4    thread counts to time (default 1, 2, 4, ... and the core count)\n"
           "    --steps N          timed steps per repeat (default: about 2e7 vertex-steps per scene)\n"
           "    --repeat R         timed repeats, median and min reported (default 5)\n"
           "    --csv FILE         write one row per scene and thread count as CSV\n"
           "    --json FILE        the same as JSON\n"
           "    --kernel reference time the plain serial reference tick instead\n"
           "    with --config or --set scene.*: time exactly that scene, else the standard suite\n"
           "  --dump FILE          write the final state summary as JSON ('-' = stdout)\n"
           "  --config FILE        read parameters from an INI file (default: ./dinghy.ini,\n"
           "                       else $XDG_CONFIG_HOME/dinghy/dinghy.ini or\n"
           "                       ~/.config/dinghy/dinghy.ini, else built-in defaults)\n"
           "  --set section.key=value   override one parameter (repeatable, after --config)\n"
           "  --print-config       print the effective configuration as INI and exit\n"
           "  --watch              with --headless: run in real time until --steps or Ctrl-C,\n"
           "                       applying every save of the config file (the demo always does)\n"
           "  --audio              headless: play sound, paced by the sound device (no card:\n"
           "                       one line says so and the run goes on silent)\n"
           "  --mute               silence all sound\n"
           "  --screenshot FILE.png  render offscreen after --steps N steps (default 0), write a PNG\n"
           "  --record DIR         write numbered PNG frames DIR/frame_00000.png ... (render.fps a second)\n"
           "  --video FILE.mp4     encode the frames to MP4 with ffmpeg (apt-get install ffmpeg)\n"
           "  --frames K           frames for --record / --video (default 150); the demo stops after K\n"
           "  --width W, --height H  picture or window size in pixels (override render.width/height)\n"
           "  demo keys: mouse drag orbit (left) / pan (right, middle), wheel zoom, F follow,\n"
           "             Space pause, N step, R reset, +/- speed, P screenshot, H/F1 help, Esc quit\n"
           "  --version            print the version and exit\n"
           "  --help               this text\n\n"
           "exit codes: 0 ok, 1 failed check, 2 usage or config error, 3 simulation blew up,\n"
           "            4 no display / GL failure\n\n"
           "scenes (scene.name; --bench times each at its suite's ring counts):\n", prog);
    for (int i = 0; i < scene_registry_count; i++)
        printf("  %-26s %s\n", scene_registry[i]->name, scene_registry[i]->description);
    printf("\nparameters (section.key, range, meaning):\n");
    for (int i = 0; i < param_table_count; i++) {
        char range[96];
        param_range_text(&param_table[i], range, sizeof range);
        printf("  %-26s %-34s %s\n", param_table[i].name, range, param_table[i].doc);
    }
}
