/* The demo's physics on a thread of its own: it steps the simulation at
 * its fixed rate against the wall clock (times the asked speed), applies
 * the hands between steps, and hands each finished state to the renderer
 * through a hand-off (app/handoff.h), so that neither the physics nor the
 * drawing waits for the other. The tick's OpenMP team lives inside this
 * thread. When a step takes longer than real time allows, the thread
 * forgives what it cannot catch up (simulated time then runs slower than
 * real time; app/display_clock.h shows it smoothly).
 *
 * Between physics_thread_pause and physics_thread_resume the thread waits
 * between two steps and the caller may use the simulation (and the
 * settings and the rollback guard) as its own: a reload, a panel edit, a
 * reset, a rollback. Waiting threads block on condition variables. */
#ifndef DINGHY_PHYSICS_THREAD_H
#define DINGHY_PHYSICS_THREAD_H

#include "app/handoff.h"
#include "app/pointer.h"
#include "app/reload.h"

/* Wall time the physics may fall behind its schedule before the rest is
 * forgiven (simulated time slows instead of the steps bunching up), s. */
#define PHYSICS_THREAD_MAX_LAG 0.05
/* Frames of hands the thread keeps until its next step boundary. */
#define PHYSICS_THREAD_HANDS 32

typedef struct physics_thread physics_thread;

/* What the thread reports, for the HUD and the summary. */
typedef struct {
    long steps;          /* steps done since the start */
    double step_wall;    /* wall time spent in them, s */
    int blew_up;         /* the last step blew up: the thread steps no more until resumed */
    char note[160];      /* what the hands did last (pointer_state's note) */
} physics_thread_status;

/* Starts the thread on sim (not stepped by anyone else until
 * physics_thread_stop), saving good states into guard with the settings s
 * (both read by the thread between pauses). Returns NULL with a message in
 * err when out of memory or no thread can be made. */
physics_thread *physics_thread_start(dinghy_sim *sim, reload_guard *guard,
                                     const dinghy_settings *s, char *err, size_t err_len);
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

/* Queues this frame's hands (grab, drag, throw, drop in, take out,
 * puncture, burst: pointer_frame) to act at the next step boundary, with
 * the camera and the w x h viewport they were made in; step_time: the
 * simulated time a frame advances (s), over which a drag is spread.
 * The thread wakes for them at once. */
void physics_thread_hands(physics_thread *t, const input_actions *a, const orbit_camera *camera,
                          int w, int h, double step_time);
/* Lets go of whatever the hands hold and forgets their note (a reset);
 * between pause and resume only. */
void physics_thread_hands_reset(physics_thread *t);

void physics_thread_status_get(physics_thread *t, physics_thread_status *st);

/* The hand-off the renderer reads the finished states from. */
handoff *physics_thread_handoff(physics_thread *t);

#endif
