/* The team of threads a step runs with; see team.h. */
#include "physics/world/team.h"

/* Steps between probes of the other count (1 s at the 60 Hz step), steps
 * a probe lasts (the first warms the caches and is not counted), and how
 * much faster one thread must be to be kept: measured steps vary with
 * what the rings do, so one thread wins only by 5% (with another program
 * busy on a core, 2 threads on the rapids took 9% longer than 1). */
#define TEAM_PROBE_EVERY 60
/* While all threads keep winning, the probes of one thread (each costs
 * its steps' slowness) come ever less often, up to every 8 s; a current
 * mean step TEAM_SLOWER times the one chosen on (another program taking
 * a core) probes at once. */
#define TEAM_PROBE_MAX 480
/* One thread winning backs off too, less far (up to 4 s): each probe of
 * all threads while a core is taken cost a few slow steps every second
 * (2-7% of a 5 s run), and the other program's end is seen within 4 s. */
#define TEAM_PROBE_MAX_ONE 240
/* A probe whose first step already takes this many times the current
 * count's mean step has lost: it ends there. With a core taken a
 * two-thread step of the rapids took 1.2-1.5 times a one-thread one and
 * each further step of the probe cost as much again; an idle machine's
 * first two-thread step, caches cold, takes 0.8 of a one-thread one, and
 * its first one-thread step 1.7 of a two-thread one. */
#define TEAM_PROBE_LOSES 1.15
#define TEAM_SLOWER 1.25
#define TEAM_PROBE_STEPS 4
/* The first probe comes after two counted steps: the team's first step
 * (caches cold, pages first touched: 39-75 ms against 6-12 for the
 * next on the rapids) is not counted, else it made the current count look
 * slow and the first probe chose one thread on an idle machine. */
#define TEAM_FIRST_PROBE 3
#define TEAM_ONE_WINS 0.95
/* Weight of the newest step in the running mean of the current count. */
#define TEAM_NEW 0.25

void team_init(thread_team *t, int threads, int adapt)
{
    *t = (thread_team){0};
    t->adapt = adapt && threads > 1;
    t->current = threads;
    t->next_probe = TEAM_FIRST_PROBE;
    t->every = TEAM_PROBE_EVERY;
}

int team_for_step(thread_team *t, int threads, long step)
{
    if (!t->adapt || threads <= 1)
        return threads;
    if (t->probe_left == 0 && step >= t->next_probe) {
        t->probe_left = TEAM_PROBE_STEPS;
        t->probe_sum = 0.0;
        t->probe_counted = 0;
    }
    const int other = t->current == 1 ? threads : 1;
    return t->probe_left > 0 ? other : t->current;
}

void team_record(thread_team *t, int threads, long step, int used, double seconds)
{
    if (!t->adapt || threads <= 1 || !(seconds >= 0.0))
        return;
    if (!t->warm) { /* the first step: cold, not counted */
        t->warm = 1;
        return;
    }
    const int k = used == 1 ? 0 : 1;
    if (t->probe_left == 0) { /* a step of the current count */
        t->mean[k] = t->mean[k] > 0.0 ? (1.0 - TEAM_NEW) * t->mean[k] + TEAM_NEW * seconds
                                      : seconds;
        if (k == 1 && t->at_probe > 0.0 && t->mean[1] > TEAM_SLOWER * t->at_probe
            && t->next_probe > step + 1)
            t->next_probe = step + 1;
        return;
    }
    const double now = t->mean[t->current == 1 ? 0 : 1];
    if (t->probe_left == TEAM_PROBE_STEPS && now > 0.0 && seconds > TEAM_PROBE_LOSES * now) {
        t->probe_left = 0; /* lost at once: no more slow steps */
        t->mean[k] = seconds;
        const long cap = t->current == 1 ? TEAM_PROBE_MAX_ONE : TEAM_PROBE_MAX;
        t->every = 2 * t->every < cap ? 2 * t->every : cap;
        t->next_probe = step + t->every;
        return;
    }
    if (t->probe_left < TEAM_PROBE_STEPS) { /* not the probe's first step */
        t->probe_sum += seconds;
        t->probe_counted++;
    }
    if (--t->probe_left > 0)
        return;
    t->mean[k] = t->probe_sum / t->probe_counted;
    const int before = t->current;
    if (t->mean[0] > 0.0 && t->mean[1] > 0.0)
        t->current = t->mean[0] < TEAM_ONE_WINS * t->mean[1] ? 1 : threads;
    const long cap = t->current == 1 ? TEAM_PROBE_MAX_ONE : TEAM_PROBE_MAX;
    const long longer = 2 * t->every < cap ? 2 * t->every : cap;
    t->every = t->current == before ? longer : TEAM_PROBE_EVERY;
    t->next_probe = step + t->every;
    t->at_probe = t->mean[t->current == 1 ? 0 : 1];
}
