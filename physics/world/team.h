/* How many threads a step runs with (docs/physics.md section 1, "The
 * team"). Private to the physics core. */
#ifndef DINGHY_TEAM_H
#define DINGHY_TEAM_H

/* The choice between one thread and all of them, when the simulation was
 * asked for "all cores" (sim.threads = 0): another program on one core
 * stalls every barrier of a two-thread tick, and then one thread is
 * faster. The bits do not depend on the choice. */
typedef struct {
    int adapt;          /* 1: choose; 0: always the set count */
    int current;        /* threads of the steps between probes */
    double mean[2];     /* recent wall seconds a step on one thread, on all (0: unknown) */
    long next_probe;    /* the step the next probe of the other count starts on */
    long every;         /* steps from one probe to the next */
    double at_probe;    /* the current count's mean step when last chosen, s */
    int probe_left;     /* steps left of the probe under way (0: none) */
    double probe_sum;   /* its steps' seconds so far (its first step is not counted) */
    int probe_counted;  /* its steps counted */
    int warm;           /* the first step was recorded (and not counted) */
} thread_team;

/* A team for `threads` (>= 1) threads; adapt as above. */
void team_init(thread_team *t, int threads, int adapt);

/* Threads for the step numbered `step`, out of `threads`. */
int team_for_step(thread_team *t, int threads, long step);

/* Records that the step numbered `step` took `seconds` (wall) on `used`
 * threads out of `threads`. */
void team_record(thread_team *t, int threads, long step, int used, double seconds);

#endif
