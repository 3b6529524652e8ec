/* Command-line parsing. */
#include "config/cli.h"

#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config/params_table.h"

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

/* The long options. getopt_long parses them; the table also names them for
 * did-you-mean and for "given twice". Abbreviations, which getopt_long
 * accepts, are refused (see cli_parse). */
enum {
    OPT_HELP = 'h',
    OPT_VERSION = 256, OPT_HEADLESS, OPT_PRINT_CONFIG, OPT_STEPS, OPT_THREADS, OPT_BENCH,
    OPT_REPEAT, OPT_CSV, OPT_JSON, OPT_KERNEL, OPT_DUMP, OPT_CONFIG, OPT_SET, OPT_WATCH,
    OPT_AUDIO, OPT_MUTE, OPT_SCREENSHOT, OPT_RECORD, OPT_VIDEO, OPT_FRAMES, OPT_WIDTH,
    OPT_HEIGHT, OPT_OBJ, OPT_INPUT,
};

static const struct option long_options[] = {
    {"help", no_argument, NULL, OPT_HELP},
    {"version", no_argument, NULL, OPT_VERSION},
    {"headless", no_argument, NULL, OPT_HEADLESS},
    {"print-config", no_argument, NULL, OPT_PRINT_CONFIG},
    {"steps", required_argument, NULL, OPT_STEPS},
    {"threads", required_argument, NULL, OPT_THREADS},
    {"bench", no_argument, NULL, OPT_BENCH},
    {"repeat", required_argument, NULL, OPT_REPEAT},
    {"csv", required_argument, NULL, OPT_CSV},
    {"json", required_argument, NULL, OPT_JSON},
    {"kernel", required_argument, NULL, OPT_KERNEL},
    {"dump", required_argument, NULL, OPT_DUMP},
    {"config", required_argument, NULL, OPT_CONFIG},
    {"set", required_argument, NULL, OPT_SET},
    {"watch", no_argument, NULL, OPT_WATCH},
    {"audio", no_argument, NULL, OPT_AUDIO},
    {"mute", no_argument, NULL, OPT_MUTE},
    {"screenshot", required_argument, NULL, OPT_SCREENSHOT},
    {"record", required_argument, NULL, OPT_RECORD},
    {"video", required_argument, NULL, OPT_VIDEO},
    {"frames", required_argument, NULL, OPT_FRAMES},
    {"width", required_argument, NULL, OPT_WIDTH},
    {"height", required_argument, NULL, OPT_HEIGHT},
    {"obj", required_argument, NULL, OPT_OBJ},
    {"input", required_argument, NULL, OPT_INPUT},
    {NULL, 0, NULL, 0},
};
#define NOPTIONS ((int)(sizeof long_options / sizeof long_options[0]) - 1)

static int option_index_of(int val)
{
    for (int i = 0; i < NOPTIONS; i++)
        if (long_options[i].val == val)
            return i;
    return -1;
}

/* "unknown option", with the likely flag meant: a typo, or --flag=value of
 * a flag that takes no value. */
static void unknown_option(const char *a, diag_list *d)
{
    const char *eq = strchr(a, '=');
    char name[64];
    snprintf(name, sizeof name, "%.*s", eq ? (int)(eq - a) : (int)strlen(a), a);
    const char *best = NULL;
    int best_d = 3; /* at most two edits away */
    char flag[32];
    for (int i = 0; i < NOPTIONS; i++) {
        snprintf(flag, sizeof flag, "--%s", long_options[i].name);
        int dist = param_edit_distance(name, flag);
        if (dist < best_d) {
            best_d = dist;
            best = long_options[i].name;
        }
    }
    if (best)
        diag_add(d, "unknown option '%s'; did you mean '--%s'?", a, best);
    else
        diag_add(d, "unknown option '%s' (see --help)", a);
}

static int has_suffix(const char *s, const char *suffix)
{
    size_t n = strlen(s), k = strlen(suffix);
    return n > k && !strcmp(s + n - k, suffix);
}

