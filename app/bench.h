/* The benchmark: how the physics tick scales with threads. */
#ifndef DINGHY_BENCH_H
#define DINGHY_BENCH_H

#include "dinghy/defs.h"
#include "dinghy/scene.h"

typedef struct {
    const int *threads;   /* thread counts to time; NULL = 1, 2, 4, ... and the core count */
    int nthreads;
    long steps;           /* timed steps per repeat; <= 0 = about 2e7 vertex-steps */
    int repeat;           /* timed repeats per thread count; median and min reported */
    int custom_scene;     /* 1: time only the layout's scene; 0: the suite of the scene registry */
    int reference;        /* 1: time the serial reference tick instead */
    const char *csv;      /* CSV output file or NULL */
    const char *json;     /* JSON output file or NULL */
    const char *settings; /* one line: where the settings come from and every key that
                             differs from the documented defaults (for the header) */
} bench_options;

/* Runs the benchmark, prints tables to stdout. Returns the exit code:
 * 0 ok, 1 a state hash differed between thread counts, 2 an output file
 * could not be written, 3 a scene blew up. */
int bench_run(const sim_def *def, const scene_def *layout, const bench_options *opt);

#endif
