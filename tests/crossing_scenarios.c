/* make check-contact: issue 46's "no skin through a skin" list, each
 * scene (tests/crossing_cases.h) run with the program's defaults and its
 * state checked every 0.1 s of simulated time (and at the start) by the
 * independent skin checker (tests/skin_check.h). One line per scene:
 * simulated seconds, samples; the most crossed triangle pairs in one
 * sample (and the most within one ring), in how many samples, first and
 * last seen; the same for vertices inside another ring's skin and for those
 * inside their own skin (the probe; reported, not a failure); wall
 * seconds (and the checker's share), and the status. The first offenders found are
 * named on a line below. Not part of make test: the full list takes
 * tens of minutes.
 *
 *   crossing_scenarios [--only NAME[,NAME...]] [--seconds S] [--threads N] [--list]
 *
 * --seconds S runs every scene for S simulated seconds instead of its
 * own time (a throw then comes at S/2). Exits 1 when any scene shows a
 * crossing, a vertex inside another ring or a blow-up, 2 on bad usage. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "dinghy/health.h"
#include "tests/crossing_cases.h"
#include "tests/skin_check.h"

#define SAMPLE_SECONDS 0.1

/* One kind of fault over a run: the most in one sample, in how many
 * samples, first and last seen. */
typedef struct {
    long most, self;    /* self: the most crossings within one ring in one sample */
    int samples;
    double first, last; /* s; first < 0: never */
} fault;

typedef struct {
    double seconds;       /* simulated, s */
    int samples;
    fault crossed, inside, own;
    char detail[512];     /* the first offenders of the first bad sample */
    int blew_up;
    char blowup[512];
    double wall, check_wall; /* s */
} outcome;

static void fault_add(fault *f, long count, long self, double t)
{
    if (!count)
        return;
    if (f->first < 0.0)
        f->first = t;
    f->last = t;
    f->samples++;
    f->most = count > f->most ? count : f->most;
    f->self = self > f->self ? self : f->self;
}

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* Checks the state and folds the report into o; -1 when the checker
 * runs out of memory. */
static int sample(const crossing_run *run, outcome *o)
{
    const skin_mesh mesh = crossing_mesh(run->sim);
    skin_report r;
    const double t0 = now(), t = sim_time(run->sim);
    if (skin_check(&mesh, SKIN_CHECK_ALL, &r) != 0)
        return -1;
    o->check_wall += now() - t0;
    o->samples++;
    if ((r.crossed || r.inside_other) && o->crossed.first < 0.0 && o->inside.first < 0.0) {
        char d[400];
        skin_report_describe(&r, d, sizeof d);
        snprintf(o->detail, sizeof o->detail, "t %.2f s: %s", t, d);
    }
    fault_add(&o->crossed, r.crossed, r.crossed_self, t);
    fault_add(&o->inside, r.inside_other, 0, t);
    fault_add(&o->own, r.inside_own, 0, t);
    return 0;
}

/* Runs case c and fills o; -1 when it cannot start or check. */
static int run_case(const crossing_case *c, double seconds, int threads, outcome *o)
{
    char err[256];
    crossing_run run;
    memset(o, 0, sizeof *o);
    o->crossed.first = o->inside.first = o->own.first = -1.0;
    const double t0 = now();
    if (crossing_start(&run, c, seconds, threads, err, sizeof err) != 0) {
        fprintf(stderr, "crossing_scenarios: %s: %s\n", c->name, err);
        return -1;
    }
    char what[256];
    crossing_describe(&run, what, sizeof what);
    printf("# %s: %s\n", c->name, what);
    fflush(stdout);
    const long every = crossing_steps(&run, SAMPLE_SECONDS), total = crossing_steps(&run, run.seconds);
    int rc = sample(&run, o);
    for (long k = 1; k <= total && rc == 0 && !o->blew_up; k++) {
        if (crossing_step(&run) != 1) {
            o->blew_up = 1;
            sim_blowup_message(run.sim, o->blowup, sizeof o->blowup);
        } else if (k % every == 0 || k == total) {
            rc = sample(&run, o);
        }
    }
    o->seconds = sim_time(run.sim);
    crossing_finish(&run);
    o->wall = now() - t0;
    if (rc != 0)
        fprintf(stderr, "crossing_scenarios: %s: the checker ran out of memory\n", c->name);
    return rc;
}