/* One flag's value into o. */
static void take_option(int c, const char *val, cli_options *o, diag_list *d)
{
    switch (c) {
    case OPT_HELP: o->help = 1; break;
    case OPT_VERSION: o->version = 1; break;
    case OPT_HEADLESS: o->mode = MODE_HEADLESS; break;
    case OPT_BENCH: o->mode = MODE_BENCH; break;
    case OPT_PRINT_CONFIG: o->print_config = 1; break;
    case OPT_WATCH: o->watch = 1; break;
    case OPT_AUDIO: o->audio = 1; break;
    case OPT_MUTE: o->mute = 1; break;
    case OPT_STEPS:
        if (parse_long(val, 0, 1000000000L, &o->steps))
            diag_add(d, "--steps '%s': expected a whole number from 0 to 1000000000", val);
        break;
    case OPT_THREADS:
        if (parse_thread_list(val, o) != 0)
            diag_add(d, "--threads '%s': expected a whole number from 0 (all cores) to 1024, "
                     "or with --bench a list like 1,2,4 (at most %d)", val, CLI_MAX_THREAD_COUNTS);
        break;
    case OPT_REPEAT: {
        long r;
        if (parse_long(val, 1, 1000, &r))
            diag_add(d, "--repeat '%s': expected a whole number from 1 to 1000", val);
        else
            o->repeat = (int)r;
        break;
    }
    case OPT_CSV: o->csv = val; break;
    case OPT_JSON: o->json = val; break;
    case OPT_KERNEL:
        if (!strcmp(val, "reference"))
            o->reference_kernel = 1;
        else if (strcmp(val, "tick") != 0)
            diag_add(d, "--kernel '%s': expected tick or reference", val);
        break;
    case OPT_DUMP: o->dump = val; break;
    case OPT_CONFIG: o->config = val; break;
    case OPT_SET: o->sets[o->nsets++] = val; break;
    case OPT_SCREENSHOT:
        if (!has_suffix(val, ".png"))
            diag_add(d, "--screenshot '%s': the file name must end in .png", val);
        o->screenshot = val;
        break;
    case OPT_RECORD: o->record = val; break;
    case OPT_INPUT: o->input = val; break;
    case OPT_OBJ:
        if (!has_suffix(val, ".obj"))
            diag_add(d, "--obj '%s': the file name must end in .obj", val);
        o->obj = val;
        break;
    case OPT_VIDEO:
        if (!has_suffix(val, ".mp4"))
            diag_add(d, "--video '%s': the file name must end in .mp4", val);
        o->video = val;
        break;
    case OPT_FRAMES:
        if (parse_long(val, 1, 1000000L, &o->frames))
            diag_add(d, "--frames '%s': expected a whole number from 1 to 1000000", val);
        break;
    case OPT_WIDTH:
    case OPT_HEIGHT: {
        long px;
        const char *flag = c == OPT_WIDTH ? "--width" : "--height";
        if (parse_long(val, 16, 16384, &px))
            diag_add(d, "%s '%s': expected a whole number of pixels from 16 to 16384", flag, val);
        else
            *(c == OPT_WIDTH ? &o->width : &o->height) = (int)px;
        break;
    }
    default:
        break;
    }
}

