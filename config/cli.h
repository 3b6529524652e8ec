/* Command-line flags of the dinghy program. */
#ifndef DINGHY_CLI_H
#define DINGHY_CLI_H

#include "config/diag.h"

typedef enum { MODE_DEMO, MODE_HEADLESS, MODE_BENCH } run_mode;

#define CLI_MAX_THREAD_COUNTS 16

typedef struct {
    run_mode mode;
    long steps;             /* --steps, -1 when not given */
    int threads;            /* --threads (the first of the list), -1 when not given */
    int thread_counts[CLI_MAX_THREAD_COUNTS]; /* --threads 1,2,4 (bench), in order */
    int nthread_counts;
    int repeat;             /* --repeat (bench), -1 when not given */
    const char *csv, *json; /* --csv FILE, --json FILE (bench) */
    int reference_kernel;   /* --kernel reference (bench) */
    const char *dump;       /* --dump FILE ("-" = stdout), or NULL */
    const char *config;     /* --config FILE, or NULL */
    const char **sets;      /* --set assignments, in order */
    int nsets;
    int help, version, print_config;
    int watch;              /* --watch: a headless run follows saves of the config file */
    int audio;              /* --audio: a headless run plays sound */
    int mute;               /* --mute: sound plays silence */
    /* pictures (render/, app/capture.c) */
    const char *screenshot; /* --screenshot FILE.png, or NULL */
    const char *record;     /* --record DIR, or NULL */
    const char *obj;        /* --obj FILE.obj: the final meshes as OBJ, or NULL */
    const char *video;      /* --video FILE.mp4, or NULL */
    long frames;            /* --frames K, -1 when not given */
    const char *input;      /* --input FILE: scripted mouse and keys, or NULL */
    int width, height;      /* --width W, --height H (override render.*), -1 when not given */
} cli_options;

/* Parses argv into o; problems go to d, one line each. Returns 0 when the
 * command line is usable. cli_free releases o->sets. */
int cli_parse(int argc, char **argv, cli_options *o, diag_list *d);
void cli_free(cli_options *o);

/* Prints the usage text with every parameter key, range and meaning. */
void cli_print_help(const char *prog);

#endif