/* "0", or "most (self S) in K samples, first-last s". */
static void fault_text(char *buf, size_t len, const fault *f, int with_self)
{
    char self[32] = "";
    if (with_self)
        snprintf(self, sizeof self, " (self %ld)", f->self);
    if (f->most)
        snprintf(buf, len, "%ld%s in %d samples, %.1f-%.1f s", f->most, self, f->samples, f->first,
                 f->last);
    else
        snprintf(buf, len, "0");
}

/* One line for the case; 1 when it failed. */
static int report(const crossing_case *c, const outcome *o)
{
    char crossed[96], inside[96], own[96];
    fault_text(crossed, sizeof crossed, &o->crossed, 1);
    fault_text(inside, sizeof inside, &o->inside, 0);
    fault_text(own, sizeof own, &o->own, 0);
    const int bad = o->blew_up || o->crossed.most || o->inside.most;
    printf("%-12s %5.1f s %4d samples | crossed %s | inside %s | own %s | wall %.1f s (check "
           "%.1f s) | %s\n",
           c->name, o->seconds, o->samples, crossed, inside, own, o->wall, o->check_wall,
           o->blew_up ? "BLEW UP" : bad ? "FAIL" : "ok");
    if (o->detail[0])
        printf("%-12s first: %s\n", "", o->detail);
    if (o->blew_up)
        printf("%-12s blow-up: %s\n", "", o->blowup);
    fflush(stdout);
    return bad;
}

static int usage(void)
{
    fprintf(stderr, "usage: crossing_scenarios [--only NAME[,NAME...]] [--seconds S] "
                    "[--threads N] [--list]\nscenes:");
    for (int i = 0; i < crossing_case_count; i++)
        fprintf(stderr, " %s", crossing_cases[i].name);
    fprintf(stderr, "\n");
    return 2;
}

/* Marks the cases named in the comma-separated list; -1 on an unknown name. */
static int pick(char *list, int *chosen)
{
    for (char *name = strtok(list, ","); name; name = strtok(NULL, ",")) {
        const crossing_case *c = crossing_find(name);
        if (!c) {
            fprintf(stderr, "crossing_scenarios: no scene called '%s'\n", name);
            return -1;
        }
        chosen[c - crossing_cases] = 1;
    }
    return 0;
}

int main(int argc, char **argv)
{
    int chosen[64] = {0}, only = 0, threads = 0;
    double seconds = 0.0;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--only") == 0 && i + 1 < argc) {
            if (pick(argv[++i], chosen) != 0)
                return usage();
            only = 1;
        } else if (strcmp(argv[i], "--seconds") == 0 && i + 1 < argc) {
            seconds = atof(argv[++i]);
        } else if (strcmp(argv[i], "--threads") == 0 && i + 1 < argc) {
            threads = atoi(argv[++i]);
        } else if (strcmp(argv[i], "--list") == 0) {
            for (int k = 0; k < crossing_case_count; k++)
                printf("%s\n", crossing_cases[k].name);
            return 0;
        } else {
            return usage();
        }
    }
    int failed = 0;
    for (int i = 0; i < crossing_case_count; i++) {
        if (only && !chosen[i])
            continue;
        outcome o;
        if (run_case(&crossing_cases[i], seconds, threads, &o) != 0)
            return 1;
        failed += report(&crossing_cases[i], &o);
    }
    printf("crossing scenarios: %s (%d failed)\n", failed ? "FAIL" : "ok", failed);
    return failed ? 1 : 0;
}
