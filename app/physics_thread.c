/* The physics thread: steps on schedule, hands between steps, states
 * handed off. Everything shared with the demo's thread is under `lock`;
 * the simulation is the thread's between pauses, the demo's during one. */
#include "app/physics_thread.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "dinghy/health.h"

typedef physics_thread_hands_frame hands_frame;

struct physics_thread {
    pthread_t thread;
    pthread_mutex_t lock;
    pthread_cond_t wake;    /* the thread waits on it: a request, hands, or its next step */
    pthread_cond_t parked;  /* the demo waits on it for a pause */
    handoff off;
    /* the thread's own between pauses */
    dinghy_sim *sim;
    physics_thread_hooks hooks;
    char note[sizeof ((physics_thread_status *)0)->note];
    hands_frame todo[PHYSICS_THREAD_HANDS]; /* taken from `hands` to apply */
    /* shared, under lock */
    hands_frame hands[PHYSICS_THREAD_HANDS];
    int nhands;
    int quit, pause_asked, is_parked, republish;
    double speed;           /* simulated s per wall s */
    int paused, single;     /* the user's pause; steps still to take while paused */
    double due;             /* wall time the next step is due, s (< 0: now) */
    physics_thread_status status;
};

/* Monotonic wall time, s. */
static double wall_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* Waits on t->wake until woken, or until wall time `until` (s) when it is
 * not negative. */
static void wait_until(physics_thread *t, double until)
{
    if (until < 0.0) {
        pthread_cond_wait(&t->wake, &t->lock);
        return;
    }
    struct timespec ts;
    ts.tv_sec = (time_t)until;
    ts.tv_nsec = (long)((until - (double)ts.tv_sec) * 1e9);
    if (ts.tv_nsec >= 1000000000L)
        ts.tv_nsec = 999999999L;
    pthread_cond_timedwait(&t->wake, &t->lock, &ts);
}

/* Under lock: 1 when a step is due now; else the wall time to wait until
 * in *until (-1: until woken). */
static int step_due(physics_thread *t, double now, double *until)
{
    *until = -1.0;
    if (t->status.blew_up)
        return 0;
    if (t->single > 0) {
        t->single--;
        return 1;
    }
    if (t->paused)
        return 0;
    if (t->due < 0.0)
        t->due = now;
    if (now >= t->due)
        return 1;
    *until = t->due;
    return 0;
}

/* Under lock, after a step that took `spent` s and ended at `now`: the
 * next one's due time, forgiving a lag the physics cannot catch up. */
static void step_done(physics_thread *t, double now, double spent)
{
    t->status.steps++;
    t->status.step_wall += spent;
    t->status.threads = sim_step_threads(t->sim);
    if (t->paused)
        return;
    t->due += sim_get_def(t->sim)->solver.dt / t->speed;
    if (now - t->due > PHYSICS_THREAD_MAX_LAG)
        t->due = now; /* behind: simulated time slows */
}

/* Outside the lock: the hands, then (when `step`) one step, then the
 * state handed off. Returns the wall time the step took, s; sets *blew. */
static double work(physics_thread *t, int nhands, int step, int *blew)
{
    for (int i = 0; t->hooks.hands && i < nhands; i++)
        t->hooks.hands(t->hooks.ctx, t->sim, &t->todo[i], t->note, sizeof t->note);
    double t0 = wall_now();
    /* every call, even of no steps, hands out only its own events */
    sim_step(t->sim, step ? 1 : 0);
    double spent = wall_now() - t0;
    *blew = step && sim_blowup(t->sim).happened;
    if (*blew) /* a blown-up state is not shown: the demo rolls back */
        return spent;
    if (step && t->hooks.stepped)
        t->hooks.stepped(t->hooks.ctx, t->sim);
    if (step && t->hooks.hands) /* what the hands hold changes with the step */
        t->hooks.hands(t->hooks.ctx, t->sim, NULL, t->note, sizeof t->note);
    sim_snapshot_take(t->sim, handoff_begin_write(&t->off));
    handoff_publish(&t->off);
    return spent;
}

static void *thread_main(void *arg)
{
    physics_thread *t = arg;
    pthread_mutex_lock(&t->lock);
    while (!t->quit) {
        if (t->pause_asked) {
            t->is_parked = 1;
            pthread_cond_broadcast(&t->parked);
            pthread_cond_wait(&t->wake, &t->lock);
            continue;
        }
        t->is_parked = 0;
        if (t->status.blew_up) { /* nothing more on a blown-up state: the demo rolls back */
            t->nhands = 0;
            pthread_cond_wait(&t->wake, &t->lock);
            continue;
        }
        double until, now = wall_now();
        int step = step_due(t, now, &until);
        int nhands = t->nhands;
        if (!step && !nhands && !t->republish) {
            wait_until(t, until);
            continue;
        }
        memcpy(t->todo, t->hands, (size_t)nhands * sizeof *t->hands);
        t->nhands = 0;
        t->republish = 0;
        pthread_mutex_unlock(&t->lock);
        int blew;
        double spent = work(t, nhands, step, &blew);
        pthread_mutex_lock(&t->lock);
        if (step)
            step_done(t, wall_now(), spent);
        t->status.blew_up |= blew;
        memcpy(t->status.note, t->note, sizeof t->status.note);
    }
    pthread_mutex_unlock(&t->lock);
    return NULL;
}

