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
        } else if (!strcmp(a, "--steps")) {
            NEED_VALUE();
            if (parse_long(val, 0, 1000000000L, &o->steps))
                diag_add(d, "--steps '%s': expected a whole number from 0 to 1000000000", val);
        } else if (!strcmp(a, "--threads")) {
            NEED_VALUE();
            long t;
            if (parse_long(val, 0, 1024, &t))
                diag_add(d, "--threads '%s': expected a whole number from 0 (all cores) to 1024", val);
            else
                o->threads = (int)t;
        } else if (!strcmp(a, "--dump")) {
            NEED_VALUE();
            o->dump = val;
        } else if (!strcmp(a, "--config")) {
            NEED_VALUE();
            o->config = val;
        } else if (!strcmp(a, "--set")) {
            NEED_VALUE();
            o->sets[o->nsets++] = val;
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
            diag_add(d, "unknown option '%s' (see --help)", a);
        }
#undef NEED_VALUE
    }
    int pictures = o->screenshot || o->record || o->video;
    if (pictures && o->mode == MODE_HEADLESS)
        diag_add(d, "--headless draws nothing: leave it out to use --screenshot, --record or --video");
    if (o->frames >= 0 && o->mode == MODE_HEADLESS)
        diag_add(d, "--frames counts pictures: use --steps N with --headless");
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
           "  --headless           simulate without window or sound, print a summary\n"
           "  --steps N            steps to simulate (headless default 1000)\n"
           "  --threads T          threads for the tick, 0 = all cores (overrides sim.threads)\n"
           "  --dump FILE          write the final state summary as JSON ('-' = stdout)\n"
           "  --config FILE        read parameters from an INI file\n"
           "  --set section.key=value   override one parameter (repeatable, after --config)\n"
           "  --print-config       print the effective configuration as INI and exit\n"
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
           "parameters (section.key, range, meaning):\n", prog);
    for (int i = 0; i < param_table_count; i++) {
        char range[96];
        param_range_text(&param_table[i], range, sizeof range);
        printf("  %-26s %-34s %s\n", param_table[i].name, range, param_table[i].doc);
    }
}
