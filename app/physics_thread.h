/* The demo's physics on a thread of its own: it steps the simulation at
 * its fixed rate against the wall clock (times the asked speed), applies
 * the hands between steps (through the caller's hook: it knows nothing of
 * pointers or rollbacks), and hands each finished state to the renderer
 * through a hand-off (app/handoff.h), so that neither the physics nor the
 * drawing waits for the other. The tick's OpenMP team lives inside this
 * thread. When a step takes longer than real time allows, the thread
 * forgives what it cannot catch up (simulated time then runs slower than
 * real time; app/display_clock.h shows it smoothly).
 *
 * Between physics_thread_pause and physics_thread_resume the thread waits
 * between two steps and the caller may use the simulation (and whatever
 * its hooks touch) as its own: a reload, a panel edit, a reset, a
 * rollback. Waiting threads block on condition variables. */
#ifndef DINGHY_PHYSICS_THREAD_H
#define DINGHY_PHYSICS_THREAD_H

#include "app/handoff.h"
#include "render/camera.h"
#include "render/input.h"

/* Wall time the physics may fall behind its schedule before the rest is
 * forgiven (simulated time slows instead of the steps bunching up), s. */
#define PHYSICS_THREAD_MAX_LAG 0.05
/* Frames of hands the thread keeps until its next step boundary. */
#define PHYSICS_THREAD_HANDS 32

typedef struct physics_thread physics_thread;

/* One frame's hands, as the demo's thread saw them. */
typedef struct {
    input_actions a;
    orbit_camera camera; /* the frame's camera */
    int w, h;            /* its viewport, pixels */
    double step_time;    /* simulated time a frame advances, s: a drag spreads over it */
} physics_thread_hands_frame;

/* What the caller does on the physics thread, with the simulation. */
typedef struct {
    /* Between steps: applies a frame's hands (NULL: none, after a step;
     * a note of what they do may change), and writes what they did into
     * note (note_len bytes; "" none) for the HUD. NULL: no hands. */
    void (*hands)(void *ctx, dinghy_sim *sim, const physics_thread_hands_frame *f, char *note,
                  size_t note_len);
    /* After every step that went well (a rollback's checkpoint). NULL: none. */
    void (*stepped)(void *ctx, dinghy_sim *sim);
    void *ctx;
} physics_thread_hooks;

/* What the thread reports, for the HUD and the summary. */
typedef struct {
    long steps;          /* steps done since the start */
    double step_wall;    /* wall time spent in them, s */
    int threads;         /* threads the last step ran on (the team's choice), 0 before one */
    int blew_up;         /* the last step blew up: the thread steps no more until resumed */
    char note[160];      /* what the hands did last (pointer_state's note) */
} physics_thread_status;

/* Starts the thread on sim (not stepped by anyone else until
 * physics_thread_stop) with the hooks (copied; their ctx is the thread's
 * between pauses). Returns NULL with a message in err when out of memory
 * or no thread can be made. */
physics_thread *physics_thread_start(dinghy_sim *sim, const physics_thread_hooks *hooks,
                                     char *err, size_t err_len);
/* Stops and joins the thread, frees it (not the simulation). */
void physics_thread_stop(physics_thread *t);

/* Blocks until the thread waits between steps; the caller then owns the
 * simulation until physics_thread_resume. */
void physics_thread_pause(physics_thread *t);
/* Lets the thread go on with sim (the same or a new one: a rebuilt scene,
 * a rollback); its next state starts a new run (no interpolation from
 * the old one) and a blow-up is cleared. Returns 0, or -1 when out of
 * memory for a new simulation's snapshots (the thread then stays paused). */
int physics_thread_resume(physics_thread *t, dinghy_sim *sim);

/* The clock: speed (simulated seconds per wall second), paused, and
 * single_steps more steps to take while paused. */
void physics_thread_clock(physics_thread *t, double speed, int paused, int single_steps);

/* Queues a frame's hands (grab, drag, throw, drop in, take out,
 * puncture, burst) for the hands hook at the next step boundary, when it
 * has any (a frame of a drag alone folds into a queued drag). The thread
 * wakes for them at once. */
void physics_thread_hands(physics_thread *t, const physics_thread_hands_frame *f);
/* Forgets the hands' note (a reset); between pause and resume only. */
void physics_thread_clear_note(physics_thread *t);

void physics_thread_status_get(physics_thread *t, physics_thread_status *st);

/* The hand-off the renderer reads the finished states from. */
handoff *physics_thread_handoff(physics_thread *t);

#endif