physics_thread *physics_thread_start(dinghy_sim *sim, const physics_thread_hooks *hooks,
                                     char *err, size_t err_len)
{
    physics_thread *t = calloc(1, sizeof *t);
    if (!t || handoff_init(&t->off, sim) != 0) {
        snprintf(err, err_len, "out of memory for the physics thread");
        free(t);
        return NULL;
    }
    t->sim = sim;
    t->hooks = *hooks;
    t->speed = 1.0;
    t->due = -1.0;
    t->republish = 1; /* the first state at once */
    pthread_condattr_t ca;
    pthread_condattr_init(&ca);
    pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
    pthread_mutex_init(&t->lock, NULL);
    pthread_cond_init(&t->wake, &ca);
    pthread_cond_init(&t->parked, NULL);
    pthread_condattr_destroy(&ca);
    if (pthread_create(&t->thread, NULL, thread_main, t) != 0) {
        snprintf(err, err_len, "cannot start the physics thread");
        pthread_cond_destroy(&t->wake);
        pthread_cond_destroy(&t->parked);
        pthread_mutex_destroy(&t->lock);
        handoff_free(&t->off);
        free(t);
        return NULL;
    }
    return t;
}

void physics_thread_stop(physics_thread *t)
{
    if (!t)
        return;
    pthread_mutex_lock(&t->lock);
    t->quit = 1;
    pthread_cond_signal(&t->wake);
    pthread_mutex_unlock(&t->lock);
    pthread_join(t->thread, NULL);
    pthread_cond_destroy(&t->wake);
    pthread_cond_destroy(&t->parked);
    pthread_mutex_destroy(&t->lock);
    handoff_free(&t->off);
    free(t);
}

void physics_thread_pause(physics_thread *t)
{
    pthread_mutex_lock(&t->lock);
    t->pause_asked = 1;
    pthread_cond_signal(&t->wake);
    while (!t->is_parked)
        pthread_cond_wait(&t->parked, &t->lock);
    pthread_mutex_unlock(&t->lock);
}

int physics_thread_resume(physics_thread *t, dinghy_sim *sim)
{
    int rc = 0;
    pthread_mutex_lock(&t->lock);
    if (sim != t->sim) { /* the reader holds nothing here: it is the caller */
        handoff_free(&t->off);
        if (handoff_init(&t->off, sim) != 0)
            rc = -1;
        t->sim = sim;
    } else {
        handoff_restart(&t->off);
    }
    if (rc == 0) {
        t->pause_asked = 0;
        t->republish = 1;
        t->status.blew_up = 0;
        t->due = -1.0;
        t->nhands = 0; /* made against the state before */
        pthread_cond_signal(&t->wake);
    }
    pthread_mutex_unlock(&t->lock);
    return rc;
}

void physics_thread_clock(physics_thread *t, double speed, int paused, int single_steps)
{
    pthread_mutex_lock(&t->lock);
    int changed = speed != t->speed || paused != t->paused || single_steps > 0;
    if (speed != t->speed && t->due >= 0.0) /* the wait still to go, at the new speed */
        t->due = wall_now() + (t->due - wall_now()) * t->speed / speed;
    if (paused != t->paused)
        t->due = -1.0;
    t->speed = speed;
    t->paused = paused;
    t->single += single_steps;
    if (changed)
        pthread_cond_signal(&t->wake);
    pthread_mutex_unlock(&t->lock);
}

/* Whether a frame's actions hold anything for the hands. */
static int any_hands(const input_actions *a)
{
    return a->grab_press || a->grabbing || a->grab_release || a->drop || a->remove
        || a->puncture || a->burst;
}

/* A drag alone (the button held, nothing else) while the last queued
 * frame is a drag too: that one moves to this frame's cursor instead of
 * queuing another. */
static int folds_into(const input_actions *a, const hands_frame *last)
{
    return a->grabbing && !a->grab_press && !a->grab_release && !a->drop && !a->remove
        && !a->puncture && !a->burst && last->a.grabbing && !last->a.grab_release;
}

void physics_thread_hands(physics_thread *t, const physics_thread_hands_frame *f)
{
    if (!any_hands(&f->a))
        return;
    pthread_mutex_lock(&t->lock);
    hands_frame *last = t->nhands > 0 ? &t->hands[t->nhands - 1] : NULL;
    if (last && folds_into(&f->a, last))
        *last = *f;
    else if (t->nhands < PHYSICS_THREAD_HANDS) {
        t->hands[t->nhands++] = *f;
    }
    pthread_cond_signal(&t->wake);
    pthread_mutex_unlock(&t->lock);
}

/* Called between pause and resume: the thread does not touch its note then. */
void physics_thread_clear_note(physics_thread *t)
{
    t->note[0] = '\0';
    pthread_mutex_lock(&t->lock);
    t->status.note[0] = '\0';
    pthread_mutex_unlock(&t->lock);
}

void physics_thread_status_get(physics_thread *t, physics_thread_status *st)
{
    pthread_mutex_lock(&t->lock);
    *st = t->status;
    pthread_mutex_unlock(&t->lock);
}

handoff *physics_thread_handoff(physics_thread *t) { return &t->off; }