/* Flags that are accepted but would do nothing in the mode asked for. */
static void check_combinations(const cli_options *o, diag_list *d)
{
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
    if (o->obj && !((o->mode == MODE_HEADLESS && !o->watch) || (o->mode == MODE_DEMO && pictures)))
        diag_add(d, "--obj writes the final meshes of a --headless run (not --watch) or of "
                 "--screenshot, --record or --video");
    if (pictures && o->mode != MODE_DEMO)
        diag_add(d, "--%s draws nothing: leave it out to use --screenshot, --record or --video",
                 o->mode == MODE_BENCH ? "bench" : "headless");
    if (o->input && o->mode != MODE_DEMO)
        diag_add(d, "--input replays mouse and keys into the demo, --screenshot, --record or "
                 "--video: not with --%s", o->mode == MODE_BENCH ? "bench" : "headless");
    if (o->frames >= 0 && o->mode != MODE_DEMO)
        diag_add(d, "--frames counts pictures: use --steps N with --%s",
                 o->mode == MODE_BENCH ? "bench" : "headless");
    else if (o->frames >= 0 && o->screenshot && !o->record && !o->video)
        diag_add(d, "--frames does nothing with --screenshot (one picture after --steps N steps); "
                 "use --record DIR or --video FILE.mp4 for frames");
    if (o->steps >= 0 && o->mode == MODE_DEMO && !pictures && !o->print_config)
        diag_add(d, "--steps does nothing in the demo (it runs until closed; --frames K stops it); "
                 "use it with --headless, --bench or --screenshot");
    if (o->mute && (pictures || o->mode == MODE_BENCH || (o->mode == MODE_HEADLESS && !o->audio)))
        diag_add(d, "--mute does nothing here: %s plays no sound", pictures ? "--screenshot, --record "
                 "or --video" : o->mode == MODE_BENCH ? "--bench" : "--headless without --audio");
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
    int before = d->count, given[NOPTIONS];
    memset(given, 0, sizeof given);
    /* '-': words that are no flag come back as 1 (and are refused), in
     * order; ':': a missing value comes back as ':'; we print the errors. */
    opterr = 0;
    optind = 0; /* glibc: start afresh (cli_parse may run more than once) */
    for (;;) {
        int at = optind ? optind : 1, index = -1;
        int c = getopt_long(argc, argv, "-:h", long_options, &index);
        if (c == -1)
            break;
        const char *word = argv[at < argc ? at : argc - 1];
        if (c == 1) {
            unknown_option(optarg, d);
            continue;
        }
        if (c == '?') {
            if (optopt && optopt != '?' && option_index_of(optopt) >= 0 && optopt != OPT_HELP)
                diag_add(d, "--%s takes no value: '%s'", long_options[option_index_of(optopt)].name,
                         word);
            else if (optopt && optopt < 256 && word[1] != '-')
                unknown_option((char[]){'-', (char)optopt, '\0'}, d);
            else
                unknown_option(word, d);
            continue;
        }
        if (c == ':') {
            int i = option_index_of(optopt);
            diag_add(d, "%s needs a value (see --help)", i >= 0 && optopt != OPT_HELP ?
                     word : "this flag");
            continue;
        }
        if (index < 0)
            index = option_index_of(c);
        /* getopt_long takes a unique prefix (--head for --headless): a flag
         * added later would change what it means, so only whole names. */
        if (word[0] == '-' && word[1] == '-') {
            size_t n = strcspn(word + 2, "=");
            if (strlen(long_options[index].name) != n
                || strncmp(word + 2, long_options[index].name, n) != 0) {
                diag_add(d, "unknown option '%.*s'; did you mean '--%s'? (write flags in full)",
                         (int)n + 2, word, long_options[index].name);
                continue;
            }
        }
        if (given[index]++ && c != OPT_SET) {
            diag_add(d, "--%s given twice; give each flag once (only --set repeats)",
                     long_options[index].name);
            continue;
        }
        if ((c == OPT_HEADLESS && given[option_index_of(OPT_BENCH)])
            || (c == OPT_BENCH && given[option_index_of(OPT_HEADLESS)])) {
            diag_add(d, "--headless and --bench are two modes; choose one");
            continue;
        }
        take_option(c, optarg, o, d);
    }
    if (d->count == before)
        check_combinations(o, d);
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
           "  --steps N            steps of sim.dt to simulate (headless default: 1 s of\n"
           "                       simulated time, 3 s for pile; --watch: until Ctrl-C)\n"
           "  --threads T          threads for the tick, 0 = all cores or one, whichever is faster\n"
           "                       (overrides sim.threads)\n"
           "  --bench              time the physics tick per thread count (no window, no sound)\n"
           "    --threads 1,2,4    thread counts to time (default 1, 2, 4, ... and the core count)\n"
           "    --steps N          timed steps per repeat (default: about 2e7 vertex-substeps per scene)\n"
           "    --repeat R         timed repeats, median and min reported (default 5)\n"
           "    --csv FILE         write one row per scene and thread count as CSV\n"
           "    --json FILE        the same as JSON\n"
           "    --kernel reference time the plain serial reference tick instead\n"
           "    it reads the config file as every mode does; with --set scene.* or a file that\n"
           "    sets scene.*: time exactly that scene, else the standard suite (units: docs/benchmarks.md)\n"
           "  --dump FILE          write the final state summary as JSON ('-' = stdout)\n"
           "  --obj FILE.obj       write the final ring meshes as Wavefront OBJ (headless or\n"
           "                       pictures; with --record also DIR/frame_00000.obj ... per frame)\n"
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
           "  --profile            the demo: time each drawing pass, mean ms a frame in the exit summary\n"
           "  --input FILE         replay timed keys, buttons and cursor moves from FILE in the\n"
           "                       demo or the pictures (format: docs/guide/playing.md)\n"
           "  demo mouse: left drag a ring to grab it (Shift: along the water), let go to throw;\n"
           "             right drag orbit, middle or Shift + right drag pan, wheel zoom\n"
           "  demo keys:  D drop a ring in at the cursor, X take the one under it out, K puncture\n"
           "             it there (Shift+K: burst it), Tab tuning panel (Up/Down, Left/Right,\n"
           "             Shift x10, S save), F follow, C free camera, Space pause, N step,\n"
           "             R reset, +/- speed,\n"
           "             P screenshot, H/F1 help, Esc quit\n"
           "  --version            print the version and exit\n"
           "  --help               this text\n"
           "flags are written in full; a value follows after a space or '=' (--steps=500);\n"
           "each flag may be given once, --set as often as needed\n\n"
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
